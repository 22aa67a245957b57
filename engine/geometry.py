"""Cells of a grid: names (`a1` top-left), lines (rows then columns), neighbours."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from engine.tokens import parse_int

COLUMN_LETTERS = "abcdefghijklmnopqrstuvwxyz"


class CellError(ValueError):
    """A cell name that is not on the board."""


@dataclass(frozen=True)
class Geometry:
    rows: int
    columns: int

    @property
    def cells(self) -> int:
        return self.rows * self.columns

    def cell_name(self, cell: int) -> str:
        row, column = divmod(cell, self.columns)
        return f"{COLUMN_LETTERS[column]}{row + 1}"

    def parse_cell(self, name: str) -> int:
        letter, row = name[:1], parse_int(name[1:], 1, self.rows)
        if not letter or letter not in COLUMN_LETTERS[: self.columns] or row is None:
            raise CellError(f"'{name}' is not a cell of a {self.rows}x{self.columns} board")
        return (row - 1) * self.columns + COLUMN_LETTERS.index(letter)

    def row_of(self, cell: int) -> int:
        return cell // self.columns

    def column_of(self, cell: int) -> int:
        return cell % self.columns

    @property
    def lines(self) -> tuple[tuple[int, ...], ...]:
        """Every row (top to bottom), then every column (left to right), as cell tuples."""
        return _lines(self.rows, self.columns)

    def lines_through(self, cell: int) -> tuple[int, int]:
        """Indexes into `lines` of the row and the column that hold the cell."""
        return self.row_of(cell), self.rows + self.column_of(cell)

    def neighbours(self, cell: int) -> frozenset[int]:
        """The orthogonally adjacent cells."""
        return _neighbours(self.rows, self.columns)[cell]

    def mirrored(self, cell: int) -> int:
        """The cell's left-right mirror image."""
        row, column = divmod(cell, self.columns)
        return row * self.columns + self.columns - 1 - column

    def flipped(self, cell: int) -> int:
        """The cell's top-bottom mirror image."""
        row, column = divmod(cell, self.columns)
        return (self.rows - 1 - row) * self.columns + column

    def mirror_images(self, cell: int) -> frozenset[int]:
        """The cell and its images under left-right and top-bottom reflection of the board (each
        maps rows to rows, columns to columns and neighbours to neighbours)."""
        return frozenset(
            {cell, self.mirrored(cell), self.flipped(cell), self.flipped(self.mirrored(cell))}
        )


@cache
def _lines(rows: int, columns: int) -> tuple[tuple[int, ...], ...]:
    row_lines = tuple(tuple(r * columns + c for c in range(columns)) for r in range(rows))
    column_lines = tuple(tuple(r * columns + c for r in range(rows)) for c in range(columns))
    return row_lines + column_lines


@cache
def _neighbours(rows: int, columns: int) -> tuple[frozenset[int], ...]:
    result = []
    for cell in range(rows * columns):
        row, column = divmod(cell, columns)
        around = set()
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            r, c = row + dr, column + dc
            if 0 <= r < rows and 0 <= c < columns:
                around.add(r * columns + c)
        result.append(frozenset(around))
    return tuple(result)


@cache
def geometry(rows: int = 5, columns: int = 6) -> Geometry:
    return Geometry(rows, columns)
