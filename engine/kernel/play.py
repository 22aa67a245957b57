"""The game on flat arrays: a state, its legal actions and chance outcomes, and applying one.

The game's rules, written once: engine/state.py is a face over these arrays, and the tests hold
them to a readable reference (tests/engine/reference/). A state is one int64 array and the rules
another (their slots: engine/kernel/layout.py).
"""

from __future__ import annotations

import numpy as np

from engine import facts
from engine.actions import CASTLE_BLOCKS, Block
from engine.kernel.compiled import helper, inline, kernel
from engine.kernel.layout import (
    ACTION_BLOCKS_AT,
    ACTION_COUNT,
    BOARD_AT,
    CASTLE,
    CASTLE_COUNTS_AT,
    CELLS,
    DEAL,
    DRAWN,
    EMPTY,
    EPOCH,
    EPOCHS,
    FIRST,
    FULL_SUPPLY_AT,
    HELD_AT,
    LAST_CASTLE,
    LAST_PLACED,
    LONGEST,
    MAX_SEATS,
    NEXT_FIRST,
    NO_LUCK,
    ORDER_FIRST,
    OVER,
    PENDING,
    PHASE,
    PLACE,
    PLAYERS,
    RANKS,
    RETURNING_RANKS,
    SCORE_AS_YOU_GO,
    START_GOLD,
    STARTING_TILES,
    STATE_SIZE,
    SUPPLY_SIZE,
    TILE_CODES,
    TO_MOVE,
    TURN,
    board_of,
    castle_code,
    castles_at,
    cell_line,
    first_id,
    gains_at,
    gold_at,
    held_at,
    piece_kind,
    piece_rank,
    piece_seat,
    supply_at,
)
from engine.kernel.scoring import (
    STATS,
    add_segments_gold,
    effective_ranks,
    line_is_full,
    scan_line,
    score_gold,
)

seat_at = inline(facts.seat_at)

CASTLE_1 = int(CASTLE_BLOCKS[0])
START = int(Block.START)
PLACE_DRAWN = int(Block.PLACE)
DRAW = int(Block.DRAW)
PASS = int(Block.PASS)
CHOOSE = int(Block.CHOOSE)
BLOCKS = len(Block)


def new_state(rules: np.ndarray) -> np.ndarray:
    """A fresh game's state: before the first deal (or, in no-luck, the first player)."""
    state = np.zeros(int(rules[STATE_SIZE]), dtype=np.int64)
    begin_game(state, rules)
    return state


def action_count(rules: np.ndarray) -> int:
    """One past the largest action id."""
    return int(rules[ACTION_COUNT])


def legal_action_list(state: np.ndarray, rules: np.ndarray) -> list[int]:
    """`legal_actions` as a list (for a caller outside the kernel)."""
    out = np.zeros(action_count(rules), dtype=np.int64)
    return out[: legal_actions(state, rules, out)].tolist()


def chance_outcome_list(state: np.ndarray, rules: np.ndarray) -> list[tuple[int, float]]:
    """`chance_outcomes` as (outcome, probability) pairs, as engine.State gives them."""
    outcomes = np.zeros(action_count(rules), dtype=np.int64)
    weights = np.zeros(action_count(rules), dtype=np.int64)
    count = chance_outcomes(state, rules, outcomes, weights)
    total = int(weights[:count].sum())
    pairs = zip(outcomes[:count], weights[:count], strict=True)
    return [(int(outcome), int(weight) / total) for outcome, weight in pairs]


@helper
def begin_game(state, rules) -> None:
    """Set up a game: start gold, every seat's castles, then the first epoch."""
    state.fill(0)
    for seat in range(rules[PLAYERS]):
        state[gold_at(rules, seat)] = rules[START_GOLD]
        for rank in range(RANKS):
            state[castles_at(rules, seat, rank)] = rules[rules[CASTLE_COUNTS_AT] + rank]
    state[EPOCH] = 1
    begin_epoch(state, rules, -1)


