"""`kingdoms simulate`: play games between agents and write them to the lake, batch by batch."""

from __future__ import annotations

import argparse
import sys

from data.commands.cluster_options import (
    add_cluster_argument,
    cluster_executor,
    cluster_workers,
)
from data.commands.lake import suggest_compaction
from data.commands.lake_options import add_lake_argument, open_lake_for_writing
from engine.cli_support import EXIT_OK, BadInput, add_rules_argument, load_rules_file, whole_number
from engine.rules import DEFAULT_EDITION, PLAYER_COUNTS, RulesError, check_players, rule_set
from engine.tokens import parse_int

NAME = "simulate"
HELP = "Play games between agents and add them to the lake (deterministic per --seed)."
MAX_GAMES = 10**9  # a run's batches are planned up front


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from data.simulate import DEFAULT_BATCH

    parser.add_argument(
        "--games", type=whole_number, default=1000, help="how many games (default 1000)"
    )
    counts = ",".join(map(str, PLAYER_COUNTS))
    parser.add_argument(
        "--players", default=counts, help=f"player counts, cycled (default {counts})"
    )
    parser.add_argument("--agents", default="random", help="agents, rotated over the seats")
    parser.add_argument("--edition", default=DEFAULT_EDITION)
    parser.add_argument("--variant", default="", help="comma-separated official variants")
    add_rules_argument(parser)
    parser.add_argument(
        "--seed", type=whole_number, default=0, help="the same seed gives the same games"
    )
    parser.add_argument(
        "--workers",
        default="auto",
        help="processes, or with --cluster local its Dask workers: at most the cores "
        "(default: all cores)",
    )
    parser.add_argument(
        "--batch-size",
        type=whole_number,
        default=DEFAULT_BATCH,
        help=f"games per batch (default {DEFAULT_BATCH})",
    )
    parser.add_argument(
        "--preset",
        choices=("default", "research"),
        help="build a preset lake unless it already holds games: 'default' (what `make run` "
        "builds: the corpus of strong play, `kingdoms corpus info`, and 7,500 games between "
        "the hand-written agents, 1,000 of them a random baseline; under a minute on two free "
        "cores) or 'research' (the corpus and 90,900 games, 900 of them with the strong "
        "search, about 30 minutes on two cores, estimated from a strong game's time); "
        "both add the example records, and refuse a corpus that is altered or damaged "
        "before writing anything",
    )
    parser.add_argument("--default-lake", action="store_true", help="the same as --preset default")
    add_lake_argument(parser)
    add_cluster_argument(parser)


def run(args: argparse.Namespace) -> int:
    from data.default_lake import build_preset_lake
    from data.simulate import (
        MAX_BATCH_SIZE,
        Plan,
        check_agents,
        check_batches,
        check_seed,
        simulate,
    )

    workers = cluster_workers(args)
    if not 1 <= args.games <= MAX_GAMES:
        raise BadInput(f"--games: must be from 1 to {MAX_GAMES:,}, not {args.games}")
    if not 1 <= args.batch_size <= MAX_BATCH_SIZE:
        raise BadInput(
            f"--batch-size: must be from 1 to {MAX_BATCH_SIZE:,} (a batch is played in one "
            f"process's memory), not {args.batch_size}"
        )
    check_seed(args.seed)
    progress = sys.stderr.isatty()  # a progress bar on a terminal, not in a log
    preset = "default" if args.default_lake else args.preset
    if preset:
        if args.cluster is not None:
            raise BadInput("--cluster: a preset lake is built here, not on a cluster")
        build_preset_lake(open_lake_for_writing(args), preset, workers=workers, progress=progress)
        return EXIT_OK
    try:
        players = tuple(_player_count(p) for p in args.players.split(","))
        for count in players:
            check_players(count)
    except ValueError as error:
        message = str(error) if isinstance(error, RulesError) else f"'{args.players}' is not a list"
        raise BadInput(f"--players: {message}") from None
    try:
        rules = load_rules_file(args.rules) if args.rules else rule_set(args.edition, args.variant)
    except RulesError as error:
        raise BadInput(f"--edition/--variant: {error}") from None
    agents = tuple(a.strip() for a in args.agents.split(",") if a.strip())
    if not agents:
        raise BadInput("--agents: name at least one agent")
    check_agents(agents)
    plan = Plan(args.games, players, agents, rules, args.seed, args.batch_size)
    check_batches(plan, workers)  # before the lake is opened: a refused run writes nothing
    lake = open_lake_for_writing(args)
    with cluster_executor(args, workers) as executor:
        stored = simulate(lake, plan, workers, progress, executor)
    print(
        f"added {stored.added:,} games to {lake.root}, {stored.duplicates:,} already in the lake",
        file=sys.stderr,
    )
    suggest_compaction(args)
    return EXIT_OK


def _player_count(text: str) -> int:
    count = parse_int(text.strip(), 0, 99)
    if count is None:
        raise ValueError(f"'{text}' is not a player count")
    return count
