"""Balance: each player count's balance, then one section at a time, as tabs: seat advantage,
scores and duration, lead changes, the agent ladder, two rule sets side by side."""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict

import polars as pl
import streamlit as st

from dashboard.access import writes_allowed
from dashboard.charts import (
    PRECISE_WITHIN,
    captioned,
    head_to_head_matrix,
    histogram,
    interval_chart,
    is_imprecise,
    vega_lite_spec,
)
from dashboard.filters import GAME_FILTERS, STANDARD, STANDARD_LABEL, Filters, choices, options
from dashboard.lake_data import fetch_all, lake_folder, player_count_balance, player_ratings
from dashboard.notices import ignored_filters, lake_has_games, nothing_matches, play_level
from dashboard.text import plain
from data import definitions
from data.compare import DEFAULT_GAMES, SKILL_DEFINITION, SKILL_GAMES, compare
from data.lake import Lake
from data.report import report_html
from engine.rules import DEFAULT_EDITION, RuleSet, rule_set, rules_hash

BIN_WIDTH = 10
GROUPINGS = {"position": "turn order in epoch 1", "seat": "seat letter"}
SEAT_FILTERS = GAME_FILTERS | {"agent", "player"}
# The agent ladder compares agents across every table, so it follows no play level.
RATING_FILTERS = GAME_FILTERS - {"level"}
LADDER_FILTERS = RATING_FILTERS - {"source"}
# One title for every seat-advantage chart (the caption says which games): one chart shape.
SEAT_TITLE = "Mean win share against the fair share 1/N (red tick)"
SHARE_WITHIN = PRECISE_WITHIN["share"]


def url_value(key: str, values: list[str]) -> str:
    """The URL's value for `key` when it is one of `values`, else the first of them."""
    wanted = st.query_params.get(key)
    return wanted if wanted in values else values[0]


def fetch_by_player_count(
    players: int | None,
    per_count: Sequence[tuple[str, dict[str, object]]],
    others: Sequence[tuple[str, dict[str, object]]] = (),
) -> list[pl.DataFrame]:
    """Run queries side by side: those of `per_count`, whose rows are per player count, for
    every count at once (one cached frame whichever count is chosen), cut to `players`; then
    `others` as asked."""
    every_count = [(name, {**params, "players": None}) for name, params in per_count]
    frames = fetch_all(*every_count, *others)
    cut = [
        frame if players is None else frame.filter(pl.col("players") == players)
        for frame in frames[: len(per_count)]
    ]
    return cut + frames[len(per_count) :]


def every_count_balance(params: dict[str, object]) -> pl.DataFrame:
    """Each player count's balance and its bootstrap interval, for every count at once (one
    cached bootstrap whichever count is chosen)."""
    return player_count_balance({**params, "players": None})


def with_balance(summary: pl.DataFrame, balance: pl.DataFrame) -> pl.DataFrame:
    """The whole-game figures with each player count's balance and its bootstrap interval."""
    return summary.join(balance.drop("games"), on="players", how="left")


def rule_sets() -> dict[str, tuple[str, str]]:
    """The rule sets the lake holds, by label: the filter (dimension, value) that selects each."""
    found = choices()
    variants = options(found, "variant")
    sets = {f"edition {e}": ("edition", e) for e in options(found, "edition")}
    if variants:
        sets[STANDARD_LABEL] = ("variant", STANDARD)
    return sets | {f"variant {v}": ("variant", v) for v in variants}


def seat_frame(frame: pl.DataFrame, by: str) -> pl.DataFrame:
    """Seat advantage rows with a readable group label (players · position)."""
    prefix = "mover " if by == "position" else "seat "
    return frame.with_columns(
        group=pl.format("{} players · {}{}", "players", pl.lit(prefix), "position"),
        value=pl.col("mean_win_share"),
    )


def seat_chart(frame: pl.DataFrame, title: str, caption: str) -> dict:
    """Mean win share per group against the fair share, captioned with filters and sample."""
    chart = interval_chart(
        frame,
        "group",
        title,
        "mean win share",
        "seats",
        SHARE_WITHIN,
        reference=("fair_share", "the fair share 1/N"),
    )
    return vega_lite_spec(captioned(chart, caption))


def share_chart(frame: pl.DataFrame, group: pl.Expr, title: str, count: str, caption: str) -> dict:
    """Shares with their Wilson intervals, one point per group, captioned."""
    data = frame.with_columns(group=group, value=pl.col("share"))
    chart = interval_chart(
        data, "group", title, "share of games", count, SHARE_WITHIN, value_format=".1%"
    )
    return vega_lite_spec(captioned(chart, caption))


