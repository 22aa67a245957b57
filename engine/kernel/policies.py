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
    LINES,
    LONGEST,
    MOUNTAIN,
    NEIGHBOURS,
    PENDING,
    PLAYERS,
    RANKS,
    ROWS,
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
    castle_rank,
    effective_ranks,
    segment_base,
    wizard_cell,
)
from engine.kernel.stream import pick

RANDOM, GREEDY, HEURISTIC = 0, 1, 2
POLICIES = {"random": RANDOM, "greedy": GREEDY, "heuristic": HEURISTIC}

RISK_PER_EMPTY = 0.35  # gold per empty cell per rank² (hazards steered at strong castles)
LATER_VALUE_PER_RANK = (0.0, 4.0, 2.0)  # by epoch (1, 2; later 0): what a held rank earns later
HOLD_PER_EMPTY = 0.25  # the starting tile's option value per empty cell left
TOLERANCE = 1e-9  # values this close to the best are ties

# Columns of a segment's statistics in `scan_segments`.
RESOURCES, HAZARDS, DRAGONS, MINES, OPEN = 0, 1, 2, 3, 4


class PolicyScratch(NamedTuple):
    """The arrays valuing a position works in, allocated once for all the positions of a batch
    (`policy_scratch`): per cell, per segment (room for every segment) and per seat."""

    rank: np.ndarray  # (cells,) effective castle ranks
    of: np.ndarray  # (cells, 2) each cell's row and column segment
    stats: np.ndarray  # (segments, 5) by the columns above
    ranks: np.ndarray  # (segments, seats) castle ranks per seat
    base: np.ndarray  # (segments,)
    totals: np.ndarray  # (seats,) gold with the board's
    gains: np.ndarray  # (seats,) a candidate's gold changes
    spare: np.ndarray  # (seats,) mountain_gains' scratch
    units: np.ndarray  # (cells, 2, seats) each empty cell's gains from a +1 and a -1 tile


@kernel
def policy_scratch(rules) -> PolicyScratch:
    """Fresh arrays for `action_values_in` under these rules."""
    cells, seats = rules[CELLS], rules[PLAYERS]
    segments = rules[LINES] * (rules[LONGEST] + 1)
    return PolicyScratch(
        np.zeros(cells, dtype=np.int64),
        np.full((cells, 2), -1, dtype=np.int64),
        np.zeros((segments, 5), dtype=np.int64),
        np.zeros((segments, seats), dtype=np.int64),
        np.zeros(segments, dtype=np.int64),
        np.zeros(seats, dtype=np.int64),
        np.zeros(seats, dtype=np.int64),
        np.zeros(seats, dtype=np.int64),
        np.zeros((cells, 2, seats), dtype=np.int64),
    )


@helper
def scan_segments(board, rules, rank, of, stats, ranks, base) -> int:
    """Cut every line at its mountains: each cell's row and column segment (-1 on a mountain),
    each segment's statistics (the columns above), castle ranks per seat, and base, into arrays
    with room for every segment (`policy_scratch`'s); returns how many segments there are."""
    count = 0
    for line in range(rules[LINES]):
        axis = 0 if line < rules[ROWS] else 1
        stats[count] = 0
        ranks[count] = 0
        for position in range(rules[LONGEST]):
            cell = line_cell(rules, line, position)
            if cell < 0:
                break
            piece = board[cell]
            kind = piece_kind(rules, piece)
            if kind == MOUNTAIN:
                of[cell, axis] = -1
                count += 1
                stats[count] = 0
                ranks[count] = 0
                continue
            of[cell, axis] = count
            value = piece_value(rules, piece)
            stats[count, RESOURCES if value > 0 else HAZARDS] += value
            if kind == DRAGON:
                stats[count, DRAGONS] += 1
            elif kind == GOLD_MINE:
                stats[count, MINES] += 1
            elif piece == 0:
                stats[count, OPEN] += 1
            if kind == CASTLE:
                ranks[count, piece_seat(rules, piece)] += rank[cell]
        count += 1
    for k in range(count):
        base[k] = segment_base(stats[k, RESOURCES], stats[k, HAZARDS], stats[k, DRAGONS] != 0,
                               stats[k, MINES] != 0)  # fmt: skip
    return count


