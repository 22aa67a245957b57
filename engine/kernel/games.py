"""Whole games on the kernel, many at once: a policy per seat (random, greedy or heuristic),
chance and every random choice drawn from one stream per game, seeded from the game's seed."""

from __future__ import annotations

import numba
import numpy as np

from engine.kernel.layout import (
    EPOCH,
    FIRST,
    NO_LUCK,
    OVER,
    PHASE,
    PLACE,
    PLAYERS,
    SUPPLY_SIZE,
    TO_MOVE,
    TURN,
)
from engine.kernel.play import apply_action, begin_game, legal_actions
from engine.kernel.policies import HEURISTIC, RANDOM, action_values, pick_best, unseen_by
from engine.kernel.random_play import nth_tile, random_action, random_choice
from engine.kernel.stream import pick


@numba.njit(cache=True)
def policy_action(policy, state, rules, stream, legal, values, unseen) -> int:
    """The policy's action for the seat to move, from what that seat sees (`legal`, `values`
    and `unseen`: scratch arrays as long as the action ids and the tile codes)."""
    s = state.scalars
    if policy == RANDOM:
        return random_action(state, rules, stream)
    count = legal_actions(state, rules, legal)
    if count == 1:
        return legal[0]
    unseen_by(state, s[TO_MOVE], unseen)
    action_values(state, rules, unseen, legal, count, policy == HEURISTIC, np.nan, values)
    return pick_best(legal, values, count, stream)


@numba.njit(cache=True)
def play_games(state, rules, policies, seeds, longest, actions, offsets, gains, epochs) -> None:
    """Play one game per seed from a fresh state, seat i by policy `policies[i]`: every game's
    actions into `actions` (game g's at offsets[g]:offsets[g + 1]), its gains per epoch and its
    epoch count."""
    s = state.scalars
    board = state.board
    castles = state.castles
    held = state.held
    supply = state.supply
    played = state.gains
    params = rules.params
    ids = rules.actions
    no_luck = params[NO_LUCK]
    size = ids[ids.shape[0] - 1]
    legal = np.zeros(size, dtype=np.int64)
    values = np.zeros(size, dtype=np.float64)
    unseen = np.zeros(supply.shape[0], dtype=np.int64)
    stream = np.zeros(1, dtype=np.uint64)
    offsets[0] = 0
    for g in range(seeds.shape[0]):
        begin_game(state, rules)
        stream[0] = seeds[g]
        count = offsets[g]
        stop = count + longest
        while s[PHASE] != OVER and count < stop:
            phase = s[PHASE]
            if phase == TURN or phase == PLACE:
                policy = policies[s[TO_MOVE]]
                if policy == RANDOM:
                    action = random_choice(s, board, castles, held, supply, ids, no_luck, stream)
                else:
                    action = policy_action(policy, state, rules, stream, legal, values, unseen)
            elif phase == FIRST:
                action = pick(stream, params[PLAYERS])
            else:  # a deal or a draw: a uniform tile of the supply
                action = nth_tile(supply, pick(stream, s[SUPPLY_SIZE]))
            actions[count] = action
            count += 1
            apply_action(state, rules, action)
        offsets[g + 1] = count
        gains[g] = played
        epochs[g] = s[EPOCH]
