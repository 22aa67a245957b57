"""Balance: seat advantage, score distributions, lead changes, duration, agents, and two rule sets
side by side."""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboard.charts import FEW_GAMES, histogram, interval_chart, share_bars, vega_lite_spec
from dashboard.filters import Filters, choices, options
from dashboard.lake_data import fetch_all
from dashboard.notices import lake_has_games, nothing_matches

BIN_WIDTH = 10


def seat_frame(frame: pl.DataFrame, by: str) -> pl.DataFrame:
    """Seat advantage rows with a readable group label (players · position)."""
    prefix = "mover " if by == "position" else "seat "
    return frame.with_columns(
        group=pl.format("{} players · {}{}", "players", pl.lit(prefix), "position"),
        value=pl.col("mean_win_share"),
    )


def seat_chart(frame: pl.DataFrame, title: str):
    return interval_chart(frame, "group", title, "mean win share", "seats", reference="fair_share")


filters: Filters = st.session_state["filters"]
st.title("Balance")
st.caption(
    "For designers: is any seat favoured, how close are the games, do leads change hands? "
    f"Means with 95% intervals; fewer than {FEW_GAMES} games are greyed and marked *few games*. "
    "Whole-game figures ignore the agent, player and epoch filters."
)

if lake_has_games():
    params = filters.params()
    by = st.session_state.get("balance_by", "position")  # the radio below, as last chosen
    summary, seat_advantage, gold, margin, leads, duration, ladder = fetch_all(
        ("balance_summary", params),
        ("seat_advantage", {**params, "by": by}),
        ("score_distribution", {**params, "metric": "final_gold", "bin_width": BIN_WIDTH}),
        ("score_distribution", {**params, "metric": "victory_margin", "bin_width": BIN_WIDTH}),
        ("lead_changes", params),
        ("duration", params),
        ("agent_ladder", params),
    )
    if summary.is_empty():
        nothing_matches(filters)
    else:
        cards = st.columns(len(summary))
        for card, row in zip(cards, summary.iter_rows(named=True), strict=True):
            card.metric(f"Balance, {row['players']} players", f"{row['balance']:.3f}")
            card.caption(
                f"{row['games']:,} games" + (" · few games" if row["games"] < FEW_GAMES else "")
            )

        st.subheader("Seat advantage")
        by = st.radio(
            "Group seats by",
            ["position", "seat"],
            format_func={"position": "turn order in epoch 1", "seat": "seat letter"}.get,
            horizontal=True,
            key="balance_by",
        )
        seats = seat_frame(seat_advantage, by)
        st.vega_lite_chart(
            vega_lite_spec(
                seat_chart(seats, "Mean win share against the fair share 1/N (red tick)")
            ),
            width="stretch",
        )

        st.subheader("Scores")
        left, right = st.columns(2)
        left.vega_lite_chart(
            vega_lite_spec(histogram(gold, "Final gold per seat", "final gold", BIN_WIDTH)),
            width="stretch",
        )
        right.vega_lite_chart(
            vega_lite_spec(
                histogram(margin, "Margin of victory per game", "winner's margin", BIN_WIDTH)
            ),
            width="stretch",
        )
        st.dataframe(
            summary.rename(
                {
                    "mean_victory_margin": "mean winning margin",
                    "close_game_share": "won by < 5 gold",
                    "mean_plies": "plies per game",
                    "decision_share": "decision moves",
                }
            ),
            hide_index=True,
            width="stretch",
            column_config={
                "won by < 5 gold": st.column_config.NumberColumn(format="percent"),
                "decision moves": st.column_config.NumberColumn(
                    format="percent", help="Share of turns with more than one legal action"
                ),
            },
        )

        st.subheader("Lead changes and comebacks")
        left, right = st.columns(2)
        left.vega_lite_chart(
            vega_lite_spec(share_bars(leads, "lead_changes", "Lead changes across the epochs")),
            width="stretch",
        )
        comebacks = (
            leads.group_by("players")
            .agg(
                games=pl.col("games").sum(),
                comebacks=(pl.col("comeback_share") * pl.col("games")).sum().round().cast(pl.Int64),
            )
            .sort("players")
            .with_columns(share=pl.col("comebacks") / pl.col("games"))
        )
        right.markdown("**Comebacks**: games won by a seat that was last after epoch 1 or 2")
        right.dataframe(
            comebacks,
            hide_index=True,
            column_config={"share": st.column_config.NumberColumn(format="percent")},
        )
        right.markdown(
            "**Duration**: plies per epoch (epoch 0 = whole game, with its passes and its "
            "decision moves: turns with more than one legal action)"
        )
        right.dataframe(
            duration,
            hide_index=True,
            column_config={"decision_share": st.column_config.NumberColumn(format="percent")},
        )

        st.subheader("Agent ladder")
        if ladder.is_empty():
            st.info("No simulated games match the filters, so there is no agent to rate.")
        else:
            st.vega_lite_chart(
                vega_lite_spec(
                    interval_chart(
                        ladder.with_columns(
                            value=pl.col("rating"),
                            ci_low=pl.col("rating_low"),
                            ci_high=pl.col("rating_high"),
                        ),
                        "agent",
                        "Elo-style rating against the field (from mean partial win)",
                        "rating",
                        "seats",
                        value_format=".0f",
                    )
                ),
                width="stretch",
            )
            st.dataframe(ladder, hide_index=True, width="stretch")

    st.subheader("Two rule sets side by side")
    editions = options(choices(), "edition")
    variants = options(choices(), "variant")
    rule_sets = [f"edition {e}" for e in editions] + [f"variant {v}" for v in variants]
    if len(rule_sets) < 2:
        st.info(
            "The lake holds one rule set only. Simulate another edition or variant to compare, "
            "e.g. `kingdoms simulate --games 2000 --edition kingdoms-2002`."
        )
    else:
        picks = st.columns(2)
        chosen = [
            picks[0].selectbox("Rule set A", rule_sets, index=0, key="compare_a"),
            picks[1].selectbox("Rule set B", rule_sets, index=1, key="compare_b"),
        ]
        sides = [filters.with_value(*rule_set.split(" ", 1)) for rule_set in chosen]
        side_frames = fetch_all(
            *[("balance_summary", side.params()) for side in sides],
            *[("seat_advantage", {**side.params(), "by": "position"}) for side in sides],
        )
        for column, rule_set, side, side_summary, side_seats in zip(
            st.columns(2), chosen, sides, side_frames[:2], side_frames[2:], strict=True
        ):
            with column:
                if side_summary.is_empty():
                    nothing_matches(side)
                    continue
                positions = seat_frame(side_seats, "position")
                st.vega_lite_chart(
                    vega_lite_spec(seat_chart(positions, f"Seat advantage · {rule_set}")),
                    width="stretch",
                )
                st.dataframe(side_summary, hide_index=True, width="stretch")
