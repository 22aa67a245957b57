"""The Player page's charts: pure functions of a player's games frame (data/player.py)."""

from __future__ import annotations

import altair as alt
import polars as pl


def accuracy_trend(games: pl.DataFrame) -> alt.Chart:
    """Each reviewed game's accuracy by its date, with the running mean over the games so far."""
    reviewed = games.filter(pl.col("accuracy").is_not_null()).with_columns(
        (pl.col("accuracy").cum_sum() / pl.int_range(1, pl.len() + 1)).alias("mean so far")
    )
    base = alt.Chart(reviewed.to_pandas()).encode(
        x=alt.X("created:T", title="game played"),
    )
    games_layer = base.mark_point(filled=True).encode(
        y=alt.Y("accuracy:Q", title="accuracy (0–100)", scale=alt.Scale(domain=[0, 100])),
        tooltip=["game_id:N", "created:T", alt.Tooltip("accuracy:Q", format=".1f"),
                 alt.Tooltip("result:Q", format=".2f"), alt.Tooltip("luck:Q", format="+.3f")],
    )  # fmt: skip
    running = base.mark_line(color="gray").encode(y="mean so far:Q")
    return games_layer + running
