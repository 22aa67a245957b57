"""The game on flat arrays: a state, its legal actions and chance outcomes, and applying one.

The same rules as engine/state.py, which stays the readable reference that the tests hold this
to. A state is a `KernelState` of arrays; the rules arrive as a `KernelRules`.
"""

from __future__ import annotations

from typing import NamedTuple

import numba
import numpy as np

from engine.actions import CASTLE_BLOCKS, Block
from engine.kernel.layout import (
    CELLS,
    DEAL,
    DRAWN,
    EMPTY,
    EPOCH,
    EPOCHS,
    FIRST,
    LAST_CASTLE,
    LAST_PLACED,
    MAX_EPOCHS,
    NEXT_FIRST,
    NO_LUCK,
    ORDER_FIRST,
    OVER,
    PENDING,
    PHASE,
    PLACE,
    PLAYERS,
    SCALARS,
    SCORE_AS_YOU_GO,
    START_GOLD,
    STARTING_TILES,
    SUPPLY_SIZE,
    TILE_CODES,
    TO_MOVE,
    TURN,
)
from engine.kernel.scoring import add_line_gold, effective_ranks, line_is_full, score_gold
from engine.kernel.tables import KernelRules

CASTLE_1, START, PLACE_DRAWN, DRAW, PASS, CHOOSE = (
    int(CASTLE_BLOCKS[0]), int(Block.START), int(Block.PLACE), int(Block.DRAW), int(Block.PASS),
    int(Block.CHOOSE),
)  # fmt: skip


class KernelState(NamedTuple):
    """One position as arrays (seats are the rules' castle_code rows, MAX_SEATS of them)."""

    scalars: np.ndarray  # (SCALARS,) by the slots of layout.py
    board: np.ndarray  # (cells,) piece codes, 0 for empty
    gold: np.ndarray  # (seats,)
    castles: np.ndarray  # (seats, 4) castles left of rank 1..4
    held: np.ndarray  # (seats,) each seat's starting tile, 0 for none
    supply: np.ndarray  # (TILE_CODES,) tiles left to draw (or deal, or choose)
    gains: np.ndarray  # (MAX_EPOCHS, seats) gold gained in every epoch


def new_state(rules: KernelRules) -> KernelState:
    """A fresh game's state: before the first deal (or, in no-luck, the first player)."""
    seats = rules.castle_code.shape[0]
    state = KernelState(
        np.zeros(SCALARS, dtype=np.int64),
        np.zeros(rules.params[CELLS], dtype=np.int64),
        np.zeros(seats, dtype=np.int64),
        np.zeros((seats, 4), dtype=np.int64),
        np.zeros(seats, dtype=np.int64),
        np.zeros(rules.params[TILE_CODES], dtype=np.int64),
        np.zeros((rules.params[MAX_EPOCHS], seats), dtype=np.int64),
    )
    begin_game(state, rules)
    return state


def action_count(rules: KernelRules) -> int:
    """One past the largest action id."""
    return int(rules.actions[-1])


def legal_action_list(state: KernelState, rules: KernelRules) -> list[int]:
    """`legal_actions` as a list (for a caller outside the kernel)."""
    out = np.zeros(action_count(rules), dtype=np.int64)
    return out[: legal_actions(state, rules, out)].tolist()


def chance_outcome_list(state: KernelState, rules: KernelRules) -> list[tuple[int, float]]:
    """`chance_outcomes` as (outcome, probability) pairs, as engine.State gives them."""
    outcomes = np.zeros(action_count(rules), dtype=np.int64)
    weights = np.zeros(action_count(rules), dtype=np.int64)
    count = chance_outcomes(state, rules, outcomes, weights)
    total = weights[:count].sum()
    pairs = zip(outcomes[:count], weights[:count], strict=True)
    return [(int(outcome), int(weight) / total) for outcome, weight in pairs]


