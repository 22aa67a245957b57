"""Random games on the kernel, many at once: the random agent's policy for every seat.

The policy is the random agent's (uniform over the kinds of action the seat can take: castle,
draw, starting tile; then over its castle ranks, by rejection; then over the empty cells), and
chance is sampled from the same stream. The stream is Python's `random.Random(seed)` (the
Mersenne Twister, seeded and read exactly as CPython does), so a seed gives the same game here
as in a pure-Python playout, and the lake keeps its game ids.
"""

from __future__ import annotations

import numba
import numpy as np

from engine.kernel.layout import (
    CELLS,
    DEAL,
    DRAWN,
    EPOCH,
    FIRST,
    LAST_PLACED,
    NO_LUCK,
    OVER,
    PENDING,
    PHASE,
    PLAYERS,
    SUPPLY_SIZE,
    TO_MOVE,
    TURN,
)
from engine.kernel.play import (
    CASTLE_1,
    CHOOSE,
    DRAW,
    PASS,
    PLACE_DRAWN,
    START,
    apply_action,
    begin_game,
    castles_left,
    end_turn,
    place,
)

_N = 624  # the Mersenne Twister's state words
_M = 397
_WORD = np.uint64(0xFFFFFFFF)
_U = np.uint64


@numba.njit(cache=True)
def new_stream():
    """A stream ((625,) uint64: the state words, then the position) before its seed is mixed
    in: the Mersenne Twister initialised from 19650218, as CPython's seeding starts."""
    mt = np.zeros(_N + 1, dtype=np.uint64)
    mt[0] = _U(19650218)
    for i in range(1, _N):
        prev = mt[i - 1]
        mt[i] = (_U(1812433253) * (prev ^ (prev >> _U(30))) + _U(i)) & _WORD
    return mt


@numba.njit(cache=True)
def seed_stream(stream, start, seed) -> None:
    """Seed `stream` as CPython's `random.seed(seed)` does for a non-negative int below 2**64,
    from `start` (what `new_stream` returns)."""
    mt = stream
    mt[:] = start
    key = np.zeros(2, dtype=np.uint64)
    key[0] = _U(seed) & _WORD
    key[1] = _U(seed) >> _U(32)
    length = 2 if key[1] else 1
    i, j = 1, 0
    for _ in range(max(_N, length)):
        prev = mt[i - 1]
        mixed = (mt[i] ^ ((prev ^ (prev >> _U(30))) * _U(1664525))) + key[j] + _U(j)
        mt[i] = mixed & _WORD
        i += 1
        j += 1
        if i >= _N:
            mt[0] = mt[_N - 1]
            i = 1
        if j >= length:
            j = 0
    for _ in range(_N - 1):
        prev = mt[i - 1]
        mt[i] = ((mt[i] ^ ((prev ^ (prev >> _U(30))) * _U(1566083941))) - _U(i)) & _WORD
        i += 1
        if i >= _N:
            mt[0] = mt[_N - 1]
            i = 1
    mt[0] = _U(0x80000000)
    stream[_N] = _U(_N)


@numba.njit(cache=True)
def _next_word(stream):
    mt = stream
    if stream[_N] >= _U(_N):
        for k in range(_N):
            y = (mt[k] & _U(0x80000000)) | (mt[k + 1 if k + 1 < _N else 0] & _U(0x7FFFFFFF))
            odd = _U(0x9908B0DF) if y & _U(1) else _U(0)
            mt[k] = mt[k + _M if k + _M < _N else k + _M - _N] ^ (y >> _U(1)) ^ odd
        stream[_N] = _U(0)
    y = mt[stream[_N]]
    stream[_N] += _U(1)
    y ^= y >> _U(11)
    y ^= (y << _U(7)) & _U(0x9D2C5680)
    y ^= (y << _U(15)) & _U(0xEFC60000)
    y ^= y >> _U(18)
    return y & _WORD


@numba.njit(cache=True)
def random_float(stream) -> float:
    """The next float in [0, 1), as CPython's `random.random()`."""
    a = float(_next_word(stream) >> _U(5))
    b = float(_next_word(stream) >> _U(6))
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)


@numba.njit(cache=True)
def _pick(stream, n: int) -> int:
    """A uniform index below n, as `int(random() * n)`."""
    return int(random_float(stream) * n)


