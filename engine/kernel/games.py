"""Whole games on the kernel, many at once: a policy per seat (random, greedy, heuristic or
apprentice), chance and every random choice drawn from one stream per game, seeded from the
game's seed."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from engine.kernel.apprentice import Mind, apprentice_scores, new_mind
from engine.kernel.compiled import helper, inline, kernel
from engine.kernel.layout import (
    ACTION_COUNT,
    EPOCH,
    FIRST,
    GAINS_AT,
    OVER,
    PHASE,
    PLACE,
    PLAYERS,
    SUPPLY_SIZE,
    TILE_CODES,
    TO_MOVE,
    TURN,
)
from engine.kernel.play import apply_action, begin_game, legal_actions
from engine.kernel.policies import (
    APPRENTICE,
    HEURISTIC,
    RANDOM,
    PolicyScratch,
    action_values_in,
    pick_best,
    policy_scratch,
    unseen_by,
)
from engine.kernel.random_play import nth_tile, random_action
from engine.kernel.stream import pick


class Seats(NamedTuple):
    """What the seats of a game choose their actions with."""

    policies: np.ndarray  # (seats,) each seat's policy code
    stream: np.ndarray  # (1,) the game's random stream
    legal: np.ndarray  # (actions,) scratch: the legal actions
    values: np.ndarray  # (actions,) scratch: their values
    unseen: np.ndarray  # (tile codes,) scratch: the tiles the seat to move has not seen
    valuing: PolicyScratch  # the policies' scratch arrays
    mind: Mind  # the apprentice's


@kernel
def new_seats(rules, policies, model) -> Seats:
    """Fresh arrays for seats playing `policies` under these rules, an apprentice by `model`."""
    size = rules[ACTION_COUNT]
    return Seats(
        policies,
        np.zeros(1, dtype=np.uint64),
        np.zeros(size, dtype=np.int64),
        np.zeros(size, dtype=np.float64),
        np.zeros(rules[TILE_CODES], dtype=np.int64),
        policy_scratch(rules),
        new_mind(rules, model),
    )


@inline
def policy_action(policy, state, rules, seats) -> int:
    """The policy's action for the seat to move, from what that seat sees."""
    stream, legal, values, unseen = seats.stream, seats.legal, seats.values, seats.unseen
    if policy == RANDOM:
        return random_action(state, rules, stream)
    count = legal_actions(state, rules, legal)
    if count == 1:
        return legal[0]
    if policy == APPRENTICE:
        apprentice_scores(state, rules, unseen, legal, count, values, seats.valuing, seats.mind)
        return pick_best(legal, seats.mind.scores, count, stream)
    unseen_by(state, rules, state[TO_MOVE], unseen)
    weight = 1.0 if policy == HEURISTIC else 0.0
    action_values_in(state, rules, unseen, legal, count, weight, np.nan, values, seats.valuing)
    return pick_best(legal, values, count, stream)


@inline
def next_action(state, rules, seats) -> int:
    """The seat to move's action by its policy, or a chance outcome drawn from the stream."""
    phase = state[PHASE]
    if phase == TURN or phase == PLACE:
        return policy_action(seats.policies[state[TO_MOVE]], state, rules, seats)
    stream = seats.stream
    if phase == FIRST:
        return pick(stream, rules[PLAYERS])
    return nth_tile(state, rules, pick(stream, state[SUPPLY_SIZE]))  # a uniform tile dealt or drawn


@helper
def play_game(state, rules, seats, actions, start, stop) -> int:
    """Play one game from a fresh state, its actions into `actions` from `start` (at most up to
    `stop`); returns where they end. Compiled without reference counting: the inlined policies
    would otherwise count every array they are handed, on every action."""
    begin_game(state, rules)
    count = start
    while state[PHASE] != OVER and count < stop:
        action = next_action(state, rules, seats)
        actions[count] = action
        count += 1
        apply_action(state, rules, action)
    return count


@kernel
def play_games(state, rules, policies, model, seeds, longest, actions, offsets, gains, epochs):
    """Play one game per seed from a fresh state, seat i by policy `policies[i]` (an apprentice
    by `model`, engine/kernel/apprentice.py's): every game's actions into `actions` (game g's at
    offsets[g]:offsets[g + 1]), its gains per epoch (`gains` rows as long as the state's gains)
    and its epoch count."""
    seats = new_seats(rules, policies, model)
    played = rules[GAINS_AT]
    offsets[0] = 0
    for g in range(seeds.shape[0]):
        seats.stream[0] = seeds[g]
        start = offsets[g]
        offsets[g + 1] = play_game(state, rules, seats, actions, start, start + longest)
        gains[g] = state[played : played + gains.shape[1]]
        epochs[g] = state[EPOCH]
