"""Boards for tests: written by hand (one row given, the rest empty) or drawn by Hypothesis."""

from hypothesis import strategies as st

from engine import pieces
from engine.rules import RuleSet

EMPTY_ROW = ". . . . . ."


def board(*rows: str) -> str:
    """A board string whose first rows are given and the rest left empty."""
    return " / ".join(list(rows) + [EMPTY_ROW] * (5 - len(rows)))


# The board string of the notation spec (its `--json` example shows A 44, B 3, C 53).
NOTATION_EXAMPLE = (
    "+3 B1 A4 C1 -6 A1 / C2 GM +4 +1 MT WZ / +2 +4 B2 -5 -2 C1 / "
    "A2 DR +3 MT C1 +5 / -1 -3 C1 A3 +6 +2"
)


def random_boards(players: int) -> st.SearchStrategy[list[int]]:
    """Hypothesis boards: any 30 of the edition's tiles, the players' castles and empty cells."""
    rules = RuleSet()
    pool = (
        list(rules.tiles)
        + [
            pieces.castle(seat, rank)
            for seat in range(players)
            for rank, count in enumerate(rules.castles(players), start=1)
            for _ in range(count)
        ]
        + [pieces.EMPTY] * rules.cells
    )
    return st.permutations(pool).map(lambda shuffled: shuffled[: rules.cells])
