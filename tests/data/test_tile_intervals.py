"""Tile impact on the opponents: the placement is the observation, its opponents averaged.

Worked out directly from the `tile_impacts` view (a row per placed tile and seat), not from
the aggregates the queries read.
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict

import pytest

from data.reader import execute
from engine.stats import Z95


def _mean_and_half_width(values: list[float]) -> tuple[float, float]:
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, math.nan
    return mean, Z95 * statistics.stdev(values) / math.sqrt(len(values))


@pytest.fixture(scope="module")
def opponent_means(con) -> dict[tuple, float]:
    """Per placement (game, epoch, cell) with its tile and cell: its opponents' mean impact."""
    rows = execute(con, "SELECT game_id, epoch, cell, tile, placer, seat, impact FROM tile_impacts")
    impacts = defaultdict(list)
    for game_id, epoch, cell, tile, placer, seat, impact in rows.iter_rows():
        if seat != placer:
            impacts[(game_id, epoch, cell, tile)].append(impact)
    return {placement: statistics.fmean(values) for placement, values in impacts.items()}


def _by(opponent_means: dict[tuple, float], position: int) -> dict[str, tuple[float, float]]:
    groups = defaultdict(list)
    for placement, mean in opponent_means.items():
        groups[placement[position]].append(mean)
    return {key: _mean_and_half_width(values) for key, values in groups.items()}


def _check(got: tuple[float, float], expected: tuple[float, float]) -> None:
    if math.isnan(expected[1]):
        assert got[0] == pytest.approx(expected[0]) and got[1] is None
    else:
        assert got == pytest.approx(expected, rel=1e-9, abs=1e-12)


def test_tile_impact_on_each_opponent_is_over_placements(con, opponent_means) -> None:
    expected = _by(opponent_means, 3)
    frame = execute(con, "tile_impact")
    assert set(frame["tile"]) == set(expected)
    for tile, placements, impact, half in frame.select(
        "tile", "placements", "opponent_impact", "opponent_half_width"
    ).iter_rows():
        assert placements == sum(1 for p in opponent_means if p[3] == tile)
        _check((impact, half), expected[tile])


def _clustered_mean_and_half_width(by_game: dict[int, list[float]]) -> tuple[float, float]:
    """The mean of every value and its 95% half width with the game as the unit: the ratio
    estimator's variance G/(G-1) Σ_g (S_g - mean n_g)² / N² (docs/metrics.md)."""
    total = sum(sum(values) for values in by_game.values())
    count = sum(len(values) for values in by_game.values())
    mean, games = total / count, len(by_game)
    if games < 2:
        return mean, math.nan
    spread = sum((sum(values) - mean * len(values)) ** 2 for values in by_game.values())
    return mean, Z95 * math.sqrt(games / (games - 1) * spread) / count


def test_cell_tile_swing_on_the_opponents_is_over_placements_with_the_game_as_unit(
    con, opponent_means
) -> None:
    by_cell: dict[str, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    for (game_id, _, cell, _), mean in opponent_means.items():
        by_cell[cell][game_id].append(mean)
    frame = execute(con, "cell_tile_swing", {"perspective": "opponents", "pooled": False})
    for cell, value, observations, games, low, high in frame.select(
        "cell", "value", "observations", "games", "ci_low", "ci_high"
    ).iter_rows():
        mean, half = _clustered_mean_and_half_width(by_cell[cell])
        assert observations == sum(len(values) for values in by_cell[cell].values())
        assert games == len(by_cell[cell])
        assert value == pytest.approx(mean)
        assert (high - low) / 2 == pytest.approx(half, rel=1e-9)
