"""The rule set as the kernel's data: one int64 array of parameters, offsets and tables.

Nothing of engine/rules.py or engine/pieces.py is compiled into the kernel; it all travels in
the rules array (its slots: engine/kernel/layout.py), built here once per (player count, rule
set). `KernelState` names the parts of a state array for Python callers.
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

import numpy as np

from engine import pieces
from engine.kernel import layout
from engine.rules import RuleSet, check_players


def _piece_row(code: int) -> tuple[int, int, int, int]:
    if pieces.is_castle(code):
        return layout.CASTLE, 0, pieces.castle_seat(code), pieces.castle_rank(code)
    special = {
        pieces.MOUNTAIN: layout.MOUNTAIN,
        pieces.DRAGON: layout.DRAGON,
        pieces.GOLD_MINE: layout.GOLD_MINE,
        pieces.WIZARD: layout.WIZARD,
    }
    if code in special:
        return special[code], 0, 0, 0
    if pieces.tile_value(code):
        return layout.VALUE_TILE, pieces.tile_value(code), 0, 0
    return layout.NONE, 0, 0, 0


def piece_table() -> np.ndarray:
    """Kind, value, seat and rank of every piece code (a row per code)."""
    codes = range(pieces.CASTLE_BASE + layout.RANKS * pieces.MAX_SEATS)
    return np.array([_piece_row(code) for code in codes], dtype=np.int64)


def max_epochs(players: int, rules: RuleSet) -> int:
    """The most epochs a game can last: fixed, or in last-castle until every castle could be
    gone, each full epoch placing at least the cells the tiles leave free."""
    if not rules.last_castle:
        return rules.epochs
    castles = players * sum(rules.castles(players))
    per_epoch = max(rules.cells - len(rules.tiles), 1)
    return castles // per_epoch + 2


def _tables(players: int, rules: RuleSet) -> dict[int, np.ndarray]:
    """Every table of the rules array, by the header slot that says where it begins."""
    from engine.actions import action_codes
    from engine.geometry import geometry

    geo = geometry(rules.rows, rules.columns)
    supply = np.zeros(pieces.CASTLE_BASE, dtype=np.int64)
    for tile in rules.tiles:
        supply[tile] += 1
    lines = np.full((len(geo.lines), max(rules.rows, rules.columns)), -1, dtype=np.int64)
    for index, line in enumerate(geo.lines):
        lines[index, : len(line)] = line
    neighbours = np.full((geo.cells, layout.NEIGHBOURS), -1, dtype=np.int64)
    for cell in range(geo.cells):
        around = sorted(geo.neighbours(cell))
        neighbours[cell, : len(around)] = around
    seats, ranks = range(pieces.MAX_SEATS), range(1, layout.RANKS + 1)
    codes = action_codes(rules.cells)
    return {
        layout.CASTLE_COUNTS_AT: np.array(rules.castles(players)),
        layout.FULL_SUPPLY_AT: supply,
        layout.LINE_CELLS_AT: lines,
        layout.CELL_LINES_AT: np.array([geo.lines_through(c) for c in range(geo.cells)]),
        layout.NEIGHBOURS_AT: neighbours,
        layout.PIECES_AT: piece_table(),
        layout.CASTLE_CODE_AT: np.array([[pieces.castle(s, r) for r in ranks] for s in seats]),
        layout.ACTION_IDS_AT: np.array(codes.first_ids()),
        layout.ACTION_BLOCKS_AT: np.array([codes.decode(a)[0] for a in range(codes.size)]),
    }


@cache
def kernel_rules(players: int, rules: RuleSet) -> np.ndarray:
    """The rules array of one (player count, rule set), built once (callers do not write it)."""
    check_players(players)
    header = np.zeros(layout.HEADER, dtype=np.int64)
    header[layout.PLAYERS] = players
    header[layout.CELLS] = rules.cells
    header[layout.ROWS] = rules.rows
    header[layout.COLUMNS] = rules.columns
    header[layout.EPOCHS] = rules.epochs
    header[layout.START_GOLD] = rules.start_gold
    header[layout.NO_LUCK] = rules.no_luck
    header[layout.LAST_CASTLE] = rules.last_castle
    header[layout.SCORE_AS_YOU_GO] = rules.score_as_you_go
    header[layout.STARTING_TILES] = rules.starting_tiles
    header[layout.GOLD_MINE_FACTOR] = rules.gold_mine_factor
    header[layout.RETURNING_RANKS] = sum(1 << (rank - 1) for rank in rules.returning_ranks or ())
    header[layout.MAX_EPOCHS] = max_epochs(players, rules)
    header[layout.TILE_CODES] = pieces.CASTLE_BASE
    header[layout.MAX_SEATS] = pieces.MAX_SEATS
    tables = _tables(players, rules)
    header[layout.LINES], header[layout.LONGEST] = tables[layout.LINE_CELLS_AT].shape
    header[layout.ACTION_COUNT] = tables[layout.ACTION_IDS_AT][-1]
    at = layout.HEADER
    for slot, table in tables.items():
        header[slot] = at
        at += table.size
    seats, codes = pieces.MAX_SEATS, pieces.CASTLE_BASE
    parts = (
        (layout.GOLD_AT, seats),
        (layout.CASTLES_AT, seats * layout.RANKS),
        (layout.HELD_AT, seats),
        (layout.SUPPLY_AT, codes),
        (layout.GAINS_AT, header[layout.MAX_EPOCHS] * seats),
    )
    at = layout.BOARD_AT + rules.cells
    for slot, size in parts:
        header[slot] = at
        at += size
    header[layout.STATE_SIZE] = at
    return np.concatenate([header, *(t.ravel().astype(np.int64) for t in tables.values())])


def table(rules: np.ndarray, slot: int, shape: tuple[int, ...]) -> np.ndarray:
    """One table of a rules array (a view), by its header slot and shape."""
    at = int(rules[slot])
    return rules[at : at + int(np.prod(shape))].reshape(shape)


class KernelState(NamedTuple):
    """The parts of a state array, as views that write through (for callers in Python)."""

    scalars: np.ndarray  # (SCALARS,) by the slots of layout.py
    board: np.ndarray  # (cells,) piece codes, 0 for empty
    gold: np.ndarray  # (seats,)
    castles: np.ndarray  # (seats, RANKS) castles left of rank 1..4
    held: np.ndarray  # (seats,) each seat's starting tile, 0 for none
    supply: np.ndarray  # (TILE_CODES,) tiles left to draw (or deal, or choose)
    gains: np.ndarray  # (MAX_EPOCHS, seats) gold gained in every epoch

    @classmethod
    def of(cls, state: np.ndarray, rules: np.ndarray) -> KernelState:
        seats, epochs = int(rules[layout.MAX_SEATS]), int(rules[layout.MAX_EPOCHS])

        def part(slot: int, *shape: int) -> np.ndarray:
            at = int(rules[slot])
            return state[at : at + int(np.prod(shape))].reshape(shape)

        return cls(
            state[: layout.SCALARS],
            state[layout.BOARD_AT : layout.BOARD_AT + int(rules[layout.CELLS])],
            part(layout.GOLD_AT, seats),
            part(layout.CASTLES_AT, seats, layout.RANKS),
            part(layout.HELD_AT, seats),
            part(layout.SUPPLY_AT, int(rules[layout.TILE_CODES])),
            part(layout.GAINS_AT, epochs, seats),
        )
