"""Tile impact: what each tile kind is worth to its placer and to the others, and to winning."""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboard.charts import FEW_GAMES, interval_chart, mark_few, vega_lite_spec
from dashboard.filters import Filters
from dashboard.lake_data import fetch_all
from dashboard.notices import lake_has_games, nothing_matches

SPLITS = {
    "all placements": "all",
    "epoch": "epoch",
    "timing (fifth of the epoch)": "timing",
    "drawn vs starting tile": "placed_by",
}
MEASURES = {
    "placer": ("placer_impact", "placer_half_width"),
    "each opponent": ("opponent_impact", "opponent_half_width"),
    "net swing": ("net_swing", "net_half_width"),
}


def long_intervals(frame: pl.DataFrame) -> pl.DataFrame:
    """One row per tile, split and measure with value, ci_low, ci_high and placements."""
    parts = [
        frame.select(
            "tile",
            "split",
            "placements",
            measure=pl.lit(name),
            value=pl.col(value),
            ci_low=pl.col(value) - pl.col(half),
            ci_high=pl.col(value) + pl.col(half),
        )
        for name, (value, half) in MEASURES.items()
    ]
    return pl.concat(parts)


filters: Filters = st.session_state["filters"]
st.title("Tile impact")
st.caption(
    "Counterfactual impact of a tile: the seat's epoch gold with the board as it ended minus the "
    "same with the tile's space left empty. Means with 95% intervals (mean ± 1.96·SE); fewer than "
    f"{FEW_GAMES} placements are greyed and marked *few games*."
)

if lake_has_games():
    wanted = st.query_params.get("split")
    labels = list(SPLITS)
    split_label = st.radio(
        "Split by",
        labels,
        index=[SPLITS[k] for k in labels].index(wanted) if wanted in SPLITS.values() else 0,
        horizontal=True,
        key="tile_split",
    )
    split = SPLITS[split_label]
    st.query_params["split"] = split
    impact, improvement = fetch_all(
        ("tile_impact", {**filters.params(), "split": split}),
        ("tile_improvement", filters.params()),
    )
    if impact.is_empty():
        nothing_matches(filters)
    else:
        total = int(impact["placements"].sum())
        st.markdown(f"**{filters.describe()}** · {total:,} tile placements")
        intervals = long_intervals(impact)
        chart_columns = st.columns(3)
        for column, measure in zip(chart_columns, MEASURES, strict=True):
            part = intervals.filter(pl.col("measure") == measure)
            column.vega_lite_chart(
                vega_lite_spec(
                    interval_chart(
                        part,
                        "tile",
                        f"Impact on {measure}",
                        "gold",
                        "placements",
                        color=None if split == "all" else "split",
                        value_format=".2f",
                    )
                ),
                width="stretch",
            )
        shown = mark_few(impact, "placements").rename({"reliability": "sample"}).drop("few")
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
            shown.write_csv(),
            file_name=f"tile_impact_{split}.csv",
            mime="text/csv",
        )

    st.subheader("Improvement when placed")
    st.caption(
        "Mean win share of seats that placed the kind at least once in the game, against seats "
        "that never did; the difference has a 95% interval √(SE₁² + SE₂²)."
    )
    if improvement.is_empty() or improvement["seats_placed"].sum() == 0:
        nothing_matches(filters)
    else:
        few_side = pl.min_horizontal("seats_placed", "seats_not_placed")
        data = improvement.with_columns(value=pl.col("improvement"), smaller_side=few_side)
        st.vega_lite_chart(
            vega_lite_spec(
                interval_chart(
                    data,
                    "tile",
                    "Improvement in win share when placed",
                    "win share",
                    "smaller_side",
                    value_format="+.3f",
                )
            ),
            width="stretch",
        )
        shown = mark_few(data, "smaller_side").rename({"reliability": "sample"})
        shown = shown.drop("few", "value", "smaller_side")
        st.dataframe(shown, hide_index=True, width="stretch")
        st.download_button(
            "Download this table (CSV)",
            shown.write_csv(),
            file_name="tile_improvement.csv",
            mime="text/csv",
        )
