"""The Sandbox's chart: each figure's difference yours − base with its 95% interval, against 0."""

from __future__ import annotations

import math

import polars as pl

from dashboard.charts import captioned, interval_chart, vega_lite_spec

YOUR_GAMES = "your games"
LABEL_LIMIT = 260  # pixels: the longest figure's name whole ("games with 2 lead changes")


def difference_chart(figures: pl.DataFrame, title: str, caption: str) -> dict:
    """The figures' differences (rows of `Comparison.figures`, one unit) as points with their
    intervals; a diamond where the interval excludes 0. Figures without an interval are left
    out (the table says so)."""
    data = figures.filter(pl.col("difference_low").is_not_null()).select(
        pl.col("figure"),
        value=pl.col("difference"),
        ci_low=pl.col("difference_low"),
        ci_high=pl.col("difference_high"),
        zero=pl.lit(0.0),
        **{YOUR_GAMES: pl.col("games_b")},
    )
    chart = interval_chart(
        data, "figure", title, "yours − base", YOUR_GAMES, math.inf, reference=("zero", "0")
    )
    return vega_lite_spec(captioned(chart, caption).configure_axisY(labelLimit=LABEL_LIMIT))
