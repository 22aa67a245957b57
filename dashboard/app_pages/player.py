"""Player: one named player's recorded games: results, accuracy, luck and skill over time, the
kinds of move that cost them, their opponents, their three costliest habits, and their estimated
strength on the agents' ladder.

`?player=NAME` opens a player; the URL follows the choice, so the page can be shared.
"""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboard.lake_data import fetch, lake_version
from dashboard.player_charts import accuracy_trend, strength_ladder
from dashboard.text import plain
from data.insights import BEST_ACCURACY, WORST_ACCURACY, Figure, figure
from data.lake import Lake, lake_path
from data.player import PlayerRecord, habits, opponents, player_record
from data.review_rows import DEFAULT_SEED
from data.strength import SUGGESTED_SAMPLE, Strength, player_strength
from engine.evaluate import DEFAULT_BUDGET

HABITS_SHOWN = 3
LADDER_SCHEMA = {  # the strength ladder's rows: an agent's or the player's mean accuracy
    "name": pl.String,
    "who": pl.String,  # agent or player
    "games": pl.Int64,
    "mean": pl.Float64,
    "low": pl.Float64,
    "high": pl.Float64,
}


@st.cache_data(max_entries=16, show_spinner=False)
def record_of(version: str, player: str) -> PlayerRecord:
    """The player's record in the lake at `version`, at the review's default budget and seed."""
    return player_record(Lake(lake_path()), player, DEFAULT_BUDGET, DEFAULT_SEED)


@st.cache_data(max_entries=16, show_spinner=False)
def strength_of(version: str, player: str) -> Strength:
    """The player's estimated strength in the lake at `version`, at the review's defaults."""
    record = record_of(version, player)
    return player_strength(Lake(lake_path()), record, DEFAULT_BUDGET, DEFAULT_SEED)


def figure_text(name: str, found: Figure, games: int, form: str) -> str:
    """A mean over the reviewed games, its 95% interval and its count of games."""
    if found.mean is None:
        return f"{name}: no reviewed game"
    over = f"{games:,} reviewed game{'s' if games != 1 else ''}"
    if found.interval is None:
        return f"{name} **{found.mean:{form}}** ({over}: no interval from one game)"
    low, high = found.interval
    return f"{name} **{found.mean:{form}}** (95% interval {low:{form}} to {high:{form}}, {over})"


def habit_text(habit: dict) -> str:
    """A costly habit in plain words, with its moves, games and interval."""
    within = (
        "" if habit["low"] is None else f" (95% interval {habit['low']:.3f} to {habit['high']:.3f})"
    )
    return (
        f"You lose most with **{habit['kind']}** moves in epoch {habit['epoch']}: "
        f"{habit['loss']:.3f} of a win given up a move{within} over {habit['moves']:,} moves "
        f"in {habit['games']:,} games."
    )


def choose_player() -> str | None:
    """The player named in the URL, or chosen here (and then put in the URL)."""
    names = fetch("recorded_players")["player"].to_list()
    if not names:
        st.info("The lake holds no recorded game with a named player: import or record one.")
        return None
    asked = st.query_params.get("player")
    index = names.index(asked) if asked in names else None
    chosen = st.selectbox("Player", names, index=index, placeholder="Choose a player")
    if chosen is not None and chosen != asked:
        st.query_params["player"] = chosen
    if asked is not None and asked not in names:
        st.warning(f"No recorded game of a player named '{plain(asked)}'.")
    return chosen


def summary(record: PlayerRecord) -> None:
    games, reviewed = record.games.height, record.reviewed.height
    st.markdown(
        f"**{games:,}** recorded games, **{reviewed:,}** reviewed by the engine (budget "
        f"{DEFAULT_BUDGET:,}, seed {DEFAULT_SEED})."
    )
    if reviewed < games:
        st.caption(
            f"{games - reviewed:,} not reviewed yet: `kingdoms review --all --player "
            f'"{plain(record.player)}"` reviews them first.'
        )
    if not reviewed:
        return
    st.markdown(
        "  \n".join(
            [
                figure_text(
                    "Accuracy",
                    figure(record, "accuracy", WORST_ACCURACY, BEST_ACCURACY),
                    reviewed,
                    ".1f",
                ),
                figure_text("Luck a game", figure(record, "luck", -1.0, 1.0), reviewed, "+.3f"),
                figure_text(
                    "Win share given up a game",
                    figure(record, "skill", 0.0, float("inf")),
                    reviewed,
                    ".3f",
                ),
            ]
        )
    )
    costly = habits(record).head(HABITS_SHOWN)
    if costly.height:
        st.markdown("**Costliest habits**")
        for habit in costly.iter_rows(named=True):
            st.markdown(habit_text(habit))


