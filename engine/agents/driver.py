"""Playing a whole game between agents: chance from a seeded generator, choices from agents."""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.agents.protocol import Agent
from engine.state import Game, State


def play_game(game: Game, agents: Sequence[Agent], seed: int | str) -> State:
    """Play one game to its end, agent i in seat i; the same seed gives the same game."""
    if len(agents) != game.players:
        raise ValueError(f"{game.players} players need {game.players} agents, not {len(agents)}")
    chance = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.play_chance(chance)
            continue
        seat = state.current_player()
        legal = state.legal_actions()
        if len(legal) > 1:
            state.apply_action(agents[seat].choose(state.observation(seat), legal))
        else:
            state.apply_action(legal[0])
    return state