@numba.njit(cache=True)
def begin_game(state, rules) -> None:
    """Set up a game: start gold, every seat's castles, then the first epoch."""
    s = state.scalars
    board = state.board
    gold = state.gold
    castles = state.castles
    gains = state.gains
    params = rules.params
    rule_castles = rules.castles
    players = params[PLAYERS]
    s.fill(0)
    board.fill(0)
    gold.fill(0)
    castles.fill(0)
    gains.fill(0)
    for seat in range(players):
        gold[seat] = params[START_GOLD]
        for rank in range(4):
            castles[seat, rank] = rule_castles[rank]
    s[EPOCH] = 1
    begin_epoch(state, rules, -1)


@numba.njit(cache=True)
def begin_epoch(state, rules, first_seat: int) -> None:
    """Shuffle every tile into the supply and deal the starting tiles; `first_seat` moves first
    once they are dealt (-1: chosen by chance)."""
    s = state.scalars
    held = state.held
    supply = state.supply
    params = rules.params
    full_supply = rules.supply
    size = 0
    for tile in range(supply.shape[0]):
        supply[tile] = full_supply[tile]
        size += full_supply[tile]
    s[SUPPLY_SIZE] = size
    held.fill(0)
    s[EMPTY] = params[CELLS]
    s[NEXT_FIRST] = first_seat
    if first_seat >= 0:
        s[ORDER_FIRST] = first_seat
    if params[STARTING_TILES]:
        s[TO_MOVE] = 0
        s[PHASE] = DEAL
    else:
        after_deal(state, rules)


@numba.njit(cache=True)
def after_deal(state, rules) -> None:
    """The first player moves, or is chosen by chance (the caller ends an epoch in which
    nobody can act: see `end_epoch_if_stuck`)."""
    s = state.scalars
    if s[NEXT_FIRST] < 0:
        s[PHASE] = FIRST
    else:
        s[TO_MOVE] = s[NEXT_FIRST]
        s[PHASE] = TURN


@numba.njit(cache=True)
def castles_left(castles, seat: int) -> int:
    """The castles a seat has left (`castles`: the state's (seats, 4) array)."""
    total = 0
    for rank in range(castles.shape[1]):
        total += castles[seat, rank]
    return total


@numba.njit(cache=True)
def can_act(state, seat: int) -> bool:
    """Whether the seat has anything to do but pass."""
    s = state.scalars
    held = state.held
    castles = state.castles
    return s[EMPTY] > 0 and (
        castles_left(castles, seat) > 0 or held[seat] > 0 or s[SUPPLY_SIZE] > 0
    )


@numba.njit(cache=True)
def nobody_can_act(state, rules) -> bool:
    """An epoch in which nobody can act ends at once (possible only in last-castle)."""
    params = rules.params
    for seat in range(params[PLAYERS]):
        if can_act(state, seat):
            return False
    return True


@numba.njit(cache=True)
def end_epoch_if_stuck(state, rules) -> None:
    s = state.scalars
    if s[PHASE] == TURN and nobody_can_act(state, rules):
        end_epoch(state, rules)


@numba.njit(cache=True)
def epoch_is_over(s, castles, held, players: int) -> bool:
    """The board is full, or nobody has anything left to place (`s`: the state's scalars)."""
    if s[EMPTY] == 0 or s[SUPPLY_SIZE] > 0:
        return s[EMPTY] == 0
    for seat in range(players):
        if castles_left(castles, seat) > 0 or held[seat] > 0:
            return False
    return True


@numba.njit(cache=True)
def richest_first(state, rules) -> int:
    """Most gold moves first; a tie goes to the earliest in the last epoch's turn order."""
    s = state.scalars
    gold = state.gold
    params = rules.params
    players = params[PLAYERS]
    first = s[ORDER_FIRST]
    best = first
    for k in range(players):
        seat = (first + k) % players
        if gold[seat] > gold[best]:
            best = seat
    return best


