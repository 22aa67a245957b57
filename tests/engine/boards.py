"""Helpers for writing boards in tests: one row given, the rest empty."""

EMPTY_ROW = ". . . . . ."


def board(*rows: str) -> str:
    """A board string whose first rows are given and the rest left empty."""
    return " / ".join(list(rows) + [EMPTY_ROW] * (5 - len(rows)))
