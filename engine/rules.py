"""Rule sets: an edition plus the official variants, as one value.

Everything that differs between *Kingdoms* 2011, *Kingdoms* 2002, *Auf Heller und Pfennig*
and *Cosmolancer*, and between the variants, is read from a RuleSet; the state and the
scoring never test an edition's name.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from functools import cached_property

from engine import pieces

EDITIONS = ("kingdoms-2011", "kingdoms-2002", "heller-pfennig", "cosmolancer")
DEFAULT_EDITION = "kingdoms-2011"
VARIANTS = ("no-luck", "last-castle", "score-as-you-go")
PLAYER_COUNTS = tuple(range(2, pieces.MAX_SEATS + 1))
WIZARD_EDITIONS = ("kingdoms-2011",)  # the editions whose tile set holds the wizard

_VALUE_TILES = tuple(
    code for value in range(1, 7) for code in (pieces.resource(value),) * 2
) + tuple(pieces.hazard(value) for value in range(1, 7))
_TILES_WITHOUT_WIZARD = _VALUE_TILES + (
    pieces.MOUNTAIN,
    pieces.MOUNTAIN,
    pieces.DRAGON,
    pieces.GOLD_MINE,
)

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


@dataclass(frozen=True)
class RuleSet:
    """The parameters of one way to play: board, components, epochs and variants."""

    edition: str = DEFAULT_EDITION
    variants: frozenset[str] = field(default_factory=frozenset)
    rows: int = 5
    columns: int = 6
    start_gold: int = 50
    epochs: int = 3

    def __post_init__(self) -> None:
        if self.edition not in EDITIONS:
            raise RulesError(
                f"unknown edition '{self.edition}' (choose from {', '.join(EDITIONS)})"
            )
        unknown = sorted(set(self.variants) - set(VARIANTS))
        if unknown:
            raise RulesError(f"unknown variant '{unknown[0]}' (choose from {', '.join(VARIANTS)})")

    def __hash__(self) -> int:  # kept by @dataclass: games are looked up by their rules often
        return self._hash

    @cached_property
    def _hash(self) -> int:
        return hash(tuple(getattr(self, f.name) for f in fields(self)))

    @property
    def cells(self) -> int:
        return self.rows * self.columns

    @property
    def has_wizard(self) -> bool:
        return self.edition in WIZARD_EDITIONS

    @cached_property
    def tiles(self) -> tuple[int, ...]:
        """The full tile set as piece codes, one entry per physical tile."""
        extra = (pieces.WIZARD,) if self.has_wizard else ()
        return _TILES_WITHOUT_WIZARD + extra

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

    def castles(self, players: int) -> tuple[int, int, int, int]:
        """How many castles of rank 1..4 each player takes."""
        check_players(players)
        if self.last_castle:
            return (4, 3, 2, 1)
        return ({2: 4, 3: 3, 4: 2}[players], 3, 2, 1)

    def variant_text(self) -> str:
        """The variants in canonical order, comma-separated ('' for none)."""
        return ",".join(v for v in VARIANTS if v in self.variants)


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
