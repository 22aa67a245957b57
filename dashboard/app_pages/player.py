"""Player: one named player's recorded games: results, accuracy, luck and skill over time, the
kinds of move and the moments of an epoch that cost them, their starting-tile habit, their
opponents, their three costliest habits, and their estimated strength on the agents' ladder.
Their unreviewed games can be reviewed from here, in the background.

`?player=NAME` opens a player; the URL follows the choice, so the page can be shared.
"""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboard.lake_data import fetch, lake_folder, lake_version
from dashboard.player_charts import accuracy_trend, strength_ladder
from dashboard.player_choice import choose_player
from dashboard.player_review import forget_review, player_review, start_review
from dashboard.text import plain
from data.insights import BEST_ACCURACY, WORST_ACCURACY, Figure, figure
from data.lake import Lake, lake_path
from data.player import (
    PlayerRecord,
    habits,
    loss_by_timing,
    opponents,
    record_from,
    reviewed_count,
    starting_tile_timing,
)
from data.review_rows import DEFAULT_SEED
from data.review_table import review_table
from data.reviews import reviews_version
from data.strength import SUGGESTED_SAMPLE, Ladders, Strength, ladders, placed
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


def version() -> str:
    """The lake's version and its reviews': the player's figures change with either."""
    return f"{lake_version()}#{reviews_version(Lake(lake_path()))}"


@st.cache_resource(max_entries=2, show_spinner=False)
def reviews_of(version: str) -> pl.DataFrame:
    """The lake's review table at `version`, at the review's default budget and seed: every
    player's record is a part of it (shared, never mutated)."""
    return review_table(Lake(lake_path()), DEFAULT_BUDGET, DEFAULT_SEED)


@st.cache_data(max_entries=16, show_spinner=False)
def record_of(version: str, player: str) -> PlayerRecord:
    """The player's record in the lake at `version`, at the review's default budget and seed."""
    seats = fetch("player_seats", player=player)
    timing = fetch("player_move_timing", player=player)
    return record_from(player, seats, timing, reviews_of(version))


@st.cache_data(max_entries=4, show_spinner=False)
def ladders_of(version: str) -> Ladders:
    """The agents' ladders in the lake at `version`, at the review's defaults: the same for
    every player, so worked out once, not once a player."""
    return ladders(Lake(lake_path()), DEFAULT_BUDGET, DEFAULT_SEED)


@st.cache_data(max_entries=16, show_spinner=False)
def strength_of(version: str, player: str) -> Strength:
    """The player's estimated strength in the lake at `version`, at the review's defaults."""
    return placed(record_of(version, player), ladders_of(version))


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


def summary(record: PlayerRecord) -> None:
    games, reviewed = record.games.height, record.reviewed.height
    st.markdown(
        f"**{games:,}** recorded games, **{reviewed:,}** reviewed by the engine (budget "
        f"{DEFAULT_BUDGET:,}, seed {DEFAULT_SEED})."
    )
    review_offer(record)
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


def review_offer(record: PlayerRecord) -> None:
    """The games not reviewed yet and a button that reviews them in the background: its
    progress while it runs, what stopped it if it failed."""
    lake, player = lake_folder(), record.player
    running = player_review(lake, player)
    if running is not None and running.running:
        review_progress(player)
        return
    if running is not None:
        if running.failure is None:
            forget_review(lake, player)
            st.success(f"{plain(player)}'s games are reviewed: the figures below include them.")
        else:
            st.error(f"The review of {plain(player)}'s games stopped: {plain(running.failure)}")
    missing = record.games.height - record.reviewed.height
    if not missing:
        return
    st.caption(
        f"{missing:,} not reviewed yet; a review takes a few seconds a game, in the background "
        f'(or in a terminal: `kingdoms review --all --player "{plain(player)}"`).'
    )
    label = f"Review the {missing:,} unreviewed game{'s' if missing != 1 else ''}"
    if st.button(label, key="player_review"):
        start_review(lake, player, DEFAULT_BUDGET, DEFAULT_SEED)
        st.rerun()


@st.fragment(run_every=1.0)
def review_progress(player: str) -> None:
    """The running review's progress, read from the lake's reviews each second; the whole page
    again once it has stopped, so that its figures include the new reviews."""
    running = player_review(lake_folder(), player)
    if running is None or not running.running:
        st.rerun()
    done, games = reviewed_count(Lake(lake_path()), player, DEFAULT_BUDGET, DEFAULT_SEED)
    st.progress(
        done / max(games, 1),
        text=f"Reviewing {plain(player)}'s games: {done:,} of {games:,} reviewed. The figures "
        "below are those of the games reviewed when the page was drawn.",
    )


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
    st.markdown("By when in the epoch")
    st.dataframe(loss_by_timing(record), hide_index=True, key="player_timings", column_config=shown)
    st.caption(
        "Loss: the expected win share a move of the kind gave up, its mean over the player's "
        "reviewed moves; low–high its 95% interval, clustered by game (the game is the unit); "
        "total: summed over the moves. When: early while under a third of the board's cells "
        "are filled in the epoch (by every seat), middle under two thirds, late after. "
        "Definitions in docs/metrics.md (A player's record)."
    )


def starting_tile(record: PlayerRecord) -> None:
    st.subheader("Starting tile")
    table = starting_tile_timing(record)
    if table.is_empty():
        st.info("No starting tile of the player's in the reviewed games.")
        return
    st.dataframe(
        table,
        hide_index=True,
        key="player_starting_tile",
        column_config={
            **{c: st.column_config.NumberColumn(format="%.2f") for c in ("share", "share_low")},
            "share_high": st.column_config.NumberColumn(format="%.2f"),
            **{
                c: st.column_config.NumberColumn(format="%.3f")
                for c in ("loss", "low", "high", "total")
            },
        },
    )
    st.caption(
        "When the player plays their starting tile in its epoch (early, middle, late as above): "
        "moves, the games they are in, and the share of the player's starting tiles played "
        "then, share_low–share_high its 95% interval; loss: the expected win share those moves "
        "gave up, a move, with its interval; total: summed. Both intervals clustered by game."
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
    record = record_of(version(), player)
    if record.games.is_empty():
        st.warning(f"No recorded game of a player named '{plain(player)}'.")
    else:
        summary(record)
        st.page_link(
            "app_pages/practice.py",
            label="Practise the moves that cost you most",
            icon=":material/school:",
            query_params={"player": player},
        )
        games_over_time(record)
        if record.reviewed.height:
            by_kind(record)
            starting_tile(record)
        against(record)
        strength(strength_of(version(), player), player)
