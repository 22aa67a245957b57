"""The evaluator: it prefers obviously winning actions, is reproducible, and reviews games."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from engine import pieces
from engine.agents import make_agent, play_game
from engine.agents.strong import Searcher
from engine.evaluate import (
    BEST,
    BLUNDER,
    CLASS_LIMITS,
    TIE,
    WIN_SHARE_PER_GOLD,
    Evaluation,
    MoveReview,
    class_loss,
    classify,
    evaluate,
    is_decided,
    latest_shares,
    move_reviews,
)
from engine.state import PLACE, Game, Observation, State

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
    judged = evaluate(state, budget=2000, seed=1, played=bad)
    assert judged.seat == 0
    assert judged.values[good] > judged.values[bad]
    assert judged.best_action != bad
    assert judged.loss(bad) > evaluate(state, budget=2000, seed=1, played=good).loss(good)


def test_evaluation_is_deterministic_for_a_seed() -> None:
    state = _position_with_drawn_tile(pieces.resource(5))
    assert evaluate(state, 100, seed=3) == evaluate(state, 100, seed=3)
    assert evaluate(state, 100, seed="3:1") == evaluate(state, 100, seed="3:1")


def test_a_loss_within_a_point_of_the_best_is_a_tie() -> None:
    values = {1: 0.5, 2: 0.5 - TIE / 2, 3: 0.5 - 2 * TIE}
    given_up = {2: TIE / 2, 3: 2 * TIE}
    judged = Evaluation(0, 1, 0.5, values, given_up, {1: 0.0, 2: 0.0, 3: 0.0})
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


@pytest.mark.parametrize(
    ("decided", "win_share_loss", "gold_loss", "expected"),
    [
        (False, 0.03, 54.0, "good"),  # still open: the win share given up alone
        (False, 0.15, 0.0, "mistake"),
        (False, 0.0, 30.0, "best"),  # the search's equal: the heuristic's gold does not count
        (True, 0.0, 11.3, "mistake"),  # decided: 11.3 gold at 0.01 a gold is 0.113
        (True, 0.04, 2.0, "excellent"),  # decided: the gold alone, 0.02
        (True, 0.0, 5.0, "good"),
        (True, 0.0, 25.0, "blunder"),
        (True, 0.0, 0.0, "best"),
    ],
)
def test_a_moves_class_follows_its_one_loss_whatever_the_games_state(
    decided: bool, win_share_loss: float, gold_loss: float, expected: str
) -> None:
    """Known answers from the metrics spec's class limits, a decided move's gold counted at
    WIN_SHARE_PER_GOLD (0.01) a gold."""
    loss = class_loss(win_share_loss, gold_loss, decided)
    assert loss == (gold_loss * 0.01 if decided else win_share_loss)
    assert classify(loss) == expected


ORDER = {name: rank for rank, name in enumerate((BEST, *(n for n, _ in CLASS_LIMITS), BLUNDER))}


def _inverted(reviews: Sequence[MoveReview]) -> list[tuple[MoveReview, MoveReview]]:
    """Pairs of moves whose classes come in the opposite order of their losses."""
    return [
        (a, b)
        for a in reviews
        for b in reviews
        if a.loss < b.loss and ORDER[a.quality] > ORDER[b.quality]
    ]


@pytest.mark.parametrize(
    ("players", "agents", "seed"),
    [(2, ("greedy", "random"), 4), (3, ("random", "greedy", "random"), 5)],
)
def test_no_two_moves_of_a_game_get_classes_against_their_losses(
    players: int, agents: tuple[str, ...], seed: int
) -> None:
    """Over whole reviewed games, decided moves among them: the moves' classes come in the
    order of their losses (a move that loses more never gets a better class)."""
    table = [make_agent(name, index) for index, name in enumerate(agents, 1)]
    state = play_game(Game(players), table, seed=seed)
    reviews = move_reviews(state.game, state.history, budget=40, seed=1)
    costly = [r for r in reviews if r.quality != BEST]
    assert any(r.decided for r in costly) and any(not r.decided for r in costly)
    assert _inverted(reviews) == []


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
    assert all(r.quality == classify(r.loss) for r in reviews)
    assert all(r.gold_loss >= 0 for r in reviews)


def test_a_random_players_moves_cost_more_than_the_greedy_ones() -> None:
    """greedy (seat A) against random: the random seat gives up more win share a move."""
    state = _finished_game()
    reviews = move_reviews(state.game, state.history, budget=200, seed=1)
    greedy = [r.loss for r in reviews if r.seat == 0]
    random_ = [r.loss for r in reviews if r.seat == 1]
    assert sum(random_) / len(random_) > sum(greedy) / len(greedy)


def test_a_decided_position_is_judged_by_the_gold_a_move_gives_up() -> None:
    """A far ahead (300 gold) has drawn a +6: its win_share is settled, yet the +6 in
    B's row (b5) rather than its own (b1) gives up 48 gold of margin: the rank-4 castle of the
    row it joins counts it four times, +24 for A or +24 for B."""
    state = _position_with_drawn_tile(pieces.resource(6))
    state.parts.gold[0] = 300
    codes = state.game.codes
    own, theirs = codes.place_drawn(B1), codes.place_drawn(B5)
    judged = evaluate(state, budget=200, seed=1, played=theirs)
    assert is_decided(judged.best_value)
    assert judged.loss(theirs) == 0.0  # the search sees nothing left to lose
    assert judged.richest_action == own
    gold_lost = judged.gold_loss(theirs, judged.richest_action)
    assert gold_lost == pytest.approx(48.0)
    assert classify(class_loss(0.0, gold_lost, True)) in ("inaccuracy", "mistake", "blunder")


def test_a_decided_game_still_has_costly_moves_after_move_15() -> None:
    """greedy against random (seed 4) is settled well before its end: its late moves are judged
    by gold, so the review still flags some of them."""
    state = _finished_game()
    reviews = move_reviews(state.game, state.history, budget=50, seed=1)
    late = reviews[15:]
    decided = [r for r in late if r.decided]
    assert decided, "the game never looked decided"
    flagged = [r for r in decided if r.quality in ("inaccuracy", "mistake", "blunder")]
    assert flagged and all(r.gold_loss > 0 and r.best is not None for r in flagged)
    assert all(r.loss == r.gold_loss * WIN_SHARE_PER_GOLD for r in decided)
    assert all(r.quality == classify(r.loss) for r in decided)


def test_actions_measured_together_meet_the_same_deals() -> None:
    """The same action twice gets the same value on every deal (both playouts see the same
    deals and draws); a +6 in A's own row beats it in B's."""
    state = _position_with_drawn_tile(pieces.resource(6))
    codes = state.game.codes
    own, theirs = codes.place_drawn(B1), codes.place_drawn(B5)
    values = Searcher(100).deal_values(state.observation(0), [own, own, theirs], 50, seed=7)
    assert values.shape == (50, 3)
    assert (values[:, 0] == values[:, 1]).all()
    assert values[:, 0].mean() > values[:, 2].mean()


class _CountingSearcher(Searcher):
    """The real searcher, keeping the actions of every measure it is asked for."""

    def __init__(self, iterations: int) -> None:
        super().__init__(iterations)
        self.measured: list[list[int]] = []

    def deal_values(
        self, observation: Observation, actions: Sequence[int], deals: int, seed: int
    ) -> np.ndarray:
        self.measured.append(list(actions))
        return super().deal_values(observation, actions, deals, seed)


def test_a_clear_loss_is_settled_on_the_first_deals_against_every_opened_action() -> None:
    """A +6 in B's row rather than A's own gives up more than any class limit is near: the
    first deals, on which the move played and every move the search opened are played out,
    settle it."""
    state = _position_with_drawn_tile(pieces.resource(6))
    theirs = state.game.codes.place_drawn(B5)
    searcher = _CountingSearcher(200)
    judged = evaluate(state, 200, seed=1, played=theirs, searcher=searcher)
    assert len(searcher.measured) == 1
    assert len(judged.values) > 2  # more than the played move and the most visited one
    assert sorted(searcher.measured[0]) == sorted(judged.values)
    assert judged.best_action != theirs
    assert classify(judged.loss(theirs)) == "blunder"
