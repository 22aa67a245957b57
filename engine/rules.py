"""Rule sets: an edition plus the official variants, or a rule-set file's changes, as one value.

Everything that differs between *Kingdoms* 2011, *Kingdoms* 2002, *Auf Heller und Pfennig*
and *Cosmolancer*, and between the variants, is read from a RuleSet, whose parameters the
shipped rule-set files give (engine/rulesets/); the state and the scoring never test an
edition's name.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from dataclasses import dataclass, field, fields
from functools import cache, cached_property
from pathlib import Path

from engine import pieces
from engine.rulefile import (
    LATER_FIRST,
    TILE_TOKENS,
    RuleFile,
    read_rule_file,
    shipped_parameters,
)

EDITIONS = ("kingdoms-2011", "kingdoms-2002", "heller-pfennig", "cosmolancer")
DEFAULT_EDITION = "kingdoms-2011"
VARIANTS = ("no-luck", "last-castle", "score-as-you-go")
PLAYER_COUNTS = tuple(range(2, pieces.MAX_SEATS + 1))
_KINGDOMS_NAMES = {
    "castle": "castle",
    "resource": "resource",
    "hazard": "hazard",
    "MT": "mountain",
    "DR": "dragon",
    "GM": "gold mine",
    "WZ": "wizard",
}
DISPLAY_NAMES = {
    "kingdoms-2011": _KINGDOMS_NAMES,
    "kingdoms-2002": _KINGDOMS_NAMES,
    "heller-pfennig": {
        "castle": "market stall",
        "resource": "customer",
        "hazard": "thief",
        "MT": "fire",
        "DR": "evil eye",
        "GM": "money bag",
        "WZ": "wizard",
    },
    "cosmolancer": {
        "castle": "imaging device",
        "resource": "photo op",
        "hazard": "hazard",
        "MT": "meteor shower",
        "DR": "black hole",
        "GM": "hyper-drive",
        "WZ": "wizard",
    },
}


class RulesError(ValueError):
    """An edition, variant or player count that the engine does not know."""


FROM_BASE = -1  # a RuleSet's number left to its edition (and variants)


@dataclass(frozen=True)
class RuleSet:
    """The parameters of one way to play: board, components, epochs and variants. A parameter
    left out (FROM_BASE, empty or None) takes the edition's value, as its rule-set file gives it,
    changed by each variant's file (engine/rulesets/; engine/rulefile.py reads them)."""

    edition: str = DEFAULT_EDITION
    variants: frozenset[str] = field(default_factory=frozenset)
    rows: int = FROM_BASE
    columns: int = FROM_BASE
    start_gold: int = FROM_BASE
    epochs: int = FROM_BASE
    gold_mine_factor: int = FROM_BASE  # what a gold mine multiplies its segment's sum by
    tiles: tuple[int, ...] = ()  # the full tile set as piece codes, one per physical tile
    castle_counts: tuple[tuple[int, tuple[int, ...]], ...] = ()  # (players, castles of rank 1..4)
    returning_ranks: tuple[int, ...] | None = None  # castle ranks back to their owner each epoch
    name: str = field(default="", compare=False)  # shown to people; no part of the rules

    def __post_init__(self) -> None:
        if self.edition not in EDITIONS:
            raise RulesError(
                f"unknown edition '{self.edition}' (choose from {', '.join(EDITIONS)})"
            )
        unknown = sorted(set(self.variants) - set(VARIANTS))
        if unknown:
            raise RulesError(f"unknown variant '{unknown[0]}' (choose from {', '.join(VARIANTS)})")
        base = _base(self.edition, frozenset(self.variants))
        for part in fields(self):
            if part.name in base and getattr(self, part.name) == part.default:
                object.__setattr__(self, part.name, base[part.name])

    def __hash__(self) -> int:  # kept by @dataclass: games are looked up by their rules often
        return self._hash

    @cached_property
    def _hash(self) -> int:
        return hash(tuple(getattr(self, f.name) for f in fields(self) if f.compare))

    @property
    def cells(self) -> int:
        return self.rows * self.columns

    @property
    def has_wizard(self) -> bool:
        return pieces.WIZARD in self.tiles

    @property
    def no_luck(self) -> bool:
        return "no-luck" in self.variants

    @property
    def last_castle(self) -> bool:
        return "last-castle" in self.variants

    @property
    def score_as_you_go(self) -> bool:
        return "score-as-you-go" in self.variants

    @property
    def starting_tiles(self) -> bool:
        return not self.no_luck

    @property
    def display_names(self) -> dict[str, str]:
        return DISPLAY_NAMES[self.edition]

    def castles(self, players: int) -> tuple[int, ...]:
        """How many castles of rank 1..4 each player takes."""
        check_players(players)
        return dict(self.castle_counts)[players]

    def variant_text(self) -> str:
        """The variants in canonical order, comma-separated ('' for none)."""
        return ",".join(v for v in VARIANTS if v in self.variants)


