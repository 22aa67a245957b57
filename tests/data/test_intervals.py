"""The lake's interval macros give the engine's intervals (engine/stats.py), ends in [0, 1]; every
share and balance the pages show stays within its range; the default level's precision figures."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest

from data.balance import balance_by_players, bootstrap_balance
from data.lake import Lake
from data.reader import connect, execute
from engine.stats import Z95, wilson_interval


@pytest.fixture(scope="module")
def empty(tmp_path_factory):
    return connect(Lake(tmp_path_factory.mktemp("empty")))


@pytest.mark.parametrize(("hits", "n"), [(0, 1), (0, 10), (1, 10), (5, 10), (10, 10), (2.5, 7)])
def test_wilson_macro_matches_the_engine(empty, hits: float, n: int) -> None:
    frame = execute(empty, f"SELECT wilson({hits}, {n}, -1) AS low, wilson({hits}, {n}, 1) AS high")
    low, high = frame.row(0)
    assert (low, high) == pytest.approx(wilson_interval(hits, n), abs=1e-12)
    assert 0.0 <= low <= high <= 1.0


def test_wilson_macro_is_null_without_observations(empty) -> None:
    frame = execute(empty, "SELECT wilson(0, NULL, -1) AS a, wilson(0, 0, 1) AS b")
    assert frame.row(0) == (None, None)


def test_half_width_of_one_two_three_is_z_over_root_three(empty) -> None:
    """1, 2, 3: mean 2, sample standard deviation 1, so SE = 1/√3."""
    frame = execute(empty, "SELECT half_width(3, 6, 14) AS half, z95() AS z")
    half, z = frame.row(0)
    assert z == Z95
    assert half == pytest.approx(Z95 / math.sqrt(3), rel=1e-12)


# ------------------------------------------------------------------ figures within their range


def test_balance_from_the_games_outcomes_is_one_minus_the_widest_gap() -> None:
    """Known answer: of 10 games, position 1 wins 5, position 2 wins 3 and 2 are tied, so
    W = (0.6, 0.4) and balance = 1 − 0.2."""
    outcomes = np.array([[1.0, 0.0], [0.0, 1.0], [0.5, 0.5]])
    value, low, high = bootstrap_balance(outcomes, np.array([5.0, 3.0, 2.0]))
    assert value == pytest.approx(0.8)
    assert 0.0 <= low <= value <= high <= 1.0
    assert bootstrap_balance(outcomes, np.array([5.0, 3.0, 2.0])) == (value, low, high), "seeded"


@pytest.mark.parametrize(
    ("outcomes", "games"),
    [
        ([[1.0, 0.0, 0.0]], [30]),  # the first mover always wins: balance 0
        ([[1.0, 0, 0], [0, 1.0, 0], [0, 0, 1.0]], [10, 10, 10]),  # perfectly even: balance 1
        ([[1.0, 0, 0], [0, 1.0, 0], [0, 0, 1.0]], [3, 1, 0]),  # the case that gave −0.640
    ],
)
def test_the_balance_interval_never_leaves_zero_to_one(outcomes, games) -> None:
    value, low, high = bootstrap_balance(np.array(outcomes), np.array(games, dtype=float))
    assert 0.0 <= low <= value <= high <= 1.0


def test_the_balance_interval_covers_the_true_balance_95_times_in_100() -> None:
    """Draw 300 games of 3 players from known win chances (true balance 1 − 0.06) 400 times:
    the interval holds the truth at least as often as it says (95%, less sampling noise)."""
    rng = np.random.default_rng(1)
    chances, truth = np.array([0.36, 0.30, 0.34]), 1 - 0.06
    covered = 0
    for _ in range(400):
        games = rng.multinomial(300, chances).astype(float)
        _, low, high = bootstrap_balance(np.eye(3), games)
        covered += low <= truth <= high
    assert covered / 400 >= 0.93


def test_balance_per_player_count_matches_the_seats(con) -> None:
    """The lake's balance from its outcome counts equals 1 − the widest gap of the mean win shares
    by position read straight from the seats; no interval leaves [0, 1]."""
    balance = balance_by_players(execute(con, "balance_outcomes", {}))
    means = execute(
        con,
        "SELECT g.players, s.turn_position, avg(s.win_share) AS w FROM seats s "
        "JOIN games g USING (game_id) GROUP BY ALL",
    )
    for row in balance.iter_rows(named=True):
        shares = means.filter(pl.col("players") == row["players"])["w"]
        assert row["balance"] == pytest.approx(1 - (shares.max() - shares.min()))
        assert 0.0 <= row["balance_low"] <= row["balance"] <= row["balance_high"] <= 1.0


def test_seat_win_shares_carry_wilson_intervals(con) -> None:
    seats = execute(con, "seat_advantage", {"level": "random"})
    assert not seats.is_empty()
    for row in seats.iter_rows(named=True):
        hits = row["mean_win_share"] * row["seats"]
        assert (row["ci_low"], row["ci_high"]) == pytest.approx(
            wilson_interval(hits, row["seats"]), abs=1e-9
        )


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_share_of_the_balance_and_tile_pages_stays_in_range(con, players: int) -> None:
    """Ten games a player count (one edition's), where the intervals are wide."""
    few = {"players": players, "edition": "kingdoms-2002"}
    summary = execute(con, "balance_summary", few)
    assert 0.0 <= summary["decision_low"][0] <= summary["decision_share"][0]
    assert summary["decision_share"][0] <= summary["decision_high"][0] <= 1.0
    improvement = execute(con, "tile_improvement", few).drop_nulls("improvement")
    assert not improvement.is_empty()
    assert (improvement["ci_low"] >= -1).all() and (improvement["ci_high"] <= 1).all()
    assert (improvement["ci_low"] <= improvement["improvement"]).all()
    assert (improvement["improvement"] <= improvement["ci_high"]).all()
    ladder = execute(con, "agent_ladder", few)
    for name in ("win_share", "partial_win"):
        assert (ladder[f"{name}_low"] >= 0).all() and (ladder[f"{name}_high"] <= 1).all()


# ------------------------------------------------------------------ the default level's rule


def test_level_precision_is_the_widest_seat_and_the_median_cell_clustered_by_game(con) -> None:
    """Known answer, worked out here from the seats and castles: each position's Wilson
    interval (engine/stats.py), and each cell's ratio of gold to castles over games (one
    observation a game: SE² = n/(n−1) · Σ(G_g − r·C_g)² / (ΣC)²), the median over 30 cells."""
    row = execute(con, "level_precision", {}).filter(pl.col("level") == "random").row(0, named=True)
    positions = execute(
        con,
        "SELECT g.players, s.turn_position, count(*) AS n, sum(s.win_share) AS hits FROM seats s "
        "JOIN games g USING (game_id) JOIN game_levels USING (game_id) WHERE level = 'random' "
        "GROUP BY ALL",
    )
    widest = 0.0
    for n, hits in positions.select("n", "hits").iter_rows():
        low, high = wilson_interval(hits, n)
        widest = max(widest, hits / n - low, high - hits / n)
    assert row["seat_half_width"] == pytest.approx(widest, rel=1e-9)
    per_game = execute(
        con,
        "SELECT cell, game_id, count(*) AS castles, sum(gold) AS gold FROM castles "
        "JOIN game_levels USING (game_id) WHERE level = 'random' GROUP BY ALL",
    )
    widths = []
    for (_,), cell in per_game.partition_by("cell", as_dict=True).items():
        castles, gold = cell["castles"].to_numpy(), cell["gold"].to_numpy().astype(float)
        ratio, n = gold.sum() / castles.sum(), len(cell)
        spread = n / (n - 1) * ((gold - ratio * castles) ** 2).sum() / castles.sum() ** 2
        widths.append(Z95 * math.sqrt(spread) if n > 1 else math.inf)
    widths += [math.inf] * (30 - len(widths))
    assert row["cell_half_width"] == pytest.approx(float(np.median(widths)), rel=1e-9)