@inline
def placement_gains(board, rules, cell, tile, rank, wizard, of, stats, ranks, base, gains,
                    spare) -> None:  # fmt: skip
    """Each seat's gold change (into `gains`) from the tile on the empty cell, from the
    segments it touches (`scan_segments`'s); it runs for every candidate (`spare`: a scratch
    array as long as `gains`)."""
    gains.fill(0)
    kind = piece_kind(rules, tile)
    if kind == WIZARD:  # one rank more for each castle next to it, in both its segments
        if wizard < 0:
            for k in range(NEIGHBOURS):
                around = neighbour(rules, cell, k)
                if around >= 0 and piece_kind(rules, board[around]) == CASTLE:
                    extra = castle_rank(board, around, cell, rules) - rank[around]
                    seat = piece_seat(rules, board[around])
                    gains[seat] += extra * (base[of[around, 0]] + base[of[around, 1]])
        return
    if kind == MOUNTAIN:
        mountain_gains(board, rules, cell, rank, of, stats, ranks, base, gains, spare)
        return
    line_gains(cell, piece_value(rules, tile), kind == DRAGON, kind == GOLD_MINE, of, stats,
               ranks, base, gains)  # fmt: skip


@inline
def line_gains(cell, value, dragon, mine, of, stats, ranks, base, gains) -> None:
    """Add to `gains` what a tile of this value (a dragon, a gold mine) on the empty cell
    changes in its row and its column segment."""
    for axis in range(2):
        k = of[cell, axis]
        after = segment_base(
            stats[k, RESOURCES] + max(value, 0),
            stats[k, HAZARDS] + min(value, 0),
            stats[k, DRAGONS] != 0 or dragon,
            stats[k, MINES] != 0 or mine,
        )
        change = after - base[k]
        if change:
            for seat in range(gains.shape[0]):
                gains[seat] += ranks[k, seat] * change


@helper
def mountain_gains(board, rules, cell, rank, of, stats, ranks, base, gains, before) -> None:
    """A mountain's gains (into `gains`): it cuts the segment through its cell in each of its
    lines in two, each part then paid on its own (`before`: a scratch as long as `gains`, the
    castle ranks per seat on the part before the cell; the rest are after it)."""
    gains.fill(0)
    for axis in range(2):
        k = of[cell, axis]
        line = cell_line(rules, cell, axis)
        before.fill(0)
        resources = hazards = dragons = mines = 0
        for position in range(rules[LONGEST]):
            other = line_cell(rules, line, position)
            if other == cell:
                break
            if of[other, axis] == k:
                piece = board[other]
                kind = piece_kind(rules, piece)
                value = piece_value(rules, piece)
                resources += max(value, 0)
                hazards += min(value, 0)
                dragons += kind == DRAGON
                mines += kind == GOLD_MINE
                before[piece_seat(rules, piece)] += rank[other]
        first = segment_base(resources, hazards, dragons > 0, mines > 0)
        second = segment_base(stats[k, RESOURCES] - resources, stats[k, HAZARDS] - hazards,
                              stats[k, DRAGONS] > dragons, stats[k, MINES] > mines)  # fmt: skip
        for seat in range(gains.shape[0]):
            after = ranks[k, seat] - before[seat]
            gains[seat] += first * before[seat] + second * after - base[k] * ranks[k, seat]


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


@helper
def best_tile_margin(board, rules, tile, seat, totals, rank, wizard, of, stats, ranks, base,
                     gains, spare) -> float:  # fmt: skip
    """The best margin reachable by placing the tile on some empty cell."""
    players = rules[PLAYERS]
    best = -np.inf
    for cell in range(board.shape[0]):
        if board[cell] == 0:
            placement_gains(board, rules, cell, tile, rank, wizard, of, stats, ranks, base, gains,
                            spare)  # fmt: skip
            best = max(best, margin(totals, gains, seat, players))
    return best


