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


def test_cell_tile_swing_on_the_opponents_is_over_placements(con, opponent_means) -> None:
    expected = _by(opponent_means, 2)
    frame = execute(con, "cell_tile_swing", {"perspective": "opponents"})
    for cell, value, observations, low, high in frame.select(
        "cell", "value", "observations", "ci_low", "ci_high"
    ).iter_rows():
        mean, half = expected[cell]
        assert observations == sum(1 for p in opponent_means if p[2] == cell)
        assert value == pytest.approx(mean)
        assert (high - low) / 2 == pytest.approx(half, rel=1e-9)
