"""Tile impacts with the game as the unit: a placement's impact on the opponents is their mean,
and the placements of one game share its board and players, so the intervals are over games.

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


@pytest.fixture(scope="module")
def placements(con) -> list[dict]:
    """Every tile placed: its game, epoch, cell, tile, timing, how it was placed, its placer's
    agent, and its impact on the placer and its opponents' mean impact."""
    rows = execute(
        con,
        "SELECT t.game_id, t.epoch, t.cell, t.tile, t.timing, t.placed_by, s.agent, g.source, "
        "t.seat, t.placer, t.impact FROM tile_impacts t JOIN games g USING (game_id) "
        "JOIN seats s ON s.game_id = t.game_id AND s.seat = t.placer",
    )
    found: dict[tuple, dict] = {}
    for row in rows.iter_rows(named=True):
        placement = found.setdefault(
            (row["game_id"], row["epoch"], row["cell"]),
            {
                **{name: str(row[name]) for name in ("epoch", "timing")},
                "own": 0.0,
                "others": [],
                **{name: row[name] for name in ("game_id", "cell", "tile", "placed_by", "source")},
                "agent": row["agent"] or "people",
            },
        )
        if row["seat"] == row["placer"]:
            placement["own"] = float(row["impact"])
        else:
            placement["others"].append(row["impact"])
    for placement in found.values():
        placement["opponent"] = statistics.fmean(placement["others"])
        placement["net"] = placement["own"] - placement["opponent"]
    return list(found.values())


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
    con, placements
) -> None:
    by_cell: dict[str, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    for placement in placements:
        by_cell[placement["cell"]][placement["game_id"]].append(placement["opponent"])
    frame = execute(con, "cell_tile_swing", {"perspective": "opponents", "pooled": False})
    for cell, value, observations, games, low, high in frame.select(
        "cell", "value", "observations", "games", "ci_low", "ci_high"
    ).iter_rows():
        mean, half = _clustered_mean_and_half_width(by_cell[cell])
        assert observations == sum(len(values) for values in by_cell[cell].values())
        assert games == len(by_cell[cell])
        assert value == pytest.approx(mean)
        assert (high - low) / 2 == pytest.approx(half, rel=1e-9)


SPLITS = ["all", "epoch", "timing", "placed_by", "agent"]
MEASURES = {"own": "placer", "opponent": "opponent", "net": "net"}


@pytest.mark.parametrize(
    ("split", "cross", "filters"),
    [
        ("all", "all", {}),
        ("timing", "placed_by", {}),
        ("agent", "epoch", {"source": "simulated"}),
        ("all", "all", {"agent": "greedy"}),
        ("timing", "all", {"epoch": 2, "agent": "random"}),
    ],
)
def test_tile_impact_intervals_take_the_game_as_the_unit(
    con, placements, split, cross, filters
) -> None:
    """(Split by agent, a recorded game whose people have two names counts once for each:
    docs/metrics.md; so that split is checked on simulated games.)"""
    groups: dict[tuple, dict[int, list[dict]]] = defaultdict(lambda: defaultdict(list))
    for placement in placements:
        wanted = {name: placement[name] for name in ("epoch", "agent", "source")}
        if all(wanted[name] == str(value) for name, value in filters.items()):
            key = tuple(placement.get(s, "all") for s in (split, cross))
            groups[(placement["tile"], *key)][placement["game_id"]].append(placement)
    frame = execute(con, "tile_impact", {"split": split, "cross_split": cross, **filters})
    assert len(frame) == len(groups)
    for row in frame.iter_rows(named=True):
        by_game = groups[(row["tile"], row["split"], row["cross_split"])]
        assert row["games"] == len(by_game) <= row["games_kept"]
        assert row["placements"] == sum(len(values) for values in by_game.values())
        for value, measure in MEASURES.items():
            mean, half = _clustered_mean_and_half_width(
                {game: [p[value] for p in ps] for game, ps in by_game.items()}
            )
            impact = row[f"{measure}_impact" if measure != "net" else "net_swing"]
            assert impact == pytest.approx(mean)
            if math.isnan(half):
                assert row[f"{measure}_half_width"] is None
            else:
                assert row[f"{measure}_half_width"] == pytest.approx(half, rel=1e-9)


@pytest.mark.parametrize("split", SPLITS[1:])
def test_a_split_adds_up_to_the_whole(con, split) -> None:
    """The groups of a split hold every placement once: per tile, their placements add up to the
    unsplit figure's and their placement-weighted impacts to its impact; none has more games."""
    whole = {row["tile"]: row for row in execute(con, "tile_impact").iter_rows(named=True)}
    parts = execute(con, "tile_impact", {"split": split})
    for tile, rows in parts.group_by("tile"):
        assert rows["placements"].sum() == whole[tile[0]]["placements"]
        weighted = (rows["net_swing"] * rows["placements"]).sum() / rows["placements"].sum()
        assert weighted == pytest.approx(whole[tile[0]]["net_swing"])
        assert rows["games"].max() <= whole[tile[0]]["games"] <= rows["games"].sum()
