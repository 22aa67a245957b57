"""The kernel's search: legal choices only, blind to hidden tiles, and reproducible by seed."""

from __future__ import annotations

import random
from itertools import pairwise

import numpy as np
import pytest

from engine import pieces
from engine.agents import make_agent, play_game
from engine.agents.strong import Searcher, StrongAgent, kernel_position
from engine.kernel import search
from engine.kernel.layout import MAX_SEATS, RANKS, TILE_CODES, castles_at, gold_at
from engine.kernel.policies import policy_scratch
from engine.rules import EDITIONS, rule_set
from engine.state import TURN, Game, State

ITERATIONS = 60


def _turn_position(seed: int, players: int = 3, placements: int = 9) -> State:
    """A position mid-epoch, a seat to move, and every opponent still holding a starting tile."""
    state = Game(players).new_initial_state()
    rng = random.Random(seed)
    placed = 0
    while placed < placements or state.phase != TURN:
        if state.is_chance_node():
            state.play_chance(rng)
            continue
        legal = [a for a in state.legal_actions() if a // state.cells != 4]  # keep the tiles
        state.apply_action(rng.choice(legal))
        placed += 1
    return state


def _swap_hidden_tiles(state: State, seat: int) -> State:
    """The same position with every other seat's starting tile exchanged for another unseen."""
    other = state.clone()
    for opponent, held in enumerate(other.start_tiles):
        if opponent == seat or not held:
            continue
        replacement = next(t for t in pieces.TILE_KINDS if other.supply[t] and t != held)
        other.parts.supply[replacement] -= 1
        other.parts.supply[held] += 1
        other.parts.held[opponent] = replacement
    return other


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("variants", ["", "no-luck", "last-castle", "score-as-you-go"])
def test_the_search_only_chooses_legal_actions(edition: str, variants: str) -> None:
    for players in (2, 3, 4):
        game = Game(players, rule_set(edition, variants))
        seed = f"{edition}|{variants}|{players}"
        agents = [StrongAgent(ITERATIONS, f"{seed}:{seat}") for seat in range(players)]
        state = game.new_initial_state()
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


def _empty_supply_position(seed: int) -> State:
    """A 2-player turn where the opponent's hidden starting tile is the only unseen tile."""
    state = Game(2).new_initial_state()
    rng = random.Random(seed)
    while state.is_chance_node() or state.supply_size or state.phase != TURN:
        if state.is_chance_node():
            state.play_chance(rng)
        else:
            legal = [a for a in state.legal_actions() if a // state.cells != 4]
            state.apply_action(rng.choice(legal))
    return state


@pytest.mark.parametrize("seed", range(6))
def test_the_root_candidates_are_the_engines_legal_actions(seed: int) -> None:
    """Also where the opponent's hidden tile is the only unseen one, so no draw is legal."""
    for state in (_turn_position(seed), _empty_supply_position(seed)):
        observation = state.observation(state.current_player())
        result = Searcher(ITERATIONS).search(observation, seed)
        assert sorted(result.candidates) == state.legal_actions()
        assert set(result.visits) <= set(result.candidates)


def test_the_search_never_reads_another_seats_starting_tile() -> None:
    for seed in range(3):
        state = _turn_position(seed)
        seat = state.current_player()
        changed = _swap_hidden_tiles(state, seat)
        assert changed.start_tiles != state.start_tiles
        searcher = Searcher(ITERATIONS)
        for search_seed in range(8):
            first = searcher.search(state.observation(seat), search_seed)
            second = searcher.search(changed.observation(seat), search_seed)
            assert first.visits == second.visits
            assert first.values == second.values


def test_a_seed_reproduces_the_search() -> None:
    state = _turn_position(4)
    observation = state.observation(state.current_player())
    once = Searcher(ITERATIONS).search(observation, 5)
    again = Searcher(ITERATIONS).search(observation, 5)
    other = Searcher(ITERATIONS).search(observation, 6)
    assert once == again
    assert sum(once.visits.values()) == ITERATIONS
    assert other.visits != once.visits or other.values != once.values


def test_same_agent_seed_same_game() -> None:
    def history(seed: int) -> list[int]:
        agents = [make_agent("mcts-20", f"{seed}:{seat}") for seat in range(2)]
        return play_game(Game(2), agents, seed).history

    assert history(11) == history(11)
    assert history(11) != history(12)


def test_forced_actions_are_searched() -> None:
    state = _turn_position(2)
    observation = state.observation(state.current_player())
    searcher = Searcher(ITERATIONS)
    unforced = searcher.search(observation, 1)
    last = state.legal_actions()[-2]
    assert last not in unforced.visits
    assert last in searcher.search(observation, 1, include=[last]).visits


def _leaf_logit(packed: np.ndarray, rules: np.ndarray, seat: int) -> float:
    """The log odds of the leaf's win_share for `seat` against the other of two seats."""
    reward = np.zeros(int(rules[MAX_SEATS]))
    unseen = np.zeros(int(rules[TILE_CODES]), dtype=np.int64)
    search.leaf_win_shares(packed, rules, reward, unseen, policy_scratch(rules))
    return float(np.log(reward[seat] / reward[1 - seat]))


def _leaf_worth(state: State) -> tuple[float, float]:
    """For the seat to move in a 2-player position: the log odds one more gold adds, and what
    one more rank-4 castle held adds in gold (the log odds are linear in both)."""
    rules, packed, _ = kernel_position(state.observation(state.current_player()))
    seat = state.current_player()
    before = _leaf_logit(packed, rules, seat)
    packed[gold_at(rules, seat)] += 1
    per_gold = _leaf_logit(packed, rules, seat) - before
    packed[gold_at(rules, seat)] -= 1
    packed[castles_at(rules, seat, RANKS - 1)] += 1
    castle = _leaf_logit(packed, rules, seat) - before
    return per_gold, castle / per_gold


def _worth_through_a_game(seed: int) -> dict[tuple[int, int], tuple[float, float]]:
    """`_leaf_worth` at every turn of a random 2-player game, by (epoch, empty cells)."""
    state = Game(2).new_initial_state()
    rng = random.Random(seed)
    worth: dict[tuple[int, int], tuple[float, float]] = {}
    while not state.is_terminal():
        if state.is_chance_node():
            state.play_chance(rng)
            continue
        if state.phase == TURN:
            worth[state.epoch, state.empty] = _leaf_worth(state)
        state.apply_action(rng.choice(state.legal_actions()))
    return worth


def test_a_gold_lead_is_surer_the_fewer_cells_are_left_to_fill() -> None:
    worth = _worth_through_a_game(4)
    per_gold = [worth[key][0] for key in sorted(worth, key=lambda k: (k[0], -k[1]))]
    assert all(later > earlier for earlier, later in pairwise(per_gold))


def test_a_castle_held_into_the_last_epoch_is_worth_less_as_its_board_fills() -> None:
    """A castle still held when the game ends earns nothing, so the leaf's reserve for it fades
    over the last epoch; before the last epoch it keeps its worth for a later one."""
    worth = _worth_through_a_game(3)
    first_of_last = max(empty for epoch, empty in worth if epoch == 3)
    last_of_last = min(empty for epoch, empty in worth if epoch == 3)
    last_of_second = min(empty for epoch, empty in worth if epoch == 2)
    assert last_of_last <= 2
    assert worth[3, last_of_last][1] < worth[3, first_of_last][1] / 4
    assert worth[2, last_of_second][1] > worth[3, first_of_last][1] / 2
