"""Scoring: the worked checks of the rules spec, and the laws scoring must obey, for the product's
scoring (the kernel's, through engine/scoring.py) and the readable reference alike."""

from types import ModuleType

import pytest
from hypothesis import given, settings

from engine import pieces
from engine import scoring as kernel_scoring
from engine.geometry import geometry
from engine.notation import parse_board
from engine.rules import RuleSet
from tests.engine.boards import NOTATION_EXAMPLE, board, random_boards
from tests.engine.reference import scoring as reference_scoring
from tests.engine.reference.scoring import segment_base

GEO = geometry()
RULES = RuleSet()
both = pytest.mark.parametrize(
    "scoring", [kernel_scoring, reference_scoring], ids=["kernel", "reference"]
)

# The worked checks of the rules spec ("Worked checks"), numbered as there; the gold is A's gain.
WORKED_CHECKS = [
    ("1", board("A1 +5 . . . ."), 5),
    ("2 dragon in the row", board("A1 +5 DR . . ."), 0),
    ("2 dragon elsewhere", board("A1 +5 . . . .", ". DR . . . ."), 5),
    ("3 mountain cuts", board("A1 MT +6 . . ."), 0),
    ("4 gold mine in the row", board("A1 +5 GM . . ."), 10),
    ("4 gold mine elsewhere", board("A1 +5 . . . .", ". GM . . . ."), 5),
    ("5 gold mine doubles hazards", board("A1 -5 GM . . ."), -10),
    ("5 dragon spares hazards", board("A1 -5 GM DR . ."), -10),
    ("6 wizard adds a rank", board("A1 WZ +6 . . ."), 12),
    ("7 mountain shields from the dragon", board("DR +4 MT +5 A3 ."), 15),
    ("8 net -4 row, rank-3 castle", board("A3 -6 +2 . . ."), -12),
    ("8 dragon and gold mine with hazards", board("DR GM -1 -3 +6 A1"), -8),
]


@both
@pytest.mark.parametrize(("name", "text", "gold"), WORKED_CHECKS, ids=[c[0] for c in WORKED_CHECKS])
def test_worked_checks(scoring: ModuleType, name: str, text: str, gold: int) -> None:
    assert scoring.score_gold(parse_board(text, RULES), 2, GEO)[0] == gold


def test_faq_column_base_with_dragon_and_gold_mine() -> None:
    """Rules spec check 8: DR + GM in one column with -1, -3, +6 has base (-1 -3) x 2 = -8."""
    cells = [
        pieces.DRAGON,
        pieces.GOLD_MINE,
        pieces.hazard(1),
        pieces.hazard(3),
        pieces.resource(6),
    ]
    assert segment_base(cells, range(5)) == -8


@both
def test_notation_example_board(scoring: ModuleType) -> None:
    """The board string of the notation spec; its --json example shows A 44, B 3, C 53."""
    text = NOTATION_EXAMPLE
    assert scoring.score_gold(parse_board(text, RULES), 3, GEO) == [44, 3, 53]


@both
def test_breakdown_agrees_with_fast_scoring(scoring: ModuleType) -> None:
    text = NOTATION_EXAMPLE
    cells = parse_board(text, RULES)
    breakdown = scoring.score_breakdown(cells, 3, GEO)
    assert list(breakdown.gold) == scoring.score_gold(cells, 3, GEO)
    per_seat = [0, 0, 0]
    for castle in breakdown.castles:
        per_seat[castle.seat] += castle.gold
    assert per_seat == list(breakdown.gold)


# ---------------------------------------------------------------- laws (Hypothesis)


boards = random_boards(players=3)


@both
@settings(max_examples=300, deadline=None)
@given(boards)
def test_mirroring_left_right_keeps_everyones_gold(scoring: ModuleType, cells: list[int]) -> None:
    mirrored = [cells[GEO.mirrored(cell)] for cell in range(30)]
    assert scoring.score_gold(mirrored, 3, GEO) == scoring.score_gold(cells, 3, GEO)


@both
@settings(max_examples=300, deadline=None)
@given(boards)
def test_counterfactual_impacts_match_rescoring(scoring: ModuleType, cells: list[int]) -> None:
    full = scoring.score_gold(cells, 3, GEO)
    impacts = scoring.score_breakdown(cells, 3, GEO).impacts
    assert set(impacts) == {c for c, p in enumerate(cells) if pieces.is_tile(p)}
    for cell, impact in impacts.items():
        without = list(cells)
        without[cell] = pieces.EMPTY
        rescored = scoring.score_gold(without, 3, GEO)
        assert list(impact) == [f - w for f, w in zip(full, rescored, strict=True)]


@both
@settings(max_examples=200, deadline=None)
@given(boards)
def test_breakdown_matches_fast_scoring(scoring: ModuleType, cells: list[int]) -> None:
    breakdown = scoring.score_breakdown(cells, 3, GEO)
    assert list(breakdown.gold) == scoring.score_gold(cells, 3, GEO)
    assert sum(s.gold[0] for s in breakdown.segments) == breakdown.gold[0]
