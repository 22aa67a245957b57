"""Agents: only legal actions, no peeking at hidden tiles, and seeded reproducibility."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import pieces
from engine.agents import AGENT_NAMES, UnknownAgentError, make_agent, play_game
from engine.agents.strong import StrongAgent
from engine.state import TURN, Game, State


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    players=st.integers(2, 4),
    names=st.lists(st.sampled_from(AGENT_NAMES), min_size=4, max_size=4),
)
def test_agents_only_choose_legal_actions(seed: int, players: int, names: list[str]) -> None:
    agents = [make_agent(names[seat], seed + seat) for seat in range(players)]
    state = Game(players).new_initial_state()
    chance = random.Random(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            state.play_chance(chance)
            continue
        seat = state.current_player()
        legal = state.legal_actions()
        action = agents[seat].choose(state.observation(seat), legal)
        assert action in legal
        state.apply_action(action)


@pytest.mark.slow
def test_mcts_only_chooses_legal_actions() -> None:
    state = play_game(Game(2), [make_agent("mcts-8", 1), make_agent("random", 2)], seed=3)
    assert state.is_terminal()


def _turn_position(seed: int, players: int = 3, placements: int = 9) -> State:
    """A position mid-epoch with a seat to move and opponents still holding starting tiles."""
    state = Game(players).new_initial_state()
    rng = random.Random(seed)
    while state.is_chance_node() or state.empty > state.cells - placements:
        if state.is_chance_node():
            state.play_chance(rng)
        else:
            legal = [a for a in state.legal_actions() if a // state.cells != 4]
            state.apply_action(rng.choice(legal))
    assert state.phase == TURN
    return state


def _swap_hidden_tile(state: State, seat: int) -> State:
    """The same position with another seat's starting tile exchanged for a different unseen one."""
    other = state.clone()
    opponent = next(s for s in range(state.players) if s != seat and other.start_tiles[s])
    held = other.start_tiles[opponent]
    replacement = next(t for t in pieces.TILE_KINDS if other.supply[t] and t != held)
    other.parts.supply[replacement] -= 1
    other.parts.supply[held] += 1
    other.parts.held[opponent] = replacement
    return other


@pytest.mark.parametrize("name", [*AGENT_NAMES, "mcts-40"])
def test_agents_never_read_hidden_information(name: str) -> None:
    for seed in range(3):
        state = _turn_position(seed)
        seat = state.current_player()
        changed = _swap_hidden_tile(state, seat)
        assert changed.start_tiles != state.start_tiles
        legal = state.legal_actions()
        first = make_agent(name, 7).choose(state.observation(seat), legal)
        second = make_agent(name, 7).choose(changed.observation(seat), legal)
        assert first == second


@pytest.mark.parametrize("name", ["random", "greedy", "heuristic", "mcts-5"])
def test_same_seed_same_game(name: str) -> None:
    def history(seed: int) -> list[int]:
        agents = [make_agent(name, f"{seed}:{seat}") for seat in range(2)]
        return play_game(Game(2), agents, seed).history

    assert history(11) == history(11)
    assert history(11) != history(12)


def test_greedy_beats_random_in_a_few_games() -> None:
    wins = 0
    for seed in range(6):
        order = ["greedy", "random"] if seed % 2 == 0 else ["random", "greedy"]
        state = play_game(Game(2), [make_agent(n, seed) for n in order], seed)
        greedy_seat = order.index("greedy")
        wins += state.gold[greedy_seat] > state.gold[1 - greedy_seat]
    assert wins >= 5


def test_names_make_agents() -> None:
    agent = make_agent("mcts-400", 1)
    assert isinstance(agent, StrongAgent)
    assert agent.iterations == 400
    assert agent.name == "mcts-400"
    for name in AGENT_NAMES:
        assert make_agent(name, 0).name == name


@pytest.mark.parametrize("name", ["", "mcts", "mcts-0", "mcts-x", "Greedy", "alpha"])
def test_unknown_names_are_refused(name: str) -> None:
    with pytest.raises(UnknownAgentError):
        make_agent(name, 0)


def test_mcts_does_not_draw_from_an_empty_supply() -> None:
    """Hidden starting tiles count as unseen, yet they cannot be drawn."""
    state = Game(2).new_initial_state()
    rng = random.Random(2)
    while state.is_chance_node() or state.supply_size or state.phase != TURN:
        if state.is_chance_node():
            state.play_chance(rng)
        else:
            legal = [a for a in state.legal_actions() if a // state.cells != 4]
            state.apply_action(rng.choice(legal))
    seat = state.current_player()
    opponent = 1 - seat
    assert state.start_tiles[opponent] and state.game.codes.draw not in state.legal_actions()
    legal = state.legal_actions()
    assert make_agent("mcts-30", 1).choose(state.observation(seat), legal) in legal
