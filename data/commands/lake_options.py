"""The `--lake PATH` option every data subcommand shares."""

from __future__ import annotations

import argparse

from data.lake import Lake, lake_path


def add_lake_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--lake", metavar="PATH", help="lake folder (default: $KINGDOMS_LAKE or data/lake)"
    )


def open_lake(args: argparse.Namespace) -> Lake:
    return Lake(lake_path(args.lake))
