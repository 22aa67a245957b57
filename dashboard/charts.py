"""Charts: pure functions from a Polars frame to an Altair chart (no Streamlit, testable alone).

Every chart shows the count behind each number and its 95% interval; a figure whose interval is
wider than its kind's PRECISE_WITHIN is greyed and marked "imprecise" (docs/metrics.md).
"""

from __future__ import annotations

from functools import lru_cache

import altair as alt
import polars as pl

from data.levels import SEAT_WITHIN

# A figure is precise enough when its 95% interval lies within ± this of it, by figure kind
# (docs/metrics.md, "Intervals and precision"): shares, win shares, balance and their
# differences; gold per tile placement; ratings on the Elo scale.
PRECISE_WITHIN = {"share": SEAT_WITHIN, "tile gold": 0.5, "rating": 50.0}
GREY = "#c8c8c8"
CELL_SELECTION = "cell_pick"
NO_GAMES = "no games"

# Validate each spec once, when it is drawn, not every channel as it is built (3× faster pages).
alt.utils.schemapi.disable_debug_mode()
# Building a chart's layers and encodings costs tens of ms (Altair checks every channel against
# the schema); they depend only on the labels, so each shape is built once (cached below, one
# per set of labels) and a frame is only attached to a copy of it.
SHAPES = 128


def half_width(value: str = "value") -> pl.Expr:
    """The larger half of a figure's interval (ci_low, ci_high around `value`), null without one."""
    return pl.max_horizontal(pl.col(value) - pl.col("ci_low"), pl.col("ci_high") - pl.col(value))


def mark_imprecise(frame: pl.DataFrame, within: float, value: str = "value") -> pl.DataFrame:
    """Add `few` (the interval is wider than ± `within`, or there is none: drawn grey) and a
    `reliability` label saying so."""
    few = (half_width(value) > within).fill_null(True)
    label = pl.when(few).then(pl.lit(f"imprecise (interval wider than ±{within:g})"))
    return frame.with_columns(few=few, reliability=label.otherwise(pl.lit("precise")))


def is_imprecise(value: float, low: float | None, high: float | None, within: float) -> bool:
    """Whether one figure's interval is wider than ± `within` on either side, or missing."""
    return low is None or high is None or max(value - low, high - value) > within


def mark_reference(frame: pl.DataFrame, reference: str, label: str) -> pl.DataFrame:
    """Add `verdict`: whether the figure's interval excludes its reference (column `reference`)."""
    outside = (pl.col("ci_low") > pl.col(reference)) | (pl.col("ci_high") < pl.col(reference))
    return frame.with_columns(
        verdict=pl.when(outside.fill_null(False))
        .then(pl.lit(f"differs from {label}"))
        .otherwise(pl.lit(f"{label} within its interval"))
    )


def board_heatmap(
    frame: pl.DataFrame,
    title: str,
    value_title: str,
    value_format: str = ".1f",
    spread: float | None = None,
) -> alt.LayerChart:
    """The 5 × 6 board coloured about the board's mean (`board_value`; else the observations'
    weighted mean): a cell whose 95% interval excludes it is coloured, above or below, and marked
    ▲ or ▼; a cell whose interval holds it is drawn neutral; a cell without observations reads
    "no games". Castles (or placements) and games per cell, interval in the tooltip. `spread`
    fixes how far from the mean the colours reach (boards compared side by side share one). A
    click selects a cell (selection parameter CELL_SELECTION on the `cell` field).

    Expects cell, cell_row, cell_column, value, observations, ci_low, ci_high; games if known."""
    board = marked_cells(frame)
    reach = spread or colour_spread([board]) or 1.0
    return _board_shape(title, value_title).properties(data=_drawn(board, value_format, reach))


