"""The sidebar filters every page shares, kept in the URL so a view can be shared as a link."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from datetime import date

import polars as pl
import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from dashboard.lake_data import fetch, fetch_all
from dashboard.text import plain
from data.levels import (
    CELL_WITHIN,
    LEVELS,
    RECORDED,
    SEAT_WITHIN,
    Precision,
    default_level,
    precisions,
)

ALL = "All"
STANDARD = "standard"  # the variant filter's value for games without a variant
STANDARD_LABEL = "standard rules (no variant)"
# The filters a whole-game figure follows; the others describe seats or boards.
GAME_FILTERS = frozenset(
    {"edition", "variant", "players", "level", "source", "date_from", "date_to", "rules"}
)
BASELINE = "random"  # the level shown only as a labelled baseline of random play
LEVEL_HELP = (
    "How well the games were played: the weakest agent at the table (random < greedy < "
    f"heuristic < strong), or {RECORDED} for games with a person at the table. The default is "
    "the strongest level whose figures are precise enough at the other filters: every seat's "
    f"win share within ±{SEAT_WITHIN:g} and the median board cell's castle yield within "
    f"±{CELL_WITHIN:g} gold (95% intervals). The link keeps the level chosen."
)


@dataclass(frozen=True)
class Filters:
    """The chosen filters; None means "all". Turned into the named queries' parameters."""

    edition: str | None = None
    variant: str | None = None
    players: int | None = None
    level: str | None = None
    source: str | None = None
    agent: str | None = None
    player: str | None = None
    epoch: int | None = None
    date_from: str | None = None
    date_to: str | None = None
    rules: str | None = None  # a rule set's hash (engine/rules.py `rules_hash`)

    def params(self) -> dict[str, object]:
        """The `$name` parameters of the named queries."""
        return asdict(self)

    def with_value(self, dimension: str, value: str | None) -> Filters:
        """The same filters with one dimension (a field's name, e.g. "players") set from its text
        value."""
        return replace(self, **{dimension: _typed(dimension, value)})

    def describe(self) -> str:
        """A short human summary, e.g. "2 players · greedy"."""
        parts = [
            level_label(self.level),
            f"{self.players} players" if self.players else None,
            self.edition,
            "standard rules" if self.variant == "" else self.variant,
            self.source,
            f"agent {self.agent}" if self.agent else None,
            f"player {self.player}" if self.player else None,
            f"epoch {self.epoch}" if self.epoch else None,
            f"stored from {self.date_from}" if self.date_from else None,
            f"stored to {self.date_to}" if self.date_to else None,
            rule_set_label(self.rules) if self.rules else None,
        ]
        return " · ".join(p for p in parts if p)

    def ignored_by(self, followed: frozenset[str]) -> list[str]:
        """The chosen filters a figure following only `followed` leaves out, as text."""
        labels = {
            "level": level_label(self.level),
            "source": f"source {self.source}",
            "agent": f"agent {self.agent}",
            "player": f"player {self.player}",
            "epoch": f"epoch {self.epoch}",
            "rules": rule_set_label(self.rules) if self.rules else "",
        }
        chosen = {name for name, value in asdict(self).items() if value is not None}
        return [labels.get(name, name) for name in asdict(self) if name in chosen - followed]


def level_label(level: str | None) -> str:
    """A play level as the pages name it; random play is labelled as the baseline it is."""
    if level is None:
        return "every play level"
    if level == BASELINE:
        return "random play (baseline)"
    return "recorded games" if level == RECORDED else f"{level} play"


def _typed(dimension: str, value: str | None) -> str | int | None:
    if value in (None, "", ALL):
        return None
    if dimension == "variant" and value == STANDARD:
        return ""
    return int(value) if dimension in ("players", "epoch") else value


def choices() -> pl.DataFrame:
    """Every filter's possible values with their game counts (dimension, value, games)."""
    return fetch("filter_choices")


