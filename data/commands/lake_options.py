"""The `--lake PATH` option every data subcommand shares (the lake's modules, DuckDB and
numba among them, are imported only when a command opens it)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from data.lake import Lake


def add_lake_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--lake", metavar="PATH", help="lake folder (default: $KINGDOMS_LAKE or data/lake)"
    )


def open_lake(args: argparse.Namespace) -> Lake:
    from data.lake import Lake, lake_path

    return Lake(lake_path(args.lake))
