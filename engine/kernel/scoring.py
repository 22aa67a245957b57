"""Epoch scoring on flat arrays: a line cut into segments, a board's gold, and its whole breakdown
with tile impacts.

One function per rule: `segment_base` (the dragon cancels resources, the gold mine multiplies),
`castle_rank` (one higher next to the wizard), `scan_line` (a line cut at its mountains into
segments, each paying base × rank to every castle in it). The policies value their moves on the
same segments (engine/kernel/policies.py). `score_board` explains a board the way the lake
stores it: gold per seat, per cell its row and column segment's base and a castle's effective
rank, every tile's counterfactual impact on every seat (gold with it − gold with its cell
empty), and the segments of every line.
"""

from __future__ import annotations

import numpy as np

from engine import facts
from engine.kernel.compiled import helper, inline, kernel
from engine.kernel.layout import (
    CASTLE,
    DRAGON,
    GOLD_MINE,
    GOLD_MINE_FACTOR,
    LINES,
    LONGEST,
    MOUNTAIN,
    NEIGHBOURS,
    ROWS,
    WIZARD,
    line_cell,
    neighbour,
    piece_kind,
    piece_rank,
    piece_seat,
    piece_value,
)

# Columns of a segment's statistics (`scan_line`'s `stats`).
RESOURCES = 0  # the resources' values summed
HAZARDS = 1  # the hazards' values summed (negative)
DRAGONS = 2
MINES = 3  # gold mines
OPEN = 4  # empty cells
STATS = 5

# Columns of a segment row in `score_board`'s `segments` (then the effective rank per seat).
castle_gold = inline(facts.castle_gold)

SEGMENT_LINE = 0
SEGMENT_START = 1  # first position in the line
SEGMENT_STOP = 2  # one past the last position
SEGMENT_BASE = 3
SEGMENT_RANKS = 4


@helper
def segment_base(resources: int, hazards: int, dragon: bool, mine: bool, factor: int) -> int:
    """A segment's base value: the dragon cancels its resources, then the gold mine multiplies
    by the rule set's `factor` (2 in every edition)."""
    base = hazards if dragon else resources + hazards
    return base * factor if mine else base


@helper
def wizard_cell(board, rules) -> int:
    """The cell holding the wizard, -1 when it is not on the board."""
    for cell in range(board.shape[0]):
        if piece_kind(rules, board[cell]) == WIZARD:
            return cell
    return -1


@helper
def castle_rank(board, cell: int, wizard: int, rules) -> int:
    """The effective rank of the castle on `cell`: its rank, one higher when orthogonally next
    to the wizard (0 for a cell without a castle)."""
    piece = board[cell]
    if piece_kind(rules, piece) != CASTLE:
        return 0
    rank = piece_rank(rules, piece)
    if wizard >= 0:
        for k in range(NEIGHBOURS):
            if neighbour(rules, wizard, k) == cell:
                rank += 1
    return rank


@helper
def effective_ranks(board, rules, rank) -> None:
    """Every cell's castle rank with the wizard (`castle_rank`), into `rank`."""
    wizard = wizard_cell(board, rules)
    for cell in range(board.shape[0]):
        rank[cell] = castle_rank(board, cell, wizard, rules)


@inline
def count_piece(rules, piece: int, rank: int, stats, ranks, segment: int) -> None:
    """Add a piece other than a mountain to a segment's statistics, and a castle's effective
    `rank` to its seat's ranks there (without a branch per piece, which kind comes next being a
    guess the processor gets wrong half the time: a value counts on its side, and a piece that
    is no castle adds its rank, 0, to seat 0)."""
    kind = piece_kind(rules, piece)
    value = piece_value(rules, piece)
    stats[segment, RESOURCES] += max(value, 0)
    stats[segment, HAZARDS] += min(value, 0)
    stats[segment, DRAGONS] += kind == DRAGON
    stats[segment, MINES] += kind == GOLD_MINE
    stats[segment, OPEN] += piece == 0
    ranks[segment, piece_seat(rules, piece)] += rank


