"""Moves as a player makes them: one turn, one record line.

A turn is one `Move` (`C4 b2`, `d+5 c3`, `s-2 a1`, `pass`); the engine's state sees it as
one or more integer actions (engine/actions.py): a castle or starting-tile placement is one
action, a draw is DRAW, then the chance outcome (the tile), then the placement of the drawn tile.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import pieces
from engine.geometry import Geometry
from engine.tokens import words

CASTLE = "castle"
DRAW = "draw"
START = "start"
PASS = "pass"
KINDS = (CASTLE, DRAW, START, PASS)


class MoveSyntaxError(ValueError):
    """Text that is not a move; `column` is 1-based within the text."""

    def __init__(self, message: str, column: int = 1) -> None:
        super().__init__(message)
        self.column = column


class IllegalMoveError(ValueError):
    """A well-formed move that the rules do not allow in this position."""


@dataclass(frozen=True)
class Move:
    kind: str
    cell: int | None = None
    rank: int = 0  # castles
    tile: int = 0  # drawn or starting tile, as a piece code

    @classmethod
    def from_str(cls, text: str, geometry: Geometry) -> Move:
        """Parse `C4 b2`, `d+5 c3`, `s-2 a1` or `pass` (words separated by spaces or tabs)."""
        parts = words(text)
        if [word for _, word in parts] == ["pass"]:
            return cls(PASS)
        if not parts:
            raise MoveSyntaxError("missing move")
        action = parts[0][1]
        if len(parts) != 2:
            column = parts[2][0] if len(parts) > 2 else 1
            shown = " ".join(word for _, word in parts)
            raise MoveSyntaxError(f"'{shown}' is not a move (expected e.g. 'C4 b2')", column)
        cell_column, cell_name = parts[1]
        try:
            cell = geometry.parse_cell(cell_name)
        except ValueError as error:
            raise MoveSyntaxError(str(error), cell_column) from None
        if len(action) == 2 and action[0] == "C" and action[1] in "1234":
            return cls(CASTLE, cell, rank=int(action[1]))
        if action[:1] in ("d", "s"):
            try:
                tile = pieces.parse_tile(action[1:])
            except ValueError as error:
                raise MoveSyntaxError(str(error), parts[0][0] + 1) from None
            return cls(DRAW if action[0] == "d" else START, cell, tile=tile)
        raise MoveSyntaxError(f"unknown action '{action}'", parts[0][0])

    def to_str(self, geometry: Geometry) -> str:
        if self.kind == PASS:
            return "pass"
        assert self.cell is not None
        cell = geometry.cell_name(self.cell)
        if self.kind == CASTLE:
            return f"C{self.rank} {cell}"
        prefix = "d" if self.kind == DRAW else "s"
        return f"{prefix}{pieces.piece_token(self.tile)} {cell}"