def options(choice_frame: pl.DataFrame, dimension: str) -> list[str]:
    """The values one filter can take, as text."""
    if choice_frame.is_empty():
        return []
    rows = choice_frame.filter(pl.col("dimension") == dimension)
    return [str(v) for v in rows["value"].to_list() if v not in (None, "")]


def rule_set_choices() -> pl.DataFrame:
    """The lake's rule sets with their names, boards and games (rules, name, rows, columns,
    games)."""
    return fetch("rule_set_choices")


def rule_set_label(rules: str) -> str:
    """A rule set as the pages name it: by its name in the lake, else by its hash."""
    names = rule_set_choices().select("rules", "name").rows()
    return f"rule set {dict(names).get(rules, rules)}"


def _rule_set(rule_sets: pl.DataFrame) -> str | None:
    """The Rule set select, by name, shown only when the lake holds more than one rule set."""
    if rule_sets.height < 2:
        return None
    names = {
        row["rules"]: f"{row['name']} ({row['rows']} × {row['columns']}, {row['games']:,} games)"
        for row in rule_sets.iter_rows(named=True)
    }
    return _select(
        "Rule set",
        "rules",
        list(names),
        "The rules the games followed: a shipped edition and variants, or a rule-set file.",
        lambda value: names.get(value, value),
    )


def epochs(choice_frame: pl.DataFrame) -> list[str]:
    """The epochs the lake's games played (a rule set may play more than three), in order."""
    return sorted(options(choice_frame, "epoch"), key=int)


def _select(
    label: str,
    key: str,
    values: list[str],
    help_text: str,
    label_of: Callable[[str], str] = lambda value: STANDARD_LABEL if value == STANDARD else value,
) -> str | None:
    choices_ = [ALL, *values]
    wanted = st.query_params.get(key)
    index = choices_.index(wanted) if wanted in choices_ else 0
    if wanted is not None and wanted not in choices_:
        st.sidebar.warning(f"{label} '{plain(wanted)}' (from the link) has no games: showing all.")
    chosen = st.sidebar.selectbox(
        label,
        choices_,
        index=index,
        key=f"filter_{key}",
        help=help_text,
        format_func=label_of,
    )
    return None if chosen == ALL else chosen


def _level(
    slot: DeltaGenerator, picked: dict[str, str | None], dates: tuple[str | None, str | None]
) -> str | None:
    """The play level select: the levels with games under the other filters, strongest first,
    defaulting to the strongest whose figures are precise enough; under it, why, and each
    level's precision. The choice always goes into the URL, so that a link opens on the same
    figures later."""
    others = Filters(date_from=dates[0], date_to=dates[1])
    for key, value in picked.items():
        others = others.with_value(key, value)
    breakdown, precision_rows = fetch_all(
        ("lake_breakdown", others.params()), ("level_precision", others.params())
    )
    rows = breakdown.filter(pl.col("dimension") == "level")
    games = dict(zip(rows["value"].to_list(), rows["games"].to_list(), strict=True))
    precision = precisions(precision_rows)
    default = default_level(precision)
    levels = [level for level in (*reversed(LEVELS), RECORDED) if games.get(level, 0) > 0]
    choices_ = [*levels, ALL]
    wanted = st.query_params.get("level")
    chosen = wanted if wanted in choices_ else default or ALL
    if st.session_state.get("filter_level") not in choices_:
        st.session_state.pop("filter_level", None)
    picked_level = slot.selectbox(
        "Play level",
        choices_,
        index=choices_.index(chosen),
        key="filter_level",
        help=LEVEL_HELP,
        format_func=lambda value: (
            f"{level_label(value)}: {games[value]:,} games" if value in games else "every level"
        ),
    )
    if st.query_params.get("level") != picked_level:
        st.query_params["level"] = picked_level
    slot.caption(_why_default(default, [lv for lv in levels if lv in precision], precision))
    return None if picked_level == ALL else picked_level


def _precise_word(precision: Precision) -> str:
    return "precise" if precision.precise else "imprecise"


