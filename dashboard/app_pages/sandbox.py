"""Sandbox: a designer's "what if". Start from a shipped rule set, change it in a form or as
rule-set text (the two kept in step), each change checked by the engine's own reading of a
rule-set file, see what it changes in the base, and compare the two over games kept in the lake.

The form writes the whole text (the engine's canonical one); a text the engine reads puts its
values in the form; a text it refuses keeps the form as it was and shows the refusal's
`line:col`. The editor is a fragment, so a change reruns it and not the sidebar.
"""

from __future__ import annotations

import shlex
from dataclasses import replace

import polars as pl
import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from dashboard.access import writes_allowed
from dashboard.sandbox_charts import difference_chart
from dashboard.sandbox_rules import (
    WHOLE_FIELDS,
    NoTilesError,
    castle_field,
    check,
    file_name,
    form_text,
    form_values,
    tile_field,
)
from dashboard.text import plain
from data.compare import (
    DEFAULT_AGENTS,
    DEFAULT_GAMES,
    DIFFERENCE_INTERVAL,
    REAL,
    SHARE,
    SKILL_DEFINITION,
    SKILL_GAMES,
    VERDICT_RULE,
    Comparison,
    compare,
    parameter_differences,
    shipped_name,
)
from data.lake import Lake, LakeError, lake_path
from data.levels import LEVELS
from data.report import UNIT_TITLES, report_html
from data.simulate import PlanError
from engine import pieces
from engine.rulefile import (
    MOST_CASTLES,
    MOST_COPIES,
    MOST_EPOCHS,
    MOST_FACTOR,
    MOST_GOLD,
    PLAYER_COUNTS,
    SIDES,
    TILE_TOKENS,
)
from engine.rules import DEFAULT_EDITION, EDITIONS, VARIANTS, RuleSet, rules_hash

TEXT = "sandbox_text"
EDITED = "sandbox_edited"  # the last rule set the engine read from the text
BOUNDS = {  # each whole-number field's label and range, the engine's own limits
    "rows": ("Rows", SIDES.start, SIDES.stop - 1),
    "columns": ("Columns", SIDES.start, SIDES.stop - 1),
    "start_gold": ("Start gold", 0, MOST_GOLD),
    "epochs": ("Epochs", 1, MOST_EPOCHS),
    "gold_mine_factor": ("Gold mine ×", 0, MOST_FACTOR),
}
COMPARED = "sandbox_compared"  # the last comparison: its request, the Comparison, its report
DEFAULT_PLAYERS = 3  # the middle of 2–4; every count is one click away
MOST_GAMES = 20_000  # per rule set: a few minutes (2 × 2,000 heuristic games: about 15 s)
TILE_ROWS = (tuple(TILE_TOKENS)[:6], tuple(TILE_TOKENS)[6:12], tuple(TILE_TOKENS)[12:])


def widget(field: str) -> str:
    return f"sandbox_{field}"


def base_rules() -> RuleSet:
    """The shipped rule set chosen under "Start from"."""
    edition = st.session_state.get(widget("edition"), DEFAULT_EDITION)
    variants = st.session_state.get(widget("variants"), [])
    return RuleSet(edition=edition, variants=frozenset(variants))


def show_in_form(rules: RuleSet) -> None:
    for field, value in form_values(rules).items():
        st.session_state[widget(field)] = value


def start_over() -> None:
    """Start the edit from the chosen base: its text, renamed, and its values in the form."""
    base = base_rules()
    edited = replace(base, name=f"{base.name} (edited)")
    st.session_state[EDITED] = edited
    st.session_state[TEXT] = form_text(form_values(edited), edited)
    show_in_form(edited)


def from_form() -> None:
    """A form field changed: the text becomes the form's rule set."""
    values = {field: st.session_state[widget(field)] for field in form_values(base_rules())}
    try:
        st.session_state[TEXT] = form_text(values, st.session_state[EDITED])
    except NoTilesError as refusal:
        show_in_form(st.session_state[EDITED])
        st.session_state["sandbox_form_refused"] = f"The form was not changed: {refusal}."


def from_text() -> None:
    """The text changed: what the engine reads from it goes into the form."""
    checked = check(st.session_state[TEXT] or "")
    if checked.rules is not None:
        st.session_state[EDITED] = checked.rules
        show_in_form(checked.rules)


