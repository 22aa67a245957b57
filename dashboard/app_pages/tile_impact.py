"""Tile impact: what each tile kind is worth to its placer and to the others, and to winning."""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboard.charts import (
    PRECISE_WITHIN,
    captioned,
    interval_chart,
    mark_imprecise,
    vega_lite_spec,
)
from dashboard.exports import csv_download
from dashboard.filters import Filters
from dashboard.lake_data import fetch_all
from dashboard.notices import lake_has_games, nothing_matches, play_level
from dashboard.text import plain
from data import definitions

SPLITS = {
    "all placements": "all",
    "epoch": "epoch",
    "timing (fifth of the epoch)": "timing",
    "drawn vs starting tile": "placed_by",
    "agent (the placer's)": "agent",
}
# The chart legend's name of each split (the "all" split names nothing).
LEGENDS = {"epoch": "epoch", "timing": "timing", "placed_by": "placed by", "agent": "agent"}
MEASURES = {
    "placer": ("placer_impact", "placer_half_width"),
    "each opponent": ("opponent_impact", "opponent_half_width"),
    "net swing": ("net_swing", "net_half_width"),
}
GOLD_WITHIN = PRECISE_WITHIN["tile gold"]
SHARE_WITHIN = PRECISE_WITHIN["share"]
NO_EFFECT = ("no_effect", "no effect (0)")


def long_intervals(frame: pl.DataFrame) -> pl.DataFrame:
    """One row per tile, group and measure with value, ci_low, ci_high, placements and games."""
    parts = [
        frame.select(
            "tile",
            "group",
            "placements",
            "games",
            measure=pl.lit(name),
            value=pl.col(value),
            ci_low=pl.col(value) - pl.col(half),
            ci_high=pl.col(value) + pl.col(half),
            no_effect=pl.lit(0.0),
        )
        for name, (value, half) in MEASURES.items()
    ]
    return pl.concat(parts)


def url_split(label: str, key: str, labels: list[str], widget, **kwargs: object) -> str:
    """A split chosen with `widget` (radio or selectbox), starting from and kept in the URL."""
    wanted = st.query_params.get(key)
    values = [SPLITS[k] for k in labels]
    index = values.index(wanted) if wanted in values else 0
    chosen = SPLITS[widget(label, labels, index=index, key=f"tile_{key}", **kwargs)]
    st.query_params[key] = chosen
    return chosen


filters: Filters = st.session_state["filters"]
st.title("Tile impact")
play_level(filters)
st.caption(
    f"Counterfactual impact of a tile: {definitions.COUNTERFACTUAL}. Means with 95% intervals "
    "that take the game as the unit (a game's placements share its board and players: mean ± "
    f"1.96·SE clustered by game), greyed and marked *imprecise* when wider than ±{GOLD_WITHIN:g} "
    "gold; a tile whose interval excludes 0 (no effect) is a diamond, the others circles."
)

if lake_has_games():
    picks = st.columns([3, 2])
    with picks[0]:
        split = url_split(
            "Split by",
            "split",
            list(SPLITS),
            st.radio,
            horizontal=True,
            help="How the placements of each tile kind are divided.",
        )
    with picks[1]:
        others = [label for label, value in SPLITS.items() if value != split or value == "all"]
        cross = url_split(
            "and by",
            "cross",
            others,
            st.selectbox,
            help="A second split crossed with the first (e.g. starting tile × timing).",
        )
    impact, improvement = fetch_all(
        ("tile_impact", {**filters.params(), "split": split, "cross_split": cross}),
        ("tile_improvement", filters.params()),
    )
    if impact.is_empty():
        nothing_matches(filters)
    else:
        total = int(impact["placements"].sum())
        sample = f"{total:,} tile placements · {int(impact['games_kept'][0]):,} games"
        st.markdown(f"**{plain(filters.describe())}** · {sample}")
        splits = [("split", split), ("cross_split", cross)]
        named = [(column, value) for column, value in splits if value != "all"] or splits[:1]
        grouped = impact.with_columns(
            group=pl.concat_str([pl.col(column) for column, _ in named], separator=" · ")
        )
        legend = " · ".join(LEGENDS[value] for _, value in named if value != "all")
        intervals = long_intervals(grouped).rename({"group": legend} if legend else {})
        chart_columns = st.columns(3)
        for column, measure in zip(chart_columns, MEASURES, strict=True):
            part = intervals.filter(pl.col("measure") == measure)
            chart = interval_chart(
                part,
                "tile",
                f"Impact on {measure}",
                "gold",
                "games",
                GOLD_WITHIN,
                color=legend or None,
                reference=NO_EFFECT,
                value_format=".2f",
            )
            column.vega_lite_chart(
                vega_lite_spec(captioned(chart, f"{filters.describe()} · {sample}")),
                width="stretch",
            )
            column.caption(definitions.TILE_IMPACT[measure])
        shown = (
            mark_imprecise(
                impact.with_columns(
                    value=pl.col("net_swing"),
                    ci_low=pl.col("net_swing") - pl.col("net_half_width"),
                    ci_high=pl.col("net_swing") + pl.col("net_half_width"),
                ),
                GOLD_WITHIN,
            )
            .rename({"reliability": "net swing precision"})
            .drop("few", "value", "ci_low", "ci_high", "games_kept")
        )
        st.dataframe(
            shown,
            hide_index=True,
            width="stretch",
            column_config={
                name: st.column_config.NumberColumn(format="%.2f")
                for name in shown.columns
                if name.endswith(("impact", "width", "swing"))
            },
        )
        st.download_button(
            "Download this table (CSV)",
            **csv_download(
                shown,
                f"tile_impact_{split}_{cross}",
                f"Tile impact by {split} × {cross}",
                filters.describe(),
                total,
                sample,
            ),
        )

    st.subheader("Improvement when placed")
    st.caption(definitions.IMPROVEMENT)
    st.info(definitions.IMPROVEMENT_CAVEAT)
    if improvement.is_empty() or improvement["seats_placed"].sum() == 0:
        nothing_matches(filters)
    else:
        seats = int((improvement["seats_placed"] + improvement["seats_not_placed"]).max())
        sample = f"{seats:,} seats"
        few_side = pl.min_horizontal("seats_placed", "seats_not_placed")
        data = improvement.with_columns(
            value=pl.col("improvement"), smaller_side=few_side, no_effect=pl.lit(0.0)
        )
        chart = interval_chart(
            data,
            "tile",
            "Improvement in win share when placed",
            "win share",
            "smaller_side",
            SHARE_WITHIN,
            reference=NO_EFFECT,
            value_format="+.3f",
        )
        st.vega_lite_chart(
            vega_lite_spec(captioned(chart, f"{filters.describe()} · {sample}")), width="stretch"
        )
        shown = mark_imprecise(data, SHARE_WITHIN).rename({"reliability": "precision"})
        shown = shown.drop("few", "value", "smaller_side", "no_effect")
        st.dataframe(shown, hide_index=True, width="stretch")
        st.download_button(
            "Download this table (CSV)",
            **csv_download(
                shown,
                "tile_improvement",
                "Improvement when placed",
                filters.describe(),
                seats,
                sample,
            ),
        )
