"""What every subcommand shares: the exit codes and the one way to report bad input."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from engine.rules import RulesError, RuleSet, check_players
from engine.tokens import parse_int

if TYPE_CHECKING:
    from engine.record import Record
    from engine.state import State

EXIT_OK = 0
EXIT_FAILURE = 1
EXIT_BAD_INPUT = 2


class BadInput(Exception):
    """Raised by a subcommand for input it refuses; the message says what and where."""


def whole_number(text: str) -> int:
    """An argparse type: a 64-bit integer in ASCII digits (`int` also takes '３' or '1_0')."""
    value = parse_int(text, -(2**63), 2**63 - 1)
    if value is None:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number")
    return value


def player_count(text: str) -> int:
    """An argparse type: a player count the rules allow."""
    count = whole_number(text)
    try:
        check_players(count)
    except RulesError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return count


def workers_count(text: str | int, here: bool = True) -> int:
    """A `--workers` value: 'auto' (this machine's cores) or a count from 1. Processes started
    here (`here`) are at most the cores: more only add memory to work that keeps each core busy
    (a remote cluster's workers are its own)."""
    cores = os.cpu_count() or 1
    if text == "auto":
        return cores
    count = parse_int(str(text), 1, cores if here else 2**63 - 1)
    if count is None:
        bound = f"from 1 to {cores} (the cores of this machine)" if here else "of at least 1"
        raise BadInput(f"--workers: 'auto' or a number of processes {bound}, not '{text}'")
    return count


def fail_bad_input(message: str) -> int:
    print(message, file=sys.stderr)
    return EXIT_BAD_INPUT


def add_rules_argument(parser: argparse.ArgumentParser) -> None:
    """`--rules FILE.toml`: a rule-set file, in place of the edition and variants."""
    parser.add_argument(
        "--rules",
        metavar="FILE.toml",
        help="a rule-set file, in place of the edition and variants (the shipped ones: "
        "engine/rulesets/)",
    )


def load_rules_file(path: str) -> RuleSet:
    """The rule set of a `--rules` file, or BadInput with `file:line:col: message`."""
    from engine.rulefile import RuleFileError
    from engine.rules import load_rules

    try:
        return load_rules(path)
    except RuleFileError as error:
        raise BadInput(str(error)) from None


def load_record(path: str | Path, rules: RuleSet | None = None) -> tuple[Record, State]:
    """Read and replay a `.kgn` file (under `rules` rather than its tags' when given), or raise
    BadInput with `file:line:col: message` (the engine is loaded here, not for `--help`)."""
    from engine.record import RecordError, read_record_file

    try:
        return read_record_file(path, rules)
    except RecordError as error:
        raise BadInput(error.located(str(path))) from None
    except OSError as error:
        raise BadInput(f"{path}: {error.strerror}") from None