def marked_cells(frame: pl.DataFrame) -> pl.DataFrame:
    """The board with `reference` (its mean) and `side`: 1 or -1 where the cell's interval lies
    above or below the reference, 0 where it holds it or there is none."""
    if "board_value" in frame.columns:
        reference = frame["board_value"].drop_nulls().first()
    else:
        counted = frame.filter(pl.col("value").is_not_null())
        total = counted["observations"].sum()
        reference = (counted["value"] * counted["observations"]).sum() / total if total else None
    reference = 0.0 if reference is None else float(reference)
    side = (
        pl.when(pl.col("ci_low") > reference)
        .then(1)
        .when(pl.col("ci_high") < reference)
        .then(-1)
        .otherwise(0)
        .fill_null(0)
    )
    return frame.with_columns(reference=pl.lit(reference), side=side)


def differing(frame: pl.DataFrame) -> int:
    """How many cells of a `marked_cells` board differ from its mean beyond their interval."""
    return int((frame["side"] != 0).sum())


def colour_spread(boards: list[pl.DataFrame]) -> float | None:
    """How far from its mean the colours of `marked_cells` boards reach: the largest distance of
    a differing cell; None when no cell differs."""
    gaps = [(b["value"] - b["reference"]).abs().filter(b["side"] != 0) for b in boards]
    widest = max((float(g.max()) for g in gaps if len(g)), default=None)
    return widest or None


def board_difference(left: pl.DataFrame, right: pl.DataFrame) -> pl.DataFrame:
    """Cell by cell, left minus right with its 95% interval (half width √(h₁² + h₂²), the boards
    being independent), and the two boards' observations and games added; the reference is 0."""
    pairs = left.join(right, on=["cell", "cell_row", "cell_column"], suffix="_right")
    half = (
        ((pl.col("ci_high") - pl.col("ci_low")) / 2) ** 2
        + ((pl.col("ci_high_right") - pl.col("ci_low_right")) / 2) ** 2
    ).sqrt()
    value = pl.col("value") - pl.col("value_right")
    counts = [
        (pl.col(c) + pl.col(f"{c}_right")).alias(c)
        for c in ("observations", "games")
        if c in left.columns
    ]
    return pairs.select(
        "cell",
        "cell_row",
        "cell_column",
        value.alias("value"),
        *counts,
        (value - half).alias("ci_low"),
        (value + half).alias("ci_high"),
        pl.lit(0.0).alias("board_value"),
    )


NEUTRAL = "#f1f0ec"
CELL_PX = 80  # a board cell's side in the heatmaps


def _drawn(board: pl.DataFrame, value_format: str, reach: float) -> pl.DataFrame:
    """A marked board with what its layers draw: labels, fills and the colour's position."""
    games = board["games"] if "games" in board.columns else pl.Series([None] * len(board))
    counts = [f"n={n:,}" for n in board["observations"].fill_null(0)]
    game_counts = ["" if not g else f"{g:,} game" + "s" * (g > 1) for g in games]
    values = _labels(board["value"], value_format, NO_GAMES)
    signs = {1: " ▲", -1: " ▼", 0: ""}
    verdict = {1: "above the board's mean", -1: "below the board's mean", 0: "within its interval"}
    return board.with_columns(
        column=pl.col("cell").str.slice(0, 1),  # the cell's column letter
        value_label=pl.Series(
            [v + signs[s] for v, s in zip(values, board["side"], strict=True)], dtype=pl.String
        ),
        interval_label=pl.Series(_interval_labels(board, value_format), dtype=pl.String),
        count_label=pl.Series(counts, dtype=pl.String),
        games_label=pl.Series(game_counts, dtype=pl.String),
        verdict=pl.Series([verdict[s] for s in board["side"]], dtype=pl.String),
        neutral_fill=pl.when(pl.col("observations").fill_null(0) == 0)
        .then(pl.lit(GREY))
        .otherwise(pl.lit(NEUTRAL)),
        shade=((pl.col("value") - pl.col("reference")) / reach).clip(-1, 1),
        differs=pl.col("side") != 0,
    )