@inline
def base_of(stats, segment: int, factor: int) -> int:
    """A segment's base value, from its statistics."""
    return segment_base(
        stats[segment, RESOURCES],
        stats[segment, HAZARDS],
        stats[segment, DRAGONS] > 0,
        stats[segment, MINES] > 0,
        factor,
    )


@helper
def scan_line(board, rules, line: int, rank, of, stats, ranks, base, first: int) -> int:
    """Cut one line at its mountains into segments numbered from `first`: each cell's segment
    into `of` (the row's in column 0, the column's in column 1; -1 on a mountain), each
    segment's statistics, castle ranks per seat (the castles at their effective `rank`, per
    cell) and base; returns one past the last segment (a line with n mountains has n + 1
    segments, some perhaps empty)."""
    axis = 0 if line < rules[ROWS] else 1
    segment = first
    stats[segment] = 0
    ranks[segment] = 0
    for position in range(rules[LONGEST]):
        cell = line_cell(rules, line, position)
        if cell < 0:
            break
        piece = board[cell]
        if piece_kind(rules, piece) == MOUNTAIN:
            of[cell, axis] = -1
            base[segment] = base_of(stats, segment, rules[GOLD_MINE_FACTOR])
            segment += 1
            stats[segment] = 0
            ranks[segment] = 0
        else:
            of[cell, axis] = segment
            count_piece(rules, piece, rank[cell], stats, ranks, segment)
    base[segment] = base_of(stats, segment, rules[GOLD_MINE_FACTOR])
    return segment + 1


@helper
def scan_board(board, rules, rank, of, stats, ranks, base) -> int:
    """`scan_line` for every line, into arrays with room for every segment (`segment_room`);
    returns how many segments there are."""
    count = 0
    for line in range(rules[LINES]):
        count = scan_line(board, rules, line, rank, of, stats, ranks, base, count)
    return count


@inline
def segment_room(rules) -> int:
    """The most segments a board can have: every line cut at every cell."""
    return rules[LINES] * (rules[LONGEST] + 1)


@helper
def add_segments_gold(count: int, ranks, base, gold) -> None:
    """Add to `gold` (per seat) what the first `count` segments pay: base × rank."""
    for segment in range(count):
        for seat in range(gold.shape[0]):
            gold[seat] += castle_gold(base[segment], ranks[segment, seat])


@kernel
def score_gold(board, rules, gold) -> None:
    """Add each seat's gold for the epoch on this board to `gold`."""
    rank = np.zeros(board.shape[0], dtype=np.int64)
    effective_ranks(board, rules, rank)
    of = np.zeros((board.shape[0], 2), dtype=np.int64)
    room = rules[LONGEST] + 1  # a line's segments at the most, reused line after line
    stats = np.zeros((room, STATS), dtype=np.int64)
    ranks = np.zeros((room, gold.shape[0]), dtype=np.int64)
    base = np.zeros(room, dtype=np.int64)
    for line in range(rules[LINES]):
        count = scan_line(board, rules, line, rank, of, stats, ranks, base, 0)
        add_segments_gold(count, ranks, base, gold)


@helper
def line_is_full(board, line: int, rules) -> bool:
    for position in range(rules[LONGEST]):
        cell = line_cell(rules, line, position)
        if cell >= 0 and board[cell] == 0:
            return False
    return True


@helper
def without_piece(stats, segment: int, rules, piece: int) -> int:
    """The segment's base with one of its pieces (not a mountain) taken away."""
    kind = piece_kind(rules, piece)
    value = piece_value(rules, piece)
    return segment_base(
        stats[segment, RESOURCES] - max(value, 0),
        stats[segment, HAZARDS] - min(value, 0),
        stats[segment, DRAGONS] - (kind == DRAGON) > 0,
        stats[segment, MINES] - (kind == GOLD_MINE) > 0,
        rules[GOLD_MINE_FACTOR],
    )