@cache
def _base(edition: str, variants: frozenset[str]) -> dict[str, object]:
    """The edition's parameters from its shipped rule-set file, then each variant's changes
    (one dict per edition and variants: read, never written)."""
    parameters = shipped_parameters(edition)
    parameters["name"] = ", ".join(
        [str(parameters["name"]), *(v for v in VARIANTS if v in variants)]
    )
    for variant in VARIANTS:
        if variant in variants:
            changes = shipped_parameters(f"variants/{variant}")
            parameters.update((k, v) for k, v in changes.items() if k in _VARIANT_CHANGES)
    return parameters


_VARIANT_CHANGES = frozenset(
    {"rows", "columns", "start_gold", "epochs", "tiles", "castle_counts", "returning_ranks"}
)  # what a variant's file may change in the edition it is played with


def check_players(players: int) -> None:
    if players not in PLAYER_COUNTS:
        raise RulesError(
            f"player count must be {PLAYER_COUNTS[0]} to {PLAYER_COUNTS[-1]}, not {players}"
        )


def parse_variants(text: str | None) -> frozenset[str]:
    """Variants from a comma-separated list ('' or None for none)."""
    if not text:
        return frozenset()
    return frozenset(part.strip() for part in text.split(",") if part.strip())


def rule_set(edition: str = DEFAULT_EDITION, variants: str | None = None) -> RuleSet:
    return RuleSet(edition=edition, variants=parse_variants(variants))


def is_shipped(rules: RuleSet) -> bool:
    """Whether the rules are an edition with official variants, as shipped (no file's changes)."""
    return rules == rule_set(rules.edition, rules.variant_text())


def load_rules(path: str | Path) -> RuleSet:
    """The rule set a rule-set file describes: its base edition and variants, changed as it
    says; or RuleFileError with `file:line:col: what is wrong`."""
    return rules_from_text(read_rule_file(path), str(path))


def rules_from_text(text: str, origin: str = "<text>") -> RuleSet:
    """The rule set a rule-set text describes (as `load_rules` reads a file); errors say
    `origin:line:col: what is wrong`."""
    document = RuleFile(text, origin)
    given = document.parameters()
    if "base" not in given:
        editions = ", ".join(f"'{edition}'" for edition in EDITIONS)
        raise document.error(
            (), f"say which edition the rules start from: base = one of {editions}"
        )
    edition = given.pop("base")
    variants = given.pop("variants", frozenset())
    base = RuleSet(edition=edition, variants=variants)
    tiles = dict(Counter(base.tiles)) | given.pop("tile_counts", {})
    castles = dict(base.castle_counts) | given.pop("castle_counts", {})
    if not any(tiles.values()):
        raise document.error(("tiles",), "a rule set needs at least one tile")
    rules = RuleSet(
        edition=edition,
        variants=variants,
        tiles=tuple(sorted(Counter(tiles).elements())),
        castle_counts=tuple(sorted(castles.items())),
        **given,
    )
    each = {players: sum(rules.castles(players)) for players in PLAYER_COUNTS}
    document.check_playable(rules.rows, rules.columns, len(rules.tiles), each)
    return rules


def rule_text(rules: RuleSet) -> str:
    """The rule set as a complete rule-set file: every key, in the order rule files use, that
    `rules_from_text` reads back to an equal rule set."""
    return f"name = {_toml_string(rules.name)}\n{_rules_body(rules)}"


@cache
def rules_hash(rules: RuleSet) -> str:
    """A short hash of what the rules are (their canonical text without the display name), so
    renaming a rule set keeps its identity."""
    return hashlib.sha256(_rules_body(rules).encode()).hexdigest()[:12]


@cache
def _rules_body(rules: RuleSet) -> str:
    """Every key of the canonical text after the name."""
    variants = ", ".join(_toml_string(v) for v in VARIANTS if v in rules.variants)
    counts = Counter(rules.tiles)
    lines = [
        f"base = {_toml_string(rules.edition)}",
        f"variants = [{variants}]",
        f"rows = {rules.rows}",
        f"columns = {rules.columns}",
        f"start_gold = {rules.start_gold}",
        f"epochs = {rules.epochs}",
        f"returning_ranks = [{', '.join(map(str, rules.returning_ranks or ()))}]",
        f"later_first = {_toml_string(LATER_FIRST[0])}",
        "",
        "[tiles]",
        *(f"{_toml_key(token)} = {counts[code]}" for token, code in TILE_TOKENS.items()),
        "",
        "[castles]",
        *(
            f"{players} = [{', '.join(map(str, rules.castles(players)))}]"
            for players in PLAYER_COUNTS
        ),
        "",
        "[gold_mine]",
        f"factor = {rules.gold_mine_factor}",
    ]
    return "\n".join(lines) + "\n"


def _toml_string(text: str) -> str:
    """A TOML basic string (JSON's escapes, and DEL escaped as TOML asks)."""
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def _toml_key(token: str) -> str:
    return token if re.fullmatch(r"[A-Za-z_]+", token) else _toml_string(token)