@numba.njit(cache=True)
def _take(stream, items, count: int) -> tuple[int, int]:
    """Remove a uniformly random one of the first `count` items (the last moves into its
    place); return it and the new count."""
    i = _pick(stream, count)
    item = items[i]
    items[i] = items[count - 1]
    return item, count - 1


@numba.njit(cache=True)
def random_game(state, rules, stream, out) -> int:
    """Play a fresh state to its end with the random policy; write its actions into `out` and
    return how many."""
    s = state.scalars
    ids = rules.actions
    cells = rules.params[CELLS]
    empties = np.zeros(cells, dtype=np.int64)
    bag = np.zeros(state.supply.sum() + 1, dtype=np.int64)
    count = 0
    while s[PHASE] != OVER:
        epoch = s[EPOCH]
        empty_count = 0
        for cell in range(cells):
            if state.board[cell] == 0:
                empties[empty_count] = cell
                empty_count += 1
        bag_count = 0
        for tile in range(1, state.supply.shape[0]):
            for _ in range(state.supply[tile]):
                bag[bag_count] = tile
                bag_count += 1
        while s[PHASE] != OVER and s[EPOCH] == epoch:
            phase = s[PHASE]
            seat = s[TO_MOVE]
            if phase == TURN:
                start = state.held[seat]
                has_castle = castles_left(state, seat) > 0
                kinds = int(has_castle) + int(bag_count > 0) + int(start > 0)
                if kinds == 0:
                    out[count] = ids[PASS]
                    count += 1
                    end_turn(state, rules)
                    continue
                kind = _pick(stream, kinds)
                cell, empty_count = _take(stream, empties, empty_count)
                if has_castle and kind == 0:
                    rank = _pick(stream, 4)
                    while state.castles[seat, rank] == 0:  # rejection keeps the rank uniform
                        rank = _pick(stream, 4)
                    state.castles[seat, rank] -= 1
                    if castles_left(state, seat) == 0:
                        s[LAST_PLACED] = 1
                    piece = rules.castle_code[seat, rank]
                    out[count] = ids[CASTLE_1 + rank] + cell
                    count += 1
                elif start > 0 and kind == kinds - 1:
                    state.held[seat] = 0
                    piece = start
                    out[count] = ids[START] + cell
                    count += 1
                else:
                    piece, bag_count = _take(stream, bag, bag_count)
                    state.supply[piece] -= 1
                    s[SUPPLY_SIZE] -= 1
                    if rules.params[NO_LUCK]:
                        out[count] = ids[CHOOSE] + piece
                        count += 1
                    else:
                        out[count] = ids[DRAW]
                        out[count + 1] = piece
                        count += 2
                    out[count] = ids[PLACE_DRAWN] + cell
                    count += 1
                place(state, rules, cell, piece)
                end_turn(state, rules)
            elif phase == DEAL or phase == DRAWN:
                tile, bag_count = _take(stream, bag, bag_count)
                out[count] = tile
                count += 1
                apply_action(state, rules, tile)
            elif phase == FIRST:
                first = _pick(stream, rules.params[PLAYERS])
                out[count] = first
                count += 1
                apply_action(state, rules, first)
            else:  # PLACE: a tile drawn before the policy took over
                cell, empty_count = _take(stream, empties, empty_count)
                out[count] = ids[PLACE_DRAWN] + cell
                count += 1
                tile = s[PENDING]
                s[PENDING] = 0
                place(state, rules, cell, tile)
                end_turn(state, rules)
    return count


@numba.njit(cache=True)
def random_games(state, rules, seeds, longest, actions, offsets, gains, epochs) -> None:
    """Play one random game per seed from a fresh state: every game's actions into `actions`
    (game g's at offsets[g]:offsets[g + 1]), its gains per epoch and its epoch count."""
    start_stream = new_stream()
    stream = start_stream.copy()
    offsets[0] = 0
    for g in range(seeds.shape[0]):
        begin_game(state, rules)
        seed_stream(stream, start_stream, seeds[g])
        start = offsets[g]
        count = random_game(state, rules, stream, actions[start : start + longest])
        offsets[g + 1] = start + count
        gains[g] = state.gains
        epochs[g] = state.scalars[EPOCH]
