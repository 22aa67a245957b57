"""The random policy on the kernel's arrays: the random agent's choice, for any seat's view.

Uniform over the kinds of action the seat can take (starting tile, draw or a face-up tile,
castle), then over its castle ranks (by rejection), then over the empty cells (or the face-up
tile codes); a drawn tile goes on a uniformly chosen empty cell. It reads only what the seat
sees: the board, its own castles and starting tile, whether the supply is empty (and, in
no-luck, which tiles lie face up).
"""

from __future__ import annotations

from engine.kernel.compiled import inline
from engine.kernel.layout import (
    BOARD_AT,
    CELLS,
    EMPTY,
    NO_LUCK,
    RANKS,
    TILE_CODES,
    first_id,
    supply_at,
)
from engine.kernel.play import (
    CASTLE_1,
    CHOOSE,
    DRAW,
    PASS,
    PLACE_DRAWN,
    START,
    legal_blocks,
    tile_codes_left,
)
from engine.kernel.stream import pick


@inline
def nth_empty(state, rules, n: int) -> int:
    """The n-th empty cell of the board (0-based, in cell order). Counting down without a
    branch per cell: whether a cell is empty is a coin toss the processor cannot predict."""
    for cell in range(rules[CELLS]):
        n -= state[BOARD_AT + cell] == 0
        if n < 0:
            return cell
    return -1


@inline
def nth_tile(state, rules, n: int) -> int:
    """The tile code of the n-th tile of the supply, its copies counted (n < supply size)."""
    for tile in range(1, rules[TILE_CODES]):
        n -= state[supply_at(rules, tile)]
        if n < 0:
            return tile
    return 0


@inline
def random_action(state, rules, stream) -> int:
    """The random policy's action for the seat to move (in a turn, or placing a drawn tile),
    among the kinds of action `legal_blocks` allows."""
    empties = state[EMPTY]
    mask = legal_blocks(state, rules)
    if mask == 1 << PLACE_DRAWN:
        return first_id(rules, PLACE_DRAWN) + nth_empty(state, rules, pick(stream, empties))
    if mask == 1 << PASS:
        return first_id(rules, PASS)
    has_start = mask >> START & 1
    has_draw = (mask >> DRAW | mask >> CHOOSE) & 1
    ranks_held = mask >> CASTLE_1 & ((1 << RANKS) - 1)
    kind = pick(stream, has_start + has_draw + int(ranks_held > 0))
    if has_start and kind == 0:
        return first_id(rules, START) + nth_empty(state, rules, pick(stream, empties))
    if has_draw and kind == has_start:
        if not rules[NO_LUCK]:
            return first_id(rules, DRAW)
        n = pick(stream, tile_codes_left(state, rules))
        for tile in range(1, rules[TILE_CODES]):
            if state[supply_at(rules, tile)] > 0:
                if n == 0:
                    return first_id(rules, CHOOSE) + tile
                n -= 1
    rank = pick(stream, RANKS)
    while not ranks_held >> rank & 1:  # rejection keeps the rank uniform over the ranks held
        rank = pick(stream, RANKS)
    return first_id(rules, CASTLE_1 + rank) + nth_empty(state, rules, pick(stream, empties))
