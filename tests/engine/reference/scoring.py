"""The readable reference of scoring one epoch, a test oracle: a pure function of a board,
which the kernel's scoring (engine/kernel/scoring.py) and its face (engine/scoring.py) are held to.

`score_gold` is the fast path (gold per seat); `score_breakdown` explains the same total
segment by segment and castle by castle, and gives every tile's counterfactual impact (the
seat's gold with the board as it is, minus the same with that tile's space left empty).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine import pieces
from engine.geometry import Geometry
from engine.scoring import Breakdown, CastleScore, ScoredSegment

_VALUE = pieces.TILE_VALUE
_CASTLE = pieces.CASTLE_BASE
_MOUNTAIN = pieces.MOUNTAIN
_DRAGON = pieces.DRAGON
_GOLD_MINE = pieces.GOLD_MINE
_SEAT = pieces.CASTLE_SEAT
_RANK = pieces.CASTLE_RANK
_NO_BONUS: frozenset[int] = frozenset()


def wizard_bonus_cells(board: Sequence[int], geometry: Geometry) -> frozenset[int]:
    """Cells whose castle counts one rank higher: those orthogonally next to the wizard."""
    if pieces.WIZARD not in board:
        return _NO_BONUS
    return geometry.neighbours(board.index(pieces.WIZARD))


def add_line_gold(
    board: Sequence[int], line: Sequence[int], gold: list[int], bonus: frozenset[int]
) -> None:
    """Add to `gold` what every seat earns in one row or column, segment by segment."""
    resources = hazards = 0
    dragon = mine = False
    castles: list[int] = []
    for cell in (*line, -1):
        piece = board[cell] if cell >= 0 else _MOUNTAIN
        if piece == 0:
            continue
        if piece >= _CASTLE:
            castles.append(cell)
        elif piece <= 6:
            resources += piece
        elif piece <= 12:
            hazards += _VALUE[piece]
        elif piece == _MOUNTAIN:
            if castles:
                base = hazards if dragon else resources + hazards
                if mine:
                    base *= 2
                if base:
                    for castle_cell in castles:
                        code = board[castle_cell]
                        rank = _RANK[code] + (castle_cell in bonus)
                        gold[_SEAT[code]] += base * rank
                castles = []
            resources = hazards = 0
            dragon = mine = False
        elif piece == _DRAGON:
            dragon = True
        elif piece == _GOLD_MINE:
            mine = True


def score_gold(board: Sequence[int], players: int, geometry: Geometry) -> list[int]:
    """Each seat's gold for the epoch on this board."""
    gold = [0] * players
    bonus = wizard_bonus_cells(board, geometry)
    for line in geometry.lines:
        add_line_gold(board, line, gold, bonus)
    return gold


def segment_base(board: Sequence[int], cells: Sequence[int]) -> int:
    """A segment's base value: value tiles summed, dragon cancelling resources, gold mine ×2."""
    codes = [board[cell] for cell in cells]
    resources = sum(_VALUE[c] for c in codes if 1 <= c <= 6)
    hazards = sum(_VALUE[c] for c in codes if 7 <= c <= 12)
    base = hazards if _DRAGON in codes else resources + hazards
    return base * 2 if _GOLD_MINE in codes else base


def _segments(line: Sequence[int], board: Sequence[int]) -> list[tuple[int, ...]]:
    segments: list[list[int]] = [[]]
    for cell in line:
        if board[cell] == _MOUNTAIN:
            segments.append([])
        else:
            segments[-1].append(cell)
    return [tuple(s) for s in segments if s]


def tile_impacts(
    board: Sequence[int], players: int, geometry: Geometry
) -> dict[int, tuple[int, ...]]:
    """Counterfactual impact of every tile on every seat (gold with it − gold without it).

    A tile only changes the lines through its own cell, except the wizard, whose bonus reaches
    castles in other lines; the wizard is therefore rescored on the whole board.
    """
    bonus = wizard_bonus_cells(board, geometry)
    lines = geometry.lines
    without = list(board)
    impacts: dict[int, tuple[int, ...]] = {}
    for cell, piece in enumerate(board):
        if not pieces.is_tile(piece):
            continue
        without[cell] = pieces.EMPTY
        if piece == pieces.WIZARD:
            with_gold = score_gold(board, players, geometry)
            without_gold = score_gold(without, players, geometry)
        else:
            with_gold = [0] * players
            without_gold = [0] * players
            for index in geometry.lines_through(cell):
                add_line_gold(board, lines[index], with_gold, bonus)
                add_line_gold(without, lines[index], without_gold, bonus)
        without[cell] = piece
        impacts[cell] = tuple(w - o for w, o in zip(with_gold, without_gold, strict=True))
    return impacts


def score_breakdown(board: Sequence[int], players: int, geometry: Geometry) -> Breakdown:
    """The epoch's scoring explained: per segment, per castle, and per tile."""
    bonus = wizard_bonus_cells(board, geometry)
    gold = [0] * players
    segments = []
    row_gold: dict[int, int] = {}
    column_gold: dict[int, int] = {}
    for index, line in enumerate(geometry.lines):
        is_row = index < geometry.rows
        label = (
            f"row {index + 1}"
            if is_row
            else f"column {geometry.cell_name(index - geometry.rows)[0]}"
        )
        for cells in _segments(line, board):
            base = segment_base(board, cells)
            ranks = [0] * players
            for cell in cells:
                code = board[cell]
                if pieces.is_castle(code):
                    ranks[_SEAT[code]] += _RANK[code] + (cell in bonus)
                    earned = base * (_RANK[code] + (cell in bonus))
                    (row_gold if is_row else column_gold)[cell] = earned
            seg_gold = tuple(base * rank for rank in ranks)
            for seat, amount in enumerate(seg_gold):
                gold[seat] += amount
            segments.append(ScoredSegment(label, cells, base, tuple(ranks), seg_gold))
    castles = tuple(
        CastleScore(
            cell=cell,
            seat=_SEAT[code],
            rank=_RANK[code],
            effective_rank=_RANK[code] + (cell in bonus),
            row_gold=row_gold[cell],
            column_gold=column_gold[cell],
        )
        for cell, code in enumerate(board)
        if pieces.is_castle(code)
    )
    return Breakdown(
        gold=tuple(gold),
        segments=tuple(segments),
        castles=castles,
        impacts=tile_impacts(board, players, geometry),
    )
