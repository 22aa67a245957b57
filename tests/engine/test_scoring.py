"""Scoring: the worked checks of the rules spec, and the laws scoring must obey."""

import pytest
from hypothesis import given, settings

from engine import pieces
from engine.geometry import geometry
from engine.notation import parse_board
from engine.rules import RuleSet
from engine.scoring import score_breakdown, score_gold, segment_base, tile_impacts
from tests.engine.boards import NOTATION_EXAMPLE, board, random_boards

GEO = geometry()
RULES = RuleSet()

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


@pytest.mark.parametrize(("name", "text", "gold"), WORKED_CHECKS, ids=[c[0] for c in WORKED_CHECKS])
def test_worked_checks(name: str, text: str, gold: int) -> None:
    assert score_gold(parse_board(text, RULES), 2, GEO)[0] == gold


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


def test_notation_example_board() -> None:
    """The board string of the notation spec; its --json example shows A 44, B 3, C 53."""
    text = NOTATION_EXAMPLE
    assert score_gold(parse_board(text, RULES), 3, GEO) == [44, 3, 53]


def test_breakdown_agrees_with_fast_scoring() -> None:
    text = NOTATION_EXAMPLE
    cells = parse_board(text, RULES)
    breakdown = score_breakdown(cells, 3, GEO)
    assert list(breakdown.gold) == score_gold(cells, 3, GEO)
    per_seat = [0, 0, 0]
    for castle in breakdown.castles:
        per_seat[castle.seat] += castle.gold
    assert per_seat == list(breakdown.gold)


# ---------------------------------------------------------------- laws (Hypothesis)


boards = random_boards(players=3)


@settings(max_examples=300, deadline=None)
@given(boards)
def test_mirroring_left_right_keeps_everyones_gold(cells: list[int]) -> None:
    mirrored = [cells[GEO.mirrored(cell)] for cell in range(30)]
    assert score_gold(mirrored, 3, GEO) == score_gold(cells, 3, GEO)


@settings(max_examples=300, deadline=None)
@given(boards)
def test_counterfactual_impacts_match_rescoring(cells: list[int]) -> None:
    full = score_gold(cells, 3, GEO)
    impacts = tile_impacts(cells, 3, GEO)
    assert set(impacts) == {c for c, p in enumerate(cells) if pieces.is_tile(p)}
    for cell, impact in impacts.items():
        without = list(cells)
        without[cell] = pieces.EMPTY
        rescored = score_gold(without, 3, GEO)
        assert list(impact) == [f - w for f, w in zip(full, rescored, strict=True)]


@settings(max_examples=200, deadline=None)
@given(boards)
def test_breakdown_matches_fast_scoring(cells: list[int]) -> None:
    breakdown = score_breakdown(cells, 3, GEO)
    assert list(breakdown.gold) == score_gold(cells, 3, GEO)
    assert sum(s.gold[0] for s in breakdown.segments) == breakdown.gold[0]
