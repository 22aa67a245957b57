"""Heatmaps: one metric over the 5 × 6 board, two filter sets side by side, example games."""

from __future__ import annotations

from dataclasses import dataclass, field

import polars as pl
import streamlit as st

from dashboard import definitions
from dashboard.charts import (
    CELL_SELECTION,
    FEW_GAMES,
    board_heatmap,
    captioned,
    shared_domain,
    vega_lite_spec,
)
from dashboard.exports import csv_download
from dashboard.filters import ALL, EPOCHS, Filters, choices, options
from dashboard.lake_data import fetch, fetch_all
from dashboard.notices import lake_has_games, nothing_matches, play_level
from data.levels import LEVELS, RECORDED


@dataclass(frozen=True)
class CellMetric:
    """One heatmap: the named query, its extra parameters, how to show the value, its
    definition, and which placements on a cell its example games show."""

    query: str
    params: dict[str, object]
    value_title: str
    definition: str
    examples: dict[str, object] = field(default_factory=lambda: {"piece_kind": "castle"})
    examples_label: str = "castles"
    value_format: str = ".1f"
    diverging: bool = False


PIECE_KINDS = {  # occupancy label: (piece kind, what the examples list)
    "castle": ("castle", "castles"),
    "resource": ("resource", "resource tiles"),
    "hazard": ("hazard", "hazard tiles"),
    "mountain": ("MT", "mountains"),
    "dragon": ("DR", "dragons"),
    "gold mine": ("GM", "gold mines"),
    "wizard": ("WZ", "wizards"),
}
TILES = {"piece_kind": "tile"}
METRICS = {
    "Castle yield (gold per castle)": CellMetric(
        "cell_castle_yield", {}, "gold", definitions.CASTLE_YIELD
    ),
    **{
        f"Castle yield, rank {rank} castles": CellMetric(
            "cell_castle_yield",
            {"rank": rank},
            "gold",
            f"{definitions.CASTLE_YIELD} Rank-{rank} castles only.",
            {"piece_kind": "castle", "rank": rank},
            f"rank-{rank} castles",
        )
        for rank in range(1, 5)
    },
    "Castle yield per rank unit": CellMetric(
        "cell_castle_yield",
        {"per_rank_unit": True},
        "gold per rank",
        definitions.CASTLE_YIELD_PER_RANK,
    ),
    "Tile swing for the placer": CellMetric(
        "cell_tile_swing",
        {"perspective": "placer"},
        "gold",
        definitions.TILE_SWING["placer"],
        TILES,
        "tiles",
        diverging=True,
    ),
    "Tile swing for each opponent": CellMetric(
        "cell_tile_swing",
        {"perspective": "opponents"},
        "gold",
        definitions.TILE_SWING["opponents"],
        TILES,
        "tiles",
        diverging=True,
    ),
    "Tile net swing (placer − opponent)": CellMetric(
        "cell_tile_swing",
        {"perspective": "net"},
        "gold",
        definitions.TILE_SWING["net"],
        TILES,
        "tiles",
        diverging=True,
    ),
    **{
        f"Occupancy: {label}": CellMetric(
            "cell_occupancy",
            {"piece_kind": kind},
            "share of epochs",
            definitions.OCCUPANCY.format(piece=f"a {label}"),
            {"piece_kind": kind},
            listed,
            ".0%",
        )
        for label, (kind, listed) in PIECE_KINDS.items()
    },
    "Fill timing (0 = first turn, 1 = last)": CellMetric(
        "cell_fill_timing",
        {},
        "fill time",
        definitions.FILL_TIMING,
        {"piece_kind": "any"},
        "pieces",
        ".2f",
    ),
    "Win association (win share vs all seats)": CellMetric(
        "cell_win_association",
        {},
        "win share difference",
        definitions.WIN_ASSOCIATION,
        value_format="+.3f",
        diverging=True,
    ),
}
COMPARE_BY = {
    "nothing (one board)": None,
    "play level": "level",
    "player count": "players",
    "agent": "agent",
    "source": "source",
    "edition": "edition",
    "epoch": "epoch",
}
CELLS = [f"{column}{row}" for row in range(1, 6) for column in "abcdef"]
REPLAY = "app_pages/replay.py"


def url_choice(label: str, key: str, values: list[str], help_of=None, **kwargs: object) -> str:
    """A selectbox whose value starts from, and is written back to, the URL; `help_of` gives
    the help text of the value shown."""
    widget = f"heatmap_{key}"
    if st.session_state.get(widget) not in values:
        wanted = st.query_params.get(key)
        st.session_state[widget] = wanted if wanted in values else values[0]
    if help_of:
        kwargs["help"] = help_of(st.session_state[widget])
    chosen = st.selectbox(label, values, key=widget, **kwargs)
    st.query_params[key] = chosen
    return chosen


def observations(metric: CellMetric, frame: pl.DataFrame) -> int:
    """What a board rests on: epochs for occupancy (every cell counts each), else placements."""
    counts = frame["observations"]
    return int((counts.max() if metric.query == "cell_occupancy" else counts.sum()) or 0)


