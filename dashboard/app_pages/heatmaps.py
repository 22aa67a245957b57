"""Heatmaps: one metric over the board, each cell against the board's mean; two filter sets
side by side with their difference; example games."""

from __future__ import annotations

from dataclasses import dataclass, field

import polars as pl
import streamlit as st

from dashboard.charts import (
    CELL_SELECTION,
    board_difference,
    board_heatmap,
    captioned,
    colour_spread,
    differing,
    marked_cells,
    vega_lite_spec,
)
from dashboard.exports import csv_download
from dashboard.filters import ALL, Filters, choices, epochs, options
from dashboard.lake_data import fetch, fetch_all
from dashboard.notices import lake_has_games, nothing_matches, play_level
from dashboard.text import plain
from data import definitions
from data.levels import LEVELS, RECORDED
from engine import pieces
from engine.geometry import geometry
from engine.rules import DEFAULT_EDITION, DISPLAY_NAMES


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


PIECE_NAMES = DISPLAY_NAMES[DEFAULT_EDITION]
PIECE_KINDS = {  # occupancy label: (piece kind, what the examples list), the engine's kinds
    PIECE_NAMES[kind]: (kind, f"{PIECE_NAMES[kind]}s")
    for kind in dict.fromkeys(
        pieces.piece_kind(code) for code in (pieces.castle(0, 1), *pieces.TILE_KINDS)
    )
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
        for rank in pieces.CASTLE_RANKS
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
    ),
    "Tile swing for each opponent": CellMetric(
        "cell_tile_swing",
        {"perspective": "opponents"},
        "gold",
        definitions.TILE_SWING["opponents"],
        TILES,
        "tiles",
    ),
    "Tile net swing (placer − opponent)": CellMetric(
        "cell_tile_swing",
        {"perspective": "net"},
        "gold",
        definitions.TILE_SWING["net"],
        TILES,
        "tiles",
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
    "Win association (win share vs every castle)": CellMetric(
        "cell_win_association",
        {},
        "win share difference",
        definitions.WIN_ASSOCIATION,
        value_format="+.3f",
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
REPLAY = "app_pages/replay.py"
COMPARED_SIZE = (372, 390)  # a board's width and height in pixels when two stand side by side


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


POOLING = (
    "Each cell pools its placements with those of its mirror images (the board reflected left "
    "to right and top to bottom), which the rules cannot tell apart: the cells of a class show "
    "one figure from up to four times the data."
)


def sample(metric: CellMetric, frame: pl.DataFrame) -> str:
    """What a board rests on, in words: games, and castles or placements (epochs for
    occupancy, where every cell counts each)."""
    counted = "epochs" if metric.query == "cell_occupancy" else metric.examples_label
    counted = f"{int(frame['board_observations'].max() or 0):,} {counted}"
    return f"{int(frame['board_games'].max() or 0):,} games · {counted}"


BOARD_MEAN = "the board's mean"


def verdict(metric: CellMetric, board: pl.DataFrame, against: str) -> str:
    """Which cells differ from `against` beyond their interval, or that none does."""
    count = differing(board)
    if count == 0:
        return (
            f"No cell differs from {against} beyond its interval: the cell barely matters at "
            "this level."
        )
    reference = format(board["reference"][0], metric.value_format)
    value = f" ({reference} {metric.value_title})" if against == BOARD_MEAN else ""
    return (
        f"{count} of {len(board)} cells differ from {against}{value} "
        "beyond their 95% interval, marked ▲ above and ▼ below; the others are drawn neutral."
    )


def draw_board(
    metric: CellMetric,
    name: str,
    description: str,
    sample_size: str,
    side: str,
    board: pl.DataFrame,
    spread: float | None,
    against: str = BOARD_MEAN,
    compared: bool = False,
) -> str | None:
    """Draw one heatmap of a marked board (charts.marked_cells); returns the cell clicked on it."""
    chart = board_heatmap(board, name, metric.value_title, metric.value_format, spread)
    if compared:  # boards side by side: narrower, so that both fit
        chart = chart.properties(width=COMPARED_SIZE[0], height=COMPARED_SIZE[1])
    event = st.vega_lite_chart(
        vega_lite_spec(captioned(chart, f"{description} · {sample_size}")),
        on_select="rerun",
        key=f"board_{side}",
        width="content",
    )
    st.caption(verdict(metric, board, against))
    shown = board.drop("reference", "side")
    counts = shown["board_observations"] if "board_observations" in shown.columns else None
    total = int((counts.max() if counts is not None else shown["observations"].sum()) or 0)
    st.download_button(
        "Download this board (CSV)",
        **csv_download(shown, metric.query, name, description, total, sample_size),
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


def kept_board(filters: Filters) -> tuple[int, int] | None:
    """The rows and columns of the board the kept games are played on (None without games);
    where they are played on boards of several sizes, a message asking for one rule set, and
    the page stops there."""
    boards = fetch("kept_boards", filters.params())
    if boards.height > 1:
        sizes = "; ".join(
            f"{rows} × {columns}: {', '.join(names)} ({games:,} games)"
            for rows, columns, names, games in boards.iter_rows()
        )
        st.warning(
            f"The games the filters keep are played on boards of different sizes ({plain(sizes)}). "
            "A heatmap draws one board: choose a rule set in the sidebar's **Rule set** filter."
        )
        st.stop()
    return (boards["rows"][0], boards["columns"][0]) if boards.height else None


def show_examples(metric: CellMetric, filters: Filters, board: tuple[int, int] | None) -> None:
    """The cell's example games for the metric; choosing a row opens its replay at that ply."""
    drawn = geometry(*board) if board else geometry()
    cells = [drawn.cell_name(cell) for cell in range(drawn.cells)]
    cell = url_choice("Cell", "cell", cells, help="Click a board cell above, or choose it here.")
    examples = fetch("cell_examples", filters.params(), **metric.examples, cell=cell, limit=25)
    kept = plain(filters.describe())
    if examples.is_empty():
        st.info(f"No {metric.examples_label} on {cell} in the games of {kept}.")
        return
    st.caption(
        f"{metric.examples_label.capitalize()} placed on **{cell}** in games of "
        f"**{kept}**, newest first. Click a row to open the replay at that ply."
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
    "Each cell shows the metric and, below it, the placements and games behind it. A cell whose "
    "95% interval (the game as the unit) excludes the board's mean is coloured and marked ▲ or "
    "▼; the others are drawn neutral, and cells with no games grey. Hover for the interval; "
    "click a cell to list games that show it."
)

if lake_has_games():
    board_size = kept_board(filters)
    controls = st.columns([3, 2, 2, 2, 2])
    with controls[0]:
        metric_name = url_choice(
            "Metric", "metric", list(METRICS), help_of=lambda name: METRICS[name].definition
        )
    with controls[1]:
        compare_label = url_choice("Compare by", "compare", list(COMPARE_BY))
    dimension = COMPARE_BY[compare_label]
    metric = METRICS[metric_name]
    with controls[4]:
        pooled = url_choice(
            "Mirror cells",
            "mirror",
            ["pooled", "apart"],
            help="Pool each cell with its mirror images",
        )
    st.caption(f"**{metric_name}**: {metric.definition}")

    sides: list[tuple[str, Filters]] = [("left", filters)]
    if dimension:
        values = epochs(choices()) if dimension == "epoch" else options(choices(), dimension)
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

    rows, columns = board_size or (None, None)
    params = {**metric.params, "pooled": pooled == "pooled", "board_rows": rows}
    params["board_columns"] = columns
    frames = fetch_all(*[(metric.query, {**f.params(), **params}) for _, f in sides])
    if "pooled" in frames[0].columns and pooled == "pooled":
        st.caption(POOLING)
    boards = [marked_cells(frame) for frame in frames]
    spread = colour_spread(boards)
    if len(sides) > 1 and spread:
        st.caption(
            "Both boards share one colour scale: the same colour is the same distance from the "
            "board's own mean."
        )
    clicked: list[str] = []
    for column, (side, side_filters), board in zip(
        st.columns(len(sides)), sides, boards, strict=True
    ):
        with column:
            st.markdown(f"**{plain(side_filters.describe())}** · {sample(metric, board)}")
            if board["observations"].sum() == 0:
                nothing_matches(side_filters)
                continue
            size = sample(metric, board)
            cell = draw_board(
                metric,
                metric_name,
                side_filters.describe(),
                size,
                side,
                board,
                spread,
                compared=len(sides) > 1,
            )
            if cell:
                clicked.append(cell)
    if len(sides) > 1 and all(board["observations"].sum() > 0 for board in boards):
        st.subheader(f"Difference: {left_value} − {right_value}")
        difference = marked_cells(board_difference(*frames))
        description = f"{sides[0][1].describe()} − {sides[1][1].describe()}"
        size = " and ".join(sample(metric, board) for board in boards)
        cell = draw_board(
            metric,
            f"{metric_name}, difference",
            description,
            size,
            "difference",
            difference,
            colour_spread([difference]),
            "0, where the two boards agree",
        )
        if cell:
            clicked.append(cell)
    if clicked:
        st.session_state["heatmap_cell"] = clicked[0]

    st.subheader("Example games for a cell")
    show_examples(metric, sides[0][1], board_size)