@helper
def begin_epoch(state, rules, first_seat: int) -> None:
    """Shuffle every tile into the supply and deal the starting tiles; `first_seat` moves first
    once they are dealt (-1: chosen by chance)."""
    size = 0
    for tile in range(rules[TILE_CODES]):
        copies = rules[rules[FULL_SUPPLY_AT] + tile]
        state[supply_at(rules, tile)] = copies
        size += copies
    state[SUPPLY_SIZE] = size
    state[rules[HELD_AT] : rules[HELD_AT] + rules[MAX_SEATS]] = 0
    state[EMPTY] = rules[CELLS]
    state[NEXT_FIRST] = first_seat
    if first_seat >= 0:
        state[ORDER_FIRST] = first_seat
    if rules[STARTING_TILES]:
        state[TO_MOVE] = 0
        state[PHASE] = DEAL
    else:
        after_deal(state)


@inline
def after_deal(state) -> None:
    """The first player moves, or is chosen by chance (the caller ends an epoch in which
    nobody can act: see `end_epoch_if_stuck`)."""
    if state[NEXT_FIRST] < 0:
        state[PHASE] = FIRST
    else:
        state[TO_MOVE] = state[NEXT_FIRST]
        state[PHASE] = TURN


@inline
def castles_left(state, rules, seat: int) -> int:
    """The castles a seat has left."""
    total = 0
    for rank in range(RANKS):
        total += state[castles_at(rules, seat, rank)]
    return total


@inline
def can_act(state, rules, seat: int) -> bool:
    """Whether the seat has anything to do but pass."""
    return state[EMPTY] > 0 and (
        castles_left(state, rules, seat) > 0
        or state[held_at(rules, seat)] > 0
        or state[SUPPLY_SIZE] > 0
    )


@inline
def nobody_can_act(state, rules) -> bool:
    """An epoch in which nobody can act ends at once (possible only in last-castle)."""
    for seat in range(rules[PLAYERS]):
        if can_act(state, rules, seat):
            return False
    return True


@inline
def end_epoch_if_stuck(state, rules) -> None:
    if state[PHASE] == TURN and nobody_can_act(state, rules):
        end_epoch(state, rules)


@inline
def epoch_is_over(state, rules) -> bool:
    """The board is full, or nobody has anything left to place."""
    if state[EMPTY] == 0 or state[SUPPLY_SIZE] > 0:
        return state[EMPTY] == 0
    for seat in range(rules[PLAYERS]):
        if castles_left(state, rules, seat) > 0 or state[held_at(rules, seat)] > 0:
            return False
    return True


@inline
def richest_first(state, rules) -> int:
    """Most gold moves first; a tie goes to the earliest in the last epoch's turn order."""
    players = rules[PLAYERS]
    first = state[ORDER_FIRST]
    best = first
    for k in range(players):
        seat = seat_at(first, k, players)
        if state[gold_at(rules, seat)] > state[gold_at(rules, best)]:
            best = seat
    return best


@inline
def epoch_gains(state, rules, epoch_index: int):
    """The gains row of an epoch (0-based), per seat playing (a view)."""
    at = gains_at(rules, epoch_index, 0)
    return state[at : at + rules[PLAYERS]]


@inline
def final_epoch(state, rules) -> bool:
    """Whether the game ends with the current epoch (in last-castle: once someone has placed
    their last castle)."""
    if rules[LAST_CASTLE]:
        return state[LAST_PLACED] != 0
    return state[EPOCH] == rules[EPOCHS]


@inline
def returns(rules, rank: int) -> bool:
    """Whether castles of `rank` go back to their owner after an epoch."""
    return (rules[RETURNING_RANKS] >> (rank - 1)) & 1 == 1


@kernel
def end_epoch(state, rules) -> None:
    """Score the board (unless scored as it filled), give back the castles of the ranks that
    return (rank 1; none in last-castle), and begin the next epoch or end the game; again while
    the new epoch is one in which nobody can act."""
    players = rules[PLAYERS]
    board = board_of(state, rules)
    while True:
        epoch = state[EPOCH] - 1
        if not rules[SCORE_AS_YOU_GO]:
            gains = epoch_gains(state, rules, epoch)
            score_gold(board, rules, gains)
            for seat in range(players):
                state[gold_at(rules, seat)] += gains[seat]
        for cell in range(board.shape[0]):
            piece = board[cell]
            if piece_kind(rules, piece) == CASTLE and returns(rules, piece_rank(rules, piece)):
                rank = piece_rank(rules, piece) - 1
                state[castles_at(rules, piece_seat(rules, piece), rank)] += 1
        if final_epoch(state, rules):
            state[PHASE] = OVER
            return
        state[EPOCH] += 1
        board[:] = 0
        begin_epoch(state, rules, richest_first(state, rules))
        if state[PHASE] != TURN or not nobody_can_act(state, rules):
            return


