"""The pure-Python random playout the kernel's random games replaced, frozen as a test oracle.

The kernel must play exactly these games for a seed (so the lake keeps its game ids); nothing
but tests/engine/test_kernel.py uses this.
"""

from __future__ import annotations

import random

from engine import pieces
from engine.state import DEAL, DRAWN, FIRST, OVER, PLACE, TURN, State

_TILE_CODES = range(1, pieces.CASTLE_BASE)


def random_playout(state: State, rng: random.Random, record: bool = False) -> list[int]:
    """Play `state` to the end in place and return the final gold.

    With `record`, every action is appended to the state's history (so the game can be
    replayed and stored); without it the history stops where the playout began.
    """
    rand = rng.random
    cells = state.cells
    history = state.history if record else None
    codes = state.codes
    start_base, place_base = codes.start(0), codes.place_drawn(0)
    draw, pass_, no_luck_base = codes.draw, codes.pass_, codes.choose(0)
    castles_left = state.castles_left
    place = state.place
    end_turn = state.end_turn
    while state.phase != OVER:
        epoch = state.epoch
        board = state.board
        supply = state.supply
        start_tiles = state.start_tiles
        empties = [c for c in range(cells) if not board[c]]
        bag = [t for t in _TILE_CODES for _ in range(supply[t])]
        while state.phase != OVER and state.epoch == epoch:
            phase = state.phase
            seat = state.seat
            if phase == TURN:
                start = start_tiles[seat]
                has_castle = castles_left[seat] > 0
                kinds = has_castle + (len(bag) > 0) + (start > 0)
                if not kinds:
                    if history is not None:
                        history.append(pass_)
                    end_turn()
                    continue
                kind = int(rand() * kinds)
                i = int(rand() * len(empties))
                cell = empties[i]
                empties[i] = empties[-1]
                empties.pop()
                if has_castle and kind == 0:
                    castles = state.castles[seat]
                    rank = int(rand() * 4)
                    while not castles[rank]:  # rejection keeps the rank uniform
                        rank = int(rand() * 4)
                    castles[rank] -= 1
                    castles_left[seat] -= 1
                    if not castles_left[seat]:
                        state.last_castle_placed = True
                    piece = pieces.CASTLE_BASE + 4 * seat + rank
                    if history is not None:
                        history.append(codes.castle(rank + 1, cell))
                elif start and kind == kinds - 1:
                    start_tiles[seat] = 0
                    piece = start
                    if history is not None:
                        history.append(start_base + cell)
                else:
                    piece = _take(bag, rand)
                    supply[piece] -= 1
                    state.supply_size -= 1
                    if history is not None and state.no_luck:
                        history += (no_luck_base + piece, place_base + cell)
                    elif history is not None:
                        history += (draw, piece, place_base + cell)
                place(cell, piece)
                end_turn()
            elif phase == DEAL:
                tile = _take(bag, rand)
                if history is not None:
                    history.append(tile)
                supply[tile] -= 1
                state.supply_size -= 1
                start_tiles[seat] = tile
                state._deal_next()
            elif phase == FIRST:
                state.apply_action(int(rand() * state.players))
                if history is None:
                    state.history.pop()
            elif phase == DRAWN:
                tile = _take(bag, rand)
                if history is not None:
                    history.append(tile)
                supply[tile] -= 1
                state.supply_size -= 1
                state.pending_tile = tile
                state.phase = PLACE
            else:  # PLACE: a tile drawn before the playout began
                i = int(rand() * len(empties))
                cell = empties[i]
                empties[i] = empties[-1]
                empties.pop()
                if history is not None:
                    history.append(place_base + cell)
                tile = state.pending_tile
                state.pending_tile = 0
                place(cell, tile)
                end_turn()
    return list(state.gold)


def _take(bag: list[int], rand) -> int:
    """Remove and return a uniformly random element of the bag."""
    i = int(rand() * len(bag))
    item = bag[i]
    bag[i] = bag[-1]
    bag.pop()
    return item
