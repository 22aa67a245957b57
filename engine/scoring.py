"""Scoring one epoch: a pure function of a board, read from the kernel's scoring.

`score_gold` gives gold per seat; `score_breakdown` explains the same total segment by segment
and castle by castle, and gives every tile's counterfactual impact (the seat's gold with the
board as it is, minus the same with that tile's space left empty). The rules are the kernel's
(engine/kernel/scoring.py); this only names its arrays.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from engine import pieces
from engine.geometry import Geometry
from engine.kernel import scoring
from engine.kernel.layout import LINES, LONGEST
from engine.kernel.tables import kernel_rules
from engine.rules import RuleSet

_NO_BONUS: frozenset[int] = frozenset()


def wizard_bonus_cells(board: Sequence[int], geometry: Geometry) -> frozenset[int]:
    """Cells whose castle counts one rank higher: those orthogonally next to the wizard."""
    if pieces.WIZARD not in board:
        return _NO_BONUS
    return geometry.neighbours(board.index(pieces.WIZARD))


@dataclass(frozen=True)
class ScoredSegment:
    """A stretch of a line between mountains (or the edges), scored on its own."""

    line: str  # "row 1" … or "column a" …
    cells: tuple[int, ...]
    base: int
    ranks: tuple[int, ...]  # effective rank per seat
    gold: tuple[int, ...]  # base × rank per seat


@dataclass(frozen=True)
class CastleScore:
    cell: int
    seat: int
    rank: int
    effective_rank: int
    row_gold: int
    column_gold: int

    @property
    def gold(self) -> int:
        return self.row_gold + self.column_gold


@dataclass(frozen=True)
class Breakdown:
    gold: tuple[int, ...]
    segments: tuple[ScoredSegment, ...]
    castles: tuple[CastleScore, ...]
    impacts: dict[int, tuple[int, ...]]  # tile cell -> counterfactual impact per seat


def _board_rules(geometry: Geometry, rules: RuleSet | None = None) -> np.ndarray:
    """A kernel rules array of the board's shape (scoring reads nothing else of the rules but
    the gold mine's factor, `rules`' when given)."""
    return kernel_rules(
        pieces.MAX_SEATS, rules or RuleSet(rows=geometry.rows, columns=geometry.columns)
    )


def score_gold(board: Sequence[int], players: int, geometry: Geometry) -> list[int]:
    """Each seat's gold for the epoch on this board."""
    gold = np.zeros(pieces.MAX_SEATS, dtype=np.int64)
    scoring.score_gold(np.array(board, dtype=np.int64), _board_rules(geometry), gold)
    return gold[:players].tolist()


def _line_name(line: int, geometry: Geometry) -> str:
    if line < geometry.rows:
        return f"row {line + 1}"
    return f"column {geometry.cell_name(line - geometry.rows)[0]}"


def score_breakdown(
    board: Sequence[int], players: int, geometry: Geometry, rule_set: RuleSet | None = None
) -> Breakdown:
    """The epoch's scoring explained: per segment, per castle, and per tile (by `rule_set`'s
    scoring when given, of a board of its shape)."""
    rules = _board_rules(geometry, rule_set)
    seats, cells = pieces.MAX_SEATS, len(board)
    gold = np.zeros(seats, dtype=np.int64)
    row_base, column_base, rank = np.zeros((3, cells), dtype=np.int64)
    impacts = np.zeros((cells, seats), dtype=np.int64)
    rows = int(rules[LINES]) * (int(rules[LONGEST]) + 1)
    found = np.zeros((rows, scoring.SEGMENT_RANKS + seats), dtype=np.int64)
    pieces_on = np.array(board, dtype=np.int64)
    count = scoring.score_board(pieces_on, rules, gold, row_base, column_base, rank, impacts, found)
    segments = []
    for line, start, stop, base, *ranks in found[
        :count, : scoring.SEGMENT_RANKS + players
    ].tolist():
        segments.append(
            ScoredSegment(
                _line_name(line, geometry),
                tuple(geometry.lines[line][start:stop]),
                base,
                tuple(ranks),
                tuple(base * r for r in ranks),
            )
        )
    castles = tuple(
        CastleScore(
            cell=cell,
            seat=pieces.castle_seat(code),
            rank=pieces.castle_rank(code),
            effective_rank=int(rank[cell]),
            row_gold=int(row_base[cell] * rank[cell]),
            column_gold=int(column_base[cell] * rank[cell]),
        )
        for cell, code in enumerate(board)
        if pieces.is_castle(code)
    )
    return Breakdown(
        gold=tuple(gold[:players].tolist()),
        segments=tuple(segments),
        castles=castles,
        impacts={
            cell: tuple(impacts[cell, :players].tolist())
            for cell, code in enumerate(board)
            if pieces.is_tile(code)
        },
    )