@kernel
def score_filled_lines(state, rules, cell: int) -> None:
    """Score-as-you-go: pay out the lines the piece just placed on `cell` filled."""
    board = board_of(state, rules)
    seats, room = rules[PLAYERS], rules[LONGEST] + 1
    rank = np.zeros(board.shape[0], dtype=np.int64)
    effective_ranks(board, rules, rank)
    of = np.zeros((board.shape[0], 2), dtype=np.int64)
    stats = np.zeros((room, STATS), dtype=np.int64)
    ranks = np.zeros((room, seats), dtype=np.int64)
    base = np.zeros(room, dtype=np.int64)
    gained = np.zeros(seats, dtype=np.int64)
    for axis in range(2):
        line = cell_line(rules, cell, axis)
        if line_is_full(board, line, rules):
            segments = scan_line(board, rules, line, rank, of, stats, ranks, base, 0)
            add_segments_gold(segments, ranks, base, gained)
    gains = epoch_gains(state, rules, state[EPOCH] - 1)
    for seat in range(seats):
        gains[seat] += gained[seat]
        state[gold_at(rules, seat)] += gained[seat]


@inline
def action_block(rules, action: int) -> int:
    """The action block (engine/actions.py's Block) an action id lies in, -1 for none."""
    if action < 0 or action >= rules[ACTION_COUNT]:
        return -1
    return rules[rules[ACTION_BLOCKS_AT] + action]


@inline
def legal_blocks(state, rules) -> int:
    """The action blocks the seat to move may act in, as a bit mask by block (0 at a chance
    node or the game's end): every cell block holds an action per empty cell, DRAW and PASS
    one, CHOOSE one per tile code left."""
    phase = state[PHASE]
    if phase == PLACE:
        return 1 << PLACE_DRAWN
    if phase != TURN:
        return 0
    seat = state[TO_MOVE]
    mask = 0
    if state[EMPTY] > 0:
        for rank in range(RANKS):
            if state[castles_at(rules, seat, rank)] > 0:
                mask |= 1 << (CASTLE_1 + rank)
        if state[held_at(rules, seat)] > 0:
            mask |= 1 << START
    if state[SUPPLY_SIZE] > 0:
        mask |= 1 << (CHOOSE if rules[NO_LUCK] else DRAW)
    return mask if mask else 1 << PASS


@inline
def tile_codes_left(state, rules) -> int:
    """How many tile codes the supply still holds a copy of."""
    codes = 0
    for tile in range(1, rules[TILE_CODES]):
        codes += state[supply_at(rules, tile)] > 0
    return codes


@helper
def legal_count(state, rules) -> int:
    """How many legal actions the seat to move has (`legal_blocks`' widths summed)."""
    mask = legal_blocks(state, rules)
    count = 0
    for block in range(BLOCKS):
        if mask >> block & 1:
            if block == CHOOSE:
                count += tile_codes_left(state, rules)
            elif block == DRAW or block == PASS:
                count += 1
            else:
                count += state[EMPTY]
    return count


@kernel
def legal_actions(state, rules, out) -> int:
    """Write the legal actions (sorted, as engine.State lists them) into `out`; return how many.
    Chance nodes list their outcomes; a finished game none."""
    phase = state[PHASE]
    if phase == OVER:
        return 0
    if phase != TURN and phase != PLACE:
        weights = np.zeros(out.shape[0], dtype=np.int64)
        return chance_outcomes(state, rules, out, weights)
    mask = legal_blocks(state, rules)
    count = 0
    for block in range(BLOCKS):
        if not mask >> block & 1:
            continue
        first = first_id(rules, block)
        if block == CHOOSE:
            for tile in range(1, rules[TILE_CODES]):
                if state[supply_at(rules, tile)] > 0:
                    out[count] = first + tile
                    count += 1
        elif block == DRAW or block == PASS:
            out[count] = first
            count += 1
        else:
            for cell in range(rules[CELLS]):
                if state[BOARD_AT + cell] == 0:
                    out[count] = first + cell
                    count += 1
    return count


