"""The smallest parts of the notation's text: words between blanks, and numbers.

Blanks are spaces and tabs only, and numbers are ASCII digits only: `str.isdigit` and `int`
also take `²`, `３` or `٣`, which would crash a reader or silently read `b３` as `b3`.
"""

from __future__ import annotations

import re

_WORD = re.compile(r"[^ \t]+")


def words(text: str) -> list[tuple[int, str]]:
    """The words of `text` between spaces and tabs, each with its 1-based column."""
    return [(match.start() + 1, match.group()) for match in _WORD.finditer(text)]


def is_digits(text: str) -> bool:
    """True for a non-empty run of the ASCII digits 0-9."""
    return text.isascii() and text.isdigit()


def parse_int(text: str, low: int, high: int) -> int | None:
    """The integer `text` writes (ASCII digits after an optional '-'), or None when it is not
    one or lies outside low..high; too many digits are refused before converting."""
    digits = text.removeprefix("-")
    widest = len(str(max(abs(low), abs(high))))
    if not is_digits(digits) or len(digits.lstrip("0")) > widest:
        return None
    value = int(text)
    return value if low <= value <= high else None
