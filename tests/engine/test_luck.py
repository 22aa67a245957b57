"""Luck: a chance outcome against the seat's expectation over the outcomes it could have met."""

from __future__ import annotations

import itertools

import pytest

from engine.agents import make_agent, play_game
from engine.agents.strong import Searcher
from engine.evaluate import draw_luck
from engine.outcome import Outcome
from engine.state import DRAWN, Game, State


def _last_draw(players: int) -> State:
    """The chance node of a game's last move, a tile drawn for the board's last empty cell while
    no other seat holds a starting tile (so the drawer has seen all but the supply), where the
    tile decides the drawer's result: from the first heuristic game that ends so."""
    for seed in itertools.count():
        game = Game(players)
        agents = [make_agent("heuristic", f"{seed}:{seat}") for seat in range(players)]
        actions = play_game(game, agents, seed).history
        state = game.new_initial_state()
        for action in actions[:-2]:
            state.apply_action(action)
        if state.phase == DRAWN and state.empty == 1 and not any(state.start_tiles):
            results = {_win_share(state, tile) for tile, _ in state.chance_outcomes()}
            if len(results) > 1:
                return state
    raise AssertionError("unreachable")


def _win_share(drawn: State, tile: int) -> float:
    """The drawer's final win share had `tile` come up: the last cell takes it, the game ends."""
    state = drawn.clone()
    seat = drawn.seat
    state.apply_action(tile)
    (place,) = state.legal_actions()
    state.apply_action(place)
    assert state.is_terminal()
    return Outcome.of(state.returns()).win_shares[seat]


@pytest.mark.parametrize("players", [2, 3])
def test_draw_luck_is_the_outcome_against_the_mean_of_the_outcomes(players: int) -> None:
    # At the last cell every tile's result is final: the known answer is each possible tile's
    # win share by the rules, weighted by its chance at the draw.
    drawn = _last_draw(players)
    outcomes = drawn.chance_outcomes()
    expected = sum(p * _win_share(drawn, tile) for tile, p in outcomes)
    for tile, _ in outcomes:
        state = drawn.clone()
        state.apply_action(tile)
        luck = _win_share(drawn, tile) - expected
        assert draw_luck(state, Searcher(100), seed=3) == pytest.approx(luck, abs=1e-9)