def balance_cards(summary: pl.DataFrame, filters: Filters) -> None:
    """One card per player count: the balance, its interval and the games behind it."""
    cards = st.columns(len(summary))
    for card, row in zip(cards, summary.iter_rows(named=True), strict=True):
        card.metric(
            f"Balance, {row['players']} players",
            f"{row['balance']:.3f}",
            help=definitions.BALANCE,
        )
        interval = definitions.balance_interval(row["balance_low"], row["balance_high"])
        wide = is_imprecise(row["balance"], row["balance_low"], row["balance_high"], SHARE_WITHIN)
        few = " · imprecise" if wide else ""
        card.caption(f"{interval} · {row['games']:,} games{few}")
    ignored_filters(filters, GAME_FILTERS)


SUMMARY_COLUMNS = {
    "players": "players",
    "games": "games",
    "balance": "balance",
    "balance_low": "balance 95% low",
    "balance_high": "balance 95% high",
    "mean_victory_margin": "mean winning margin",
    "victory_margin_half_width": "margin ±",
    "close_game_share": "won by < 5 gold",
    "close_game_low": "< 5 gold 95% low",
    "close_game_high": "< 5 gold 95% high",
    "mean_plies": "plies per game",
    "plies_half_width": "plies ±",
    "decision_share": "decision moves",
    "decision_low": "decision moves 95% low",
    "decision_high": "decision moves 95% high",
}


def summary_table(summary: pl.DataFrame) -> None:
    """The whole-game figures of each player count with their intervals."""
    percent = st.column_config.NumberColumn(format="percent")
    st.dataframe(
        summary.select(list(SUMMARY_COLUMNS)).rename(SUMMARY_COLUMNS),
        hide_index=True,
        width="stretch",
        column_config={
            "won by < 5 gold": st.column_config.NumberColumn(
                format="percent", help=definitions.CLOSE_GAMES
            ),
            "< 5 gold 95% low": percent,
            "< 5 gold 95% high": percent,
            "decision moves": st.column_config.NumberColumn(
                format="percent", help=definitions.DECISION_MOVES
            ),
            "decision moves 95% low": percent,
            "decision moves 95% high": percent,
        },
    )
    st.caption(
        f"Decision moves: {definitions.DECISION_MOVES} Its interval counts each game once, as "
        "the turns of one game are not independent."
    )


RATINGS = (
    "Bradley–Terry ratings on the Elo scale, fitted from every game of two or more players: each "
    "pair of seats of two different players is one comparison (more gold wins, a tie counts a "
    "half), and the interval (95%) counts each game once, as its pairs are not independent. "
    "Agents are rated by agent name, people by player name. A group is the players linked by "
    "games; each is centred on 1500 and ratings compare only within one."
)
AGAINST_THE_FIELD = (
    "Each agent's mean win share and mean partial win (utility + 1)/2 against whatever field it "
    "met in simulated games, with 95% Wilson intervals: not a strength (an agent that met weak "
    "opponents more often scores higher); the ratings above are."
)
RATING_COLUMNS = {
    "rank": "rank",
    "player": "player",
    "kind": "kind",
    "rating": "rating",
    "half_width": "±",
    "games": "games",
}


def followed(filters: Filters, names: frozenset[str]) -> Filters:
    """Only the chosen filters a figure follows (`names`): what its caption may name."""
    return Filters(**{name: value for name, value in asdict(filters).items() if name in names})


def rating_chart(ratings: pl.DataFrame, filters: Filters) -> dict:
    """Each player's rating with its 95% interval, group by group (strongest first in each),
    each player's group number before its name when there are several."""
    name = pl.when(pl.col("kind") == "person").then(pl.format("{} (person)", "player"))
    name = name.otherwise(pl.col("player"))
    if ratings["group"].n_unique() > 1:
        name = pl.format("group {} · {}", "group", name)
    data = ratings.sort("group", "rank").with_columns(
        label=name,
        value=pl.col("rating"),
        ci_low=pl.col("rating_low"),
        ci_high=pl.col("rating_high"),
    )
    chart = interval_chart(
        data,
        "label",
        "Ratings (Bradley–Terry, every game's seat pairs)",
        "rating",
        "games",
        PRECISE_WITHIN["rating"],
        value_format=".0f",
    )
    return vega_lite_spec(captioned(chart, f"{filters.describe()} · {len(ratings)} players rated"))


