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
        tooltip=[
            "game_id:N",
            "created:T",
            alt.Tooltip("accuracy:Q", format=".1f"),
            alt.Tooltip("result:Q", format=".2f"),
            alt.Tooltip("luck:Q", format="+.3f"),
        ],
    )
    running = base.mark_line(color="gray").encode(y="mean so far:Q")
    return games_layer + running


def strength_ladder(rungs: pl.DataFrame) -> alt.Chart:
    """Each agent's mean accuracy with its 95% interval, and the player's, as a ladder: one row
    each, ordered by mean accuracy, the player's marked (rungs: name, who, games, mean, low,
    high; who is "agent" or "player")."""
    shown = rungs.filter(pl.col("mean").is_not_null()).sort("mean").to_pandas()
    order = shown["name"].tolist()[::-1]
    base = alt.Chart(shown).encode(
        y=alt.Y("name:N", sort=order, title=None),
        color=alt.Color(
            "who:N",
            scale=alt.Scale(domain=["agent", "player"], range=["gray", "crimson"]),
            legend=None,
        ),
    )
    intervals = base.mark_rule(strokeWidth=2).encode(
        x=alt.X(
            "low:Q", title="mean game accuracy (0–100), 95% interval", scale=alt.Scale(zero=False)
        ),
        x2="high:Q",
    )
    means = base.mark_point(filled=True, size=80).encode(
        x="mean:Q",
        tooltip=[
            "name:N",
            "games:Q",
            alt.Tooltip("mean:Q", format=".1f"),
            alt.Tooltip("low:Q", format=".1f"),
            alt.Tooltip("high:Q", format=".1f"),
        ],
    )
    return intervals + means
