"""Action ids: the one place that says how a decision becomes an integer and back.

The ids of a board of N cells form consecutive blocks: castles of rank 1, 2, 3, 4 (N each),
the starting tile (N), the drawn tile (N), then draw, pass, and in no-luck one id per tile code
to choose a face-up tile. For the standard board: castle r on cell c is (r-1)·30 + c, a starting
tile on c is 120 + c, a drawn tile on c is 150 + c, draw 180, pass 181, choosing tile t 182 + t.
Chance outcomes are not actions of this codec: they are tile codes (draws and deals) or seat
numbers (the first player). The compiled kernel reads the blocks as data (`first_ids`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from functools import cache, cached_property

from engine import pieces


class Block(IntEnum):
    """The blocks of action ids, in the order their ids run."""

    CASTLE_1 = 0
    CASTLE_2 = 1
    CASTLE_3 = 2
    CASTLE_4 = 3
    START = 4  # place the starting tile on a cell
    PLACE = 5  # place the tile just drawn (or chosen) on a cell
    DRAW = 6
    PASS = 7
    CHOOSE = 8  # no-luck: choose a face-up tile, by tile code


CASTLE_BLOCKS = (Block.CASTLE_1, Block.CASTLE_2, Block.CASTLE_3, Block.CASTLE_4)


@cache
def action_codes(cells: int) -> ActionCodes:
    """The codec of a board of `cells` cells (built once: decoding looks ids up in a table)."""
    return ActionCodes(cells)


@dataclass(frozen=True)
class ActionCodes:
    """The action ids of a board of `cells` cells: encoding (`castle`, `start`, …) and
    decoding (`block`, `offset`)."""

    cells: int

    @cached_property
    def _first(self) -> tuple[int, ...]:
        widths = {Block.DRAW: 1, Block.PASS: 1, Block.CHOOSE: pieces.CASTLE_BASE}
        first, total = [], 0
        for block in Block:
            first.append(total)
            total += widths.get(block, self.cells)
        return (*first, total)

    def first_ids(self) -> tuple[int, ...]:
        """The first id of every block (by `Block`), then one past the last id."""
        return self._first

    def castle(self, rank: int, cell: int) -> int:
        return self._first[CASTLE_BLOCKS[rank - 1]] + cell

    def start(self, cell: int) -> int:
        return self._first[Block.START] + cell

    def place_drawn(self, cell: int) -> int:
        return self._first[Block.PLACE] + cell

    @property
    def draw(self) -> int:
        return self._first[Block.DRAW]

    @property
    def pass_(self) -> int:
        return self._first[Block.PASS]

    def choose(self, tile: int) -> int:
        return self._first[Block.CHOOSE] + tile

    @property
    def size(self) -> int:
        """One past the largest action id."""
        return self._first[-1]

    @cached_property
    def _decoded(self) -> tuple[tuple[Block, int], ...]:
        """Every action id's block and its place in the block, looked up by id."""
        first = self._first
        return tuple(
            (block, action - first[block])
            for block in Block
            for action in range(first[block], first[block + 1])
        )

    def decode(self, action: int) -> tuple[Block, int]:
        """The block an action id lies in and its place there (the cell, or the chosen tile's
        code); ValueError for an id outside every block."""
        if not 0 <= action < self.size:
            raise ValueError(f"action {action} is not an action id")
        return self._decoded[action]

    @staticmethod
    def castle_rank(block: Block) -> int:
        """The rank of a castle block (1–4), 0 for any other block."""
        return CASTLE_BLOCKS.index(block) + 1 if block in CASTLE_BLOCKS else 0