@helper
def without_mountain(stats, ranks, base, left: int, seat: int, factor: int) -> int:
    """A seat's gold change from taking away the mountain between segments `left` and
    `left + 1`, which then merge into one."""
    right = left + 1
    merged = segment_base(
        stats[left, RESOURCES] + stats[right, RESOURCES],
        stats[left, HAZARDS] + stats[right, HAZARDS],
        stats[left, DRAGONS] + stats[right, DRAGONS] > 0,
        stats[left, MINES] + stats[right, MINES] > 0,
        factor,
    )
    together = merged * (ranks[left, seat] + ranks[right, seat])
    return (
        together
        - castle_gold(base[left], ranks[left, seat])
        - castle_gold(base[right], ranks[right, seat])
    )


@inline
def add_segment_row(
    segments, row: int, line: int, start: int, stop: int, base: int, ranks, segment: int
) -> int:
    """Write a segment of a line into `segments`' row when it has a cell; returns the rows
    written (1, or 0 for an empty segment)."""
    if start >= stop:
        return 0
    segments[row, SEGMENT_LINE] = line
    segments[row, SEGMENT_START] = start
    segments[row, SEGMENT_STOP] = stop
    segments[row, SEGMENT_BASE] = base
    for seat in range(ranks.shape[1]):
        segments[row, SEGMENT_RANKS + seat] = ranks[segment, seat]
    return 1


@kernel
def score_board(board, rules, gold, row_base, column_base, rank, impacts, segments) -> int:
    """Fill the breakdown of one board (outputs zeroed by the caller): gold (seats), row_base,
    column_base and rank (cells), impacts (cells, seats) and the segments (rows as the SEGMENT_
    columns say); returns how many segments there are."""
    seats = gold.shape[0]
    longest = rules[LONGEST]
    wizard = wizard_cell(board, rules)
    effective_ranks(board, rules, rank)
    of = np.zeros((board.shape[0], 2), dtype=np.int64)
    stats = np.zeros((longest + 1, STATS), dtype=np.int64)
    ranks = np.zeros((longest + 1, seats), dtype=np.int64)
    base = np.zeros(longest + 1, dtype=np.int64)
    start = np.zeros(longest + 1, dtype=np.int64)
    count = 0
    for line in range(rules[LINES]):
        bases = row_base if line < rules[ROWS] else column_base
        last = scan_line(board, rules, line, rank, of, stats, ranks, base, 0) - 1
        add_segments_gold(last + 1, ranks, base, gold)
        # each cell's segment base (a mountain's is that of the segment it starts) and each
        # piece's impact on its segment: removing a value tile, dragon or gold mine changes
        # the base; removing a mountain merges the two segments beside it
        segment = 0
        stop = longest
        for position in range(longest):
            cell = line_cell(rules, line, position)
            if cell < 0:
                stop = position
                break
            piece = board[cell]
            if piece_kind(rules, piece) == MOUNTAIN:
                for seat in range(seats):
                    impacts[cell, seat] -= without_mountain(
                        stats, ranks, base, segment, seat, rules[GOLD_MINE_FACTOR]
                    )
                count += add_segment_row(
                    segments, count, line, start[segment], position, base[segment], ranks, segment
                )
                segment += 1
                start[segment] = position + 1
            else:
                loss = base[segment] - without_piece(stats, segment, rules, piece)
                for seat in range(seats):
                    impacts[cell, seat] += loss * ranks[segment, seat]
            bases[cell] = base[segment]
        count += add_segment_row(segments, count, line, start[last], stop, base[last], ranks, last)
    # the wizard's impact: one rank's worth of row and column gold for each castle next to it
    if wizard >= 0:
        for k in range(NEIGHBOURS):
            cell = neighbour(rules, wizard, k)
            if cell >= 0 and piece_kind(rules, board[cell]) == CASTLE:
                seat = piece_seat(rules, board[cell])
                impacts[wizard, seat] += row_base[cell] + column_base[cell]
    return count


@kernel
def score_boards(boards, rules, gold, row_base, column_base, rank, impacts) -> None:
    """`score_board` for every board of an (E, cells) array, into (E, …) outputs (zeroed)."""
    segments = np.zeros((segment_room(rules), SEGMENT_RANKS + gold.shape[1]), dtype=np.int64)
    for epoch in range(boards.shape[0]):
        score_board(
            boards[epoch],
            rules,
            gold[epoch],
            row_base[epoch],
            column_base[epoch],
            rank[epoch],
            impacts[epoch],
            segments,
        )
