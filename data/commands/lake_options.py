"""The `--lake PATH` option every data subcommand shares, and opening the lake it names (the
lake's modules, DuckDB and numba among them, are imported only when a command opens it)."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from data.lake import Lake


def add_lake_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--lake", metavar="PATH", help="lake folder (default: $KINGDOMS_LAKE or data/lake)"
    )


def open_lake(args: argparse.Namespace) -> Lake:
    """The lake a command reads: it must be there (reading never creates one)."""
    from data.lake import Lake, lake_path

    lake = Lake(lake_path(args.lake))
    lake.require_existing()
    return lake


def open_lake_for_writing(args: argparse.Namespace) -> Lake:
    """The lake a command writes to: its folder is created if need be."""
    from data.lake import Lake, lake_path

    lake = Lake(lake_path(args.lake))
    lake.require_writable()
    return lake


@contextmanager
def queried(lake: Lake) -> Iterator[None]:
    """A query of the lake that fails, a file damaged past what opening it checks, refused
    as the lake, with the command that finds the file."""
    from data.lake import CHECK_HINT, LakeError
    from data.reader import QueryError

    try:
        yield
    except QueryError as error:
        raise LakeError(lake.root, f"cannot be read ({error}); {CHECK_HINT}") from None
