"""A player's loss by when in the epoch a move came, and their starting-tile habit: the query
that places each move in its epoch (against the engine's own board), and the figures over moves
made by hand."""

from __future__ import annotations

from datetime import UTC, datetime

import polars as pl
import pytest

from data.lake import Lake
from data.player import (
    GAME_SCHEMA,
    MOVE_SCHEMA,
    PlayerRecord,
    loss_by_timing,
    starting_tile_timing,
)
from data.reader import connect, execute
from engine.rules import rule_set
from engine.state import Game
from engine.turns import Turn, walk
from tests.lakes import scratch_lake

PLAYER = "Ann"


@pytest.fixture(scope="module")
def lake(tmp_path_factory: pytest.TempPathFactory) -> Lake:
    return scratch_lake(tmp_path_factory.mktemp("player-timing-lake"))


def _recorded(lake: Lake) -> pl.DataFrame:
    """Every seat of the recorded games, read here without the page's queries."""
    return execute(
        connect(lake),
        "SELECT game_id, seat, player FROM seats JOIN games USING (game_id) "
        "WHERE source = 'recorded' ORDER BY game_id, seat",
    )


def test_each_move_is_placed_by_the_cells_the_engine_has_filled_before_it(lake: Lake) -> None:
    """The known answer is the engine's own board: replaying each stored game, the cells filled
    before a turn are the cells less the empty ones of the state before it."""
    con = connect(lake)
    seats = _recorded(lake)
    timed = execute(con, "player_move_timing", {"player": PLAYER})
    own = seats.filter(pl.col("player") == PLAYER)
    assert own["game_id"].n_unique() >= 3, "the example records seat Ann in three games"
    expected = []
    for game_id in own["game_id"].unique().to_list():
        stored = execute(con, "game_record", {"game_id": game_id}).row(0, named=True)
        game = Game(stored["players"], rule_set(stored["edition"], stored["variant"]))
        held = set(own.filter(pl.col("game_id") == game_id)["seat"].to_list())
        turns = [item for item in walk(game, stored["actions"]) if isinstance(item, Turn)]
        for ply, turn in enumerate(turns, start=1):
            if "ABCD"[turn.seat] in held:
                filled = turn.before.cells - turn.before.empty
                expected.append((game_id, ply, filled, filled * 3 // turn.before.cells + 1))
    assert sorted(timed.rows()) == sorted(expected)


def test_every_epoch_fills_the_board_a_third_at_a_time(lake: Lake) -> None:
    """The known answer is the rules (rules.md): the board has 30 cells, each placement fills
    one and an epoch ends when none is empty; so over every seat of a game an epoch's
    placements find 0 to 29 cells filled, each once, ten in each third."""
    con = connect(lake)
    seats = _recorded(lake)
    named = seats.group_by("game_id").agg(pl.col("player").n_unique().alias("names"), pl.len())
    whole = named.filter(pl.col("names") == pl.col("len"))["game_id"].to_list()
    assert whole, "a record whose seats are all named by different players"
    players = seats.filter(pl.col("game_id").is_in(whole))["player"].unique().to_list()
    timed = pl.concat(
        [execute(con, "player_move_timing", {"player": player}) for player in players]
    ).filter(pl.col("game_id").is_in(whole))
    moves = execute(
        con,
        "SELECT game_id, ply, epoch, cell FROM moves WHERE list_contains($ids, game_id)",
        {"ids": whole},
    )
    placed = timed.join(moves, on=["game_id", "ply"]).filter(pl.col("cell").is_not_null())
    for (_, _), epoch in placed.group_by("game_id", "epoch"):
        assert sorted(epoch["cells_filled"].to_list()) == list(range(30))
        assert sorted(epoch["third"].value_counts()["count"].to_list()) == [10, 10, 10]


def _record(moves: list[tuple[int, str, str, float]]) -> PlayerRecord:
    """A record of hand-made moves: (game, kind, timing, loss)."""
    frame = pl.DataFrame(
        [
            {"game_id": game, "ply": ply, "epoch": 1, "kind": kind, "loss": loss}
            for ply, (game, kind, _, loss) in enumerate(moves, start=1)
        ],
        schema=MOVE_SCHEMA,
    ).with_columns(timing=pl.Series([timing for _, _, timing, _ in moves]))
    games = pl.DataFrame(
        [{"game_id": game, "created": datetime(2026, 1, 1, tzinfo=UTC)} for game in {1, 2, 3}],
        schema=GAME_SCHEMA,
    )
    return PlayerRecord(PLAYER, games, frame, pl.DataFrame())


def test_loss_by_timing_is_a_mean_a_move_clustered_by_game() -> None:
    """Worked by hand with docs/metrics.md's ratio interval: early losses by game are 0.1 and
    0.1 (game 1), 0.2 (game 2), 0.3 and 0.3 (game 3): mean 1.0 / 5 = 0.2; the games' residuals
    S − 0.2 n are −0.2, 0, 0.2, so SE = √(3/2 · 0.08) / 5 = 0.069282, t(2) = 4.3027 (tables),
    half-width 0.29810: 0.2 ± 0.2981, cut at 0."""
    record = _record(
        [
            (1, "drawn tile", "early", 0.1),
            (1, "castle rank 1", "early", 0.1),
            (2, "pass", "early", 0.2),
            (3, "drawn tile", "early", 0.3),
            (3, "drawn tile", "early", 0.3),
            (1, "drawn tile", "late", 0.05),
        ]
    )
    table = loss_by_timing(record)
    assert table["timing"].to_list() == ["early", "late"]  # in TIMINGS' order, none in between
    early = table.row(0, named=True)
    assert (early["moves"], early["games"]) == (5, 3)
    assert early["loss"] == pytest.approx(0.2)
    assert early["total"] == pytest.approx(1.0)
    assert early["low"] == 0.0 and early["high"] == pytest.approx(0.4981, abs=1e-4)
    late = table.row(1, named=True)
    assert (late["moves"], late["games"], late["low"]) == (1, 1, None)  # one game: no interval


def test_the_starting_tile_habit_is_when_it_is_played_and_its_loss() -> None:
    """Worked by hand: starting tiles played early in games 1 and 2 and late in games 1 and 3,
    so 2 of 4 early; the early share's games count 1 of 2, 1 of 1 and 0 of 1 starting tiles,
    residuals 1 − 0.5 · 2 = 0, 0.5, −0.5: SE = √(3/2 · 0.5) / 4 = 0.21651, t(2) = 4.3027,
    half-width 0.93157, cut to [0, 1]. Other kinds of move are not counted."""
    record = _record(
        [
            (1, "starting tile", "early", 0.02),
            (1, "starting tile", "late", 0.04),
            (2, "starting tile", "early", 0.06),
            (3, "starting tile", "late", 0.10),
            (3, "drawn tile", "middle", 0.5),
        ]
    )
    table = starting_tile_timing(record)
    assert table["timing"].to_list() == ["early", "late"]
    early, late = table.rows(named=True)
    assert (early["moves"], early["games"]) == (2, 2)
    assert early["share"] == pytest.approx(0.5) and late["share"] == pytest.approx(0.5)
    assert (early["share_low"], early["share_high"]) == (0.0, 1.0)
    assert early["loss"] == pytest.approx(0.04) and late["loss"] == pytest.approx(0.07)
