"""The Record page's board: the board chart, clickable to choose a cell, with the chosen cell
standing out. Pure functions from a frame to an Altair chart, testable without Streamlit.

The chart is the same for every position of a game; only its rows change. The page turns it
into a Vega-Lite spec once (`spec_without_rows`) and each click or move passes only new rows,
so the browser updates the board's data rather than drawing a new chart.
"""

from __future__ import annotations

import altair as alt
import polars as pl

from dashboard.board_chart import board_chart

PICK = "cell"  # the click selection: {"cell": [{"cell": "c3"}]}
CHOSEN_STROKE = "#00a86b"
# SVG: every cell is an element of the page, described by its column and row.
RENDERER = {"embedOptions": {"renderer": "svg"}}


def with_chosen(cells: pl.DataFrame, chosen: str | None) -> pl.DataFrame:
    """`board_frame`'s rows with a `chosen` column, true on the `chosen` cell (e.g. "c3")."""
    return cells.with_columns((pl.col("cell") == (chosen or "")).alias("chosen"))


def clickable_board(cells: pl.DataFrame, chosen: str | None) -> alt.LayerChart:
    """The board from `board_frame`'s rows; a click selects a cell (selection `cell`), and the
    `chosen` cell is drawn with a thick green frame and marked "chosen". No tooltips: each cell
    shows its name or piece, and a tooltip left behind by a click covered the Play button."""
    marked = with_chosen(cells, chosen)
    board = board_chart(marked)
    where = board.layer[0].encoding
    chosen_cell = alt.Chart(marked).encode(x=where.x, y=where.y).transform_filter(alt.datum.chosen)
    frame = chosen_cell.mark_rect(filled=False, stroke=CHOSEN_STROKE, strokeWidth=7, cornerRadius=6)
    note = chosen_cell.mark_text(
        fontSize=12, fontWeight="bold", dy=-28, color=CHOSEN_STROKE
    ).encode(text=alt.value("chosen"))
    pick = alt.selection_point(name=PICK, fields=["cell"], on="click")
    layers = [layer.encode(tooltip=alt.value(None)) for layer in board.layer]
    return (
        alt.layer(*layers, frame, note, data=marked)
        .add_params(pick)
        .properties(width=board.width, height=board.height, usermeta=RENDERER)
    )


def clicked_cell(event: object) -> str | None:
    """The cell name a click on the board chose, from `st.altair_chart`'s selection state."""
    selection = getattr(event, "selection", None) or (
        event.get("selection") if isinstance(event, dict) else None
    )
    points = (selection or {}).get(PICK) or []
    return points[0].get("cell") if points else None
