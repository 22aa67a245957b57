"""The random policy on the kernel's arrays: the random agent's choice, for any seat's view.

Uniform over the kinds of action the seat can take (starting tile, draw or a face-up tile,
castle), then over its castle ranks (by rejection), then over the empty cells (or the face-up
tile codes); a drawn tile goes on a uniformly chosen empty cell. It reads only what the seat
sees: the board, its own castles and starting tile, whether the supply is empty (and, in
no-luck, which tiles lie face up).
"""

from __future__ import annotations

import numba

from engine.kernel.layout import EMPTY, NO_LUCK, PHASE, PLACE, SUPPLY_SIZE, TO_MOVE
from engine.kernel.play import CASTLE_1, CHOOSE, DRAW, PASS, PLACE_DRAWN, START
from engine.kernel.stream import pick


@numba.njit(cache=True)
def nth_empty(board, n: int) -> int:
    """The n-th empty cell (0-based, in cell order)."""
    for cell in range(board.shape[0]):
        if board[cell] == 0:
            if n == 0:
                return cell
            n -= 1
    return -1


@numba.njit(cache=True)
def nth_tile(supply, n: int) -> int:
    """The tile code of the n-th tile of the supply, its copies counted (n < supply size)."""
    for tile in range(1, supply.shape[0]):
        n -= supply[tile]
        if n < 0:
            return tile
    return 0


@numba.njit(cache=True)
def random_action(state, rules, stream) -> int:
    """The random policy's action for the seat to move (in a turn, or placing a drawn tile)."""
    s = state.scalars
    board = state.board
    castles = state.castles
    held = state.held
    supply = state.supply
    params = rules.params
    ids = rules.actions
    return random_choice(s, board, castles, held, supply, ids, params[NO_LUCK], stream)


@numba.njit(cache=True)
def random_choice(s, board, castles, held, supply, ids, no_luck, stream) -> int:
    """`random_action` on the state's and rules' arrays themselves (what the game loop calls:
    passing the two tuples between compiled functions costs more than the choice)."""
    empties = s[EMPTY]
    if s[PHASE] == PLACE:
        return ids[PLACE_DRAWN] + nth_empty(board, pick(stream, empties))
    seat = s[TO_MOVE]
    has_start = held[seat] > 0
    has_draw = s[SUPPLY_SIZE] > 0
    has_castle = castles[seat, 0] + castles[seat, 1] + castles[seat, 2] + castles[seat, 3] > 0
    kinds = int(has_start) + int(has_draw) + int(has_castle)
    if kinds == 0 or empties == 0:
        return ids[PASS]
    kind = pick(stream, kinds)
    if has_start and kind == 0:
        return ids[START] + nth_empty(board, pick(stream, empties))
    if has_draw and kind == int(has_start):
        if not no_luck:
            return ids[DRAW]
        codes = 0
        for tile in range(1, supply.shape[0]):
            codes += supply[tile] > 0
        n = pick(stream, codes)
        for tile in range(1, supply.shape[0]):
            if supply[tile] > 0:
                if n == 0:
                    return ids[CHOOSE] + tile
                n -= 1
    rank = pick(stream, 4)
    while castles[seat, rank] == 0:  # rejection keeps the rank uniform over the ranks held
        rank = pick(stream, 4)
    return ids[CASTLE_1 + rank] + nth_empty(board, pick(stream, empties))