@numba.njit(cache=True)
def end_epoch(state, rules) -> None:
    """Score the board (unless scored as it filled), return rank-1 castles (all castles leave
    in last-castle), and begin the next epoch or end the game; again while the new epoch is
    one in which nobody can act."""
    s = state.scalars
    board = state.board
    gold = state.gold
    castles = state.castles
    gains = state.gains
    params = rules.params
    castle_code = rules.castle_code
    players = params[PLAYERS]
    while True:
        epoch = s[EPOCH] - 1
        if not params[SCORE_AS_YOU_GO]:
            score_gold(board, rules, gains[epoch])
            for seat in range(players):
                gold[seat] += gains[epoch, seat]
        if params[LAST_CASTLE]:
            over = s[LAST_PLACED] != 0
        else:
            for cell in range(board.shape[0]):
                piece = board[cell]
                for seat in range(players):
                    if piece == castle_code[seat, 0]:
                        castles[seat, 0] += 1
            over = s[EPOCH] == params[EPOCHS]
        if over:
            s[PHASE] = OVER
            return
        s[EPOCH] += 1
        board.fill(0)
        begin_epoch(state, rules, richest_first(state, rules))
        if s[PHASE] != TURN or not nobody_can_act(state, rules):
            return


@numba.njit(cache=True)
def score_filled_lines(state, rules, cell: int) -> None:
    """Score-as-you-go: pay out the lines the piece just placed on `cell` filled."""
    s = state.scalars
    board = state.board
    gold = state.gold
    gains = state.gains
    cell_lines = rules.cell_lines
    epoch = s[EPOCH] - 1
    rank = np.zeros(board.shape[0], dtype=np.int64)
    effective_ranks(board, rules, rank)
    gained = np.zeros(gold.shape[0], dtype=np.int64)
    ranks = np.zeros(gold.shape[0], dtype=np.int64)
    for axis in range(cell_lines.shape[1]):
        line = cell_lines[cell, axis]
        if line_is_full(board, line, rules):
            add_line_gold(board, line, rank, rules, gained, ranks)
    for seat in range(gained.shape[0]):
        gains[epoch, seat] += gained[seat]
        gold[seat] += gained[seat]


@numba.njit(cache=True)
def action_block(rules, action: int) -> int:
    """The action block (engine/actions.py's Block) an action id lies in, -1 for none."""
    ids = rules.actions
    if action < ids[0] or action >= ids[ids.shape[0] - 1]:
        return -1
    block = 0
    while ids[block + 1] <= action:
        block += 1
    return block


@numba.njit(cache=True)
def legal_actions(state, rules, out) -> int:
    """Write the legal actions (sorted, as engine.State lists them) into `out`; return how many.
    Chance nodes list their outcomes; a finished game none."""
    s = state.scalars
    board = state.board
    castles = state.castles
    held = state.held
    supply = state.supply
    params = rules.params
    ids = rules.actions
    phase = s[PHASE]
    cells = params[CELLS]
    count = 0
    if phase == PLACE:
        for cell in range(cells):
            if board[cell] == 0:
                out[count] = ids[PLACE_DRAWN] + cell
                count += 1
        return count
    if phase == TURN:
        seat = s[TO_MOVE]
        for rank in range(4):
            if castles[seat, rank] > 0:
                for cell in range(cells):
                    if board[cell] == 0:
                        out[count] = ids[CASTLE_1 + rank] + cell
                        count += 1
        if held[seat] > 0:
            for cell in range(cells):
                if board[cell] == 0:
                    out[count] = ids[START] + cell
                    count += 1
        if s[SUPPLY_SIZE] > 0:
            if params[NO_LUCK]:
                for tile in range(1, supply.shape[0]):
                    if supply[tile] > 0:
                        out[count] = ids[CHOOSE] + tile
                        count += 1
            else:
                out[count] = ids[DRAW]
                count += 1
        if count == 0:
            out[count] = ids[PASS]
            count += 1
        return count
    if phase == OVER:
        return 0
    weights = np.zeros(out.shape[0], dtype=np.int64)
    return chance_outcomes(state, rules, out, weights)


