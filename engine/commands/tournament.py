"""`kingdoms tournament`: every pairing of agents plays, standings with intervals and Elo."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from math import comb

from engine.agents import UnknownAgentError, search_budget
from engine.cli_support import (
    EXIT_OK,
    BadInput,
    add_rules_argument,
    load_rules_file,
    player_count,
    whole_number,
    workers_count,
)
from engine.executors import Executor
from engine.rules import DEFAULT_EDITION, EDITIONS, RulesError, RuleSet, rule_set
from engine.tournament import (
    GameResult,
    PairingScore,
    Standing,
    TableGame,
    pairing_scores,
    run_tournament,
    schedule,
    standings,
    tables,
)

NAME = "tournament"
HELP = "Play every pairing of agents (rotating seats); print win_share, 95% interval and Elo."
# Every game is kept until the standings are printed (about 2.5 KB each with its schedule
# entry, measured at 2 to 4 players): a tournament of at most half a million is about 1.3 GB.
MAX_GAMES = 500_000


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--agents", required=True, help="comma-separated agent names, e.g. random,greedy,mcts-400"
    )
    parser.add_argument("--players", type=player_count, default=2, help="players per game (2-4)")
    parser.add_argument(
        "--games",
        type=whole_number,
        default=100,
        help=f"games per pairing or table ({MAX_GAMES:,} in all at most)",
    )
    parser.add_argument("--seed", type=whole_number, default=0, help="seed of the whole tournament")
    parser.add_argument("--edition", default=DEFAULT_EDITION, choices=EDITIONS)
    parser.add_argument("--variants", default="", help="comma-separated official variants")
    add_rules_argument(parser)
    parser.add_argument(
        "--workers",
        default="auto",
        help="processes to play in, at most the cores (default: all cores)",
    )
    parser.add_argument("--json", action="store_true", help="print JSON on stdout")


def run(args: argparse.Namespace) -> int:
    return report(args, play(prepare(args)))


@dataclass(frozen=True)
class Prepared:
    """A tournament the arguments describe, checked: its games, rules and local processes."""

    scheduled: list[TableGame]
    rules: RuleSet
    workers: int


def prepare(args: argparse.Namespace) -> Prepared:
    """The tournament the arguments describe, or BadInput before anything is played."""
    names = [name.strip() for name in args.agents.split(",") if name.strip()]
    try:
        rules = load_rules_file(args.rules) if args.rules else rule_set(args.edition, args.variants)
        for name in names:
            search_budget(name)
        scheduled = schedule(names, args.players, _games_per_table(names, args), args.seed)
    except (RulesError, UnknownAgentError, ValueError) as error:
        raise BadInput(str(error)) from None
    return Prepared(scheduled, rules, workers_count(args.workers))


def play(prepared: Prepared, executor: Executor | None = None) -> list[GameResult]:
    """Play a prepared tournament (on `executor`, else in its local processes), with a progress
    bar on stderr."""
    from tqdm import tqdm

    scheduled = prepared.scheduled
    with tqdm(total=len(scheduled), desc="games", unit="game", file=sys.stderr) as bar:
        return run_tournament(
            scheduled, prepared.rules, prepared.workers, lambda _: bar.update(), executor
        )


def _games_per_table(names: list[str], args: argparse.Namespace) -> int:
    """--games, refused below 1 or when all tables together would play more than MAX_GAMES
    (the tables are counted only once there can be few enough: `comb` never exceeds them)."""
    if args.games < 1:
        raise BadInput(f"--games: must be at least 1, not {args.games}")
    if args.games * comb(len(names), args.players) <= MAX_GAMES:
        count = len(tables(names, args.players))
        if args.games * count <= MAX_GAMES:
            return args.games
    raise BadInput(
        f"--games: at most {MAX_GAMES:,} games in a tournament (each is kept in memory until "
        f"the standings), and {args.games:,} at each table of {len(names)} agents is more"
    )


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
