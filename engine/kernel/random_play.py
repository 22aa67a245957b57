"""The random policy on the kernel's arrays: the random agent's choice, for any seat's view.

Uniform over the kinds of action the seat can take (starting tile, draw or a face-up tile,
castle), then over its castle ranks (by rejection), then over the empty cells (or the face-up
tile codes); a drawn tile goes on a uniformly chosen empty cell. It reads only what the seat
sees: the board, its own castles and starting tile, whether the supply is empty (and, in
no-luck, which tiles lie face up).
"""

from __future__ import annotations

from engine.kernel.compiled import inline, leaf
from engine.kernel.layout import (
    BOARD_AT,
    CELLS,
    EMPTY,
    NO_LUCK,
    PHASE,
    PLACE,
    RANKS,
    SUPPLY_SIZE,
    TILE_CODES,
    TO_MOVE,
    castles_at,
    first_id,
    held_at,
    supply_at,
)
from engine.kernel.play import CASTLE_1, CHOOSE, DRAW, PASS, PLACE_DRAWN, START
from engine.kernel.stream import pick


@inline
def nth_empty(state, rules, n: int) -> int:
    """The n-th empty cell of the board (0-based, in cell order)."""
    for cell in range(rules[CELLS]):
        if state[BOARD_AT + cell] == 0:
            if n == 0:
                return cell
            n -= 1
    return -1


@inline
def nth_tile(state, rules, n: int) -> int:
    """The tile code of the n-th tile of the supply, its copies counted (n < supply size)."""
    for tile in range(1, rules[TILE_CODES]):
        n -= state[supply_at(rules, tile)]
        if n < 0:
            return tile
    return 0


@leaf
def random_action(state, rules, stream) -> int:
    """The random policy's action for the seat to move (in a turn, or placing a drawn tile)."""
    empties = state[EMPTY]
    if state[PHASE] == PLACE:
        return first_id(rules, PLACE_DRAWN) + nth_empty(state, rules, pick(stream, empties))
    seat = state[TO_MOVE]
    has_start = state[held_at(rules, seat)] > 0
    has_draw = state[SUPPLY_SIZE] > 0
    has_castle = False
    for rank in range(RANKS):
        has_castle |= state[castles_at(rules, seat, rank)] > 0
    kinds = int(has_start) + int(has_draw) + int(has_castle)
    if kinds == 0 or empties == 0:
        return first_id(rules, PASS)
    kind = pick(stream, kinds)
    if has_start and kind == 0:
        return first_id(rules, START) + nth_empty(state, rules, pick(stream, empties))
    if has_draw and kind == int(has_start):
        if not rules[NO_LUCK]:
            return first_id(rules, DRAW)
        codes = 0
        for tile in range(1, rules[TILE_CODES]):
            codes += state[supply_at(rules, tile)] > 0
        n = pick(stream, codes)
        for tile in range(1, rules[TILE_CODES]):
            if state[supply_at(rules, tile)] > 0:
                if n == 0:
                    return first_id(rules, CHOOSE) + tile
                n -= 1
    rank = pick(stream, RANKS)
    while state[castles_at(rules, seat, rank)] == 0:  # rejection keeps the rank uniform
        rank = pick(stream, RANKS)
    return first_id(rules, CASTLE_1 + rank) + nth_empty(state, rules, pick(stream, empties))