def number(where: DeltaGenerator, field: str, label: str, low: int, high: int) -> None:
    where.number_input(
        label, min_value=low, max_value=high, step=1, key=widget(field), on_change=from_form
    )


def base_picker() -> None:
    edition, variants, reset = st.columns([2, 3, 1], vertical_alignment="bottom")
    edition.selectbox("Start from", EDITIONS, key=widget("edition"), on_change=start_over)
    variants.multiselect(
        "with the variants", VARIANTS, key=widget("variants"), on_change=start_over
    )
    reset.button("Start over", key="sandbox_reset", on_click=start_over, width="stretch")


def rules_form() -> None:
    """Every value a designer may change, each written into the text as it changes."""
    st.text_input("Name", key=widget("name"), on_change=from_form)
    board, tiles, castles = st.tabs(["Board, gold and epochs", "Tiles", "Castles"])
    with board:
        columns = st.columns(len(WHOLE_FIELDS))
        for column, field in zip(columns, WHOLE_FIELDS, strict=True):
            number(column, field, *BOUNDS[field])
        st.caption("Gold mine ×: what a gold mine multiplies its segment's sum by.")
        st.multiselect(
            "Castle ranks that come back to their owner after an epoch",
            list(pieces.CASTLE_RANKS),
            key=widget("returning_ranks"),
            on_change=from_form,
        )
    with tiles:
        st.caption("Copies of each tile kind in the set (at most one wizard).")
        for row in TILE_ROWS:
            for column, token in zip(st.columns(6), row, strict=False):
                most = 1 if TILE_TOKENS[token] == pieces.WIZARD else MOST_COPIES
                number(column, tile_field(token), token, 0, most)
    with castles:
        st.caption("Castles of each rank that each player takes, by player count.")
        for players in PLAYER_COUNTS:
            row = st.columns(len(pieces.CASTLE_RANKS))
            for column, rank in zip(row, pieces.CASTLE_RANKS, strict=True):
                label = f"{players} players · rank {rank}"
                number(column, castle_field(players, rank), label, 0, MOST_CASTLES)
    refused = st.session_state.pop("sandbox_form_refused", None)
    if refused:
        st.warning(refused)


def text_editor() -> RuleSet | None:
    """The engine's verdict on the rule-set text, then the text; the rule set it describes."""
    checked = check(st.session_state[TEXT] or "")
    if checked.error:
        st.error(plain(checked.error))
    else:
        took = f"checked in {checked.seconds * 1000:.1f} ms"
        st.success(f"The engine reads a playable rule set ({took}).")
    st.text_area(
        "As rule-set text (TOML)",
        key=TEXT,
        height=360,
        on_change=from_text,
        help="The rule-set file format of `--rules FILE.toml` (docs/rulesets.md). Press "
        "Ctrl+Enter or leave the box to check it.",
    )
    rules = checked.rules
    st.download_button(
        "Download the rule set (.toml)",
        data=st.session_state[TEXT] or "",
        file_name=file_name(rules) if rules else "rules.toml",
        mime="application/toml",
        key="sandbox_download_rules",
        disabled=rules is None,
        help="For `kingdoms simulate --rules FILE`." if rules else "Fix the text first.",
    )
    return rules


def changes_from_base(base: RuleSet, rules: RuleSet) -> None:
    st.subheader("What differs from the base")
    changed = parameter_differences(base, rules)
    if not changed:
        st.info(f"Nothing yet: the rules are {plain(base.name)}'s. Change the form or the text.")
        return
    columns = ("setting (as in the file)", f"base: {base.name}", f"yours: {rules.name}")
    rows = [dict(zip(columns, row, strict=True)) for row in changed]
    st.dataframe(rows, hide_index=True)


def comparison_request(base: RuleSet, rules: RuleSet) -> tuple[object, ...]:
    """What a comparison is of: both rule sets (by hash), the player count, games, agents and
    skill depth's games a rung."""
    players = st.session_state.get("sandbox_players", DEFAULT_PLAYERS)
    games = st.session_state.get("sandbox_games", DEFAULT_GAMES)
    agents = tuple(st.session_state.get("sandbox_agents", DEFAULT_AGENTS))
    skill_games = st.session_state.get("sandbox_skill_games", SKILL_GAMES)
    return rules_hash(base), rules_hash(rules), players, games, agents, skill_games


