"""`kingdoms review`: every move of a recorded game with its class and its cost, from a `.kgn`
file, or `--all` the lake's recorded games into the review cache the replay viewer reads."""

from __future__ import annotations

import argparse
import json
import sys

from data.commands.cluster_options import (
    add_cluster_argument,
    cluster_executor,
    cluster_workers,
)
from data.commands.lake_options import add_lake_argument, open_lake
from engine import pieces
from engine.agents.registry import MAX_MCTS_ITERATIONS
from engine.cli_support import (
    EXIT_OK,
    BadInput,
    add_rules_argument,
    load_record,
    load_rules_file,
    whole_number,
)

NAME = "review"
HELP = (
    "Judge every move of a .kgn record: class (best … blunder), its loss of expected win share "
    "(once decided, its gold lost at 1 gold = 0.01), best move; or with --all review the "
    "lake's recorded games for the replay viewer (and with --agents-sample a sample of each "
    "agent's simulated games, what a player's estimated strength is placed against)."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE.kgn", nargs="?", help="game record to review")
    parser.add_argument(
        "--all",
        action="store_true",
        help="review every recorded game of the lake not yet reviewed at this budget and seed, "
        "into the cache the replay viewer reads (a rerun reviews only what is missing)",
    )
    parser.add_argument(
        "--player",
        metavar="NAME",
        help="with --all: review the recorded games of the player of this name first, then the "
        "rest",
    )
    parser.add_argument(
        "--only-player",
        action="store_true",
        help="with --player: review that player's recorded games and no others",
    )
    parser.add_argument(
        "--agents-sample",
        type=whole_number,
        metavar="N",
        help="with --all: then review the first N simulated games (by id) of each agent of the "
        "ladder (random, greedy, heuristic, apprentice, strong) that lack a review at this "
        "budget and seed: the accuracy a player's is placed against",
    )
    parser.add_argument(
        "--budget",
        type=whole_number,
        help=f"search iterations per decision, 1 to {MAX_MCTS_ITERATIONS:,} as for mcts-N "
        "(default: the strong agent's)",
    )
    parser.add_argument(
        "--seed",
        type=whole_number,
        help="seed of the evaluator (default: 0 for a file, the replay viewer's 1 with --all)",
    )
    parser.add_argument("--json", action="store_true", help="print JSON on stdout (a file)")
    add_rules_argument(parser)  # a file's only: the lake's games keep their own rules
    parser.add_argument(
        "--workers",
        default="auto",
        help="with --all: processes, or with --cluster local its Dask workers: at most the "
        "cores (default: all cores)",
    )
    add_lake_argument(parser)
    add_cluster_argument(parser)


def run(args: argparse.Namespace) -> int:
    from engine.evaluate import DEFAULT_BUDGET  # loads the kernel

    if args.budget is None:
        args.budget = DEFAULT_BUDGET
    if not 1 <= args.budget <= MAX_MCTS_ITERATIONS:
        raise BadInput(
            f"--budget: from 1 to {MAX_MCTS_ITERATIONS:,} iterations a decision (as "
            f"mcts-N), not {args.budget}"
        )
    if args.all == (args.file is not None):
        raise BadInput("name a FILE.kgn to review, or --all for the lake's recorded games")
    if args.all and args.rules is not None:
        raise BadInput("--rules: only with a FILE.kgn (the lake's games keep their own rules)")
    if args.all:
        return _review_lake(args)
    if args.cluster is not None:
        raise BadInput("--cluster: only with --all")
    if args.player is not None:
        raise BadInput("--player: only with --all")
    if args.only_player:
        raise BadInput("--only-player: only with --all and --player")
    if args.agents_sample is not None:
        raise BadInput("--agents-sample: only with --all")
    return _review_file(args)


def _review_lake(args: argparse.Namespace) -> int:
    from data.review_all import review_agents, review_all
    from data.review_rows import DEFAULT_SEED

    if args.json:
        raise BadInput("--json: only when reviewing a file")
    if args.only_player and args.player is None:
        raise BadInput("--only-player: only with --all and --player")
    if args.agents_sample is not None and args.agents_sample < 1:
        raise BadInput(f"--agents-sample: at least 1 game of each agent, not {args.agents_sample}")
    seed = DEFAULT_SEED if args.seed is None else args.seed
    workers = cluster_workers(args)
    lake = open_lake(args)
    lake.require_writable()
    with cluster_executor(args, workers) as executor:
        done = review_all(
            lake,
            args.budget,
            seed,
            workers,
            executor,
            sys.stderr.isatty(),
            args.player,
            args.only_player,
        )
        print(
            f"reviewed {done.reviewed:,} recorded games of {lake.root} at budget {args.budget}, "
            f"seed {seed}; {done.already:,} were reviewed already",
            file=sys.stderr,
        )
        if args.agents_sample is None:
            return EXIT_OK
        agents = review_agents(
            lake, args.budget, seed, args.agents_sample, workers, executor, sys.stderr.isatty()
        )
        print(
            f"reviewed {agents.reviewed:,} simulated games of the agents (the first "
            f"{args.agents_sample:,} of each); {agents.already:,} were reviewed already",
            file=sys.stderr,
        )
    return EXIT_OK


def _review_file(args: argparse.Namespace) -> int:
    from engine.evaluate import JUDGED_BY_GOLD, describe, move_reviews

    _, state = load_record(args.file, load_rules_file(args.rules) if args.rules else None)
    game = state.game
    reviews = move_reviews(game, state.history, args.budget, args.seed or 0)
    rows = [
        {
            "epoch": review.epoch,
            "seat": pieces.SEAT_LETTERS[review.seat],
            "move": describe(review.move, game),
            "class": review.quality,
            "loss": round(review.loss, 4),
            "win_share_loss": round(review.win_share_loss, 4),
            "gold_loss": round(review.gold_loss, 2),
            "decided": review.decided,
            "win_share_before": round(review.win_share_before, 4),
            "best": describe(review.best, game) if review.best else None,
        }
        for review in reviews
    ]
    if args.json:
        print(json.dumps({"moves": rows}))
        return EXIT_OK
    epoch: object = 0
    for row in rows:
        if row["epoch"] != epoch:
            epoch = row["epoch"]
            print(f"epoch {epoch}")
        better = f"  best: {row['best']}" if row["best"] else ""
        decided = f" ({row['gold_loss']:.1f} gold; {JUDGED_BY_GOLD})" if row["decided"] else ""
        print(
            f"{row['seat']} {row['move']:<8} {row['class']:<11} loss {row['loss']:.3f}"
            f"  win {row['win_share_before']:.2f}{better}{decided}"
        )
    return EXIT_OK
