"""An epoch's scoring explained line by line, as the Replay and Record pages both show it:
the gold each seat earned, every scored segment, and each tile's impact."""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl
import streamlit as st

from engine import pieces
from engine.geometry import Geometry
from engine.scoring import Breakdown


def segment_frame(breakdown: Breakdown, geometry: Geometry, letters: str) -> pl.DataFrame:
    """One row per scored segment: its line, cells, base value, each seat's rank and gold."""
    segments = breakdown.segments
    return pl.DataFrame(
        {
            "line": [s.line for s in segments],
            "segment": [
                f"{geometry.cell_name(s.cells[0])}–{geometry.cell_name(s.cells[-1])}"
                for s in segments
            ],
            "base": [s.base for s in segments],
            **{
                f"rank {letter}": [s.ranks[i] for s in segments] for i, letter in enumerate(letters)
            },
            **{f"gold {letter}": [s.gold[i] for s in segments] for i, letter in enumerate(letters)},
        }
    )


def impact_frame(
    breakdown: Breakdown, board: Sequence[int], geometry: Geometry, letters: str
) -> pl.DataFrame:
    """One row per tile: its cell, the tile, and each seat's gold with it minus without it."""
    impacts = breakdown.impacts
    return pl.DataFrame(
        {
            "cell": [geometry.cell_name(c) for c in impacts],
            "tile": [pieces.piece_token(board[c]) for c in impacts],
            **{
                f"impact {letter}": [v[i] for v in impacts.values()]
                for i, letter in enumerate(letters)
            },
        }
    )


def epoch_scoring(
    breakdown: Breakdown, board: Sequence[int], geometry: Geometry, players: int, epoch: int
) -> None:
    """The epoch's gains, then its segments and tile impacts side by side."""
    letters = pieces.SEAT_LETTERS[:players]
    gains = " · ".join(f"{letters[s]} {g:+d}" for s, g in enumerate(breakdown.gold))
    st.markdown(f"**Epoch {epoch} scored:** {gains}")
    lines, tiles = st.columns([3, 2])
    lines.caption("Line by line: segment, base value, effective ranks, gold")
    lines.dataframe(segment_frame(breakdown, geometry, letters), hide_index=True, height=300)
    tiles.caption("Tile impacts: each seat's gold with the tile minus without it")
    tiles.dataframe(impact_frame(breakdown, board, geometry, letters), hide_index=True, height=300)
