"""Heatmaps: one metric over the 5 × 6 board, two filter sets side by side, example games."""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl
import streamlit as st

from dashboard.charts import CELL_SELECTION, FEW_GAMES, board_heatmap, vega_lite_spec
from dashboard.filters import ALL, EPOCHS, Filters, choices, options
from dashboard.lake_data import fetch, fetch_all
from dashboard.notices import lake_has_games, nothing_matches


@dataclass(frozen=True)
class CellMetric:
    """One heatmap: the named query, its extra parameters and how to show the value."""

    query: str
    params: dict[str, object]
    value_title: str
    value_format: str = ".1f"
    diverging: bool = False


METRICS = {
    "Castle yield (gold per castle)": CellMetric("cell_castle_yield", {}, "gold"),
    **{
        f"Castle yield, rank {rank} castles": CellMetric(
            "cell_castle_yield", {"rank": rank}, "gold"
        )
        for rank in range(1, 5)
    },
    "Castle yield per rank unit": CellMetric(
        "cell_castle_yield", {"per_rank_unit": True}, "gold per rank"
    ),
    "Tile swing for the placer": CellMetric(
        "cell_tile_swing", {"perspective": "placer"}, "gold", diverging=True
    ),
    "Tile swing for each opponent": CellMetric(
        "cell_tile_swing", {"perspective": "opponents"}, "gold", diverging=True
    ),
    "Tile net swing (placer − opponent)": CellMetric(
        "cell_tile_swing", {"perspective": "net"}, "gold", diverging=True
    ),
    **{
        f"Occupancy: {label}": CellMetric(
            "cell_occupancy", {"piece_kind": kind}, "share of epochs", ".0%"
        )
        for label, kind in [
            ("castle", "castle"),
            ("resource", "resource"),
            ("hazard", "hazard"),
            ("mountain", "MT"),
            ("dragon", "DR"),
            ("gold mine", "GM"),
            ("wizard", "WZ"),
        ]
    },
    "Fill timing (0 = first turn, 1 = last)": CellMetric(
        "cell_fill_timing", {}, "fill time", ".2f"
    ),
    "Win association (win share vs all seats)": CellMetric(
        "cell_win_association", {}, "win share difference", "+.3f", diverging=True
    ),
}
COMPARE_BY = {
    "nothing (one board)": None,
    "player count": "players",
    "agent": "agent",
    "source": "source",
    "edition": "edition",
    "epoch": "epoch",
}
CELLS = [f"{column}{row}" for row in range(1, 6) for column in "abcdef"]


def url_choice(label: str, key: str, values: list[str], **kwargs: object) -> str:
    """A selectbox whose value starts from, and is written back to, the URL."""
    widget = f"heatmap_{key}"
    if st.session_state.get(widget) not in values:
        wanted = st.query_params.get(key)
        st.session_state[widget] = wanted if wanted in values else values[0]
    chosen = st.selectbox(label, values, key=widget, **kwargs)
    st.query_params[key] = chosen
    return chosen


def draw_board(
    metric: CellMetric, name: str, filters: Filters, side: str, frame: pl.DataFrame
) -> str | None:
    """Draw one heatmap of the metric's query result; returns the cell clicked on it, if any."""
    total = int(
        frame["observations"].max()
        if metric.query == "cell_occupancy"
        else frame["observations"].sum()
    )
    st.markdown(f"**{filters.describe()}** · {total:,} observations")
    if total == 0:
        nothing_matches(filters)
        return None
    chart = board_heatmap(frame, name, metric.value_title, metric.value_format, metric.diverging)
    event = st.vega_lite_chart(
        vega_lite_spec(chart), on_select="rerun", key=f"board_{side}", width="content"
    )
    picked = event.selection.get(CELL_SELECTION, []) if event else []
    return picked[0]["cell"] if picked else None


filters: Filters = st.session_state["filters"]
st.title("Board heatmaps")
st.caption(
    "Each cell shows the metric and, below it, how many observations it rests on; cells with "
    f"fewer than {FEW_GAMES} are grey and marked *few games*. Hover for the 95% interval; click "
    "a cell to list games that show it."
)

if lake_has_games():
    controls = st.columns([3, 2, 2, 2])
    with controls[0]:
        metric_name = url_choice("Metric", "metric", list(METRICS))
    with controls[1]:
        compare_label = url_choice("Compare by", "compare", list(COMPARE_BY))
    dimension = COMPARE_BY[compare_label]
    metric = METRICS[metric_name]

    sides: list[tuple[str, Filters]] = [("left", filters)]
    if dimension:
        values = list(EPOCHS) if dimension == "epoch" else options(choices(), dimension)
        values = values or [ALL]
        with controls[2]:
            left_value = url_choice("Left board", "left", values)
        with controls[3]:
            right_value = url_choice("Right board", "right", values[1:] + values[:1])
        sides = [
            ("left", filters.with_value(dimension, left_value)),
            ("right", filters.with_value(dimension, right_value)),
        ]

    boards = fetch_all(*[(metric.query, {**f.params(), **metric.params}) for _, f in sides])
    clicked: list[str] = []
    for column, (side, side_filters), frame in zip(
        st.columns(len(sides)), sides, boards, strict=True
    ):
        with column:
            cell = draw_board(metric, metric_name, side_filters, side, frame)
            if cell:
                clicked.append(cell)
    if clicked:
        st.session_state["heatmap_cell"] = clicked[0]

    st.subheader("Example games for a cell")
    cell = url_choice("Cell", "cell", CELLS, help="Click a board cell above, or choose it here.")
    examples_filters = sides[0][1]
    examples = fetch("cell_examples", examples_filters.params(), cell=cell, limit=25)
    if examples.is_empty():
        st.info(f"No castle stood on {cell} in the games of {examples_filters.describe()}.")
    else:
        st.caption(
            f"Games of **{examples_filters.describe()}** in which a castle stood on **{cell}**, "
            "newest first; click a game to replay it."
        )
        st.dataframe(
            examples.with_columns(replay=pl.format("replay?game={}", "game_id")).select(
                "replay", pl.exclude("replay", "game_id")
            ),
            hide_index=True,
            width="stretch",
            column_config={
                "replay": st.column_config.LinkColumn(
                    "game", display_text=r"replay\?game=(\d+)", help="Open in the replay viewer"
                ),
                "castle_gold": st.column_config.NumberColumn("castle gold"),
                "final_gold": st.column_config.NumberColumn("final gold"),
                "win_share": st.column_config.NumberColumn("win share", format="%.2f"),
            },
        )