def _labels(values: pl.Series, value_format: str, missing: str) -> list[str]:
    """Values as text in the chart's d3 format (whose specifiers Python's format shares)."""
    return [missing if v is None else format(v, value_format) for v in values.to_list()]


def _interval_labels(frame: pl.DataFrame, value_format: str) -> list[str]:
    lows = _labels(frame["ci_low"], value_format, "")
    highs = _labels(frame["ci_high"], value_format, "")
    return [
        f"{low} to {high}" if low and high else ("no games" if n == 0 else "one game")
        for low, high, n in zip(lows, highs, frame["observations"].fill_null(0), strict=True)
    ]


@lru_cache(maxsize=SHAPES)
def _board_shape(title: str, value_title: str) -> alt.LayerChart:
    pick = alt.selection_point(name=CELL_SELECTION, fields=["cell"], on="click")
    base = alt.Chart().encode(
        x=alt.X("column:O", title=None, axis=alt.Axis(orient="top", labelAngle=0)),
        y=alt.Y("cell_row:O", title=None),
        tooltip=[
            alt.Tooltip("cell:N", title="cell"),
            alt.Tooltip("value_label:N", title=value_title),
            alt.Tooltip("interval_label:N", title="95% interval"),
            alt.Tooltip("reference:Q", title="board's mean", format=".3~f"),
            alt.Tooltip("verdict:N", title="against the board's mean"),
            alt.Tooltip("observations:Q", title="observations", format=","),
        ],
    )
    opacity = alt.condition(pick, alt.value(1.0), alt.value(0.45))
    cells = (
        base.mark_rect(stroke="white", strokeWidth=2, cornerRadius=4)
        .encode(color=alt.Color("neutral_fill:N", scale=None), opacity=opacity)
        .add_params(pick)
    )
    scale = alt.Scale(domain=[-1, 0, 1], range=["#4393c3", "#f7f7f7", "#d6604d"])
    shades = (
        base.transform_filter("datum.differs")
        .mark_rect(stroke="white", strokeWidth=2, cornerRadius=4)
        .encode(color=alt.Color("shade:Q", scale=scale, legend=None), opacity=opacity)
    )
    values = base.mark_text(fontSize=17, fontWeight="bold", dy=-12).encode(
        text=alt.Text("value_label:N"),
        color=alt.condition("datum.observations > 0", alt.value("black"), alt.value("#777777")),
    )
    counts = base.mark_text(fontSize=10, dy=8).encode(
        text="count_label:N", color=alt.value("#333333")
    )
    games = base.mark_text(fontSize=10, dy=21).encode(
        text="games_label:N", color=alt.value("#333333")
    )
    board = alt.layer(cells, shades, values, counts, games).resolve_scale(color="independent")
    # a cell 80 px square whatever the board's size (5 × 6: 480 × 400)
    return board.properties(title=title, width=alt.Step(CELL_PX), height=alt.Step(CELL_PX))


def interval_chart(
    frame: pl.DataFrame,
    category: str,
    title: str,
    value_title: str,
    count: str,
    within: float,
    color: str | None = None,
    reference: tuple[str, str] | None = None,
    value_format: str = ".3f",
) -> alt.LayerChart:
    """Points with 95% error bars per category (value, ci_low, ci_high), optionally coloured;
    greyed where the interval is wider than ± `within`. A `reference` (column, what it is, e.g.
    the fair share) is drawn as a red tick, and a point whose interval excludes it is a diamond
    (the legend says so). The axis spans the data and references, not from 0."""
    data = mark_imprecise(frame, within)
    if reference:
        data = mark_reference(data, *reference)
    shape = _interval_shape(category, title, value_title, count, color, reference, value_format)
    return shape.properties(data=data)


