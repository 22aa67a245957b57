"""Overview: what the lake holds, the latest batches, headline balance figures, where to go next."""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboard.charts import (
    PRECISE_WITHIN,
    breakdown_bars,
    captioned,
    is_imprecise,
    vega_lite_spec,
)
from dashboard.filters import GAME_FILTERS, level_label
from dashboard.lake_data import fetch_all, lake_folder, player_count_balance
from dashboard.notices import ignored_filters, lake_has_games, nothing_matches, play_level
from dashboard.text import plain
from data import definitions
from data.levels import LEVELS, RECORDED, precisions

SHARE_WITHIN = PRECISE_WITHIN["share"]


def level_make_up(make_up: pl.DataFrame, precision: pl.DataFrame) -> None:
    """Each play level's games, the agents at its tables and whether its figures are precise
    enough to be the default, strongest first, under the filters other than the level."""
    precise = precisions(precision)
    rows = []
    for level in (*reversed(LEVELS), RECORDED):
        part = make_up.filter(pl.col("level") == level)
        if part.is_empty():
            continue
        tables = " · ".join(
            f"{agents} ({games:,})" for agents, games in part.select("agents", "games").iter_rows()
        )
        rows.append(
            {
                "play level": level_label(level),
                "games": int(part["games"].sum()),
                "agents at its tables (games)": tables,
                "figures": "precise"
                if level in precise and precise[level].precise
                else "imprecise",
            }
        )
    st.dataframe(pl.DataFrame(rows), hide_index=True, width="stretch")
    st.caption(
        "A game's level is its weakest seat's agent; a *precise* level meets the rule that picks "
        "the default (the sidebar's *Play level* says it). Counted under the sidebar's filters "
        "other than the level."
    )


filters = st.session_state["filters"]
st.title("Kingdoms Analytics")
play_level(filters)
st.caption(
    f"Lake `{lake_folder()}` · every number comes with the games behind it and its 95% "
    f"interval; a figure whose interval is wider than ±{SHARE_WITHIN:g} (balance, shares) is "
    "marked *imprecise*."
)

if lake_has_games():
    every_level = {**filters.params(), "level": None}
    summary, breakdown, balance, make_up, precision, batches = fetch_all(
        ("lake_summary", {}),
        ("lake_breakdown", filters.params()),
        ("balance_summary", filters.params()),
        ("level_make_up", every_level),
        ("level_precision", every_level),
        ("latest_batches", {"limit": 8}),
    )
    balance = balance.join(player_count_balance(filters.params()).drop("games"), on="players")
    total_games = int(summary["games"].sum())
    by_source = summary.group_by("source").agg(pl.col("games").sum())
    source_games = dict(zip(by_source["source"], by_source["games"], strict=True))
    matching = breakdown.filter(pl.col("dimension") == "source")["games"].sum()

    columns = st.columns(5)
    columns[0].metric("Games in the lake", f"{total_games:,}")
    columns[1].metric("Moves", f"{int(summary['moves'].sum()):,}")
    columns[2].metric("Recorded games", f"{source_games.get('recorded', 0):,}")
    columns[3].metric("Simulated games", f"{source_games.get('simulated', 0):,}")
    columns[4].metric("Matching the filters", f"{matching:,}", help=plain(filters.describe()))

    st.subheader("Play levels")
    level_make_up(make_up, precision)

    if breakdown.is_empty():
        nothing_matches(filters)
    else:
        st.subheader("What is in it")
        charts = st.columns(5)
        for column, (dimension, title) in zip(
            charts,
            [
                ("level", "Games by play level"),
                ("source", "Games by source"),
                ("edition", "Games by edition"),
                ("players", "Games by player count"),
                ("agent", "Games by agent seated"),
            ],
            strict=True,
        ):
            part = breakdown.filter(pl.col("dimension") == dimension)
            chart = captioned(
                breakdown_bars(part, title), f"{filters.describe()} · {matching:,} games"
            )
            column.vega_lite_chart(vega_lite_spec(chart), width="stretch")

        st.subheader("Headline balance")
        cards = st.columns(max(len(balance), 1))
        for card, row in zip(cards, balance.iter_rows(named=True), strict=False):
            wide = is_imprecise(
                row["balance"], row["balance_low"], row["balance_high"], SHARE_WITHIN
            )
            few = " · imprecise" if wide else ""
            card.metric(
                f"{row['players']} players: balance",
                f"{row['balance']:.3f}",
                help=definitions.BALANCE,
            )
            interval = definitions.balance_interval(row["balance_low"], row["balance_high"])
            card.caption(
                f"{interval} · {row['games']:,} games{few} · mean winning margin "
                f"{row['mean_victory_margin']:.1f} gold · won by < 5 gold in "
                f"{row['close_game_share']:.0%} ({row['close_game_low']:.0%} to "
                f"{row['close_game_high']:.0%}) · {row['mean_plies']:.0f} plies"
            )
        ignored_filters(filters, GAME_FILTERS)

    st.subheader("Latest batches")
    st.dataframe(batches, hide_index=True, width="stretch")

st.subheader("Go deeper")
LINKS = [
    ("app_pages/heatmaps.py", "Heatmaps: the board, cell by cell", ":material/grid_on:"),
    ("app_pages/tile_impact.py", "Tile impact: what each tile is worth", ":material/extension:"),
    ("app_pages/balance.py", "Balance: seats, scores, agents", ":material/balance:"),
    ("app_pages/replay.py", "Replay: step through a game", ":material/replay:"),
    ("app_pages/sql_console.py", "SQL: ask the lake anything", ":material/terminal:"),
]
for page, label, icon in LINKS:
    st.page_link(page, label=label, icon=icon)
