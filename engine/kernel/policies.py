"""The greedy and heuristic policies on the kernel's arrays: every legal action valued for the
seat to move, from what that seat sees.

Greedy values an action by the margin it leaves (own gold − the best opponent's, the board
scored as if the epoch ended now, plus gold banked). A placement changes only the row and the
column segment through its cell (a wizard: the segments of the castles next to it; a
mountain: it cuts both in two), so only those are rescored. A draw is worth the
expectation, over the tiles the seat has not seen, of each one's best placement.

The heuristic adds a human player's habits: a castle is valued on its lines' expected worth at
the epoch's end less a risk charge growing with the square of its rank; a castle of rank 2–4
placed before the last epoch must beat what the rank earns later; the starting tile is held
while the board is open.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from engine.kernel.compiled import helper, inline, kernel
from engine.kernel.layout import (
    CASTLE,
    CASTLES_AT,
    CELLS,
    DRAGON,
    EPOCH,
    GOLD_MINE,
    GOLD_MINE_FACTOR,
    LONGEST,
    MOUNTAIN,
    NEIGHBOURS,
    PENDING,
    PLAYERS,
    RANKS,
    TILE_CODES,
    TO_MOVE,
    VALUE_TILE,
    WIZARD,
    board_of,
    castle_code,
    cell_line,
    first_id,
    gold_at,
    held_at,
    line_cell,
    neighbour,
    piece_kind,
    piece_rank,
    piece_seat,
    piece_value,
    supply_at,
)
from engine.kernel.play import CASTLE_1, DRAW, PASS, PLACE_DRAWN, START, action_block
from engine.kernel.scoring import (
    DRAGONS,
    HAZARDS,
    MINES,
    OPEN,
    RESOURCES,
    STATS,
    add_segments_gold,
    base_of,
    castle_rank,
    count_piece,
    effective_ranks,
    scan_board,
    segment_base,
    segment_room,
    wizard_cell,
)
from engine.kernel.stream import pick

RANDOM, GREEDY, HEURISTIC, APPRENTICE = 0, 1, 2, 3  # the apprentice: engine/kernel/apprentice.py
POLICIES = {"random": RANDOM, "greedy": GREEDY, "heuristic": HEURISTIC, "apprentice": APPRENTICE}

RISK_PER_EMPTY = 0.35  # gold per empty cell per rank² (hazards steered at strong castles)
LATER_VALUE_PER_RANK = (0.0, 4.0, 2.0)  # by epoch (1, 2; later 0): what a held rank earns later
HOLD_PER_EMPTY = 0.25  # the starting tile's option value per empty cell left
TOLERANCE = 1e-9  # values this close to the best are ties


class PolicyScratch(NamedTuple):
    """The arrays valuing a position works in, allocated once for all the positions of a batch
    (`policy_scratch`): per cell, per segment (room for every segment) and per seat."""

    rank: np.ndarray  # (cells,) effective castle ranks
    of: np.ndarray  # (cells, 2) each cell's row and column segment (engine/kernel/scoring.py)
    stats: np.ndarray  # (segments, STATS) by scoring's columns
    ranks: np.ndarray  # (segments, seats) castle ranks per seat
    base: np.ndarray  # (segments,)
    totals: np.ndarray  # (seats,) gold with the board's
    gains: np.ndarray  # (seats,) a candidate's gold changes
    cut: np.ndarray  # (2, STATS) the two parts a mountain cuts a segment into
    cut_ranks: np.ndarray  # (1, seats) the castle ranks per seat of the first
    units: np.ndarray  # (cells, 2, seats) each empty cell's gains from a +1 and a -1 tile


@kernel
def policy_scratch(rules) -> PolicyScratch:
    """Fresh arrays for `action_values_in` under these rules."""
    cells, seats, segments = rules[CELLS], rules[PLAYERS], segment_room(rules)
    return PolicyScratch(
        np.zeros(cells, dtype=np.int64),
        np.full((cells, 2), -1, dtype=np.int64),
        np.zeros((segments, STATS), dtype=np.int64),
        np.zeros((segments, seats), dtype=np.int64),
        np.zeros(segments, dtype=np.int64),
        np.zeros(seats, dtype=np.int64),
        np.zeros(seats, dtype=np.int64),
        np.zeros((2, STATS), dtype=np.int64),
        np.zeros((1, seats), dtype=np.int64),
        np.zeros((cells, 2, seats), dtype=np.int64),
    )


@inline
def placement_gains(board, rules, cell, tile, wizard, scratch) -> None:
    """Each seat's gold change (into `scratch.gains`) from the tile on the empty cell, from the
    segments it touches (`scan_position`'s); it runs for every candidate."""
    gains = scratch.gains
    gains.fill(0)
    kind = piece_kind(rules, tile)
    if kind == WIZARD:  # one rank more for each castle next to it, in both its segments
        if wizard < 0:
            for k in range(NEIGHBOURS):
                around = neighbour(rules, cell, k)
                if around >= 0 and piece_kind(rules, board[around]) == CASTLE:
                    extra = castle_rank(board, around, cell, rules) - scratch.rank[around]
                    row, column = scratch.of[around, 0], scratch.of[around, 1]
                    gains[piece_seat(rules, board[around])] += extra * (
                        scratch.base[row] + scratch.base[column]
                    )
        return
    if kind == MOUNTAIN:
        mountain_gains(board, rules, cell, scratch)
        return
    value = piece_value(rules, tile)
    line_gains(
        cell, value, kind == DRAGON, kind == GOLD_MINE, rules[GOLD_MINE_FACTOR], scratch, gains
    )


@inline
def line_gains(cell, value, dragon, mine, factor, scratch, gains) -> None:
    """Add to `gains` what a tile of this value (a dragon, a gold mine multiplying by `factor`)
    on the empty cell changes in its row and its column segment."""
    stats, ranks = scratch.stats, scratch.ranks
    for axis in range(2):
        k = scratch.of[cell, axis]
        after = segment_base(
            stats[k, RESOURCES] + max(value, 0),
            stats[k, HAZARDS] + min(value, 0),
            stats[k, DRAGONS] != 0 or dragon,
            stats[k, MINES] != 0 or mine,
            factor,
        )
        change = after - scratch.base[k]
        if change:
            for seat in range(gains.shape[0]):
                gains[seat] += ranks[k, seat] * change


@inline
def mountain_gains(board, rules, cell, scratch) -> None:
    """A mountain's gains (into `scratch.gains`): it cuts the segment through its cell in each
    of its lines in two (`scratch.cut`: the part before the cell, then the part after it),
    each part then paid on its own."""
    gains, cut, cut_ranks = scratch.gains, scratch.cut, scratch.cut_ranks
    gains.fill(0)
    for axis in range(2):
        k = scratch.of[cell, axis]
        line = cell_line(rules, cell, axis)
        cut[0] = 0
        cut_ranks[0] = 0
        for position in range(rules[LONGEST]):
            other = line_cell(rules, line, position)
            if other == cell:
                break
            if scratch.of[other, axis] == k:
                count_piece(rules, board[other], scratch.rank[other], cut, cut_ranks, 0)
        for column in range(STATS):
            cut[1, column] = scratch.stats[k, column] - cut[0, column]
        factor = rules[GOLD_MINE_FACTOR]
        first, second = base_of(cut, 0, factor), base_of(cut, 1, factor)
        for seat in range(gains.shape[0]):
            before = cut_ranks[0, seat]
            after = scratch.ranks[k, seat] - before
            gains[seat] += first * before + second * after - scratch.base[k] * (before + after)


@inline
def margin(totals, gains, seat: int, players: int) -> float:
    """Own total minus the best opponent's, after the gold changes."""
    best = -np.inf
    for other in range(players):
        if other != seat:
            best = max(best, totals[other] + gains[other])
    return totals[seat] + gains[seat] - best


@helper
def candidate_rank(board, rules, cell, seat, rank_index, wizard) -> int:
    """The effective rank a castle of the seat would have on the empty cell."""
    board[cell] = castle_code(rules, seat, rank_index)
    effective = castle_rank(board, cell, wizard, rules)
    board[cell] = 0
    return effective


@inline
def best_tile_margin(board, rules, tile, seat, wizard, scratch) -> float:
    """The best margin reachable by placing the tile on some empty cell."""
    players = rules[PLAYERS]
    best = -np.inf
    for cell in range(board.shape[0]):
        if board[cell] == 0:
            placement_gains(board, rules, cell, tile, wizard, scratch)
            best = max(best, margin(scratch.totals, scratch.gains, seat, players))
    return best


@inline
def draw_expectation(board, rules, unseen, seat, wizard, scratch) -> float:
    """A draw's worth: the best margin of the tile it brings, expected over the tiles the seat
    has not seen. A value tile changes a segment's base by its value times what a tile of
    one of its sign would (`segment_base` is linear in it), so each empty cell's gains from a
    +1 and a -1 (`scratch.units`) are worked out once and scaled for every one."""
    players = rules[PLAYERS]
    totals, gains, units = scratch.totals, scratch.gains, scratch.units
    for cell in range(board.shape[0]):
        if board[cell] == 0:
            for sign in range(2):
                units[cell, sign] = 0
                line_gains(
                    cell,
                    1 - 2 * sign,
                    False,
                    False,
                    rules[GOLD_MINE_FACTOR],
                    scratch,
                    units[cell, sign],
                )
    total = 0.0
    count = 0
    for tile in range(unseen.shape[0]):
        if unseen[tile] == 0:
            continue
        count += unseen[tile]
        if piece_kind(rules, tile) != VALUE_TILE:
            total += unseen[tile] * best_tile_margin(board, rules, tile, seat, wizard, scratch)
            continue
        value = piece_value(rules, tile)
        sign, scale = (0, value) if value > 0 else (1, -value)
        best = -np.inf
        for cell in range(board.shape[0]):
            if board[cell] == 0:
                for other in range(players):
                    gains[other] = scale * units[cell, sign, other]
                best = max(best, margin(totals, gains, seat, players))
        total += unseen[tile] * best
    return total / count


@helper
def expected_fill(state, rules, unseen) -> float:
    """The expected value a still-empty cell will add to its segments' base."""
    board = board_of(state, rules)
    count = 0
    for tile in range(unseen.shape[0]):
        count += unseen[tile]
    empties = 0
    for cell in range(board.shape[0]):
        empties += board[cell] == 0
    if count == 0 or empties == 0:
        return 0.0
    total = 0
    for tile in range(unseen.shape[0]):
        total += piece_value(rules, tile) * unseen[tile]
    castles = 0
    for slot in range(rules[CASTLES_AT], rules[CASTLES_AT] + rules[PLAYERS] * RANKS):
        castles += state[slot]
    share = min(1.0, max(0.0, (empties - castles / 2) / empties))
    return total / count * share


@inline
def castle_outlook(scratch, cell, rank, effective, epoch, placed, expected) -> float:
    """What the greedy margin misses about a castle: its segments' future, risk and rank cost."""
    others_open = 0 if placed else 1
    future = 0.0
    open_cells = 0
    for axis in range(2):
        k = scratch.of[cell, axis]
        still_open = scratch.stats[k, OPEN] - others_open
        open_cells += still_open
        fill = expected * still_open
        if scratch.stats[k, DRAGONS]:
            fill = min(fill, 0.0)
        future += fill * (2 if scratch.stats[k, MINES] else 1)
    outlook = effective * future - RISK_PER_EMPTY * effective * effective * open_cells
    if rank >= 2 and not placed and epoch < len(LATER_VALUE_PER_RANK):
        outlook -= rank * LATER_VALUE_PER_RANK[epoch]
    return outlook


@inline
def scan_position(state, rules, scratch) -> None:
    """Fill `scratch` (`policy_scratch`'s) with the board's effective ranks and segments, and
    each seat's gold plus what the board pays if the epoch ended now (`totals`)."""
    board = board_of(state, rules)
    effective_ranks(board, rules, scratch.rank)
    segments = scan_board(
        board, rules, scratch.rank, scratch.of, scratch.stats, scratch.ranks, scratch.base
    )
    for seat in range(scratch.totals.shape[0]):
        scratch.totals[seat] = state[gold_at(rules, seat)]
    add_segments_gold(segments, scratch.ranks, scratch.base, scratch.totals)


@kernel
def action_values(state, rules, unseen, legal, count, outlook_weight, draw_value, values) -> None:
    """The value of each of the first `count` legal actions of the seat to move, into `values`:
    greedy's margin plus `outlook_weight` (a float, 1.0 for the heuristic, 0.0 for greedy) times
    the heuristic's outlook (a NaN `draw_value`: a draw's expectation is computed). `state` is
    the seat's view: it reads the board, gold, castles, its own starting tile and drawn tile,
    and `unseen`."""
    scratch = policy_scratch(rules)
    action_values_in(
        state, rules, unseen, legal, count, outlook_weight, draw_value, values, scratch
    )


@helper
def action_values_in(
    state, rules, unseen, legal, count, outlook_weight, draw_value, values, scratch
) -> None:
    """`action_values`, working in `scratch` (`policy_scratch`'s arrays) rather than in arrays
    of its own: a batch of games values its positions without allocating."""
    board = board_of(state, rules)
    seat = state[TO_MOVE]
    players = rules[PLAYERS]
    of, base, totals, gains = scratch.of, scratch.base, scratch.totals, scratch.gains
    scan_position(state, rules, scratch)
    wizard = wizard_cell(board, rules)
    heuristic = outlook_weight != 0.0
    expected = expected_fill(state, rules, unseen) if heuristic else 0.0
    empties = 0
    for cell in range(board.shape[0]):
        empties += board[cell] == 0
    hold = outlook_weight * HOLD_PER_EMPTY * (empties - 2 * players)
    for i in range(count):
        action = legal[i]
        block = action_block(rules, action)
        at = action - first_id(rules, block)
        if CASTLE_1 <= block < CASTLE_1 + RANKS:
            effective = candidate_rank(board, rules, at, seat, block - CASTLE_1, wizard)
            gains.fill(0)
            gains[seat] = effective * (base[of[at, 0]] + base[of[at, 1]])
            value = margin(totals, gains, seat, players)
            if heuristic:
                rank = block - CASTLE_1 + 1
                outlook = castle_outlook(
                    scratch, at, rank, effective, state[EPOCH], False, expected
                )
                value += outlook_weight * outlook
        elif block == START or block == PLACE_DRAWN:
            tile = state[held_at(rules, seat)] if block == START else state[PENDING]
            placement_gains(board, rules, at, tile, wizard, scratch)
            value = margin(totals, gains, seat, players)
            if block == START:
                value -= hold
        elif block == DRAW:
            if np.isnan(draw_value):
                draw_value = draw_expectation(board, rules, unseen, seat, wizard, scratch)
            value = draw_value
        elif block == PASS:
            value = 0.0
        else:  # choosing a face-up tile
            value = best_tile_margin(board, rules, at, seat, wizard, scratch)
        values[i] = value


@helper
def projected_gold(state, rules, unseen, out, outlook_weight, scratch) -> None:
    """Each seat's gold if the epoch ended now, plus `outlook_weight` times the heuristic's
    outlook of the castles it has placed, into `out` (floats, per seat; `scratch`:
    `policy_scratch`'s)."""
    board = board_of(state, rules)
    scan_position(state, rules, scratch)
    expected = expected_fill(state, rules, unseen)
    for seat in range(rules[PLAYERS]):
        out[seat] = scratch.totals[seat]
    for cell in range(board.shape[0]):
        piece = board[cell]
        if piece_kind(rules, piece) == CASTLE:
            rank, effective = piece_rank(rules, piece), scratch.rank[cell]
            outlook = castle_outlook(scratch, cell, rank, effective, state[EPOCH], True, expected)
            out[piece_seat(rules, piece)] += outlook_weight * outlook


@helper
def pick_best(legal, values, count, stream) -> int:
    """The action of highest value, a uniformly random one (from the stream) among equals."""
    top = -np.inf
    for i in range(count):
        top = max(top, values[i])
    ties = 0
    for i in range(count):
        ties += values[i] >= top - TOLERANCE
    n = pick(stream, ties) if ties > 1 else 0
    for i in range(count):
        if values[i] >= top - TOLERANCE:
            if n == 0:
                return legal[i]
            n -= 1
    return legal[0]


@helper
def unseen_by(state, rules, seat, unseen) -> None:
    """The tiles the seat has not seen, per code: the supply and the other seats' starting
    tiles, into `unseen`."""
    for tile in range(rules[TILE_CODES]):
        unseen[tile] = state[supply_at(rules, tile)]
    for other in range(rules[PLAYERS]):
        tile = state[held_at(rules, other)]
        if other != seat and tile:
            unseen[tile] += 1
