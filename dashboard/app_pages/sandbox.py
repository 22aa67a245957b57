"""Sandbox: a designer's "what if". Start from a shipped rule set, change it in a form or as
rule-set text (the two kept in step), each change checked by the engine's own reading of a
rule-set file, and see what it changes in the base.

The form writes the whole text (the engine's canonical one); a text the engine reads puts its
values in the form; a text it refuses keeps the form as it was and shows the refusal's
`line:col`. The editor is a fragment, so a change reruns it and not the sidebar.
"""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from dashboard.sandbox_rules import (
    WHOLE_FIELDS,
    NoTilesError,
    castle_field,
    check,
    differences,
    file_name,
    form_text,
    form_values,
    tile_field,
)
from dashboard.text import plain
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
from engine.rules import DEFAULT_EDITION, EDITIONS, VARIANTS, RuleSet

TEXT = "sandbox_text"
EDITED = "sandbox_edited"  # the last rule set the engine read from the text
BOUNDS = {  # each whole-number field's label and range, the engine's own limits
    "rows": ("Rows", SIDES.start, SIDES.stop - 1),
    "columns": ("Columns", SIDES.start, SIDES.stop - 1),
    "start_gold": ("Start gold", 0, MOST_GOLD),
    "epochs": ("Epochs", 1, MOST_EPOCHS),
    "gold_mine_factor": ("Gold mine ×", 0, MOST_FACTOR),
}
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


def number(field: str, label: str, low: int, high: int, where=st) -> None:
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
            number(field, *BOUNDS[field], where=column)
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
                number(tile_field(token), token, 0, most, where=column)
    with castles:
        st.caption("Castles of each rank that each player takes, by player count.")
        for players in PLAYER_COUNTS:
            row = st.columns(len(pieces.CASTLE_RANKS))
            for column, rank in zip(row, pieces.CASTLE_RANKS, strict=True):
                label = f"{players} players · rank {rank}"
                number(castle_field(players, rank), label, 0, MOST_CASTLES, where=column)
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
    changed = differences(base, rules)
    if not changed:
        st.info(f"Nothing yet: the rules are {plain(base.name)}'s. Change the form or the text.")
        return
    columns = ("setting (as in the file)", f"base: {base.name}", f"yours: {rules.name}")
    rows = [dict(zip(columns, (d.key, d.base, d.edited), strict=True)) for d in changed]
    st.dataframe(rows, hide_index=True)


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
    if rules is not None:
        changes_from_base(base_rules(), rules)


st.title("Sandbox")
st.caption(
    "For designers: what if the gold mine tripled, or the board were 6 × 6? Start from a rule "
    "set, change it in the form or as text (the two stay in step, every change checked by the "
    "engine), and see what it changes."
)
sandbox()
