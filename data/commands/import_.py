"""`kingdoms import FILE…`: replay each record and add the good ones to the lake."""

from __future__ import annotations

import argparse
import sys

from data.commands.lake import suggest_compaction
from data.commands.lake_options import add_lake_argument, open_lake_for_writing
from engine.cli_support import EXIT_BAD_INPUT, EXIT_OK, add_rules_argument, load_rules_file

NAME = "import"
HELP = "Validate .kgn records by replaying them and add the good ones to the lake."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE.kgn", help="game records")
    add_rules_argument(parser)
    add_lake_argument(parser)


def run(args: argparse.Namespace) -> int:
    from data.importer import import_records

    rules = load_rules_file(args.rules) if args.rules else None
    report = import_records(open_lake_for_writing(args), args.files, rules)
    for message in report.errors:
        print(message, file=sys.stderr)
    print(
        f"imported {report.added} games, {report.duplicates} already in the lake, "
        f"{len(report.errors)} bad",
        file=sys.stderr,
    )
    suggest_compaction(args)
    return EXIT_BAD_INPUT if report.errors else EXIT_OK
