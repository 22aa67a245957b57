"""Epoch scoring on flat arrays: a line's gold, and a board's whole breakdown with tile impacts.

One function per rule: `segment_base` (the dragon cancels resources, the gold mine doubles),
`castle_rank` (one higher next to the wizard), `add_line_gold` (each segment between mountains
pays base × rank to every castle in it). `score_board` explains a board the way the lake stores
it: gold per seat, per cell its row and column segment's base and a castle's effective rank,
every tile's counterfactual impact on every seat (gold with it − gold with its cell empty), and
the segments of every line.
"""

from __future__ import annotations

import numpy as np

from engine.kernel.compiled import helper, kernel
from engine.kernel.layout import (
    CASTLE,
    DRAGON,
    GOLD_MINE,
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

# Columns of a segment row in `score_board`'s `segments` (then the effective rank per seat).
SEGMENT_LINE = 0
SEGMENT_START = 1  # first position in the line
SEGMENT_STOP = 2  # one past the last position
SEGMENT_BASE = 3
SEGMENT_RANKS = 4


@helper
def segment_base(resources: int, hazards: int, dragon: bool, mine: bool) -> int:
    """A segment's base value: the dragon cancels its resources, then the gold mine doubles."""
    base = hazards if dragon else resources + hazards
    return base * 2 if mine else base


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


@helper
def add_line_gold(board, line: int, rank, rules, gold, ranks) -> None:
    """Add to `gold` (per seat) what every seat earns in one line, segment by segment, the
    castles at their effective `rank` (per cell); `ranks`, zeros as long as `gold`, holds a
    segment's ranks per seat meanwhile."""
    length = rules[LONGEST]
    resources = hazards = 0
    dragon = mine = False
    for position in range(length + 1):
        cell = line_cell(rules, line, position) if position < length else -1
        kind = MOUNTAIN if cell < 0 else piece_kind(rules, board[cell])
        if kind == MOUNTAIN:  # the segment ends here (or at the line's end)
            base = segment_base(resources, hazards, dragon, mine)
            for seat in range(gold.shape[0]):
                gold[seat] += base * ranks[seat]
                ranks[seat] = 0
            resources = hazards = 0
            dragon = mine = False
            if cell < 0:
                break
            continue
        # without a branch per cell (which kind of piece comes next is a guess the processor
        # gets wrong half the time): a value counts on its side, and a cell that holds no
        # castle adds its rank, 0, to seat 0
        value = piece_value(rules, board[cell])
        resources += max(value, 0)
        hazards += min(value, 0)
        dragon |= kind == DRAGON
        mine |= kind == GOLD_MINE
        ranks[piece_seat(rules, board[cell])] += rank[cell]


@kernel
def score_gold(board, rules, gold) -> None:
    """Add each seat's gold for the epoch on this board to `gold`."""
    rank = np.zeros(board.shape[0], dtype=np.int64)
    effective_ranks(board, rules, rank)
    ranks = np.zeros(gold.shape[0], dtype=np.int64)
    for line in range(rules[LINES]):
        add_line_gold(board, line, rank, rules, gold, ranks)


@helper
def line_is_full(board, line: int, rules) -> bool:
    for position in range(rules[LONGEST]):
        cell = line_cell(rules, line, position)
        if cell >= 0 and board[cell] == 0:
            return False
    return True


@kernel
def score_board(board, rules, gold, row_base, column_base, rank, impacts, segments) -> int:
    """Fill the breakdown of one board (outputs zeroed by the caller): gold (seats), row_base,
    column_base and rank (cells), impacts (cells, seats) and the segments (rows as the SEGMENT_
    columns say); returns how many segments there are."""
    seats = gold.shape[0]
    longest = rules[LONGEST]
    wizard = wizard_cell(board, rules)
    effective_ranks(board, rules, rank)
    resources = np.zeros(longest + 1, dtype=np.int64)
    hazards = np.zeros(longest + 1, dtype=np.int64)
    dragon = np.zeros(longest + 1, dtype=np.bool_)
    mine = np.zeros(longest + 1, dtype=np.bool_)
    ranks = np.zeros((longest + 1, seats), dtype=np.int64)
    base = np.zeros(longest + 1, dtype=np.int64)
    start = np.zeros(longest + 1, dtype=np.int64)
    stop = np.zeros(longest + 1, dtype=np.int64)
    count = 0
    rows = rules[ROWS]
    for line in range(rules[LINES]):
        bases = row_base if line < rows else column_base
        # the segments' contents, cut at every mountain
        last = 0
        resources[0] = hazards[0] = 0
        dragon[0] = mine[0] = False
        ranks[0] = 0
        start[0] = 0
        length = 0
        for position in range(longest):
            cell = line_cell(rules, line, position)
            if cell < 0:
                break
            length += 1
            piece = board[cell]
            kind = piece_kind(rules, piece)
            if kind == MOUNTAIN:
                stop[last] = position
                last += 1
                resources[last] = hazards[last] = 0
                dragon[last] = mine[last] = False
                ranks[last] = 0
                start[last] = position + 1
                continue
            value = piece_value(rules, piece)
            if value > 0:
                resources[last] += value
            else:
                hazards[last] += value
            dragon[last] |= kind == DRAGON
            mine[last] |= kind == GOLD_MINE
            if kind == CASTLE:
                ranks[last, piece_seat(rules, piece)] += rank[cell]
        stop[last] = length
        for segment in range(last + 1):
            base[segment] = segment_base(
                resources[segment], hazards[segment], dragon[segment], mine[segment]
            )
            for seat in range(seats):
                gold[seat] += base[segment] * ranks[segment, seat]
            if stop[segment] > start[segment]:
                segments[count, SEGMENT_LINE] = line
                segments[count, SEGMENT_START] = start[segment]
                segments[count, SEGMENT_STOP] = stop[segment]
                segments[count, SEGMENT_BASE] = base[segment]
                for seat in range(seats):
                    segments[count, SEGMENT_RANKS + seat] = ranks[segment, seat]
                count += 1
        # each cell's segment base (a mountain's is that of the segment it starts) and each
        # tile's impact on its segment: removing a value tile, dragon or gold mine changes the
        # base; removing a mountain merges the two segments beside it
        segment = 0
        for position in range(length):
            cell = line_cell(rules, line, position)
            piece = board[cell]
            kind = piece_kind(rules, piece)
            if kind == MOUNTAIN:
                left, right = segment, segment + 1
                merged = segment_base(
                    resources[left] + resources[right],
                    hazards[left] + hazards[right],
                    dragon[left] or dragon[right],
                    mine[left] or mine[right],
                )
                for seat in range(seats):
                    apart = base[left] * ranks[left, seat] + base[right] * ranks[right, seat]
                    together = merged * (ranks[left, seat] + ranks[right, seat])
                    impacts[cell, seat] += apart - together
                segment = right
            else:
                value = piece_value(rules, piece)
                without = segment_base(
                    resources[segment] - max(value, 0),
                    hazards[segment] - min(value, 0),
                    dragon[segment] and kind != DRAGON,
                    mine[segment] and kind != GOLD_MINE,
                )
                loss = base[segment] - without
                for seat in range(seats):
                    impacts[cell, seat] += loss * ranks[segment, seat]
            bases[cell] = base[segment]
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
    segments = np.zeros((rules[LINES] * (rules[LONGEST] + 1), SEGMENT_RANKS + gold.shape[1]),
                        dtype=np.int64)  # fmt: skip
    for epoch in range(boards.shape[0]):
        score_board(boards[epoch], rules, gold[epoch], row_base[epoch], column_base[epoch],
                    rank[epoch], impacts[epoch], segments)  # fmt: skip