@helper
def chance_outcomes(state, rules, outcomes, weights) -> int:
    """Write a chance node's outcomes and their weights (probability × the weights' sum) into
    the arrays; return how many (0 when the state is not a chance node)."""
    phase = state[PHASE]
    count = 0
    if phase == FIRST:
        for seat in range(rules[PLAYERS]):
            outcomes[count] = seat
            weights[count] = 1
            count += 1
    elif phase == DEAL or phase == DRAWN:
        for tile in range(1, rules[TILE_CODES]):
            copies = state[supply_at(rules, tile)]
            if copies > 0:
                outcomes[count] = tile
                weights[count] = copies
                count += 1
    return count


# Inlined: a game's loop calls it on every action, and a call (its two arrays passed word by
# word) cost about a tenth of a random game.
@inline
def apply_action(state, rules, action: int) -> bool:
    """Apply one action (or chance outcome); False, leaving the state as it was, when it is
    not legal here."""
    players = rules[PLAYERS]
    phase = state[PHASE]
    seat = state[TO_MOVE]
    cell = piece = -1  # the placement the action makes, if any
    if phase == TURN:
        block = action_block(rules, action)
        if block < 0:
            return False
        at = action - first_id(rules, block)
        if CASTLE_1 <= block < CASTLE_1 + RANKS:
            rank = block - CASTLE_1
            left = castles_at(rules, seat, rank)
            if state[left] == 0 or state[BOARD_AT + at] != 0:
                return False
            state[left] -= 1
            if castles_left(state, rules, seat) == 0:
                state[LAST_PLACED] = 1
            cell, piece = at, castle_code(rules, seat, rank)
        elif block == START:
            held = held_at(rules, seat)
            if state[held] == 0 or state[BOARD_AT + at] != 0:
                return False
            cell, piece = at, state[held]
            state[held] = 0
        elif block == DRAW and not rules[NO_LUCK]:
            if state[SUPPLY_SIZE] == 0:
                return False
            state[PHASE] = DRAWN
            return True
        elif block == PASS:
            if can_act(state, rules, seat):
                return False
        elif block == CHOOSE and rules[NO_LUCK]:
            if not 0 < at < rules[TILE_CODES] or state[supply_at(rules, at)] == 0:
                return False
            state[supply_at(rules, at)] -= 1
            state[SUPPLY_SIZE] -= 1
            state[PENDING] = at
            state[PHASE] = PLACE
            return True
        else:
            return False
    elif phase == PLACE:
        if action_block(rules, action) != PLACE_DRAWN:
            return False
        cell = action - first_id(rules, PLACE_DRAWN)
        if state[BOARD_AT + cell] != 0:
            return False
        piece = state[PENDING]
        state[PENDING] = 0
    elif phase == FIRST:
        if not 0 <= action < players:
            return False
        state[TO_MOVE] = action
        state[ORDER_FIRST] = action
        state[PHASE] = TURN
        end_epoch_if_stuck(state, rules)
        return True
    elif phase == DEAL or phase == DRAWN:
        if not 0 < action < rules[TILE_CODES] or state[supply_at(rules, action)] == 0:
            return False
        state[supply_at(rules, action)] -= 1
        state[SUPPLY_SIZE] -= 1
        if phase == DRAWN:
            state[PENDING] = action
            state[PHASE] = PLACE
        else:
            state[held_at(rules, seat)] = action
            if seat + 1 < players:
                state[TO_MOVE] += 1
            else:
                after_deal(state)
                end_epoch_if_stuck(state, rules)
        return True
    else:
        return False
    # the turn ends (a placement or a pass): pass it clockwise, or end the epoch
    if cell >= 0:
        state[BOARD_AT + cell] = piece
        state[EMPTY] -= 1
        if rules[SCORE_AS_YOU_GO]:
            score_filled_lines(state, rules, cell)
    if epoch_is_over(state, rules):
        end_epoch(state, rules)
    else:
        state[TO_MOVE] = seat_at(seat, 1, players)
        state[PHASE] = TURN
    return True
