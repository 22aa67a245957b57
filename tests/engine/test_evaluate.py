"""The evaluator: it prefers obviously winning actions, is reproducible, and reviews games."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from engine import pieces
from engine.agents import make_agent, play_game
from engine.cli_support import BadInput
from engine.commands import review as review_command
from engine.evaluate import (
    WIN_SHARE_PER_GOLD,
    classify,
    evaluate,
    is_decided,
    move_reviews,
)
from engine.record import record_from_state, write_record
from engine.state import PLACE, Game, State

A1, B1, A5, B5 = 0, 1, 24, 25  # cells a1, b1, a5, b5 of the 5x6 board


def _position_with_drawn_tile(tile: int) -> State:
    """Two players: A has a rank-4 castle on a1, B one on a5; A has just drawn `tile`."""
    game = Game(2)
    state = game.new_initial_state()
    codes = game.codes
    state.apply_action(pieces.hazard(1))  # A's starting tile
    state.apply_action(pieces.hazard(2))  # B's starting tile
    state.apply_action(0)  # A moves first
    state.apply_action(codes.castle(4, A1))
    state.apply_action(codes.castle(4, A5))
    state.apply_action(codes.draw)
    state.apply_action(tile)
    assert state.phase == PLACE and state.current_player() == 0
    return state


@pytest.mark.parametrize(
    ("tile", "winning", "losing"),
    [
        (pieces.resource(6), B1, B5),  # a +6 belongs in A's own row, not in B's
        (pieces.hazard(6), B5, B1),  # a -6 belongs in B's row
    ],
)
def test_evaluator_ranks_winning_above_losing(tile: int, winning: int, losing: int) -> None:
    state = _position_with_drawn_tile(tile)
    codes = state.game.codes
    good, bad = codes.place_drawn(winning), codes.place_drawn(losing)
    judged = evaluate(state, budget=200, seed=1, include=(good, bad))
    assert judged.seat == 0
    assert judged.values[good] > judged.values[bad]
    assert judged.best_action != bad
    assert judged.loss(bad) > judged.loss(good)
    assert sum(judged.win_shares) == pytest.approx(1.0)


def test_evaluation_is_deterministic_for_a_seed() -> None:
    state = _position_with_drawn_tile(pieces.resource(5))
    assert evaluate(state, 100, seed=3) == evaluate(state, 100, seed=3)
    assert evaluate(state, 100, seed=3, omniscient=True).seat == 0


def test_evaluate_refuses_chance_nodes() -> None:
    with pytest.raises(ValueError):
        evaluate(Game(2).new_initial_state(), 10)


@pytest.mark.parametrize(
    ("loss", "expected"),
    [
        (0.0, "best"),
        (0.02, "excellent"),
        (0.021, "good"),
        (0.05, "good"),
        (0.1, "inaccuracy"),
        (0.2, "mistake"),
        (0.21, "blunder"),
    ],
)
def test_classes_follow_the_metrics_thresholds(loss: float, expected: str) -> None:
    assert classify(loss) == expected


def _finished_game() -> State:
    return play_game(Game(2), [make_agent("greedy", 1), make_agent("random", 2)], seed=4)


def test_review_judges_every_turn() -> None:
    state = _finished_game()
    reviews = move_reviews(state.game, state.history, budget=10, seed=1)
    assert len(reviews) == 90
    assert {r.quality for r in reviews} <= {
        "best",
        "excellent",
        "good",
        "inaccuracy",
        "mistake",
        "blunder",
    }
    assert all(r.loss >= 0 and r.gold_loss >= 0 for r in reviews)
    assert all((r.best is None) == (r.quality == "best") for r in reviews)


def test_a_decided_game_is_judged_by_the_gold_each_move_loses() -> None:
    """greedy against random (500 gold to 72): settled within the first epoch, after which
    win_share losses are about nothing and the class follows the gold given up."""
    state = _finished_game()
    reviews = move_reviews(state.game, state.history, budget=10, seed=1)
    late = reviews[15:]
    assert all(r.decided == is_decided(r.win_share_before) for r in reviews)
    assert sum(r.decided for r in late) > 0.9 * len(late)
    for r in late:
        if r.decided:
            assert r.quality == classify(r.gold_loss * WIN_SHARE_PER_GOLD, r.best is None)
    assert any(r.quality in ("inaccuracy", "mistake", "blunder") for r in late if r.decided)


@pytest.mark.parametrize(
    ("win_share", "decided"),
    [(0.0, True), (0.02, True), (0.03, False), (0.97, False), (0.98, True)],
)
def test_decided_means_within_two_points_of_zero_or_one(win_share: float, decided: bool) -> None:
    assert is_decided(win_share) == decided


def _review_args(path: Path, **overrides: object) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    review_command.add_arguments(parser)
    args = parser.parse_args([str(path), "--budget", "5"])
    for key, value in overrides.items():
        setattr(args, key, value)
    return args


def test_review_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = _finished_game()
    path = tmp_path / "game.kgn"
    tags = {"Edition": "kingdoms-2011", "A": "Ann", "B": "Bob"}
    path.write_text(write_record(record_from_state(state, tags)))
    assert review_command.run(_review_args(path, json=True)) == 0
    moves = json.loads(capsys.readouterr().out)["moves"]
    assert len(moves) == 90 and moves[0]["seat"] in ("A", "B")
    assert review_command.run(_review_args(path)) == 0
    assert "epoch 3" in capsys.readouterr().out


def test_review_of_a_bad_record_is_bad_input(tmp_path: Path) -> None:
    path = tmp_path / "bad.kgn"
    path.write_text("not a record\n")
    with pytest.raises(BadInput, match=r"bad\.kgn:1:1:"):
        review_command.run(_review_args(path))
