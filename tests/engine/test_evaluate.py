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
from engine.evaluate import TIE, Evaluation, classify, evaluate, latest_shares, move_reviews
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
    judged = evaluate(state, budget=2000, seed=1, include=(good, bad))
    assert judged.seat == 0
    assert judged.values[good] > judged.values[bad]
    assert judged.best_action != bad
    assert judged.loss(bad) > judged.loss(good)


def test_evaluation_is_deterministic_for_a_seed() -> None:
    state = _position_with_drawn_tile(pieces.resource(5))
    assert evaluate(state, 100, seed=3) == evaluate(state, 100, seed=3)
    assert evaluate(state, 100, seed="3:1") == evaluate(state, 100, seed="3:1")


def test_a_loss_within_a_point_of_the_best_is_a_tie() -> None:
    judged = Evaluation(0, 1, 0.5, {1: 0.5, 2: 0.5 - TIE / 2, 3: 0.5 - 2 * TIE})
    assert judged.loss(2) == 0.0 and judged.loss(3) == pytest.approx(2 * TIE)


@pytest.mark.parametrize(
    ("latest", "seat", "mover", "expected"),
    [
        ((0.5, 0.5), 0, 0.8, (0.8, 0.2)),  # two seats: the other holds the rest
        ((0.2, 0.5, 0.3), 1, 0.6, (0.16, 0.6, 0.24)),  # the rest shared as last judged
        ((0.0, 1.0, 0.0), 1, 0.4, (0.3, 0.4, 0.3)),  # nothing to share by: evenly
        ((0.2, 0.5, 0.3), 1, None, (0.2, 0.5, 0.3)),  # no choice, no search: unchanged
    ],
)
def test_every_seats_win_share_takes_the_movers_from_its_search(
    latest: tuple[float, ...], seat: int, mover: float | None, expected: tuple[float, ...]
) -> None:
    assert latest_shares(latest, seat, mover) == pytest.approx(expected)


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
    assert all(r.loss >= 0 and sum(r.win_shares) == pytest.approx(1.0) for r in reviews)
    assert all((r.best is None) == (r.quality == "best") for r in reviews)
    assert all(r.quality == classify(r.loss, r.best is None) for r in reviews)


def test_a_random_players_moves_cost_more_than_the_greedy_ones() -> None:
    """greedy (seat A) against random: the random seat gives up more win share a move."""
    state = _finished_game()
    reviews = move_reviews(state.game, state.history, budget=200, seed=1)
    greedy = [r.loss for r in reviews if r.seat == 0]
    random_ = [r.loss for r in reviews if r.seat == 1]
    assert sum(random_) / len(random_) > sum(greedy) / len(greedy)


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