def compare_command(base: RuleSet, rules: RuleSet) -> str:
    """The command line that makes this comparison where the lake is kept."""
    _, _, players, games, agents, skill_games = comparison_request(base, rules)
    return shlex.join(
        [
            "kingdoms",
            "compare",
            "--rules",
            shipped_name(base) or "base.toml",
            "--rules",
            file_name(rules),
            "--players",
            str(players),
            "--games",
            str(games),
            "--agents",
            ",".join(agents),
            "--skill-games",
            str(skill_games),
            "--out",
            "report.html",
        ]
    )


def run_comparison(base: RuleSet, rules: RuleSet) -> None:
    """Play the games the lake lacks, with a progress bar, and keep the comparison and its
    report for the page to show."""
    request = comparison_request(base, rules)
    _, _, players, games, agents, skill_games = request
    bar = st.progress(0.0, text="Starting…")

    def progress(done: int, total: int) -> None:
        bar.progress(
            done / total,
            text=f"{done / total:.0%}: each rule set's games played (or found in the lake), "
            "then measured",
        )

    try:
        comparison = compare(
            base,
            rules,
            Lake(lake_path()),
            players=players,
            games=games,
            agents=agents,
            workers=1,  # in this process: a pool forked from the server's threads may crash
            skill_games=skill_games,
            progress=progress,
        )
    except (PlanError, LakeError) as refusal:
        bar.empty()
        st.error(plain(refusal))
        return
    bar.progress(1.0, text="Writing the report…")
    st.session_state[COMPARED] = (request, comparison, report_html(comparison))
    bar.empty()


def comparison_settings() -> None:
    players, games, agents, skill = st.columns([2, 2, 3, 2])
    players.segmented_control(
        "Players", PLAYER_COUNTS, default=DEFAULT_PLAYERS, key="sandbox_players", required=True
    )
    games.number_input(
        "Games per rule set",
        min_value=10,
        max_value=MOST_GAMES,
        value=DEFAULT_GAMES,
        step=100,
        key="sandbox_games",
        help="Games the lake already holds (same rules, agents and seed) are reused.",
    )
    agents.multiselect(
        "Agents, rotated over the seats",
        LEVELS,
        default=DEFAULT_AGENTS,
        key="sandbox_agents",
        help="The heuristic is the fastest agent that plays well; `strong` is a search, about "
        "20 ms a move.",
    )
    skill.number_input(
        "Skill-depth games a rung",
        min_value=0,
        max_value=MOST_GAMES,
        value=SKILL_GAMES,
        key="sandbox_skill_games",
        help=f"Skill depth: {SKILL_DEFINITION}. 0: none.",
    )


def shown(value: float | None, unit: str, signed: bool = False) -> str:
    """A figure as the table shows it: shares to 3 decimals, other units (gold, plies) to 2."""
    if value is None:
        return "—"
    digits = 3 if unit == SHARE else 2
    return f"{value:+.{digits}f}" if signed else f"{value:.{digits}f}"


def with_interval(
    value: float | None, low: float | None, high: float | None, unit: str, signed: bool = False
) -> str:
    """A figure and its 95% interval: `0.333 (0.293 to 0.375)`."""
    ends = f"{shown(low, unit, signed)} to {shown(high, unit, signed)}"
    return f"{shown(value, unit, signed)} ({ends})"


def comparison_table(comparison: Comparison) -> None:
    """Every figure: the difference yours − base with its interval and verdict, then each side
    with its interval, and the games behind each side."""
    rows = [
        {
            "figure": row["figure"],
            "yours − base": with_interval(
                row["difference"], row["difference_low"], row["difference_high"], row["unit"], True
            ),
            "verdict": row["verdict"],
            "base": with_interval(row["value_a"], row["low_a"], row["high_a"], row["unit"]),
            "yours": with_interval(row["value_b"], row["low_b"], row["high_b"], row["unit"]),
            "games": f"{row['games_a']:,} · {row['games_b']:,}",
        }
        for row in comparison.figures.iter_rows(named=True)
    ]
    st.dataframe(
        rows,
        hide_index=True,
        width="stretch",
        key="sandbox_figures",
        column_config={
            "yours − base": st.column_config.TextColumn(help="The difference (its 95% interval)"),
            "base": st.column_config.TextColumn(help="The base's figure (its 95% interval)"),
            "yours": st.column_config.TextColumn(help="Your rules' figure (its 95% interval)"),
            "games": st.column_config.TextColumn(help="The games behind it: the base's · yours"),
        },
    )