@lru_cache(maxsize=SHAPES)
def _interval_shape(
    category: str,
    title: str,
    value_title: str,
    count: str,
    color: str | None,
    reference: tuple[str, str] | None,
    value_format: str,
) -> alt.LayerChart:
    tooltip = [
        alt.Tooltip(f"{category}:N"),
        alt.Tooltip("value:Q", title=value_title, format=value_format),
        alt.Tooltip("ci_low:Q", title="95% low", format=value_format),
        alt.Tooltip("ci_high:Q", title="95% high", format=value_format),
        alt.Tooltip(f"{count}:Q", title=count, format=","),
        alt.Tooltip("reliability:N", title="precision"),
    ]
    if color:
        tooltip.insert(1, alt.Tooltip(f"{color}:N"))
    if reference:
        tooltip.append(alt.Tooltip("verdict:N", title="against " + reference[1]))
    y = alt.Y(f"{category}:N", title=None, sort=None)
    y_offset = alt.YOffset(f"{color}:N") if color else alt.YOffset()
    hue = (
        alt.condition("datum.few", alt.value(GREY), alt.Color(f"{color}:N"))
        if color
        else alt.condition("datum.few", alt.value(GREY), alt.value("#1f77b4"))
    )
    base = alt.Chart().encode(y=y, yOffset=y_offset, tooltip=tooltip)
    bars = base.mark_rule(strokeWidth=2).encode(
        x=alt.X("ci_low:Q", title=value_title, scale=alt.Scale(zero=False)),
        x2="ci_high:Q",
        color=hue,
    )
    points = base.mark_point(size=80, filled=True, opacity=1).encode(x="value:Q", color=hue)
    layers = [bars]
    if reference:
        column, label = reference
        verdicts = [f"differs from {label}", f"{label} within its interval"]
        points = points.encode(
            shape=alt.Shape(
                "verdict:N",
                title=None,
                scale=alt.Scale(domain=verdicts, range=["diamond", "circle"]),
                legend=alt.Legend(orient="bottom", direction="vertical", labelLimit=400),
            )
        )
        layers.append(
            base.mark_tick(color="#d62728", thickness=2, size=22).encode(
                x=f"{column}:Q", yOffset=alt.YOffset()
            )
        )
    layers.append(points)
    return alt.layer(*layers).properties(title=title, width="container")


def histogram(frame: pl.DataFrame, title: str, x_title: str, bin_width: int) -> alt.Chart:
    """Binned counts (bin_start, count) per player count, one step line each."""
    data = frame.with_columns(
        bin_end=pl.col("bin_start") + bin_width, players=pl.format("{} players", "players")
    )
    return _histogram_shape(title, x_title).properties(data=data)


@lru_cache(maxsize=SHAPES)
def _histogram_shape(title: str, x_title: str) -> alt.Chart:
    return (
        alt.Chart()
        .mark_line(interpolate="step-after", strokeWidth=2)
        .encode(
            x=alt.X("bin_start:Q", title=x_title),
            y=alt.Y("count:Q", title="count"),
            color=alt.Color("players:N", title=None),
            tooltip=["players:N", "bin_start:Q", "bin_end:Q", alt.Tooltip("count:Q", format=",")],
        )
        .properties(title=title, width="container", height=260)
    )


def breakdown_bars(frame: pl.DataFrame, title: str) -> alt.Chart:
    """Horizontal bars of games per value (value, games)."""
    return _breakdown_shape(title).properties(data=frame)


@lru_cache(maxsize=SHAPES)
def _breakdown_shape(title: str) -> alt.Chart:
    return (
        alt.Chart()
        .mark_bar(cornerRadiusEnd=3)
        .encode(
            x=alt.X("games:Q", title="games"),
            y=alt.Y("value:N", title=None, sort="-x"),
            tooltip=["value:N", alt.Tooltip("games:Q", format=",")],
            color=alt.value("#4c78a8"),
        )
        .properties(title=title, width="container", height=alt.Step(22))
    )


