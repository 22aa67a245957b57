"""The rule set as the kernel's data: every parameter, piece effect and action block as arrays.

Nothing of engine/rules.py or engine/pieces.py is compiled into the kernel; it all travels in
a `KernelRules`, built here once per (player count, rule set).
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

import numpy as np

from engine import pieces
from engine.kernel import layout
from engine.rules import RuleSet, check_players


class KernelRules(NamedTuple):
    """One game's rules as arrays (the kernel's only source of rules)."""

    params: np.ndarray  # (PARAMS,) by the slots of layout.py
    castles: np.ndarray  # (4,) castles of rank 1..4 each seat takes
    supply: np.ndarray  # (TILE_CODES,) copies of each tile code in a full supply
    lines: np.ndarray  # (lines, longest) every row then every column, cells, -1 padded
    cell_lines: np.ndarray  # (cells, 2) the row and the column holding each cell
    neighbours: np.ndarray  # (cells, 4) orthogonal neighbours, -1 padded
    pieces: np.ndarray  # (codes, PIECE_COLUMNS) kind, value, seat, rank of every piece code
    castle_code: np.ndarray  # (MAX_SEATS, 4) the piece code of each seat's castle of rank 1..4
    actions: np.ndarray  # ActionCodes.first_ids(): the first id of every action block


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
    codes = range(pieces.CASTLE_BASE + 4 * pieces.MAX_SEATS)
    return np.array([_piece_row(code) for code in codes], dtype=np.int64)


def max_epochs(players: int, rules: RuleSet) -> int:
    """The most epochs a game can last: fixed, or in last-castle until every castle could be
    gone, each full epoch placing at least the cells the tiles leave free."""
    if not rules.last_castle:
        return rules.epochs
    castles = players * sum(rules.castles(players))
    per_epoch = max(rules.cells - len(rules.tiles), 1)
    return castles // per_epoch + 2


@cache
def kernel_rules(players: int, rules: RuleSet) -> KernelRules:
    """The arrays of one (player count, rule set), built once."""
    from engine.actions import action_codes
    from engine.geometry import geometry

    check_players(players)
    geo = geometry(rules.rows, rules.columns)
    params = np.zeros(layout.PARAMS, dtype=np.int64)
    params[layout.PLAYERS] = players
    params[layout.CELLS] = rules.cells
    params[layout.ROWS] = rules.rows
    params[layout.COLUMNS] = rules.columns
    params[layout.EPOCHS] = rules.epochs
    params[layout.START_GOLD] = rules.start_gold
    params[layout.NO_LUCK] = rules.no_luck
    params[layout.LAST_CASTLE] = rules.last_castle
    params[layout.SCORE_AS_YOU_GO] = rules.score_as_you_go
    params[layout.STARTING_TILES] = rules.starting_tiles
    params[layout.MAX_EPOCHS] = max_epochs(players, rules)
    params[layout.TILE_CODES] = pieces.CASTLE_BASE
    supply = np.zeros(pieces.CASTLE_BASE, dtype=np.int64)
    for tile in rules.tiles:
        supply[tile] += 1
    lines = np.full((len(geo.lines), max(rules.rows, rules.columns)), -1, dtype=np.int64)
    for index, line in enumerate(geo.lines):
        lines[index, : len(line)] = line
    cell_lines = np.array([geo.lines_through(cell) for cell in range(geo.cells)], dtype=np.int64)
    neighbours = np.full((geo.cells, 4), -1, dtype=np.int64)
    for cell in range(geo.cells):
        around = sorted(geo.neighbours(cell))
        neighbours[cell, : len(around)] = around
    castle_code = np.array(
        [[pieces.castle(seat, rank) for rank in range(1, 5)] for seat in range(pieces.MAX_SEATS)],
        dtype=np.int64,
    )
    return KernelRules(
        params=params,
        castles=np.array(rules.castles(players), dtype=np.int64),
        supply=supply,
        lines=lines,
        cell_lines=cell_lines,
        neighbours=neighbours,
        pieces=piece_table(),
        castle_code=castle_code,
        actions=np.array(action_codes(rules.cells).first_ids(), dtype=np.int64),
    )
