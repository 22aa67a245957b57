"""Luck and skill of a reviewed game, per seat: the split of a seat's result is whole, and luck
is measured against the expectation (its mean over many chance events is 0)."""

from __future__ import annotations

import math

import polars as pl
import pytest

from data.luck import seat_luck
from data.review_rows import review_game
from engine.agents import make_agent, play_game
from engine.outcome import Outcome
from engine.state import Game

BUDGET = 60  # small: the review's noise is not what these tests read
GAMES = ((2, 0), (2, 1), (2, 2), (3, 3))  # (players, seed) of simulated heuristic games


@pytest.fixture(scope="module")
def reviewed() -> list[tuple[pl.DataFrame, tuple[float, ...]]]:
    """Each simulated game's review and its seats' win shares."""
    found = []
    for players, seed in GAMES:
        game = Game(players)
        agents = [make_agent("heuristic", f"{seed}:{seat}") for seat in range(players)]
        final = play_game(game, agents, seed)
        review = review_game(game, final.history, BUDGET, seed)
        found.append((review, Outcome.of(final.returns()).win_shares))
    return found


def test_a_seats_result_splits_whole_into_luck_its_moves_and_the_others(reviewed) -> None:
    for review, results in reviewed:
        table = seat_luck(review, results)
        assert table["seat"].to_list() == list("ABCD"[: len(results)])
        for row in table.iter_rows(named=True):
            parts = row["luck"] - row["skill"] + row["others"]
            assert parts == pytest.approx(row["result"] - row["start"], abs=1e-4)
            assert row["adjusted"] == pytest.approx(row["result"] - row["luck"])
            assert row["skill"] >= 0
        # every seat's luck is the sum of the luck its moves met, no event counted twice
        assert table["luck"].sum() == pytest.approx(
            review["draw_luck"].sum() + review["deal_luck"].sum(), abs=1e-4
        )
        assert table["moves"].sum() == review.height


def test_luck_is_measured_against_the_expectation(reviewed) -> None:
    # Over the chance events of the games (every draw, every deal with a turn after it), the
    # mean luck is 0 within three of its standard errors: a tile is as likely to fall short
    # of its expectation as above it, weighted by how much.
    lucks = [
        luck
        for review, _ in reviewed
        for column in ("draw_luck", "deal_luck")
        for luck in review[column].to_list()
        if luck != 0
    ]
    assert len(lucks) > 100
    mean = sum(lucks) / len(lucks)
    spread = math.sqrt(sum((luck - mean) ** 2 for luck in lucks) / (len(lucks) - 1))
    assert spread > 0
    assert abs(mean) < 3 * spread / math.sqrt(len(lucks))
