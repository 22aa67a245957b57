"""`kingdoms tournament`: every pairing of agents plays, standings with intervals and Elo."""

from __future__ import annotations

import argparse
import json
import sys

from engine.agents import UnknownAgentError, search_budget
from engine.cli_support import EXIT_OK, BadInput, whole_number
from engine.executors import Executor
from engine.rules import DEFAULT_EDITION, EDITIONS, RulesError, rule_set
from engine.tournament import (
    GameResult,
    PairingScore,
    Standing,
    pairing_scores,
    run_tournament,
    schedule,
    standings,
)

NAME = "tournament"
HELP = "Play every pairing of agents (rotating seats); print win_share, 95% interval and Elo."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--agents", required=True, help="comma-separated agent names, e.g. random,greedy,mcts-400"
    )
    parser.add_argument("--players", type=whole_number, default=2, help="players per game (2-4)")
    parser.add_argument(
        "--games", type=whole_number, default=100, help="games per pairing or table"
    )
    parser.add_argument("--seed", type=whole_number, default=0, help="seed of the whole tournament")
    parser.add_argument("--edition", default=DEFAULT_EDITION, choices=EDITIONS)
    parser.add_argument("--variants", default="", help="comma-separated official variants")
    parser.add_argument("--workers", type=whole_number, default=2, help="processes to play in")
    parser.add_argument("--json", action="store_true", help="print JSON on stdout")


def run(args: argparse.Namespace) -> int:
    return report(args, play(args))


def play(args: argparse.Namespace, executor: Executor | None = None) -> list[GameResult]:
    """Play the tournament the arguments describe (on `executor`, else in --workers local
    processes), with a progress bar on stderr."""
    names = [name.strip() for name in args.agents.split(",") if name.strip()]
    try:
        rules = rule_set(args.edition, args.variants)
        for name in names:
            search_budget(name)
        if args.games < 1:
            raise BadInput(f"--games must be at least 1, not {args.games}")
        if not 2 <= args.players <= 4:
            raise BadInput(f"--players must be 2 to 4, not {args.players}")
        scheduled = schedule(names, args.players, args.games, args.seed)
    except (RulesError, UnknownAgentError, ValueError) as error:
        raise BadInput(str(error)) from None
    from tqdm import tqdm

    with tqdm(total=len(scheduled), desc="games", unit="game", file=sys.stderr) as bar:
        return run_tournament(scheduled, rules, args.workers, lambda _: bar.update(), executor)


def report(args: argparse.Namespace, results: list[GameResult]) -> int:
    """Print the standings (and head-to-head scores) of played games."""
    table = standings(results)
    pairings = pairing_scores(results)
    if args.json:
        print(json.dumps(_as_json(table, pairings)))
        return EXIT_OK
    print(f"{'agent':<14}{'games':>7}{'win_share':>11}{'95% interval':>17}{'rating':>14}")
    for name, standing in sorted(table.items(), key=lambda item: -_rating(item[1])):
        low, high = standing.ci95
        rated = standing.rating
        rating = f"{rated.rating:.0f} ± {rated.half_width:.0f}" if rated else "—"
        print(
            f"{name:<14}{standing.games:>7}{standing.win_share:>11.3f}"
            f"{f'[{low:.3f}, {high:.3f}]':>17}{rating:>14}"
        )
    for pairing in pairings:
        low, high = pairing.ci95
        first, second = pairing.agents
        print(
            f"{first} {pairing.win_share:.3f} [{low:.3f}, {high:.3f}] vs {second}"
            f" {1 - pairing.win_share:.3f}, {pairing.games} games"
        )
    return EXIT_OK


def _rating(standing: Standing) -> float:
    return standing.rating.rating if standing.rating else float("-inf")


def _as_json(table: dict[str, Standing], pairings: list[PairingScore]) -> dict[str, object]:
    return {
        "agents": {
            name: {
                "games": s.games,
                "win_share": round(s.win_share, 4),
                "ci95": [round(s.ci95[0], 4), round(s.ci95[1], 4)],
                "rating": round(s.rating.rating, 1) if s.rating else None,
                "rating_half_width": round(s.rating.half_width, 1) if s.rating else None,
            }
            for name, s in table.items()
        },
        "pairings": [
            {
                "agents": list(p.agents),
                "games": p.games,
                "win_share": round(p.win_share, 4),
                "ci95": [round(p.ci95[0], 4), round(p.ci95[1], 4)],
            }
            for p in pairings
        ],
    }
