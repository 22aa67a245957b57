"""Epoch scoring of many boards at once, compiled with numba: gold, castle yields and tile impacts.

The same rules as engine/scoring.py (which the tests hold it to), in a loop that numba compiles
so that writing a batch to the lake costs little next to playing it. Each line is walked the
way `add_line_gold` walks it, cut into segments at its mountains; a tile's counterfactual
impact is then worked out per segment: removing a value tile, dragon or gold mine changes its
segment's base; removing a mountain merges the two segments beside it; removing the wizard
takes one rank from each castle next to it.

The kernel is cached on disk (`cache=True`), keyed on this file only: the piece codes of
engine/pieces.py are compiled in as constants, so a change there needs the cache cleared.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numba
import numpy as np

from engine import pieces
from engine.geometry import geometry

SEATS = pieces.MAX_SEATS

_MOUNTAIN = pieces.MOUNTAIN
_DRAGON = pieces.DRAGON
_GOLD_MINE = pieces.GOLD_MINE
_WIZARD = pieces.WIZARD
_CASTLE = pieces.CASTLE_BASE


@dataclass(frozen=True)
class BoardScores:
    """Per epoch board (E of them): gold per seat, and per cell the segment bases and ranks."""

    gold: np.ndarray  # (E, SEATS)
    row_base: np.ndarray  # (E, cells) base of the row segment holding the cell
    column_base: np.ndarray  # (E, cells)
    effective_rank: np.ndarray  # (E, cells) castle rank plus wizard bonus, 0 for non-castles
    impacts: np.ndarray  # (E, cells, SEATS) counterfactual impact of the tile on the cell


@cache
def _geometry_arrays(rows: int, columns: int) -> tuple[np.ndarray, np.ndarray]:
    """The lines (rows, then columns) and each cell's neighbours, as arrays padded with -1."""
    geo = geometry(rows, columns)
    lines = np.full((len(geo.lines), max(rows, columns)), -1, dtype=np.int64)
    for index, line in enumerate(geo.lines):
        lines[index, : len(line)] = line
    neighbours = np.full((geo.cells, 4), -1, dtype=np.int64)
    for cell in range(geo.cells):
        around = sorted(geo.neighbours(cell))
        neighbours[cell, : len(around)] = around
    return lines, neighbours


def score_boards(boards: np.ndarray, rows: int = 5, columns: int = 6) -> BoardScores:
    """Score E boards (an (E, cells) array of piece codes) the way engine.scoring does."""
    lines, neighbours = _geometry_arrays(rows, columns)
    boards = boards.astype(np.int16)
    epochs, cells = boards.shape
    gold = np.zeros((epochs, SEATS), dtype=np.int32)
    bases = np.zeros((2, epochs, cells), dtype=np.int32)  # row, then column segment bases
    rank = np.zeros((epochs, cells), dtype=np.int16)
    impacts = np.zeros((epochs, cells, SEATS), dtype=np.int32)
    _score(boards, lines, neighbours, rows, _piece_effects(), gold, bases, rank, impacts)
    return BoardScores(gold, bases[0], bases[1], rank, impacts)


@cache
def _piece_effects() -> np.ndarray:
    """What every piece code brings to its segment, a row each: resource value, hazard value,
    dragon (1/0), gold mine (1/0), castle seat (0 for non-castles) and castle rank (0 for
    non-castles). The scoring loop looks these up instead of branching on the piece: the
    pieces of a line come in no predictable order, and mispredicted branches cost it a third."""
    codes = range(len(pieces.TILE_VALUE))
    value = pieces.TILE_VALUE
    return np.array(
        [
            [value[c] if value[c] > 0 else 0 for c in codes],
            [value[c] if value[c] < 0 else 0 for c in codes],
            [c == _DRAGON for c in codes],
            [c == _GOLD_MINE for c in codes],
            [max(pieces.CASTLE_SEAT[c], 0) for c in codes],
            pieces.CASTLE_RANK,
        ],
        dtype=np.int64,
    )