def by_kind(record: PlayerRecord) -> None:
    st.subheader("Loss by kind of move")
    table = habits(record, by_epoch=False).drop("epoch")
    epochs = habits(record).sort(["kind", "epoch"])
    shown = {
        c: st.column_config.NumberColumn(format="%.3f") for c in ("loss", "low", "high", "total")
    }
    st.dataframe(table, hide_index=True, key="player_kinds", column_config=shown)
    st.markdown("By epoch")
    st.dataframe(epochs, hide_index=True, key="player_kind_epochs", column_config=shown)
    st.caption(
        "Loss: the expected win share a move of the kind gave up, its mean over the player's "
        "reviewed moves; low–high its 95% interval, clustered by game (the game is the unit); "
        "total: summed over the moves. Definitions in docs/metrics.md (A player's record)."
    )


def games_over_time(record: PlayerRecord) -> None:
    st.subheader("Games")
    if record.reviewed.height:
        st.altair_chart(accuracy_trend(record.games), use_container_width=True)
        st.caption("Each reviewed game's accuracy by date; the line is the mean so far.")
    shown = record.games.select(
        "created",
        "game_id",
        "players",
        "result",
        "reviewed",
        "accuracy",
        "luck",
        "skill",
        "adjusted",
    ).sort("created", descending=True)
    st.dataframe(
        shown,
        hide_index=True,
        key="player_games",
        column_config={
            "result": st.column_config.NumberColumn(format="%.2f"),
            "accuracy": st.column_config.NumberColumn(format="%.1f"),
            **{
                c: st.column_config.NumberColumn(format="%.3f")
                for c in ("luck", "skill", "adjusted")
            },
        },
    )
    st.caption(
        "Result: the player's win share. Luck: what the tiles gave or took, skill: the expected "
        "win share the player's moves gave up, adjusted: the result without the luck."
    )


def against(record: PlayerRecord) -> None:
    st.subheader("Opponents")
    table = opponents(record)
    st.dataframe(
        table,
        hide_index=True,
        key="player_opponents",
        column_config={
            c: st.column_config.NumberColumn(format="%.2f") for c in ("win_share", "low", "high")
        },
    )
    st.caption(
        "The player's mean win share in the games with each opponent, with its 95% Wilson "
        "interval over those games."
    )


def strength(found: Strength, player: str) -> None:
    st.subheader("Estimated strength")
    if found.by_accuracy is None:
        by_accuracy = "none yet (it needs reviewed games of the player and of an agent)"
    else:
        by_accuracy = found.by_accuracy.text(".1f")
    st.markdown(f"By accuracy: **{plain(by_accuracy)}**.")
    rows = [
        {
            "name": r.agent,
            "who": "agent",
            "games": r.games,
            "mean": r.mean,
            "low": r.interval[0] if r.interval else None,
            "high": r.interval[1] if r.interval else None,
        }
        for r in found.accuracy_ladder
    ]
    if found.by_accuracy is not None:
        own = found.by_accuracy
        low, high = own.interval or (None, None)
        rows.append(
            {
                "name": player,
                "who": "player",
                "games": own.games,
                "mean": own.mean,
                "low": low,
                "high": high,
            }
        )
    ladder = pl.DataFrame(rows, schema=LADDER_SCHEMA)
    if any(rung.games for rung in found.accuracy_ladder):
        st.altair_chart(strength_ladder(ladder), use_container_width=True)
    else:
        st.info(
            f"No agent game reviewed yet at budget {DEFAULT_BUDGET:,}, seed {DEFAULT_SEED}: "
            f"`kingdoms review --all --agents-sample {SUGGESTED_SAMPLE}` reviews "
            f"{SUGGESTED_SAMPLE} of each agent's simulated games."
        )
    st.dataframe(
        ladder.filter(pl.col("who") == "agent").drop("who").rename({"name": "agent"}),
        hide_index=True,
        key="player_strength",
        column_config={
            c: st.column_config.NumberColumn(format="%.1f") for c in ("mean", "low", "high")
        },
    )
    st.caption(
        "Each agent's mean game accuracy over its reviewed simulated games (games: how many; "
        "an agent without one has none yet) with its 95% interval, the game the unit, reviewed "
        "at the same budget and seed as the player's games; the player's own in red. More of "
        "them: `kingdoms review --all --agents-sample N`. Definitions in docs/metrics.md "
        "(Estimated strength)."
    )
    if found.by_results is None:
        st.markdown("By results: **none**: the player has played none of the ladder's agents.")
    else:
        st.markdown(f"By results (rating): **{plain(found.by_results.text('+.0f'))}**.")
        st.caption(
            "; ".join(f"{r.agent} {r.text('+.0f', 'game')}" for r in found.rating_ladder)
            + ". Bradley–Terry ratings from all the lake's games (Ratings page)."
        )


st.title("Player")
player = choose_player()
if player is not None:
    record = record_of(lake_version(), player)
    if record.games.is_empty():
        st.warning(f"No recorded game of a player named '{plain(player)}'.")
    else:
        summary(record)
        games_over_time(record)
        if record.reviewed.height:
            by_kind(record)
        against(record)
        strength(strength_of(lake_version(), player), player)
