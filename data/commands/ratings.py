"""`kingdoms ratings`: every agent's and named person's rating from the lake's games, with its
95% uncertainty, the games behind it and its rank."""

from __future__ import annotations

import argparse
import json

from data.commands.lake_options import add_lake_argument, open_lake, queried
from engine.cli_support import EXIT_OK, player_count
from engine.rules import EDITIONS

NAME = "ratings"
HELP = (
    "Rate every agent and named person from the lake's games (Bradley–Terry on each game's "
    "seat pairs, ties a half; ± is a 95% interval); print a table or --json."
)
STANDARD = "standard"  # the --variant value for games without a variant
NOTE = (
    "Ratings on the Elo scale; each group of players linked by games is centred on 1500, ranked "
    "and compared only within itself."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print JSON on stdout")
    parser.add_argument("--players", type=player_count, metavar="N", help="games of N players only")
    parser.add_argument("--edition", choices=EDITIONS, help="games of this edition only")
    parser.add_argument(
        "--variant",
        metavar="NAME",
        help=f"games of this variant only ('{STANDARD}': the games without one)",
    )
    parser.add_argument(
        "--source", choices=("simulated", "recorded"), help="simulated or recorded games only"
    )
    add_lake_argument(parser)


def run(args: argparse.Namespace) -> int:
    from data.ratings import ratings
    from data.reader import connect

    lake = open_lake(args)
    variant = "" if args.variant == STANDARD else args.variant
    filters = {
        "players": args.players,
        "edition": args.edition,
        "variant": variant,
        "source": args.source,
    }
    with queried(lake):
        table = ratings(connect(lake), filters)
    if args.json:
        print(json.dumps({"ratings": table.to_dicts(), "note": NOTE}))
    elif table.is_empty():
        print("No game matching the filters seats two different players: nothing to rate.")
    else:
        print(_table(table.rows(named=True)))
        print(NOTE)
    return EXIT_OK


def _table(rows: list[dict]) -> str:
    """The ratings as aligned text, one line per player, group by group under a heading when
    there are several (a rank counts within its group)."""
    width = max(len("player"), *(len(row["player"]) for row in rows))
    groups = sorted({row["group"] for row in rows})
    columns = f"{'rank':>4}  {'player':<{width}}  {'kind':<6}  {'rating':>6}  {'±':>4}"
    lines = [f"{columns}  {'games':>7}"]
    for group in groups:
        members = [row for row in rows if row["group"] == group]
        if len(groups) > 1:
            lines.append(f"group {group} of {len(groups)}: {len(members)} players linked by games")
        lines += [
            f"{row['rank']:>4}  {row['player']:<{width}}  {row['kind']:<6}  "
            f"{row['rating']:>6.0f}  {row['half_width']:>4.0f}  {row['games']:>7,}"
            for row in members
        ]
    return "\n".join(lines)
