"""The board drawn in Altair: a frame of cells in, a chart out (testable without Streamlit).

Castles take their seat's colour and show their rank; tiles show their value; the mountain,
dragon, gold mine and wizard each have a colour and a sign of what they do (▲ cuts a line,
✕ cancels resources, ×2 doubles, ★ lifts the ranks around it), captioned with the edition's
name for them. The last move is outlined; the engine's best move for the seat to move is drawn
dashed on its cell.
"""

from __future__ import annotations

from collections.abc import Sequence

import altair as alt
import polars as pl

from engine import pieces
from engine.geometry import COLUMN_LETTERS, Geometry
from engine.rules import DISPLAY_NAMES
from engine.scoring import wizard_bonus_cells

SEAT_COLOURS = ("#d9482b", "#2f6fd0", "#2e9e4f", "#8a4fbf")  # A, B, C, D
SEAT_TEXT = "#ffffff"
EMPTY_FILL = "#eceae4"
RESOURCE_FILL = "#f6e7b8"
HAZARD_FILL = "#5a4a4a"
SPECIAL_STYLE = {  # fill, text colour, sign
    pieces.MOUNTAIN: ("#9a9a9a", "#ffffff", "▲"),
    pieces.DRAGON: ("#2b2233", "#ff8a65", "✕"),
    pieces.GOLD_MINE: ("#e2b007", "#3a2b00", "×2"),
    pieces.WIZARD: ("#17a2b8", "#ffffff", "★"),
}
LAST_MOVE_STROKE = "#111111"
BEST_MOVE_STROKE = "#ff9800"
CELL_PIXELS = 84

COLUMNS = (
    "cell",
    "column",
    "row",
    "token",
    "kind",
    "label",
    "caption",
    "fill",
    "ink",
    "name",
    "last",
    "best",
)


def seat_colours(players: int) -> list[str]:
    """The seat colours of a game, A first (the same in every chart)."""
    return list(SEAT_COLOURS[:players])


def board_frame(
    board: Sequence[int],
    geometry: Geometry,
    edition: str,
    last_cell: int | None = None,
    best: tuple[int, str] | None = None,
) -> pl.DataFrame:
    """One row per cell: where it is, what stands on it and how to draw it.

    `best` is the engine's suggestion as (cell, short label) for an empty cell, e.g. (9, "C4").
    """
    names = DISPLAY_NAMES[edition]
    bonus = wizard_bonus_cells(board, geometry)
    rows: dict[str, list] = {column: [] for column in COLUMNS}
    for cell, piece in enumerate(board):
        kind, label, caption, fill, ink, name = _looks(piece, names, cell in bonus)
        if not piece:
            caption = geometry.cell_name(cell)
        if best is not None and best[0] == cell and not piece:
            label, ink = best[1], BEST_MOVE_STROKE
            caption = "engine's best"
        rows["cell"].append(geometry.cell_name(cell))
        rows["column"].append(COLUMN_LETTERS[geometry.column_of(cell)])
        rows["row"].append(geometry.row_of(cell) + 1)
        rows["token"].append(pieces.piece_token(piece))
        rows["kind"].append(kind)
        rows["label"].append(label)
        rows["caption"].append(caption)
        rows["fill"].append(fill)
        rows["ink"].append(ink)
        rows["name"].append(name)
        rows["last"].append(cell == last_cell)
        rows["best"].append(best is not None and best[0] == cell)
    return pl.DataFrame(rows)


def _looks(piece: int, names: dict[str, str], by_wizard: bool) -> tuple[str, ...]:
    """(kind, label, caption, fill, text colour, full name) of one piece."""
    if piece == pieces.EMPTY:
        return "empty", "", "", EMPTY_FILL, "#9a968c", "empty space"
    if pieces.is_castle(piece):
        seat = pieces.castle_seat(piece)
        rank = pieces.castle_rank(piece)
        letter = pieces.SEAT_LETTERS[seat]
        label = f"{letter}{rank}"
        caption = f"★ counts {rank + 1}" if by_wizard else names["castle"]
        name = f"{letter}'s rank-{rank} {names['castle']}" + (
            f" (counts {rank + 1} next to the {names[pieces.piece_kind(pieces.WIZARD)]})"
            if by_wizard
            else ""
        )
        return "castle", label, caption, SEAT_COLOURS[seat], SEAT_TEXT, name
    token = pieces.piece_token(piece)
    if token in names:
        fill, ink, sign = SPECIAL_STYLE[piece]
        return names[token], sign, names[token], fill, ink, names[token]
    value = pieces.tile_value(piece)
    if value > 0:
        return (
            "resource",
            token,
            names["resource"],
            RESOURCE_FILL,
            "#3d2f00",
            f"{names['resource']} {token}",
        )
    return (
        "hazard",
        token.replace("-", "−"),
        names["hazard"],
        HAZARD_FILL,
        "#ffffff",
        f"{names['hazard']} {token}",
    )


def board_chart(
    cells: pl.DataFrame, title: str = "", cell_pixels: int = CELL_PIXELS
) -> alt.LayerChart:
    """The board from `board_frame`'s rows: cells, labels, the last move and the best move."""
    columns = sorted(set(cells["column"].to_list()))
    rows = sorted(set(cells["row"].to_list()))
    x = alt.X(
        "column:O",
        sort=columns,
        scale=alt.Scale(paddingInner=0.06),
        axis=alt.Axis(
            orient="top", title=None, labelFontSize=14, labelAngle=0, ticks=False, domain=False
        ),
    )
    y = alt.Y(
        "row:O",
        sort=rows,
        scale=alt.Scale(paddingInner=0.06),
        axis=alt.Axis(title=None, labelFontSize=14, ticks=False, domain=False),
    )
    tooltip = [alt.Tooltip("cell:N"), alt.Tooltip("name:N", title="piece")]
    base = alt.Chart(cells).encode(x=x, y=y)
    tiles = base.mark_rect(cornerRadius=6).encode(
        fill=alt.Fill("fill:N", scale=None), tooltip=tooltip
    )
    labels = base.mark_text(fontSize=cell_pixels * 0.34, fontWeight="bold", dy=-6).encode(
        text="label:N", color=alt.Color("ink:N", scale=None), tooltip=tooltip
    )
    captions = base.mark_text(fontSize=max(9, cell_pixels * 0.12), dy=cell_pixels * 0.3).encode(
        text="caption:N", color=alt.Color("ink:N", scale=None), tooltip=tooltip
    )
    last = base.transform_filter(alt.datum.last).mark_rect(
        filled=False, stroke=LAST_MOVE_STROKE, strokeWidth=5, cornerRadius=6
    )
    best = base.transform_filter(alt.datum.best).mark_rect(
        filled=False, stroke=BEST_MOVE_STROKE, strokeWidth=4, strokeDash=[7, 4], cornerRadius=6
    )
    chart = alt.layer(tiles, labels, captions, last, best).properties(
        width=cell_pixels * len(columns), height=cell_pixels * len(rows)
    )
    return chart.properties(title=title) if title else chart