def _within(half_width: float, number: str) -> str:
    return f"±{half_width:{number}}" if math.isfinite(half_width) else "without an interval"


def _why_default(default: str | None, levels: list[str], precision: dict[str, Precision]) -> str:
    """Why the default level is the default, and each level's widest seat and median cell
    half widths against the rule's limits."""
    if default is None:
        return ""
    rule = (
        f"every seat's win share within ±{SEAT_WITHIN:g} and the median cell's castle yield "
        f"within ±{CELL_WITHIN:g} gold"
    )
    if precision[default].precise:
        why = f"the strongest level whose figures are precise enough here ({rule})"
    else:
        why = f"no level is precise enough here ({rule}); this one comes nearest"
    widths = "  \n".join(
        f"{level_label(level)}: seats {_within(precision[level].seat, '.3f')}, "
        f"cells {_within(precision[level].cell, '.1f')} gold · {_precise_word(precision[level])}"
        for level in levels
    )
    return f"Default: **{level_label(default)}**, {why}.  \n{widths}"


def _dates(choice_frame: pl.DataFrame) -> tuple[str | None, str | None]:
    first, last = options(choice_frame, "first_date"), options(choice_frame, "last_date")
    if not first or not last:
        return None, None
    lake_first, lake_last = date.fromisoformat(first[0]), date.fromisoformat(last[0])
    wanted_from = _parse_date(st.query_params.get("from")) or lake_first
    wanted_to = _parse_date(st.query_params.get("to")) or lake_last
    picked = st.sidebar.date_input(
        "Stored between",
        value=(wanted_from, wanted_to),
        key="filter_dates",
        help="Games stored (simulated, imported or saved) in this range, both days included. "
        "The day a recorded game was played, its record's Date, is filtered on the Replay page.",
    )
    start, end = (tuple(picked) + (None, None))[:2] if isinstance(picked, tuple) else (picked, None)
    date_from = start.isoformat() if start and start != lake_first else None
    date_to = end.isoformat() if end and end != lake_last else None
    return date_from, date_to


def _parse_date(text: str | None) -> date | None:
    try:
        return date.fromisoformat(text) if text else None
    except ValueError:
        return None


def sidebar_filters() -> Filters:
    """Draw the shared filters in the sidebar (defaults from the URL) and write them back to it."""
    choice_frame = choices()
    st.sidebar.header("Filters")
    level_slot = st.sidebar.container()  # drawn first, filled once the other filters are read
    picked = {
        "rules": _rule_set(rule_set_choices()),
        "edition": _select("Edition", "edition", options(choice_frame, "edition"), "Rule set."),
        "variant": _select(
            "Variant",
            "variant",
            [STANDARD, *options(choice_frame, "variant")],
            "Rule variant; the standard rules are the games without one.",
        ),
        "players": _select("Players", "players", options(choice_frame, "players"), "Seats."),
        "source": _select(
            "Source", "source", options(choice_frame, "source"), "Recorded or simulated."
        ),
        "agent": _select("Agent", "agent", options(choice_frame, "agent"), "Seats of this agent."),
        "player": _select(
            "Player name", "player", options(choice_frame, "player"), "Seats of this player."
        ),
        "epoch": _select(
            "Epoch", "epoch", epochs(choice_frame), "Board metrics of one epoch only."
        ),
    }
    date_from, date_to = _dates(choice_frame)
    level = _level(level_slot, picked, (date_from, date_to))
    for key, value in {**picked, "from": date_from, "to": date_to}.items():
        if value is None:
            if key in st.query_params:
                del st.query_params[key]
        elif st.query_params.get(key) != value:
            st.query_params[key] = value
    filters = Filters(level=level, date_from=date_from, date_to=date_to)
    for key, value in picked.items():
        filters = filters.with_value(key, value)
    shown = plain(filters.describe())
    st.sidebar.caption(f"Showing **{shown}**. The URL keeps these filters: share it.")
    return filters
