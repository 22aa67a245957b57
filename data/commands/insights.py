"""`kingdoms insights NAME`: a player's recorded games, how many are reviewed, their accuracy
with its 95% interval (the game the unit) and their inaccuracies, mistakes and blunders."""

from __future__ import annotations

import argparse
import json

from data.commands.lake_options import add_lake_argument, open_lake
from engine.cli_support import EXIT_OK, BadInput, whole_number

NAME = "insights"
HELP = (
    "A player's summary over their recorded games: games, how many the engine reviewed, "
    "accuracy (0-100, lichess's on win share) with its 95% interval over reviewed games, and "
    "counts of inaccuracies, mistakes and blunders; print text or --json."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("player", metavar="NAME", help="the player's name as the records give it")
    parser.add_argument("--json", action="store_true", help="print JSON on stdout")
    parser.add_argument(
        "--budget",
        type=whole_number,
        help="the reviews' search iterations a decision (default: the strong agent's, as "
        "`kingdoms review --all`)",
    )
    parser.add_argument(
        "--seed", type=whole_number, help="the reviews' seed (default: the replay viewer's 1)"
    )
    add_lake_argument(parser)


def run(args: argparse.Namespace) -> int:
    from data.insights import player_insights
    from data.review_rows import DEFAULT_SEED
    from engine.evaluate import DEFAULT_BUDGET

    budget = DEFAULT_BUDGET if args.budget is None else args.budget
    seed = DEFAULT_SEED if args.seed is None else args.seed
    if budget < 1:
        raise BadInput(f"--budget: at least 1 iteration a decision, not {budget}")
    lake = open_lake(args)
    found = player_insights(lake, args.player, budget, seed)
    if not found.games:
        raise BadInput(f"{lake.root}: no recorded game of a player named '{args.player}'")
    if args.json:
        print(
            json.dumps(
                {
                    "player": found.player,
                    "games": found.games,
                    "reviewed": found.reviewed,
                    "budget": budget,
                    "seed": seed,
                    "accuracy": found.accuracy,
                    "interval": found.interval,
                    "moves": found.moves,
                    **found.counts,
                }
            )
        )
        return EXIT_OK
    print(
        f"{found.player}: {found.games:,} recorded games, {found.reviewed:,} reviewed "
        f"(budget {budget:,}, seed {seed})"
    )
    if found.accuracy is None:
        print("accuracy: no game reviewed yet (`kingdoms review --all` reviews them)")
        return EXIT_OK
    over = f"over {found.reviewed:,} reviewed game{'s' if found.reviewed != 1 else ''}"
    if found.interval is None:
        print(f"accuracy {found.accuracy:.1f} ({over}: no interval from one game)")
    else:
        low, high = found.interval
        print(f"accuracy {found.accuracy:.1f} (95% interval {low:.1f}–{high:.1f}, {over})")
    counts = ", ".join(f"{count:,} {name}" for name, count in found.counts.items())
    print(f"{counts} in {found.moves:,} moves {over}")
    return EXIT_OK
