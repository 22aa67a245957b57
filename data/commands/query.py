"""`kingdoms query "SQL"`: read-only SQL over the lake's views (or a named query). A refusal is
DuckDB's whole message, its hints and the caret under the query kept, and exit 2."""

from __future__ import annotations

import argparse
import sys
import time

from data.commands.lake_options import add_lake_argument, open_lake
from engine.cli_support import EXIT_OK, BadInput, fail_bad_input

NAME = "query"
HELP = (
    "Run one read-only query over the lake's views (games, seats, moves, …) in a sandbox that "
    "cannot write, with caps on its time, memory and size; print the rows."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("sql", metavar="SQL", help="one SELECT query, or a query name")
    parser.add_argument("--format", choices=("table", "csv", "json"), default="table")
    parser.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a $NAME parameter of the query (repeatable)",
    )
    add_lake_argument(parser)


def run(args: argparse.Namespace) -> int:
    from data.console import ROW_CAP, TIME_LIMIT, ConsoleResult, run_console
    from data.reader import QueryError, connect, execute, query_names

    params = {}
    for item in args.param:
        name, sep, value = item.partition("=")
        if not sep:
            raise BadInput(f"--param: '{item}' is not NAME=VALUE")
        params[name] = value
    lake = open_lake(args)
    try:
        if args.sql in query_names():
            deadline = time.monotonic() + TIME_LIMIT
            frame = execute(connect(lake), args.sql, params, timeout=TIME_LIMIT)
            result = ConsoleResult(frame, False, deadline, TIME_LIMIT)
        else:
            result = run_console(lake, args.sql, params)
        text = getattr(result, args.format)()
    except QueryError as error:
        return fail_bad_input(f"query: {error}")
    sys.stdout.write(text if text.endswith("\n") else text + "\n")
    if result.truncated:
        note = sys.stdout if args.format == "table" else sys.stderr
        print(f"… truncated: only the first {ROW_CAP:,} rows are shown", file=note)
    return EXIT_OK