def agent_ladder(
    ratings: pl.DataFrame, ladder: pl.DataFrame, head_to_head: pl.DataFrame, filters: Filters
) -> None:
    """The ratings with their intervals beside the head-to-head matrix, then each agent's
    figures against the field: all of every play level, the agents meeting at mixed tables;
    the ratings group by group (players who never met, directly or not, are not compared)."""
    chosen, filters = filters, followed(filters, RATING_FILTERS)
    left, right = st.columns(2)
    if ratings.is_empty():
        left.info("No game matching the filters seats two different players: nobody is rated.")
    else:
        left.vega_lite_chart(rating_chart(ratings, filters), width="stretch")
        left.caption(RATINGS)
        ignored_filters(chosen, RATING_FILTERS, where=left)
        groups = ratings.partition_by("group", maintain_order=True)
        for group in groups:
            if len(groups) > 1:
                left.markdown(
                    f"**Group {group['group'][0]} of {len(groups)}**: {group.height} players "
                    "linked by games, ranked among themselves"
                )
            left.dataframe(
                group.select(list(RATING_COLUMNS)).rename(RATING_COLUMNS),
                hide_index=True,
                width="stretch",
                column_config={
                    "rating": st.column_config.NumberColumn(format="%.0f"),
                    "±": st.column_config.NumberColumn(format="%.0f"),
                },
            )
    if head_to_head.is_empty():
        right.info("No game seats two different agents, so there is no head to head.")
    else:
        games = int(head_to_head["games"].sum() // 2)
        matrix = head_to_head_matrix(head_to_head, "Head to head: row agent against column agent")
        caption = f"{filters.describe()} · {games:,} games of two agents"
        right.vega_lite_chart(vega_lite_spec(captioned(matrix, caption)), width="content")
        right.caption(definitions.HEAD_TO_HEAD)
        ignored_filters(chosen, RATING_FILTERS, where=right)
    if ladder.is_empty():
        st.info("No simulated games match the filters, so no agent has figures against the field.")
        return
    st.markdown("**Against the field**")
    st.dataframe(ladder, hide_index=True, width="stretch")
    seats = int(ladder["seats"].sum())
    kept = plain(followed(filters, LADDER_FILTERS).describe())
    st.caption(f"{AGAINST_THE_FIELD} {kept} · simulated · {seats:,} seats.")
    ignored_filters(chosen, LADDER_FILTERS)


def compare_rule_sets(filters: Filters, by: str) -> None:
    """Seat advantage (grouped as under Seat advantage) and the whole-game figures of two rule
    sets, chosen in the URL."""
    sets = rule_sets()
    labels = list(sets)
    if len(labels) < 2:
        st.info(
            "The lake holds one rule set only. Simulate another edition or variant to compare, "
            "e.g. `kingdoms simulate --games 2000 --edition kingdoms-2002`."
        )
        return
    picks = st.columns(2)
    chosen = []
    for pick, key, default in zip(picks, ("rules_a", "rules_b"), labels[:2], strict=True):
        wanted = st.query_params.get(key)
        index = labels.index(wanted if wanted in labels else default)
        label = pick.selectbox(f"Rule set {key[-1].upper()}", labels, index=index, key=key)
        st.query_params[key] = label
        chosen.append(label)
    sides = [filters.with_value(*sets[label]) for label in chosen]
    side_frames = fetch_by_player_count(
        filters.players,
        [("balance_summary", side.params()) for side in sides]
        + [("seat_advantage", {**side.params(), "by": by}) for side in sides],
    )
    summaries = [
        with_balance(summary, every_count_balance(side.params()))
        for summary, side in zip(side_frames[:2], sides, strict=True)
    ]
    for column, label, side, side_summary, side_seats in zip(
        st.columns(2), chosen, sides, summaries, side_frames[2:], strict=True
    ):
        with column:
            if side_summary.is_empty():
                nothing_matches(side)
                continue
            games = int(side_summary["games"].sum())
            st.vega_lite_chart(
                seat_chart(
                    seat_frame(side_seats, by),
                    SEAT_TITLE,
                    f"{label} · {side.describe()} · {games:,} games",
                ),
                width="stretch",
            )
            summary_table(side_summary)
    comparison_report([sets[label] for label in chosen], filters)


REPORT = "balance_report"  # the last comparison report made here: what it compares, its HTML
REPORT_MOST_GAMES = 20_000  # per rule set, played while the visitor waits
REPORT_HELP = (
    "Plays the heuristic's games of each rule set (at the chosen player count, else 2 to 4 in "
    "turn) into the lake unless it holds them, some 15 to 40 s for 2 × 2,000, then "
    "writes every figure of both, the design measures too, with its difference, 95% interval "
    "and verdict as one HTML file that opens without a network."
)
REPORT_READ_ONLY = (
    "This dashboard is shared read-only: the comparison report plays games into the lake, so it "
    "is made where the lake is kept, with `kingdoms compare`."
)


def report_rules(choice: tuple[str, str], filters: Filters) -> RuleSet:
    """The rule set a choice of this section is in the comparison report: an edition's standard
    rules, or the standard rules or a variant on the sidebar's edition (else the default one)."""
    dimension, value = choice
    if dimension == "edition":
        return rule_set(value)
    return rule_set(filters.edition or DEFAULT_EDITION, "" if value == STANDARD else value)


def comparison_report(choices: list[tuple[str, str]], filters: Filters) -> None:
    """Make the two rule sets' comparison report when asked (their heuristic games played into
    the lake unless it holds them, with a progress bar), then offer it for download."""
    a, b = (report_rules(choice, filters) for choice in choices)
    if a == b:
        return
    games = st.number_input(
        "Games per rule set for the report",
        min_value=10,
        max_value=REPORT_MOST_GAMES,
        value=DEFAULT_GAMES,
        step=100,
        key="balance_report_games",
    )
    skill_games = st.number_input(
        "Skill-depth games a rung",
        min_value=0,
        max_value=REPORT_MOST_GAMES,
        value=SKILL_GAMES,
        key="balance_report_skill_games",
        help=SKILL_DEFINITION,
    )
    request = (rules_hash(a), rules_hash(b), filters.players, games, skill_games)
    allowed = writes_allowed()
    if not allowed:
        st.caption(REPORT_READ_ONLY)
    if st.button(
        f"Make the comparison report: {a.name} against {b.name}",
        key="balance_make_report",
        disabled=not allowed,
        help=REPORT_HELP if allowed else REPORT_READ_ONLY,
    ):
        bar = st.progress(0.0, text="Starting the games…")

        def progress(done: int, total: int) -> None:
            bar.progress(done / total, text=f"{done:,} of {total:,} games played, then measured")

        lake = Lake(lake_folder())  # played here, in one process: no fork of the app's server
        comparison = compare(
            a,
            b,
            lake,
            players=filters.players,
            games=games,
            workers=1,
            skill_games=skill_games,
            progress=progress,
        )
        bar.empty()
        st.session_state[REPORT] = (request, report_html(comparison))
    made = st.session_state.get(REPORT)
    if made and made[0] == request:
        st.download_button(
            "Download the comparison report",
            made[1],
            file_name="comparison.html",
            mime="text/html",
        )


def seat_advantage(filters: Filters, by: str) -> None:
    """Each seat's mean win share against the fair share, its seats grouped as chosen under
    the chart (the chart first, so that it is whole on the first screen)."""
    params = {**filters.params(), "by": by}
    (frame,) = fetch_by_player_count(filters.players, [("seat_advantage", params)])
    caption = f"{filters.describe()} · {int(frame['seats'].sum()):,} seats"
    st.vega_lite_chart(seat_chart(seat_frame(frame, by), SEAT_TITLE, caption), width="stretch")
    st.query_params["group"] = st.radio(
        "Group seats by",
        list(GROUPINGS),
        index=list(GROUPINGS).index(by),
        format_func=GROUPINGS.get,
        horizontal=True,
        key="balance_group",
        help=definitions.SEAT_ADVANTAGE,
    )
    st.caption(definitions.SEAT_ADVANTAGE)
    ignored_filters(filters, SEAT_FILTERS)


def scores_and_duration(filters: Filters, summary: pl.DataFrame) -> None:
    """Final gold and winning margins, each player count's whole-game figures, game lengths."""
    params = filters.params()
    gold, margin, duration = fetch_by_player_count(
        filters.players,
        [
            ("score_distribution", {**params, "metric": "final_gold", "bin_width": BIN_WIDTH}),
            ("score_distribution", {**params, "metric": "victory_margin", "bin_width": BIN_WIDTH}),
            ("duration", params),
        ],
    )
    left, right = st.columns(2)
    gold_chart = histogram(gold, "Final gold per seat", "final gold", BIN_WIDTH)
    gold_caption = f"{filters.describe()} · {int(gold['count'].sum()):,} seats"
    left.vega_lite_chart(vega_lite_spec(captioned(gold_chart, gold_caption)), width="stretch")
    margin_chart = histogram(margin, "Margin of victory per game", "winner's margin", BIN_WIDTH)
    margin_caption = f"{filters.describe()} · {int(margin['count'].sum()):,} winning seats"
    right.vega_lite_chart(vega_lite_spec(captioned(margin_chart, margin_caption)), width="stretch")
    ignored_filters(filters, SEAT_FILTERS)
    summary_table(summary)
    ignored_filters(filters, GAME_FILTERS)
    st.markdown(f"**Duration**: {definitions.DURATION}")
    st.dataframe(duration.drop("decision_share"), hide_index=True)
    ignored_filters(filters, GAME_FILTERS)


def lead_changes(filters: Filters, games: int) -> None:
    """How often the lead changes hands, comebacks, and how often an epoch's leader wins."""
    params = filters.params()
    leads, comebacks, leader_wins = fetch_by_player_count(
        filters.players, [("lead_changes", params), ("comebacks", params), ("leader_wins", params)]
    )
    games_caption = f"{filters.describe()} · {games:,} games"
    left, right = st.columns(2)
    left.vega_lite_chart(
        share_chart(
            leads,
            pl.format("{} players · {} changes", "players", "lead_changes"),
            "Lead changes across the epochs",
            "of_games",
            games_caption,
        ),
        width="stretch",
    )
    left.caption(definitions.LEAD_CHANGES)
    ignored_filters(filters, GAME_FILTERS, where=left)
    right.vega_lite_chart(
        share_chart(
            comebacks, pl.format("{} players", "players"), "Comebacks", "games", games_caption
        ),
        width="stretch",
    )
    right.caption(definitions.COMEBACKS)
    ignored_filters(filters, GAME_FILTERS, where=right)
    st.vega_lite_chart(
        share_chart(
            leader_wins,
            pl.format("{} players · after epoch {}", "players", "epoch"),
            "Leader after epoch k goes on to win",
            "games",
            f"{filters.describe()} · {int(leader_wins['games'].sum()):,} games × epochs "
            "with a sole leader",
        ),
        width="stretch",
    )
    st.caption(definitions.LEADER_WINS)
    ignored_filters(filters, GAME_FILTERS)


def ratings_and_ladder(filters: Filters) -> None:
    """The agent ladder, its ratings fitted while its queries run."""
    params = filters.params()
    with ThreadPoolExecutor(max_workers=1) as fitting:
        rated = fitting.submit(player_ratings, params)
        ladder, head_to_head = fetch_all(
            ("agent_ladder", params), ("head_to_head", {**params, "level": None})
        )
        ratings = rated.result()
    agent_ladder(ratings, ladder, head_to_head, filters)


# The page's sections, one tab each: only the open one runs and ships its charts, so the first
# screen (the balance and the seat advantage) comes quickly. The open one is in the URL.
SECTIONS = ["Seat advantage", "Scores and duration", "Lead changes", "Agent ladder", "Rule sets"]
HOW_TO_READ = (
    "How to read the figures: means with 95% intervals (± 1.96·SE); shares with Wilson intervals "
    "and the balance with a bootstrap over games, all within [0, 1]. A share or balance whose "
    f"interval is wider than ±{SHARE_WITHIN:g} is greyed and marked *imprecise*; a seat whose "
    "interval excludes the fair share 1/N is a diamond. A figure that does not follow one of the "
    "chosen filters says so beside it."
)


def open_section(filters: Filters, summary: pl.DataFrame, by: str) -> None:
    """The sections as tabs, drawing the open one only (the others neither run nor ship their
    charts); every one but the rule sets needs games matching the filters."""
    seats, scores, leads, ladder, rules = st.tabs(SECTIONS, key="section", bind="query-params")
    if rules.open:
        with rules:
            compare_rule_sets(filters, by)
    elif summary.is_empty():
        return
    elif seats.open:
        with seats:
            seat_advantage(filters, by)
    elif scores.open:
        with scores:
            scores_and_duration(filters, summary)
    elif leads.open:
        with leads:
            lead_changes(filters, int(summary["games"].sum()))
    elif ladder.open:
        with ladder:
            ratings_and_ladder(filters)


filters: Filters = st.session_state["filters"]
st.title("Balance")
play_level(filters)
st.caption(
    "For designers: is any seat favoured, how close are the games, do leads change hands? "
    "How to read the figures: at the foot of the page."
)

if lake_has_games():
    params = filters.params()
    by = st.session_state.get("balance_group") or url_value("group", list(GROUPINGS))
    with ThreadPoolExecutor(max_workers=1) as fitting:  # while the summary's query runs
        balanced = fitting.submit(every_count_balance, params)
        (summary,) = fetch_by_player_count(filters.players, [("balance_summary", params)])
        balance = balanced.result()
    if summary.is_empty():
        nothing_matches(filters)
    else:
        summary = with_balance(summary, balance)
        balance_cards(summary, filters)
    open_section(filters, summary, by)
    st.caption(HOW_TO_READ)