@numba.njit(cache=True)
def _base(resources: int, hazards: int, dragon: bool, mine: bool) -> int:
    """A segment's base value: the dragon cancels the resources, the gold mine doubles."""
    base = hazards if dragon else resources + hazards
    return base * 2 if mine else base


@numba.njit(cache=True)
def _score(boards, lines, neighbours, rows, effects, gold, bases, rank, impacts):
    """Fill gold, bases, rank and impacts (zeroed, as score_boards returns them) board by board."""
    resource, hazard, is_dragon, is_mine, owner, castle_rank = effects
    segments = lines.shape[1] + 1  # a segment before every mountain, and one after the last
    resources = np.zeros(segments, dtype=np.int64)
    hazards = np.zeros(segments, dtype=np.int64)
    dragon = np.zeros(segments, dtype=np.bool_)
    mine = np.zeros(segments, dtype=np.bool_)
    ranks = np.zeros((segments, SEATS), dtype=np.int64)  # effective ranks per seat
    base = np.zeros(segments, dtype=np.int64)
    for epoch in range(boards.shape[0]):
        board = boards[epoch]
        wizard = -1
        for cell in range(board.shape[0]):
            rank[epoch, cell] = castle_rank[board[cell]]
            if board[cell] == _WIZARD and wizard < 0:
                wizard = cell
        if wizard >= 0:
            for cell in neighbours[wizard]:
                if cell >= 0 and board[cell] >= _CASTLE:
                    rank[epoch, cell] += 1

        for index in range(lines.shape[0]):
            line = lines[index]
            side = 0 if index < rows else 1
            # The segments' contents, cut at every mountain.
            last = 0
            resources[0] = hazards[0] = 0
            dragon[0] = mine[0] = False
            ranks[0] = 0
            for cell in line:
                if cell < 0:
                    break
                piece = board[cell]
                if piece == _MOUNTAIN:
                    last += 1
                    resources[last] = hazards[last] = 0
                    dragon[last] = mine[last] = False
                    ranks[last] = 0
                    continue
                resources[last] += resource[piece]
                hazards[last] += hazard[piece]
                dragon[last] |= is_dragon[piece]
                mine[last] |= is_mine[piece]
                ranks[last, owner[piece]] += rank[epoch, cell]  # 0 but for castles
            for segment in range(last + 1):
                base[segment] = _base(
                    resources[segment], hazards[segment], dragon[segment], mine[segment]
                )
                for seat in range(SEATS):
                    gold[epoch, seat] += base[segment] * ranks[segment, seat]

            # Each cell's segment base (a mountain's is that of the segment it starts), and
            # each tile's impact: its segment's gold less the same without the tile (which
            # comes to nothing for a castle, the wizard or an empty cell).
            segment = 0
            for cell in line:
                if cell < 0:
                    break
                piece = board[cell]
                if piece == _MOUNTAIN:
                    left, right = segment, segment + 1
                    merged = _base(
                        resources[left] + resources[right],
                        hazards[left] + hazards[right],
                        dragon[left] or dragon[right],
                        mine[left] or mine[right],
                    )
                    for seat in range(SEATS):
                        apart = base[left] * ranks[left, seat] + base[right] * ranks[right, seat]
                        together = merged * (ranks[left, seat] + ranks[right, seat])
                        impacts[epoch, cell, seat] += apart - together
                    segment = right
                else:
                    without = _base(
                        resources[segment] - resource[piece],
                        hazards[segment] - hazard[piece],
                        dragon[segment] and not is_dragon[piece],
                        mine[segment] and not is_mine[piece],
                    )
                    loss = base[segment] - without
                    for seat in range(SEATS):
                        impacts[epoch, cell, seat] += loss * ranks[segment, seat]
                bases[side, epoch, cell] = base[segment]

        # The wizard's impact: one rank's worth of row and column gold per castle next to it.
        if wizard >= 0:
            for cell in neighbours[wizard]:
                if cell >= 0 and board[cell] >= _CASTLE:
                    seat = (board[cell] - _CASTLE) >> 2
                    impacts[epoch, wizard, seat] += bases[0, epoch, cell] + bases[1, epoch, cell]
