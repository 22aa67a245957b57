"""The Sandbox's rule set being edited, without Streamlit: the form's fields of a rule set, the
text the form's values write, and the engine's check of a text."""

from __future__ import annotations

import re
import time
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine import pieces
from engine.rulefile import PLAYER_COUNTS, TILE_TOKENS, RuleFileError
from engine.rules import RuleSet, rule_text, rules_from_text

ORIGIN = "rules.toml"  # what the check's messages call the text: `rules.toml:LINE:COL: …`
WHOLE_FIELDS = ("rows", "columns", "start_gold", "epochs", "gold_mine_factor")


def tile_field(token: str) -> str:
    return f"tile {token}"


def castle_field(players: int, rank: int) -> str:
    return f"castles {players} {rank}"


def form_values(rules: RuleSet) -> dict[str, object]:
    """The form's fields of a rule set: name, whole numbers, returning ranks, a count per tile
    kind, and the castles of each rank at each player count."""
    counts = Counter(rules.tiles)
    values: dict[str, object] = {"name": rules.name}
    values |= {field: getattr(rules, field) for field in WHOLE_FIELDS}
    values["returning_ranks"] = list(rules.returning_ranks or ())
    values |= {tile_field(token): counts[code] for token, code in TILE_TOKENS.items()}
    for players in PLAYER_COUNTS:
        for rank, count in zip(pieces.CASTLE_RANKS, rules.castles(players), strict=True):
            values[castle_field(players, rank)] = count
    return values


class NoTilesError(ValueError):
    """Form values with no tile at all, which a RuleSet cannot hold (it would take its base's)."""


def form_text(values: Mapping[str, Any], edited: RuleSet) -> str:
    """The complete rule-set text of `edited` (its edition and variants) with the form's values."""
    counts = Counter({code: values[tile_field(token)] for token, code in TILE_TOKENS.items()})
    if not any(counts.values()):
        raise NoTilesError("every tile count is 0: a rule set needs at least one tile")
    castles = tuple(
        (players, tuple(values[castle_field(players, rank)] for rank in pieces.CASTLE_RANKS))
        for players in PLAYER_COUNTS
    )
    rules = RuleSet(
        edition=edited.edition,
        variants=edited.variants,
        tiles=tuple(sorted(counts.elements())),
        castle_counts=castles,
        returning_ranks=tuple(sorted(values["returning_ranks"])),
        name=str(values["name"]),
        **{field: values[field] for field in WHOLE_FIELDS},
    )
    return rule_text(rules)


@dataclass(frozen=True)
class Check:
    """The engine's reading of a text: the rule set, or its one-line refusal; and how long the
    reading took."""

    rules: RuleSet | None
    error: str | None
    seconds: float


def check(text: str) -> Check:
    """Read `text` as a rule-set file, exactly as the engine reads one."""
    started = time.perf_counter()
    try:
        rules, error = rules_from_text(text, ORIGIN), None
    except RuleFileError as refusal:
        rules, error = None, str(refusal)
    return Check(rules, error, time.perf_counter() - started)


def file_name(rules: RuleSet) -> str:
    """A file name for the rule set's text, from its name: `six-by-six.toml`."""
    return (re.sub(r"[^a-z0-9]+", "-", rules.name.lower()).strip("-") or "rules") + ".toml"
