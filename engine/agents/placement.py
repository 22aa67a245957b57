"""What one placement would change on the board as it stands, in closed form.

Every empty cell lies in one row segment and one column segment; from the per-segment
statistics (castle ranks per seat, resource and hazard sums, dragon, gold mine) the gold change
of putting any piece on the cell follows without rescoring the board. The agents compare
hundreds of candidate placements per turn, so this is their hot path.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine import pieces
from engine.geometry import Geometry
from engine.scoring import wizard_bonus_cells

_CASTLE = pieces.CASTLE_BASE
_VALUE = pieces.TILE_VALUE
_SEAT = pieces.CASTLE_SEAT
_RANK = pieces.CASTLE_RANK


class Segment:
    """The statistics of one stretch of a line between mountains."""

    __slots__ = ("cells", "ranks", "resources", "hazards", "dragon", "mine", "empty")

    def __init__(self, players: int) -> None:
        self.cells: list[int] = []
        self.ranks = [0] * players
        self.resources = 0
        self.hazards = 0
        self.dragon = False
        self.mine = False
        self.empty = 0

    @property
    def base(self) -> int:
        base = self.hazards if self.dragon else self.resources + self.hazards
        return base * 2 if self.mine else base


class PlacementGains:
    """Per-seat gold changes of single placements on one board (the board is not changed)."""

    def __init__(self, board: Sequence[int], players: int, geometry: Geometry) -> None:
        self.board = board
        self.players = players
        self.geometry = geometry
        self.bonus = wizard_bonus_cells(board, geometry)
        self.wizard_on_board = pieces.WIZARD in board
        cells = geometry.cells
        self.row_segment: list[Segment | None] = [None] * cells
        self.column_segment: list[Segment | None] = [None] * cells
        for index, line in enumerate(geometry.lines):
            owner = self.row_segment if index < geometry.rows else self.column_segment
            self._scan_line(line, owner)
        self.empties = [c for c in range(cells) if not board[c]]

    def _scan_line(self, line: Sequence[int], owner: list[Segment | None]) -> None:
        board = self.board
        segment = Segment(self.players)
        for cell in line:
            piece = board[cell]
            if piece == pieces.MOUNTAIN:
                segment = Segment(self.players)
                continue
            owner[cell] = segment
            segment.cells.append(cell)
            _add_piece(segment, piece, cell in self.bonus)

    def segments_of(self, cell: int) -> tuple[Segment, Segment]:
        """The row and column segments through an empty (or non-mountain) cell."""
        row, column = self.row_segment[cell], self.column_segment[cell]
        assert row is not None and column is not None
        return row, column

    def castle_gain(self, cell: int, rank: int) -> int:
        """What a castle of this rank on the empty cell earns its owner (others are unchanged)."""
        row, column = self.segments_of(cell)
        return (rank + (cell in self.bonus)) * (row.base + column.base)

    def tile_gains(self, cell: int, tile: int) -> list[int]:
        """Each seat's gold change from putting the tile on the empty cell."""
        gains = [0] * self.players
        if tile == pieces.WIZARD:
            self._add_wizard(cell, gains)
            return gains
        for segment in self.segments_of(cell):
            _add_tile_to_segment(segment, cell, tile, gains, self.board, self.bonus)
        return gains

    def _add_wizard(self, cell: int, gains: list[int]) -> None:
        """Castles next to the wizard count one rank higher in both their segments."""
        if self.wizard_on_board:
            return
        board = self.board
        for neighbour in self.geometry.neighbours(cell):
            piece = board[neighbour]
            if piece >= _CASTLE:
                row, column = self.segments_of(neighbour)
                gains[_SEAT[piece]] += row.base + column.base


def _add_piece(segment: Segment, piece: int, bonus: bool) -> None:
    if piece == pieces.EMPTY:
        segment.empty += 1
    elif piece >= _CASTLE:
        segment.ranks[_SEAT[piece]] += _RANK[piece] + bonus
    elif piece <= 6:
        segment.resources += piece
    elif piece <= 12:
        segment.hazards += _VALUE[piece]
    elif piece == pieces.DRAGON:
        segment.dragon = True
    elif piece == pieces.GOLD_MINE:
        segment.mine = True


def _add_tile_to_segment(
    segment: Segment,
    cell: int,
    tile: int,
    gains: list[int],
    board: Sequence[int],
    bonus: frozenset[int],
) -> None:
    ranks = segment.ranks
    if tile <= 12:
        if tile <= 6 and segment.dragon:
            return
        change = _VALUE[tile] * (2 if segment.mine else 1)
    elif tile == pieces.DRAGON:
        if segment.dragon:
            return
        change = -segment.resources * (2 if segment.mine else 1)
    elif tile == pieces.GOLD_MINE:
        if segment.mine:
            return
        change = segment.base
    else:
        _add_mountain(segment, cell, gains, board, bonus)
        return
    if change:
        for seat, rank in enumerate(ranks):
            if rank:
                gains[seat] += rank * change


def _add_mountain(
    segment: Segment, cell: int, gains: list[int], board: Sequence[int], bonus: frozenset[int]
) -> None:
    """A mountain splits its segment in two: gold of both parts minus gold of the whole."""
    players = len(gains)
    split = segment.cells.index(cell)
    whole = segment.base
    for part_cells in (segment.cells[:split], segment.cells[split + 1 :]):
        part = Segment(players)
        for other in part_cells:
            _add_piece(part, board[other], other in bonus)
        base = part.base
        for seat, rank in enumerate(part.ranks):
            gains[seat] += rank * (base - whole)
