"""`kingdoms query "SQL"`: read-only SQL over the lake's views (or a named query)."""

from __future__ import annotations

import argparse
import json
import sys

from data.commands.lake_options import add_lake_argument, open_lake
from engine.cli_support import EXIT_OK, BadInput

NAME = "query"
HELP = "Run read-only SQL over the lake's views (games, seats, moves, …); print the rows."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("sql", metavar="SQL", help="one SELECT statement, or a query name")
    parser.add_argument("--format", choices=("table", "csv", "json"), default="table")
    parser.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a parameter of a named query (repeatable)",
    )
    add_lake_argument(parser)


def run(args: argparse.Namespace) -> int:
    import polars as pl

    from data.reader import QueryError, connect, execute

    params = {}
    for item in args.param:
        name, sep, value = item.partition("=")
        if not sep:
            raise BadInput(f"--param: '{item}' is not NAME=VALUE")
        params[name] = value
    try:
        frame = execute(connect(open_lake(args)), args.sql, params)
    except QueryError as error:
        raise BadInput(f"query: {error}") from None
    if args.format == "csv":
        sys.stdout.write(frame.write_csv())
    elif args.format == "json":
        print(json.dumps(frame.to_dicts(), default=str))
    else:
        with pl.Config(tbl_rows=100, tbl_cols=30, fmt_str_lengths=40):
            print(frame)
    return EXIT_OK
