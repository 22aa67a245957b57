"""`kingdoms insights NAME`: a player's recorded games, how many are reviewed, their accuracy,
luck and skill with their 95% intervals (the game the unit), their inaccuracies, mistakes and
blunders, and their costliest habits."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from data.commands.lake_options import add_lake_argument, open_lake
from engine.cli_support import EXIT_OK, BadInput, whole_number

if TYPE_CHECKING:
    from data.insights import Figure, Insights

NAME = "insights"
HELP = (
    "A player's summary over their recorded games: games, how many the engine reviewed, "
    "accuracy (0-100, lichess's on win share), luck and skill (expected win share a game) with "
    "their 95% intervals over reviewed games, counts of inaccuracies, mistakes and blunders, "
    "and the three costliest habits; print text or --json."
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
        print(json.dumps(_as_json(found, budget, seed)))
        return EXIT_OK
    print(
        f"{found.player}: {found.games:,} recorded games, {found.reviewed:,} reviewed "
        f"(budget {budget:,}, seed {seed})"
    )
    if found.accuracy.mean is None:
        print("accuracy: no game reviewed yet (`kingdoms review --all` reviews them)")
        return EXIT_OK
    over = f"over {found.reviewed:,} reviewed game{'s' if found.reviewed != 1 else ''}"
    print(f"accuracy {_figure(found.accuracy, '.1f', over)}")
    print(f"luck {_figure(found.luck, '+.3f', over)} (expected win share a game from the tiles)")
    print(f"skill {_figure(found.skill, '.3f', over)} (expected win share a game given up)")
    counts = ", ".join(f"{count:,} {name}" for name, count in found.counts.items())
    print(f"{counts} in {found.moves:,} moves {over}")
    if found.habits.height:
        print("costliest habits (expected win share given up a move, 95% interval by game):")
    for habit in found.habits.iter_rows(named=True):
        print(f"  {_habit(habit)}")
    return EXIT_OK


def _figure(figure: Figure, form: str, over: str) -> str:
    assert figure.mean is not None
    if figure.interval is None:
        return f"{figure.mean:{form}} ({over}: no interval from one game)"
    low, high = figure.interval
    return f"{figure.mean:{form}} (95% interval {low:{form}} to {high:{form}}, {over})"


def _habit(habit: dict) -> str:
    """e.g. "castle rank 3 in epoch 1: 0.040 a move (0.021 to 0.059) over 37 moves in 9 games"."""
    within = "" if habit["low"] is None else f" ({habit['low']:.3f} to {habit['high']:.3f})"
    moves = f"{habit['moves']:,} move{'s' if habit['moves'] != 1 else ''}"
    games = f"{habit['games']:,} game{'s' if habit['games'] != 1 else ''}"
    return (
        f"{habit['kind']} in epoch {habit['epoch']}: {habit['loss']:.3f} a move{within} over "
        f"{moves} in {games}"
    )


def _as_json(found: Insights, budget: int, seed: int) -> dict:
    return {
        "player": found.player,
        "games": found.games,
        "reviewed": found.reviewed,
        "budget": budget,
        "seed": seed,
        "accuracy": found.accuracy.mean,
        "interval": found.accuracy.interval,
        "luck": {"mean": found.luck.mean, "interval": found.luck.interval},
        "skill": {"mean": found.skill.mean, "interval": found.skill.interval},
        "moves": found.moves,
        **found.counts,
        "habits": found.habits.to_dicts(),
    }
