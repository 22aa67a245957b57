"""Played games replayed through the kernel, many at once: their turns, deals, boards and gains.

Each game's actions go through `apply_action` one by one, so the rules are the kernel's own and
an action they refuse stops the batch with the game and ply named. What comes out is what the
lake stores: one row per turn, the starting tiles dealt, every epoch's board as it was scored
and the gold every seat gained in every epoch.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from engine import moves, pieces
from engine.kernel.compiled import kernel
from engine.kernel.layout import (
    CELLS,
    DEAL,
    DRAWN,
    EPOCH,
    GAINS_AT,
    MAX_EPOCHS,
    MAX_SEATS,
    OVER,
    PENDING,
    PHASE,
    RANKS,
    STATE_SIZE,
    TO_MOVE,
    castle_code,
    first_id,
    gold_at,
    held_at,
)
from engine.kernel.layout import PLACE as PLACE_PHASE
from engine.kernel.layout import TURN as TURN_PHASE
from engine.kernel.play import (
    CASTLE_1,
    PASS,
    PLACE_DRAWN,
    START,
    action_block,
    apply_action,
    begin_game,
    legal_count,
)
from engine.kernel.tables import kernel_rules
from engine.rules import RuleSet

SEATS = pieces.MAX_SEATS
KIND_CODES = np.array(  # a turn's kind as an index in engine.moves.KINDS: castle, draw, start, pass
    [moves.KINDS.index(kind) for kind in (moves.CASTLE, moves.DRAW, moves.START, moves.PASS)],
    dtype=np.int64,
)
_CASTLE, _DRAW, _START, _PASS = range(4)  # positions in KIND_CODES
ENDS_EARLY = -1  # the refused "action" of a list that ends before its game does


class ReplayError(ValueError):
    """An action list the rules refuse: an illegal action, or a list that ends too soon."""

    def __init__(self, game: int, ply: int, reason: str, name: object = None) -> None:
        super().__init__(f"game {game if name is None else name}: {reason}")
        self.game = game  # the game's index in the batch
        self.ply = ply  # the turn (1-based within the game) the refused action belongs to
        self.reason = reason


def refused_list(game: int, position: int, ply: int, action: int) -> ReplayError:
    """The error of game `game`'s list refused at `position` (1-based), the action of turn
    `ply`: `action`, or ENDS_EARLY for a list that ends before its game does."""
    if action == ENDS_EARLY:
        return ReplayError(game, ply, "its actions end before the game does")
    where = f"number {position} of its list, ply {ply}"
    return ReplayError(game, ply, f"action {action} ({where}) is not legal")


@dataclass(frozen=True)
class ReplayedTurns:
    """One entry per turn of every game (games in batch order, then by ply)."""

    game: np.ndarray  # the game's index in the batch
    epoch: np.ndarray
    ply: np.ndarray  # 1-based within the game
    turn: np.ndarray  # 1-based within the epoch
    seat: np.ndarray
    kind: np.ndarray  # an index in engine.moves.KINDS
    cell: np.ndarray  # -1 for a pass
    piece: np.ndarray  # the piece code placed, 0 for a pass
    legal: np.ndarray  # the most legal actions the mover had at one decision of the turn
    gold_before: np.ndarray  # the mover's gold as the turn began


TURN_TYPES = {  # each column's type
    "game": np.int64,
    "epoch": np.int8,
    "ply": np.int16,
    "turn": np.int8,
    "seat": np.int8,
    "kind": np.int8,
    "cell": np.int8,
    "piece": np.int8,
    "legal": np.int16,
    "gold_before": np.int16,
}
TURN_COLUMNS = tuple(TURN_TYPES)


@dataclass(frozen=True)
class Replayed:
    """What a batch of games did, E being the most epochs any of them can last."""

    turns: ReplayedTurns
    deals: np.ndarray  # (G, E, SEATS) starting tile dealt to each seat in each epoch, 0 for none
    boards: np.ndarray  # (G, E, cells) every epoch's board when it was scored, 0 for empty
    gains: np.ndarray  # (G, E, SEATS) gold each seat gained in each epoch, 0 after the last
    epochs: np.ndarray  # (G,) epochs played


class Written(NamedTuple):
    """The arrays `_replay` writes (G games, E the most epochs, T room for every turn)."""

    columns: tuple  # one (T,) array per TURN_TYPES column
    deals: np.ndarray  # (G, E, SEATS)
    boards: np.ndarray  # (G, E, cells)
    gains: np.ndarray  # (G, E, SEATS)
    epochs: np.ndarray  # (G,)
    refused: np.ndarray  # (4,) game, position in its list, ply, action; -1s when none is


def replay_games(
    setups: Sequence[tuple[int, RuleSet]],
    setup: np.ndarray,
    actions: np.ndarray,
    offsets: np.ndarray,
) -> Replayed:
    """Replay game g's actions (`actions[offsets[g]:offsets[g + 1]]`, uint8 or uint16) under
    `setups[setup[g]]` (players, rules); ReplayError for a list the rules refuse."""
    tables = [kernel_rules(players, rules) for players, rules in setups]
    epochs = max((int(t[MAX_EPOCHS]) for t in tables), default=0)
    cells = max((int(t[CELLS]) for t in tables), default=0)
    count = len(offsets) - 1
    rules_rows = np.zeros((len(tables), max((len(t) for t in tables), default=0)), np.int64)
    for row, table in zip(rules_rows, tables, strict=True):
        row[: len(table)] = table
    states = np.zeros(
        (len(tables), max((int(t[STATE_SIZE]) for t in tables), default=0)), dtype=np.int64
    )
    out = Written(
        tuple(np.empty(len(actions), dtype) for dtype in TURN_TYPES.values()),
        np.zeros((count, epochs, SEATS), dtype=np.int8),
        np.zeros((count, epochs, cells), dtype=np.int64),
        np.zeros((count, epochs, SEATS), dtype=np.int64),
        np.zeros(count, dtype=np.int64),
        np.full(4, -1, dtype=np.int64),
    )
    setup = np.asarray(setup, dtype=np.int64)
    actions = np.asarray(actions)
    if actions.dtype not in (np.uint8, np.uint16):
        actions = actions.astype(np.uint16)
    offsets = np.asarray(offsets, dtype=np.int64)
    turns = _replay(rules_rows, states, setup, actions, offsets, KIND_CODES, out) if count else 0
    if out.refused[0] >= 0:
        raise refused_list(*(int(value) for value in out.refused))
    columns = {name: column[:turns] for name, column in zip(TURN_TYPES, out.columns, strict=True)}
    return Replayed(ReplayedTurns(**columns), out.deals, out.boards, out.gains, out.epochs)


@kernel
def _replay(rules_rows, states, setup, actions, offsets, kinds, out) -> int:
    """Walk every game through `apply_action` (game g under the rules row `setup[g]`, on that
    setup's state row), writing into `out` (a `Written`) its turns (returning how many), its
    deals, scored boards, gains and epoch count; stop at the first refused action, writing
    (game, position in its list, ply, action) into `out.refused`."""
    game, epoch, ply, turn, seat, kind, cell, piece, legal, gold_before = out.columns
    deals, boards, gains, epochs, refused = (
        out.deals,
        out.boards,
        out.gains,
        out.epochs,
        out.refused,
    )
    count = 0
    for g in range(offsets.shape[0] - 1):
        rules, state = rules_rows[setup[g]], states[setup[g]]
        begin_game(state, rules)
        first_turn = count
        current = 0  # the epoch of the last turn, whose count `turns` holds
        turns = 0
        for i in range(offsets[g], offsets[g + 1]):
            action = np.int64(actions[i])  # one compiled apply_action, on int64 ids
            phase, now = state[PHASE], state[EPOCH]
            placed = -1  # the turn row whose piece this action puts on the board
            if phase == TURN_PHASE:
                if now != current:
                    current, turns = now, 0
                turns += 1
                row, mover = count, state[TO_MOVE]
                count += 1
                game[row], epoch[row], turn[row], seat[row] = g, now, turns, mover
                ply[row] = row - first_turn + 1
                legal[row] = legal_count(state, rules)
                gold_before[row] = state[gold_at(rules, mover)]
                block = action_block(rules, action)
                at = action - first_id(rules, max(block, 0))
                if CASTLE_1 <= block < CASTLE_1 + RANKS:
                    kind[row], cell[row] = kinds[_CASTLE], at
                    piece[row] = castle_code(rules, mover, block - CASTLE_1)
                    placed = row
                elif block == START:
                    kind[row], cell[row] = kinds[_START], at
                    piece[row] = state[held_at(rules, mover)]
                    placed = row
                elif block == PASS:
                    kind[row], cell[row], piece[row] = kinds[_PASS], -1, 0
                else:  # a draw (or in no-luck a chosen tile), placed in the PLACE phase
                    kind[row], cell[row], piece[row] = kinds[_DRAW], -1, 0
            elif phase == PLACE_PHASE:
                row = count - 1
                legal[row] = max(legal[row], legal_count(state, rules))
                cell[row], piece[row] = action - first_id(rules, PLACE_DRAWN), state[PENDING]
                placed = row
            elif phase == DEAL:
                deals[g, now - 1, state[TO_MOVE]] = action
            if not apply_action(state, rules, action):
                outside = phase != TURN_PHASE and phase != PLACE_PHASE and phase != DRAWN
                refused[0], refused[1] = g, i - offsets[g] + 1
                refused[2], refused[3] = count - first_turn + outside, action
                return count
            if placed >= 0:  # pieces stay on the board until its epoch is scored
                boards[g, now - 1, cell[placed]] = piece[placed]
        if state[PHASE] != OVER:
            refused[0], refused[1] = g, offsets[g + 1] - offsets[g] + 1
            refused[2], refused[3] = count - first_turn + 1, ENDS_EARLY
            return count
        played = rules[GAINS_AT]
        seats = rules[MAX_SEATS]
        for e in range(rules[MAX_EPOCHS]):
            for s in range(seats):
                gains[g, e, s] = state[played + e * seats + s]
        epochs[g] = state[EPOCH]
    return count
