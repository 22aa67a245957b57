"""The lake's review table: every stored review's moves with their figures in one table, which
gives the same figures as each game's review read on its own, and follows the reviews stored
after it was made."""

from __future__ import annotations

import polars as pl
import pytest

from data.accuracy import seat_accuracy
from data.lake import Lake
from data.luck import seat_luck
from data.player import player_record
from data.reader import connect, execute
from data.review_rows import review_game
from data.review_table import move_kind, review_table
from data.reviews import load_review, save_review
from engine.geometry import geometry
from engine.moves import Move
from engine.rules import rule_set
from engine.state import Game
from tests.lakes import scratch_lake

BUDGET, SEED = 20, 1
PLAYER = "Ann"


@pytest.fixture(scope="module")
def lake(tmp_path_factory: pytest.TempPathFactory) -> Lake:
    """The records' lake with every recorded game but the last reviewed."""
    lake = scratch_lake(tmp_path_factory.mktemp("review-table-lake"))
    for game_id in _recorded(lake)[:-1]:
        _review(lake, game_id)
    return lake


def _recorded(lake: Lake) -> list[int]:
    found = execute(
        connect(lake), "SELECT game_id FROM games WHERE source = 'recorded' ORDER BY game_id"
    )
    return found["game_id"].to_list()


def _review(lake: Lake, game_id: int) -> None:
    stored = execute(connect(lake), "game_record", {"game_id": game_id}).row(0, named=True)
    game = Game(stored["players"], rule_set(stored["edition"], stored["variant"]))
    save_review(lake, game_id, BUDGET, SEED, review_game(game, stored["actions"], BUDGET, SEED))


def _seats(lake: Lake, game_id: int) -> pl.DataFrame:
    return execute(
        connect(lake),
        "SELECT seat, player, win_share FROM seats WHERE game_id = $g ORDER BY seat",
        {"g": game_id},
    )


def test_a_players_figures_are_those_of_each_games_review_read_on_its_own(lake: Lake) -> None:
    """The known answer: each game's stored review read alone, its seats' accuracy
    (seat_accuracy) and luck (seat_luck), the mean over the player's seats."""
    record = player_record(lake, PLAYER, BUDGET, SEED)
    assert record.reviewed.height >= 2, "the example records seat Ann in reviewed games"
    board = geometry()
    for game in record.reviewed.iter_rows(named=True):
        review = load_review(lake, game["game_id"], BUDGET, SEED)
        assert review is not None
        seats = _seats(lake, game["game_id"])
        held = seats.filter(pl.col("player") == PLAYER)["seat"].to_list()
        accuracy = seat_accuracy(review).filter(pl.col("seat").is_in(held))
        luck = seat_luck(review, seats["win_share"].to_list()).filter(pl.col("seat").is_in(held))
        assert game["accuracy"] == pytest.approx(accuracy["accuracy"].mean())
        assert game["moves"] == accuracy["moves"].sum()
        assert game["blunders"] == accuracy["blunders"].sum()
        for column in ("luck", "skill", "adjusted"):
            assert game[column] == pytest.approx(luck[column].mean(), abs=1e-12)
        own = review.filter(pl.col("seat").is_in(held)).sort("ply")
        moves = record.moves.filter(pl.col("game_id") == game["game_id"]).sort("ply")
        assert moves["ply"].to_list() == own["ply"].to_list()
        kinds = [move_kind(Move.from_str(move, board)) for move in own["move"]]
        assert moves["kind"].to_list() == kinds
        losses = (own["best_value"] - own["played_value"]).cast(pl.Float64).to_list()
        assert moves["loss"].to_list() == pytest.approx(losses)


def test_the_table_follows_the_reviews_stored_after_it(lake: Lake) -> None:
    before = review_table(lake, BUDGET, SEED)
    last = _recorded(lake)[-1]
    assert last not in before["game_id"].to_list()
    assert review_table(lake, BUDGET, SEED).equals(before)  # read back as stored
    _review(lake, last)
    after = review_table(lake, BUDGET, SEED)
    review = load_review(lake, last, BUDGET, SEED)
    assert review is not None
    assert after.filter(pl.col("game_id") == last).height == review.height
    assert after.filter(pl.col("game_id") != last).equals(before)
    _review(lake, last)  # stored again: its rows replaced, not added
    assert review_table(lake, BUDGET, SEED).height == after.height
    assert review_table(lake, BUDGET, SEED + 1).is_empty()  # another seed's reviews
