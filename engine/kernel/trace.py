"""Played games replayed through the kernel with the search's fitted leaf read along them: every
seat's expected win share at each turn, what each decision offered by the heuristic's gold
values, and what each tile drawn was worth against the tiles that could have come.

The actions go through `apply_action`, the shares come from `leaf_win_shares` and the values
from `action_values_in`, so every rule is the kernel's own.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from engine.kernel.apprentice import FEATURES
from engine.kernel.compiled import kernel
from engine.kernel.games import next_action
from engine.kernel.layout import DRAWN, OVER, PHASE, PLACE, PLAYERS, STATE_SIZE, TO_MOVE, TURN
from engine.kernel.play import apply_action, begin_game, chance_outcomes, legal_actions
from engine.kernel.policies import action_values_in, unseen_by
from engine.kernel.search import leaf_win_shares, new_scratch

# Columns of a game's decision counts.
ACTED = 0  # plies where a seat acted (a turn's choice, or placing the tile it drew or chose)
CHOICES = 1  # of those, plies with more than one legal action
CLEAR = 2  # of those, plies whose best action is valued above every other by more than `clear`
OPEN = 3  # plies with more than one action valued within `sensible` of the best
DECISION_COLUMNS = 4


class Traced(NamedTuple):
    """The arrays `trace_games` writes (G games, P room for every game's points)."""

    shares: np.ndarray  # (P, seats) every seat's expected win share at each point
    starts: np.ndarray  # (G + 1,) game g's points are shares[starts[g]:starts[g + 1]]
    decisions: np.ndarray  # (G, DECISION_COLUMNS) counts by the columns above
    luck: np.ndarray  # (G, seats) each seat's summed luck over the game's draws
    refused: np.ndarray  # (3,) a refused action's game, position in its list and turn


@kernel
def trace_games(rules, actions, offsets, sensible, clear, out) -> None:
    """Replay game g's actions (`actions[offsets[g]:offsets[g + 1]]`) and write into `out` (a
    `Traced`): the leaf's win shares at the start of every turn and at the end; the decision
    counts, actions valued in gold by the heuristic (within `sensible` of the best: sensible;
    the best above the second by more than `clear`: clear); and at every draw each seat's
    shares with the tile drawn minus their mean over the tiles that could have been drawn,
    each tile placed where the heuristic places it. A refused action, or a list that ends
    before its game does, stops the batch with (game, position, turn) in `out.refused`."""
    players = rules[PLAYERS]
    scratch = new_scratch(rules, np.zeros((3, FEATURES), dtype=np.float64), 0)
    seats, reward = scratch.seats, scratch.reward
    legal, values, unseen, valuing = seats.legal, seats.values, seats.unseen, seats.valuing
    outcomes = np.zeros(legal.shape[0], dtype=np.int64)
    weights = np.zeros(legal.shape[0], dtype=np.int64)
    drawn = np.zeros(players, dtype=np.float64)
    expected = np.zeros(players, dtype=np.float64)
    state = np.zeros(rules[STATE_SIZE], dtype=np.int64)
    work = np.zeros_like(state)
    point = 0
    for g in range(offsets.shape[0] - 1):
        begin_game(state, rules)
        seats.stream[0] = np.uint64(0)  # the heuristic's ties break alike wherever a game is
        out.starts[g] = point
        for i in range(offsets[g], offsets[g + 1]):
            action = np.int64(actions[i])
            phase = state[PHASE]
            if phase == TURN:
                leaf_win_shares(state, rules, reward, unseen, valuing)
                out.shares[point, :players] = reward
                point += 1
            if phase == TURN or phase == PLACE:
                count = legal_actions(state, rules, legal)
                out.decisions[g, ACTED] += 1
                if count > 1:
                    unseen_by(state, rules, state[TO_MOVE], unseen)
                    action_values_in(
                        state, rules, unseen, legal, count, 1.0, np.nan, values, valuing
                    )
                    best, second, near = -np.inf, -np.inf, 0
                    for k in range(count):
                        if values[k] > best:
                            best, second = values[k], best
                        elif values[k] > second:
                            second = values[k]
                    for k in range(count):
                        near += values[k] >= best - sensible
                    out.decisions[g, CHOICES] += 1
                    out.decisions[g, CLEAR] += best - second > clear
                    out.decisions[g, OPEN] += near > 1
            elif phase == DRAWN:
                count = chance_outcomes(state, rules, outcomes, weights)
                total = 0
                expected[:] = 0.0
                for k in range(count):
                    work[:] = state
                    apply_action(work, rules, outcomes[k])
                    apply_action(work, rules, next_action(work, rules, seats))
                    leaf_win_shares(work, rules, reward, unseen, valuing)
                    total += weights[k]
                    for seat in range(players):
                        expected[seat] += weights[k] * reward[seat]
                    if outcomes[k] == action:
                        drawn[:] = reward[:players]
                for seat in range(players):
                    out.luck[g, seat] += drawn[seat] - expected[seat] / total
            if not apply_action(state, rules, action):
                out.refused[0], out.refused[1] = g, i - offsets[g] + 1
                dealing = phase != TURN and phase != PLACE and phase != DRAWN
                out.refused[2] = point - out.starts[g] + dealing  # the turn it comes before
                return
        if state[PHASE] != OVER:
            out.refused[0], out.refused[1] = g, offsets[g + 1] - offsets[g] + 1
            out.refused[2] = point - out.starts[g] + 1
            return
        leaf_win_shares(state, rules, reward, unseen, valuing)
        out.shares[point, :players] = reward
        point += 1
    out.starts[offsets.shape[0] - 1] = point
