"""`kingdoms lake check`: read the whole lake and list what is damaged."""

from __future__ import annotations

import argparse
import json

from data.commands.lake_options import add_lake_argument, open_lake
from engine.cli_support import EXIT_BAD_INPUT, EXIT_OK

NAME = "lake"
HELP = "Look after the lake: `check` reads every file and lists what is damaged."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    check = actions.add_parser(
        "check",
        help="read the manifest and every listed file to the end; list each damaged one "
        "(exit 0 when healthy, 2 when damaged)",
    )
    check.add_argument("--json", action="store_true", help="print one JSON object")
    add_lake_argument(check)


def run(args: argparse.Namespace) -> int:
    from data.lake_check import check_lake

    lake = open_lake(args)
    health = check_lake(lake)
    if args.json:
        report = {
            "lake": str(lake.root),
            "healthy": health.healthy,
            "batches": health.batches,
            "games": health.games,
            "files": health.files,
            "damage": [damage.as_dict() for damage in health.damage],
        }
        print(json.dumps(report))
    else:
        for damage in health.damage:
            print(damage)
        count = len(health.damage)
        state = "healthy" if health.healthy else f"damaged ({count} problem{'s' * (count > 1)})"
        print(
            f"{lake.root}: {state}; {health.batches:,} batches, {health.games:,} games, "
            f"{health.files:,} files"
        )
    return EXIT_OK if health.healthy else EXIT_BAD_INPUT
