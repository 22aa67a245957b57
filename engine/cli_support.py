"""What every subcommand shares: the exit codes and the one way to report bad input."""

from __future__ import annotations

import sys

EXIT_OK = 0
EXIT_FAILURE = 1
EXIT_BAD_INPUT = 2


class BadInput(Exception):
    """Raised by a subcommand for input it refuses; the message says what and where."""


def fail_bad_input(message: str) -> int:
    print(message, file=sys.stderr)
    return EXIT_BAD_INPUT
