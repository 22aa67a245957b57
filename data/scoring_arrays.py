"""Epoch scoring of many boards at once, with numpy: gold, castle yields and tile impacts.

The same rules as engine/scoring.py (which the tests hold it to), vectorised over epochs so
that writing a batch to the lake costs little next to playing it. A tile's counterfactual
impact is worked out per segment: removing a value tile, dragon or gold mine changes its
segment's base; removing a mountain merges the two segments beside it; removing the wizard
takes one rank from each castle next to it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from engine import pieces
from engine.geometry import geometry

SEATS = pieces.MAX_SEATS
SEGMENTS = 3  # two mountains at most cut a line in three


@dataclass(frozen=True)
class BoardScores:
    """Per epoch board (E of them): gold per seat, and per cell the segment bases and ranks."""

    gold: np.ndarray  # (E, SEATS)
    row_base: np.ndarray  # (E, cells) base of the row segment holding the cell
    column_base: np.ndarray  # (E, cells)
    effective_rank: np.ndarray  # (E, cells) castle rank plus wizard bonus, 0 for non-castles
    impacts: np.ndarray  # (E, cells, SEATS) counterfactual impact of the tile on the cell


@cache
def _adjacency(rows: int, columns: int) -> np.ndarray:
    geo = geometry(rows, columns)
    adjacent = np.zeros((geo.cells + 1, geo.cells), dtype=bool)  # last row: no wizard
    for cell in range(geo.cells):
        adjacent[cell, list(geo.neighbours(cell))] = True
    return adjacent


def _base(resources: np.ndarray, hazards: np.ndarray, dragon: np.ndarray, mine: np.ndarray):
    return np.where(dragon, hazards, resources + hazards) * (1 + mine)


def score_boards(boards: np.ndarray, rows: int = 5, columns: int = 6) -> BoardScores:
    """Score E boards (an (E, cells) array of piece codes) the way engine.scoring does."""
    geo = geometry(rows, columns)
    boards = boards.astype(np.int16)
    epochs, cells = boards.shape
    is_castle = boards >= pieces.CASTLE_BASE
    code = np.where(is_castle, boards - pieces.CASTLE_BASE, 0)
    owner = np.where(is_castle, code >> 2, -1)
    has_wizard = (boards == pieces.WIZARD).any(axis=1)
    wizard_cell = np.where(has_wizard, (boards == pieces.WIZARD).argmax(axis=1), cells)
    bonus = _adjacency(rows, columns)[wizard_cell] & is_castle
    rank = np.where(is_castle, (code & 3) + 1, 0) + bonus
    seat_rank = (owner[..., None] == np.arange(SEATS)) * rank[..., None]  # (E, cells, SEATS)
    value = np.asarray(pieces.TILE_VALUE[: pieces.CASTLE_BASE] + (0,) * 64, dtype=np.int16)[
        np.minimum(boards, pieces.CASTLE_BASE)
    ]
    resource_value = np.where((boards >= 1) & (boards <= 6), value, 0)
    hazard_value = np.where((boards >= 7) & (boards <= 12), value, 0)

    gold = np.zeros((epochs, SEATS), dtype=np.int32)
    bases = np.zeros((2, epochs, cells), dtype=np.int32)
    impacts = np.zeros((epochs, cells, SEATS), dtype=np.int32)
    take = np.take_along_axis
    for index, line in enumerate(geo.lines):
        line = np.asarray(line)
        piece = boards[:, line]
        mountain = piece == pieces.MOUNTAIN
        segment = np.cumsum(mountain, axis=1)
        member = (segment[..., None] == np.arange(SEGMENTS)) & ~mountain[..., None]  # (E,n,S)
        resources = (member * resource_value[:, line, None]).sum(axis=1)  # (E, S)
        hazards = (member * hazard_value[:, line, None]).sum(axis=1)
        dragon = (member & (piece == pieces.DRAGON)[..., None]).any(axis=1)
        mine = (member & (piece == pieces.GOLD_MINE)[..., None]).any(axis=1)
        ranks = np.einsum("ens,enp->esp", member.astype(np.int32), seat_rank[:, line])
        base = _base(resources, hazards, dragon, mine)  # (E, S)
        gold += (base[..., None] * ranks).sum(axis=1)

        here = np.minimum(segment, SEGMENTS - 1)
        cell_base = take(base, here, axis=1)
        bases[0 if index < rows else 1][:, line] = cell_base

        cell_res = take(resources, here, axis=1)
        cell_haz = take(hazards, here, axis=1)
        cell_dragon = take(dragon, here, axis=1)
        cell_mine = take(mine, here, axis=1)
        cell_ranks = take(ranks, here[..., None], axis=1)  # (E, n, SEATS)
        without = np.where(
            piece == pieces.DRAGON,
            _base(cell_res, cell_haz, False, cell_mine),
            np.where(
                piece == pieces.GOLD_MINE,
                _base(cell_res, cell_haz, cell_dragon, False),
                _base(
                    cell_res - resource_value[:, line],
                    cell_haz - hazard_value[:, line],
                    cell_dragon,
                    cell_mine,
                ),
            ),
        )
        in_segment = (cell_base - without)[..., None] * cell_ranks

        left = np.maximum(segment - 1, 0)
        right = here
        res_l, res_r = take(resources, left, axis=1), take(resources, right, axis=1)
        haz_l, haz_r = take(hazards, left, axis=1), take(hazards, right, axis=1)
        dr_l, dr_r = take(dragon, left, axis=1), take(dragon, right, axis=1)
        gm_l, gm_r = take(mine, left, axis=1), take(mine, right, axis=1)
        rank_l = take(ranks, left[..., None], axis=1)
        rank_r = take(ranks, right[..., None], axis=1)
        merged = _base(res_l + res_r, haz_l + haz_r, dr_l | dr_r, gm_l | gm_r)
        cut = (
            take(base, left, axis=1)[..., None] * rank_l
            + take(base, right, axis=1)[..., None] * rank_r
            - merged[..., None] * (rank_l + rank_r)
        )
        impacts[:, line] += np.where(mountain[..., None], cut, in_segment)

    castle_lines = (bases[0] + bases[1]) * bonus  # one extra rank next to the wizard
    wizard_gain = (castle_lines[..., None] * (owner[..., None] == np.arange(SEATS))).sum(axis=1)
    rows_with = np.nonzero(has_wizard)[0]
    impacts[rows_with, wizard_cell[rows_with]] += wizard_gain[rows_with]
    is_tile = (boards > 0) & ~is_castle
    impacts *= is_tile[..., None]
    return BoardScores(gold, bases[0], bases[1], rank * is_castle, impacts)
