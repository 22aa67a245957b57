"""`kingdoms insights NAME`: a player's recorded games, how many are reviewed, their accuracy,
luck and skill with their 95% intervals (the game the unit), their inaccuracies, mistakes and
blunders, their costliest habits, and their estimated strength on the agents' ladder."""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict
from typing import TYPE_CHECKING

from data.commands.lake_options import add_lake_argument, open_lake
from engine.cli_support import EXIT_OK, BadInput, whole_number

if TYPE_CHECKING:
    from data.insights import Figure, Insights
    from data.strength import Estimate

NAME = "insights"
HELP = (
    "A player's summary over their recorded games: games, how many the engine reviewed, "
    "accuracy (0-100, lichess's on win share), luck and skill (expected win share a game) with "
    "their 95% intervals over reviewed games, counts of inaccuracies, mistakes and blunders, "
    "the three costliest habits, and the estimated strength: where the player stands on the "
    "agents' ladder (random < greedy < heuristic < apprentice < strong) by accuracy against "
    "the agents' reviewed games, and by results where they have played agents; print text or "
    "--json."
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
        print("\n".join(_strength_lines(found, budget, seed)))
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
    print("\n".join(_strength_lines(found, budget, seed)))
    return EXIT_OK


def _figure(figure: Figure, form: str, over: str) -> str:
    assert figure.mean is not None
    if figure.interval is None:
        return f"{figure.mean:{form}} ({over}: no interval from one game)"
    low, high = figure.interval
    return f"{figure.mean:{form}} (95% interval {low:{form}} to {high:{form}}, {over})"


def _strength_lines(found: Insights, budget: int, seed: int) -> list[str]:
    """The estimated strength by accuracy, with each agent's accuracy and its games, and by
    results, with the agents' ratings."""
    from data.strength import SUGGESTED_SAMPLE

    strength = found.strength
    unplaced = (
        "none: no game of the player reviewed yet"
        if not found.reviewed
        else "none: no agent game reviewed yet"
    )
    by_accuracy = strength.by_accuracy.text(".1f") if strength.by_accuracy else unplaced
    lines = [f"estimated strength by accuracy: {by_accuracy}"]
    for rung in strength.accuracy_ladder:
        lines.append(f"  {rung.agent:<11}{rung.text('.1f', 'reviewed game')}")
    if not any(rung.games for rung in strength.accuracy_ladder):
        lines.append(
            f"  no agent game reviewed yet at budget {budget:,}, seed {seed}: `kingdoms review "
            f"--all --agents-sample {SUGGESTED_SAMPLE} --budget {budget} --seed {seed}` reviews "
            f"{SUGGESTED_SAMPLE} of each agent's simulated games"
        )
    unrated = "none: the player has played none of the ladder's agents"
    by_results = strength.by_results.text("+.0f") if strength.by_results else unrated
    lines.append(f"estimated strength by results (rating): {by_results}")
    for rung in strength.rating_ladder:
        lines.append(f"  {rung.agent:<11}{rung.text('+.0f', 'game')}")
    return lines


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
        "strength": {
            "by_accuracy": _estimate_json(found.strength.by_accuracy),
            "accuracy_ladder": [asdict(rung) for rung in found.strength.accuracy_ladder],
            "by_results": _estimate_json(found.strength.by_results),
            "rating_ladder": [asdict(rung) for rung in found.strength.rating_ladder],
        },
    }


def _estimate_json(found: Estimate | None) -> dict | None:
    """An estimate with its placements as text (e.g. "between greedy and heuristic")."""
    if found is None:
        return None
    return {
        "mean": found.mean,
        "games": found.games,
        "interval": found.interval,
        "placement": found.placement.text(),
        "low": None if found.low is None else found.low.text(),
        "high": None if found.high is None else found.high.text(),
    }