@numba.njit(cache=True)
def chance_outcomes(state, rules, outcomes, weights) -> int:
    """Write a chance node's outcomes and their weights (probability × the weights' sum) into
    the arrays; return how many (0 when the state is not a chance node)."""
    s = state.scalars
    supply = state.supply
    params = rules.params
    phase = s[PHASE]
    count = 0
    if phase == FIRST:
        for seat in range(params[PLAYERS]):
            outcomes[count] = seat
            weights[count] = 1
            count += 1
    elif phase == DEAL or phase == DRAWN:
        for tile in range(1, supply.shape[0]):
            if supply[tile] > 0:
                outcomes[count] = tile
                weights[count] = supply[tile]
                count += 1
    return count


@numba.njit(cache=True)
def apply_action(state, rules, action: int) -> bool:
    """Apply one action (or chance outcome); False, leaving the state as it was, when it is
    not legal here. One function on purpose: a call between compiled functions that passes
    the state and the rules costs about 100 ns, more than applying the action."""
    s = state.scalars
    board = state.board
    castles = state.castles
    held = state.held
    supply = state.supply
    params = rules.params
    castle_code = rules.castle_code
    ids = rules.actions
    players = params[PLAYERS]
    phase = s[PHASE]
    seat = s[TO_MOVE]
    cell = piece = -1  # the placement the action makes, if any
    if phase == TURN:
        block = action_block(rules, action)
        if block < 0:
            return False
        at = action - ids[block]
        if CASTLE_1 <= block < CASTLE_1 + 4:
            rank = block - CASTLE_1
            if castles[seat, rank] == 0 or board[at] != 0:
                return False
            castles[seat, rank] -= 1
            if castles_left(castles, seat) == 0:
                s[LAST_PLACED] = 1
            cell, piece = at, castle_code[seat, rank]
        elif block == START:
            if held[seat] == 0 or board[at] != 0:
                return False
            cell, piece = at, held[seat]
            held[seat] = 0
        elif block == DRAW and not params[NO_LUCK]:
            if s[SUPPLY_SIZE] == 0:
                return False
            s[PHASE] = DRAWN
            return True
        elif block == PASS:
            if can_act(state, seat):
                return False
        elif block == CHOOSE and params[NO_LUCK]:
            if not 0 < at < supply.shape[0] or supply[at] == 0:
                return False
            supply[at] -= 1
            s[SUPPLY_SIZE] -= 1
            s[PENDING] = at
            s[PHASE] = PLACE
            return True
        else:
            return False
    elif phase == PLACE:
        if action_block(rules, action) != PLACE_DRAWN:
            return False
        cell = action - ids[PLACE_DRAWN]
        if board[cell] != 0:
            return False
        piece = s[PENDING]
        s[PENDING] = 0
    elif phase == FIRST:
        if not 0 <= action < players:
            return False
        s[TO_MOVE] = action
        s[ORDER_FIRST] = action
        s[PHASE] = TURN
        end_epoch_if_stuck(state, rules)
        return True
    elif phase == DEAL or phase == DRAWN:
        if not 0 < action < supply.shape[0] or supply[action] == 0:
            return False
        supply[action] -= 1
        s[SUPPLY_SIZE] -= 1
        if phase == DRAWN:
            s[PENDING] = action
            s[PHASE] = PLACE
        else:
            held[seat] = action
            if seat + 1 < players:
                s[TO_MOVE] += 1
            else:
                after_deal(state, rules)
                end_epoch_if_stuck(state, rules)
        return True
    else:
        return False
    # the turn ends (a placement or a pass): pass it clockwise, or end the epoch
    if cell >= 0:
        board[cell] = piece
        s[EMPTY] -= 1
        if params[SCORE_AS_YOU_GO]:
            score_filled_lines(state, rules, cell)
    if epoch_is_over(s, castles, held, players):
        end_epoch(state, rules)
    else:
        s[TO_MOVE] = (seat + 1) % players
        s[PHASE] = TURN
    return True