@helper
def draw_expectation(board, rules, unseen, seat, totals, rank, wizard, of, stats, ranks, base,
                     gains, spare, units) -> float:  # fmt: skip
    """A draw's worth: the best margin of the tile it brings, expected over the tiles the seat
    has not seen. A value tile changes a segment's base by its value times what a tile of
    one of its sign would (`segment_base` is linear in it), so each empty cell's gains from a
    +1 and a -1 (`units`, (cells, 2, seats)) are worked out once and scaled for every one."""
    players = rules[PLAYERS]
    for cell in range(board.shape[0]):
        if board[cell] == 0:
            for sign in range(2):
                units[cell, sign] = 0
                line_gains(cell, 1 - 2 * sign, False, False, of, stats, ranks, base,
                           units[cell, sign])  # fmt: skip
    total = 0.0
    count = 0
    for tile in range(unseen.shape[0]):
        if unseen[tile] == 0:
            continue
        count += unseen[tile]
        if piece_kind(rules, tile) != VALUE_TILE:
            best = best_tile_margin(board, rules, tile, seat, totals, rank, wizard, of, stats,
                                    ranks, base, gains, spare)  # fmt: skip
            total += unseen[tile] * best
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


@helper
def castle_outlook(rank, effective, cell, epoch, placed, expected, of, stats) -> float:
    """What the greedy margin misses about a castle: its segments' future, risk and rank cost."""
    others_open = 0 if placed else 1
    future = 0.0
    open_cells = 0
    for axis in range(2):
        k = of[cell, axis]
        still_open = stats[k, OPEN] - others_open
        open_cells += still_open
        fill = expected * still_open
        if stats[k, DRAGONS]:
            fill = min(fill, 0.0)
        future += fill * (2 if stats[k, MINES] else 1)
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
    segments = scan_segments(board, rules, scratch.rank, scratch.of, scratch.stats,
                             scratch.ranks, scratch.base)  # fmt: skip
    for seat in range(scratch.totals.shape[0]):
        scratch.totals[seat] = state[gold_at(rules, seat)]
        for k in range(segments):
            scratch.totals[seat] += scratch.base[k] * scratch.ranks[k, seat]


@kernel
def action_values(state, rules, unseen, legal, count, heuristic, draw_value, values) -> None:
    """The value of each of the first `count` legal actions of the seat to move, into `values`
    (a NaN `draw_value`: a draw's expectation is computed). `state` is the seat's view: it
    reads the board, gold, castles, its own starting tile and drawn tile, and `unseen`."""
    action_values_in(state, rules, unseen, legal, count, heuristic, draw_value, values,
                     policy_scratch(rules))  # fmt: skip


@helper
def action_values_in(state, rules, unseen, legal, count, heuristic, draw_value, values,
                     scratch) -> None:  # fmt: skip
    """`action_values`, working in `scratch` (`policy_scratch`'s arrays) rather than in arrays
    of its own: a batch of games values its positions without allocating."""
    board = board_of(state, rules)
    seat = state[TO_MOVE]
    players = rules[PLAYERS]
    rank, of, stats, ranks, base = (scratch.rank, scratch.of, scratch.stats, scratch.ranks,
                                    scratch.base)  # fmt: skip
    totals, gains, spare = scratch.totals, scratch.gains, scratch.spare
    scan_position(state, rules, scratch)
    wizard = wizard_cell(board, rules)
    expected = expected_fill(state, rules, unseen) if heuristic else 0.0
    empties = 0
    for cell in range(board.shape[0]):
        empties += board[cell] == 0
    hold = HOLD_PER_EMPTY * (empties - 2 * players) if heuristic else 0.0
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
                value += castle_outlook(block - CASTLE_1 + 1, effective, at, state[EPOCH], False,
                                        expected, of, stats)  # fmt: skip
        elif block == START or block == PLACE_DRAWN:
            tile = state[held_at(rules, seat)] if block == START else state[PENDING]
            placement_gains(board, rules, at, tile, rank, wizard, of, stats, ranks, base, gains,
                            spare)  # fmt: skip
            value = margin(totals, gains, seat, players)
            if block == START:
                value -= hold
        elif block == DRAW:
            if np.isnan(draw_value):
                draw_value = draw_expectation(board, rules, unseen, seat, totals, rank, wizard,
                                              of, stats, ranks, base, gains, spare,
                                              scratch.units)  # fmt: skip
            value = draw_value
        elif block == PASS:
            value = 0.0
        else:  # choosing a face-up tile
            value = best_tile_margin(board, rules, at, seat, totals, rank, wizard, of, stats,
                                     ranks, base, gains, spare)  # fmt: skip
        values[i] = value


@kernel
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
            out[piece_seat(rules, piece)] += outlook_weight * castle_outlook(
                piece_rank(rules, piece), scratch.rank[cell], cell, state[EPOCH], True,
                expected, scratch.of, scratch.stats,
            )  # fmt: skip


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
