"""`kingdoms export GAME_ID`: print a stored game as a `.kgn` record."""

from __future__ import annotations

import argparse

from data.commands.lake_options import add_lake_argument, open_lake, queried
from engine.cli_support import EXIT_OK, BadInput
from engine.tokens import parse_int

NAME = "export"
HELP = "Print a game of the lake as a .kgn record."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game_id", metavar="GAME_ID", help="the game's id (games.game_id)")
    add_lake_argument(parser)


def run(args: argparse.Namespace) -> int:
    from data.importer import export_record
    from data.reader import connect

    game_id = parse_int(args.game_id, 0, 2**63 - 1)
    if game_id is None:
        raise BadInput(f"GAME_ID: '{args.game_id}' is not a game id (a whole number)")
    lake = open_lake(args)
    with queried(lake):
        text = export_record(connect(lake), game_id)
    if text is None:
        raise BadInput(f"GAME_ID: no game {game_id} in {lake.root}")
    print(text, end="")
    return EXIT_OK
