"""Helpers for writing boards in tests: one row given, the rest empty."""

EMPTY_ROW = ". . . . . ."


def board(*rows: str) -> str:
    """A board string whose first rows are given and the rest left empty."""
    return " / ".join(list(rows) + [EMPTY_ROW] * (5 - len(rows)))


# The board string of the notation spec (its `--json` example shows A 44, B 3, C 53).
NOTATION_EXAMPLE = (
    "+3 B1 A4 C1 -6 A1 / C2 GM +4 +1 MT WZ / +2 +4 B2 -5 -2 C1 / "
    "A2 DR +3 MT C1 +5 / -1 -3 C1 A3 +6 +2"
)