def comparison_view(comparison: Comparison, report: str) -> None:
    """The comparison: what stands behind it, the verdicts, the table, the charts, the report."""
    figures = comparison.figures
    balance = figures.filter(pl.col("figure") == "balance")
    games_a, games_b = int(balance["games_a"].sum()), int(balance["games_b"].sum())
    real = comparison.verdicts().get(REAL, 0)
    st.markdown(
        f"**{real} of {len(figures)} figures** differ for real at "
        f"{comparison.players[0]} players: {games_a:,} games of the base and {games_b:,} of "
        f"yours, agents {plain(', '.join(comparison.agents))} ({plain(comparison.level)} play)."
    )
    new = comparison.simulated
    st.caption(
        f"{new:,} games played now, {games_a + games_b - new:,} found in the lake; the "
        f"sidebar's filters do not apply here. B is yours, A the base. {VERDICT_RULE} "
        f"{DIFFERENCE_INTERVAL}"
    )
    comparison_table(comparison)
    sides = f"{comparison.players[0]} players · {games_a:,} games of the base, {games_b:,} of yours"
    for unit in figures["unit"].unique(maintain_order=True):
        title = f"Yours − base in {UNIT_TITLES.get(unit, unit)}, against 0"
        chart = difference_chart(figures.filter(pl.col("unit") == unit), title, sides)
        st.vega_lite_chart(chart, width="stretch")
    st.download_button(
        "Download the report (.html)",
        data=report,
        file_name=file_name(comparison.b).removesuffix(".toml") + "-against-the-base.html",
        mime="text/html",
        key="sandbox_download_report",
        help="One self-contained HTML file: the differences, every figure with its interval, "
        "the verdicts, the games and agents, and the command that remakes it.",
    )


def why_not_compare(base: RuleSet, rules: RuleSet | None, allowed: bool) -> str | None:
    """Why the comparison cannot be made now (None: it can)."""
    if rules is None:
        return "Fix the text first."
    if rules == base:
        return "Change something first: the rules are the base's."
    if not st.session_state.get("sandbox_agents"):
        return "Choose at least one agent."
    if not allowed:
        return "This dashboard is read-only."
    return None


def compare_with_base(base: RuleSet, rules: RuleSet | None) -> None:
    """Settings, the button (off while the rules are refused or unchanged, and on a read-only
    dashboard, which must not write games), and the comparison of these settings if made."""
    st.subheader("Compare with the base")
    comparison_settings()
    allowed = writes_allowed()
    why_not = why_not_compare(base, rules, allowed)
    if rules is not None and not allowed:
        st.info(
            "This dashboard is shared read-only: a comparison plays games into the lake, so it "
            "is off here. Where the lake is kept, download the rule set and run "
            f"`{compare_command(base, rules)}`."
        )
    clicked = st.button(
        "Compare with the base",
        type="primary",
        key="sandbox_compare",
        disabled=why_not is not None,
        help=why_not or "Play the games the lake lacks, then compare every Balance figure.",
    )
    if clicked and rules is not None and why_not is None:  # not on a crafted request either
        run_comparison(base, rules)
    made = st.session_state.get(COMPARED)
    if rules is None or made is None:
        return
    request, done, report = made
    if request == comparison_request(base, rules):
        comparison_view(done, report)
    else:
        st.caption("The last comparison was of other rules or settings: compare again.")


@st.fragment
def sandbox() -> None:
    if TEXT not in st.session_state:
        start_over()
    base_picker()
    form_column, text_column = st.columns([3, 2])
    with form_column:
        rules_form()
    with text_column:
        rules = text_editor()
    base = base_rules()
    if rules is not None:
        changes_from_base(base, rules)
    compare_with_base(base, rules)


st.title("Sandbox")
st.caption(
    "For designers: what if the gold mine tripled, or the board were 6 × 6? Start from a rule "
    "set, change it in the form or as text (the two stay in step, every change checked by the "
    "engine), and see what it changes."
)
sandbox()
