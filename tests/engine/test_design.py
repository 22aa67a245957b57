"""The designer's reading of played games: the fitted leaf's win shares at every turn, each
decision's openness and each draw's luck, held to the replay and the final results."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from engine import moves
from engine.design import trace_games
from engine.kernel.batch import policy_games
from engine.kernel.replay import ReplayError, replay_games
from engine.outcome import Outcome
from engine.rules import RuleSet, rule_set
from engine.state import DRAWN, Game

GAMES = 12
SETUPS = [
    (players, rules)
    for players in (2, 3, 4)
    for rules in (RuleSet(), rule_set("kingdoms-2011", "no-luck"))
]


def _games(players: int, rules: RuleSet):
    return policy_games(players, rules, range(GAMES), ("heuristic",) * players)


@pytest.mark.parametrize(("players", "rules"), SETUPS)
def test_a_point_a_turn_and_the_result_at_the_end(players, rules):
    games = _games(players, rules)
    traces = trace_games(players, rules, games.actions, games.offsets)
    replayed = replay_games([(players, rules)], np.zeros(GAMES), games.actions, games.offsets)
    turns = np.bincount(replayed.turns.game, minlength=GAMES)
    draws = np.bincount(
        replayed.turns.game[replayed.turns.kind == moves.KINDS.index(moves.DRAW)],
        minlength=GAMES,
    )
    for g in range(GAMES):
        points = traces.game(g)
        assert len(points) == turns[g] + 1
        assert np.allclose(points.sum(axis=1), 1.0)
        state = Game(players, rules).new_initial_state()
        for action in games.history(g):
            state.apply_action(int(action))
        assert points[-1].tolist() == pytest.approx(Outcome.of(state.returns()).win_shares)
    # every turn is a choice, and a drawn (or chosen) tile's placement one more
    assert traces.acted.tolist() == (turns + draws).tolist()
    assert (traces.choices <= traces.acted).all()
    assert (traces.clear <= traces.choices).all() and (traces.open <= traces.choices).all()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_luck_is_what_the_draws_moved_and_nothing_without_them(players):
    lucky, luckless = RuleSet(), rule_set("kingdoms-2011", "no-luck")
    drawn = trace_games(players, lucky, *_offsets(_games(players, lucky)))
    chosen = trace_games(players, luckless, *_offsets(_games(players, luckless)))
    assert np.allclose(drawn.luck.sum(axis=1), 0.0)  # the seats' shares always add up to 1
    assert (np.abs(drawn.luck).sum(axis=1) > 0).all()
    assert (chosen.luck == 0).all()  # no tile is drawn: nothing is luck


def _offsets(games):
    return games.actions, games.offsets


def _result(players: int, actions: list[int]) -> tuple[float, ...] | None:
    """The win shares the actions end the game with, None if they do not end it."""
    state = Game(players).new_initial_state()
    for action in actions:
        state.apply_action(action)
    return Outcome.of(state.returns()).win_shares if state.is_terminal() else None


def _last_draws_apart(players: int) -> tuple[list[int], list[int]]:
    """Two games alike but for the tile drawn for the board's last cell, which changes the
    result: the first heuristic game that ends so, and it with another tile the draw could
    have given."""
    for seed in itertools.count():
        actions = policy_games(players, RuleSet(), [seed], ("heuristic",) * players).history(0)
        played = [int(action) for action in actions]
        state = Game(players).new_initial_state()
        for action in played[:-2]:
            state.apply_action(action)
        if state.phase != DRAWN or state.empty != 1:
            continue
        for tile, _ in state.chance_outcomes():
            other = [*played[:-2], tile, played[-1]]  # the one cell left takes it
            if _result(players, other) not in (None, _result(players, played)):
                return played, other
    raise AssertionError("unreachable")


@pytest.mark.parametrize("players", [2, 3])
def test_luck_at_the_last_cell_is_the_results_difference(players):
    # Both games meet the same draws, from the same positions, but the last; there, with the
    # same tiles that could have come, a seat's luck is its share with the tile drawn, which
    # at the last cell is its result, less the same mean: the two games' luck differs by
    # exactly their results' difference, for every seat.
    played, other = _last_draws_apart(players)
    actions = np.array(played + other, dtype=np.uint8)
    traces = trace_games(players, RuleSet(), actions, np.array([0, len(played), len(actions)]))
    results = np.array([_result(players, played), _result(players, other)])
    assert traces.luck[0] - traces.luck[1] == pytest.approx(results[0] - results[1], abs=1e-9)


@pytest.mark.parametrize("position", [1, 3, 40, -1])
def test_a_refused_list_is_named_as_the_replay_names_it(position):
    games = _games(2, RuleSet())
    end = int(games.offsets[1])
    broken = games.actions[:end].copy()
    broken[position] = 250  # no action has this id
    offsets = np.array([0, end])
    with pytest.raises(ReplayError, match="action 250") as traced:
        trace_games(2, RuleSet(), broken, offsets)
    with pytest.raises(ReplayError) as replayed:
        replay_games([(2, RuleSet())], np.zeros(1), broken, offsets)
    assert (traced.value.ply, str(traced.value)) == (replayed.value.ply, str(replayed.value))


def test_a_list_that_ends_too_soon_is_named():
    games = _games(2, RuleSet())
    end = int(games.offsets[1]) - 1
    offsets = np.array([0, end])
    with pytest.raises(ReplayError, match="end before") as traced:
        trace_games(2, RuleSet(), games.actions[:end], offsets)
    with pytest.raises(ReplayError) as replayed:
        replay_games([(2, RuleSet())], np.zeros(1), games.actions[:end], offsets)
    assert traced.value.ply == replayed.value.ply