def head_to_head_matrix(frame: pl.DataFrame, title: str) -> alt.LayerChart:
    """Agent (rows) against opponent (columns): the row agent's head-to-head score coloured about
    one half, with its 95% interval and the games behind it in the cell; imprecise cells greyed.

    Expects agent, opponent, games, score, ci_low, ci_high."""
    data = mark_imprecise(frame, PRECISE_WITHIN["share"], value="score").with_columns(
        score_label=pl.Series(_labels(frame["score"], ".0%", NO_GAMES), dtype=pl.String),
        interval_label=pl.Series(
            _interval_labels(frame.rename({"games": "observations"}), ".0%"), dtype=pl.String
        ),
        count_label=pl.format("n={}", "games"),
    )
    return _matrix_shape(title).properties(data=data)


@lru_cache(maxsize=SHAPES)
def _matrix_shape(title: str) -> alt.LayerChart:
    base = alt.Chart().encode(
        x=alt.X("opponent:N", title="against", axis=alt.Axis(orient="top", labelAngle=0)),
        y=alt.Y("agent:N", title=None),
        tooltip=[
            alt.Tooltip("agent:N"),
            alt.Tooltip("opponent:N", title="against"),
            alt.Tooltip("score_label:N", title="score"),
            alt.Tooltip("interval_label:N", title="95% interval"),
            alt.Tooltip("games:Q", format=","),
            alt.Tooltip("reliability:N", title="precision"),
        ],
    )
    scale = alt.Scale(range=["#d6604d", "#f7f7f7", "#4393c3"], domain=[0, 1], domainMid=0.5)
    cells = base.mark_rect(stroke="white", strokeWidth=2).encode(
        color=alt.condition(
            "datum.few", alt.value(GREY), alt.Color("score:Q", title="score", scale=scale)
        )
    )
    scores = base.mark_text(fontSize=15, fontWeight="bold", dy=-14).encode(text="score_label:N")
    intervals = base.mark_text(fontSize=10, dy=2).encode(text="interval_label:N")
    counts = base.mark_text(fontSize=10, dy=16).encode(text="count_label:N")
    return (cells + scores + intervals + counts).properties(
        title=title, width=alt.Step(110), height=alt.Step(60)
    )


def captioned(chart: alt.TopLevelMixin, caption: str) -> alt.TopLevelMixin:
    """The chart with `caption` (its filters and sample size) under its title, so that the chart
    saved as a PNG says what it shows."""
    title = chart.title if isinstance(chart.title, str) else ""
    return chart.properties(title=alt.TitleParams(text=title, subtitle=caption, anchor="start"))


def result_chart(frame: pl.DataFrame) -> alt.Chart | None:
    """A bar chart of a query result's first numeric column against its first other column, or
    None when the result has no such pair (or too many rows to read as bars)."""
    numeric = [name for name, kind in frame.schema.items() if kind.is_numeric()]
    labels = [name for name in frame.columns if name not in numeric]
    if not numeric or frame.is_empty() or frame.height > 60:
        return None
    label = labels[0] if labels else numeric[0]
    value = numeric[0] if labels else (numeric[1] if len(numeric) > 1 else None)
    if value is None:
        return None
    data = frame.select(pl.col(label).cast(pl.String), value)
    return (
        alt.Chart(data)
        .mark_bar(cornerRadiusEnd=3, color="#4c78a8")
        .encode(
            x=alt.X(f"{value}:Q"),
            y=alt.Y(f"{label}:N", sort=None),
            tooltip=[f"{label}:N", alt.Tooltip(f"{value}:Q", format=",")],
        )
        .properties(title=f"{value} by {label}", width="container")
    )


def clear_shapes() -> None:
    """Forget the cached chart shapes (for benchmarks of a first page load)."""
    shapes = (_board_shape, _interval_shape, _histogram_shape, _breakdown_shape, _matrix_shape)
    for shape in shapes:
        shape.cache_clear()


def vega_lite_spec(chart: alt.TopLevelMixin) -> dict:
    """The chart's Vega-Lite spec without re-validating it against the schema (the slow part of
    drawing; the chart functions above are validated by the tests)."""
    return chart.to_dict(validate=False)