def draw_board(
    metric: CellMetric,
    name: str,
    filters: Filters,
    side: str,
    frame: pl.DataFrame,
    domain: tuple[float, float] | None,
) -> str | None:
    """Draw one heatmap of the metric's query result; returns the cell clicked on it, if any."""
    total = observations(metric, frame)
    sample = f"{total:,} observations"
    st.markdown(f"**{filters.describe()}** · {sample}")
    if total == 0:
        nothing_matches(filters)
        return None
    chart = board_heatmap(
        frame, name, metric.value_title, metric.value_format, metric.diverging, domain
    )
    event = st.vega_lite_chart(
        vega_lite_spec(captioned(chart, f"{filters.describe()} · {sample}")),
        on_select="rerun",
        key=f"board_{side}",
        width="content",
    )
    st.download_button(
        "Download this board (CSV)",
        **csv_download(frame, metric.query, name, filters.describe(), total, sample),
        key=f"download_{side}",
    )
    picked = event.selection.get(CELL_SELECTION, []) if event else []
    return picked[0]["cell"] if picked else None


def example_columns(metric: CellMetric) -> list[str]:
    """The example table's columns: a castle's gold where the metric lists castles."""
    castles = metric.examples.get("piece_kind") in ("castle", "any")
    return [
        *("game_id", "source", "players", "epoch", "ply", "seat", "player", "piece"),
        *(["castle_gold"] if castles else []),
        *("final_gold", "win_share", "created"),
    ]


def show_examples(metric: CellMetric, filters: Filters) -> None:
    """The cell's example games for the metric; choosing a row opens its replay at that ply."""
    cell = url_choice("Cell", "cell", CELLS, help="Click a board cell above, or choose it here.")
    examples = fetch("cell_examples", filters.params(), **metric.examples, cell=cell, limit=25)
    if examples.is_empty():
        st.info(f"No {metric.examples_label} on {cell} in the games of {filters.describe()}.")
        return
    st.caption(
        f"{metric.examples_label.capitalize()} placed on **{cell}** in games of "
        f"**{filters.describe()}**, newest first. Click a row to open the replay at that ply."
    )
    shown = examples.select(example_columns(metric)).with_columns(pl.col("game_id").cast(pl.String))
    event = st.dataframe(
        shown,
        hide_index=True,
        width="stretch",
        key="heatmap_examples",
        on_select="rerun",
        selection_mode="single-row",
        column_config={
            "game_id": st.column_config.TextColumn("game"),
            "ply": st.column_config.NumberColumn("ply", help="The move that placed the piece"),
            "castle_gold": st.column_config.NumberColumn(
                "castle gold", help="The castle's gold in its epoch"
            ),
            "final_gold": st.column_config.NumberColumn("final gold"),
            "win_share": st.column_config.NumberColumn("win share", format="%.2f"),
        },
    )
    rows = event.selection.rows if event else []
    if rows:
        chosen = shown.row(rows[0], named=True)
        st.switch_page(REPLAY, query_params={"game": chosen["game_id"], "ply": chosen["ply"]})


filters: Filters = st.session_state["filters"]
st.title("Board heatmaps")
play_level(filters)
st.caption(
    "Each cell shows the metric and, below it, how many observations it rests on; cells with "
    f"fewer than {FEW_GAMES} are grey and marked *few games*, cells with none read *no games*. "
    "Hover for the 95% interval; click a cell to list games that show it."
)

if lake_has_games():
    controls = st.columns([3, 2, 2, 2])
    with controls[0]:
        metric_name = url_choice(
            "Metric", "metric", list(METRICS), help_of=lambda name: METRICS[name].definition
        )
    with controls[1]:
        compare_label = url_choice("Compare by", "compare", list(COMPARE_BY))
    dimension = COMPARE_BY[compare_label]
    metric = METRICS[metric_name]
    st.caption(f"**{metric_name}**: {metric.definition}")

    sides: list[tuple[str, Filters]] = [("left", filters)]
    if dimension:
        values = list(EPOCHS) if dimension == "epoch" else options(choices(), dimension)
        if dimension == "level":  # strongest first
            values = [level for level in (*reversed(LEVELS), RECORDED) if level in values]
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
    domain = shared_domain(boards, metric.diverging) if len(sides) > 1 else None
    if domain:
        low, high = (format(end, metric.value_format) for end in domain)
        st.caption(
            f"Both boards share one colour scale, from {low} to {high} {metric.value_title}: "
            "the same colour is the same value on either board."
        )
    clicked: list[str] = []
    for column, (side, side_filters), frame in zip(
        st.columns(len(sides)), sides, boards, strict=True
    ):
        with column:
            cell = draw_board(metric, metric_name, side_filters, side, frame, domain)
            if cell:
                clicked.append(cell)
    if clicked:
        st.session_state["heatmap_cell"] = clicked[0]

    st.subheader("Example games for a cell")
    show_examples(metric, sides[0][1])
