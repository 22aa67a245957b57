"""`kingdoms apprentice`: train the apprentice from the strong search's games (playing those
missing into the lake first), or say how the shipped weights were made."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from data.commands.cluster_options import add_cluster_argument, cluster_executor, cluster_workers
from data.commands.lake_options import add_lake_argument, open_lake_for_writing
from engine.cli_support import EXIT_OK, BadInput, whole_number

NAME = "apprentice"
HELP = (
    "The apprentice, a policy learned from the strong search: `train` it (its games played "
    "into the lake first, resumable), or `info` on the shipped weights."
)


def _sizes(text: str) -> tuple[int, ...]:
    try:
        sizes = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a list of widths like 0,16") from None
    if not sizes or any(size < 0 or size > 256 for size in sizes):
        raise argparse.ArgumentTypeError(f"'{text}': widths are 0 (linear) to 256")
    return sizes


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from data.apprentice import HIDDEN_SIZES, MEASURE_GAMES, PASSES, TEACHER
    from engine.agents.strong import STRONG_ITERATIONS
    from engine.kernel.apprentice import WEIGHTS

    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    train = actions.add_parser(
        "train",
        help="play the strong search's games into the lake, learn from every decision of "
        "theirs, measure each model size against heuristic and greedy, write the weights",
        description="The whole loop: play --games games of the strong search at every seat "
        "into the lake (2, 3 and 4 players in turn; those already there are not played "
        "again, so an interrupted run resumes), describe every decision of every such game "
        "in the lake (and in the corpus, unless --no-corpus), fit a model of each --hidden "
        "width per player count (keeping the point of the fit that plays best against "
        "heuristic at that count), measure each at 2 players against heuristic and greedy "
        "and its speed, and write the cheapest that is not measurably weaker than the "
        "strongest, with the record of how it was made.",
    )
    train.add_argument(
        "--games",
        type=whole_number,
        default=0,
        metavar="N",
        help="strong games to play first (default 0: learn from what is there; about 5 s "
        "a game on one core)",
    )
    train.add_argument(
        "--seed",
        type=whole_number,
        default=1,
        metavar="S",
        help="the games' plan seed, and the fit's and the measure's (default 1)",
    )
    train.add_argument(
        "--learner-games",
        type=whole_number,
        default=0,
        metavar="N",
        help="the next round (Expert Iteration): also play N games of the shipped apprentice "
        "at every seat into the lake (plan --seed) and learn from the strong search's choice "
        "at each of their decisions, searched once and kept in the lake (default 0; about 3 s "
        "a 2-player game on one core; games already at this --seed are not played again, so "
        "a round after new weights takes a new seed)",
    )
    train.add_argument(
        "--label-iterations",
        type=whole_number,
        default=STRONG_ITERATIONS,
        metavar="N",
        help=f"the search's iterations a labelled decision (default {STRONG_ITERATIONS}, strong's)",
    )
    train.add_argument(
        "--teacher",
        default=TEACHER,
        metavar="AGENT",
        help=f"the agent learned from, at every seat of its games (default {TEACHER})",
    )
    train.add_argument(
        "--no-corpus",
        action="store_true",
        help="learn only from the lake's games, not also from the shipped corpus's",
    )
    train.add_argument(
        "--hidden",
        type=_sizes,
        default=HIDDEN_SIZES,
        metavar="W,W",
        help="the model sizes to compare: hidden units, 0 for a linear model (default "
        f"{','.join(map(str, HIDDEN_SIZES))})",
    )
    train.add_argument(
        "--passes",
        type=whole_number,
        default=PASSES,
        metavar="N",
        help=f"passes over the decisions (default {PASSES})",
    )
    train.add_argument(
        "--measure-games",
        type=whole_number,
        default=MEASURE_GAMES,
        metavar="N",
        help=f"2-player games a pairing when measuring (default {MEASURE_GAMES}); each "
        "point of a fit is checked on three times as many",
    )
    train.add_argument(
        "--out",
        type=Path,
        default=WEIGHTS,
        metavar="FILE",
        help="the weights file to write (default: the shipped one)",
    )
    train.add_argument(
        "--workers",
        default="auto",
        metavar="N",
        help="processes playing the games, or with --cluster local its Dask workers "
        "(default: all cores)",
    )
    add_cluster_argument(train)
    add_lake_argument(train)
    info = actions.add_parser("info", help="how a weights file was made, and what it measured")
    info.add_argument("file", nargs="?", type=Path, default=WEIGHTS, help="default: shipped")
    info.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    return _train(args) if args.action == "train" else _info(args)


def _train(args: argparse.Namespace) -> int:
    from data.apprentice import train
    from data.corpus import load_corpus
    from data.simulate import check_agents

    if args.passes < 1 or args.measure_games < 2 or args.label_iterations < 1:
        raise BadInput(
            "--passes and --label-iterations must be at least 1 and --measure-games at least 2"
        )
    check_agents([args.teacher])
    lake = open_lake_for_writing(args)
    corpus = None if args.no_corpus else load_corpus()
    workers = cluster_workers(args)
    with cluster_executor(args, workers) as executor:
        done = train(
            lake,
            args.out,
            games=args.games,
            seed=args.seed,
            corpus=corpus,
            workers=workers,
            executor=executor,
            hidden_sizes=args.hidden,
            passes=args.passes,
            measure_games=args.measure_games,
            teacher=args.teacher,
            learner_games=args.learner_games,
            label_iterations=args.label_iterations,
            say=_say,
        )
    print(
        f"wrote {args.out}: hidden {done.kept}, in {done.total_s:.0f} s (games "
        f"{done.generate_s:.0f} s, decisions {done.describe_s:.0f} s, the rest fitting and "
        "measuring)",
        file=sys.stderr,
    )
    return EXIT_OK


def _say(line: str) -> None:
    print(line, file=sys.stderr)


def _info(args: argparse.Namespace) -> int:
    from engine.kernel.apprentice import load_weights

    weights = load_weights(args.file)
    if args.json:
        print(json.dumps({"file": str(args.file), "hidden": weights.hidden, **weights.made}))
        return EXIT_OK
    made = weights.made
    print(
        f"{args.file}: hidden {weights.hidden}, made {made.get('made_at')} at {made.get('commit')}"
    )
    print(
        f"learned from {made.get('games')} games of {made.get('teacher')} (by player count), "
        f"{made.get('decisions')} decisions, in {made.get('training_s')} s"
    )
    if made.get("learner_games"):
        print(
            f"and from {made['learner_games']} games of the apprentice before it, labelled by "
            f"the search at {made.get('label_iterations')} iterations a decision"
        )
    for figures in made.get("measured", []):
        share, low, high = figures["vs_heuristic"]
        print(
            f"hidden {figures['hidden']}: vs heuristic {share:.3f} [{low:.3f}, {high:.3f}], "
            f"vs greedy {figures['vs_greedy'][0]:.3f}, {figures['games_per_s']:,.0f} games/s, "
            f"kept at {figures.get('kept_at')} of its fit by player count"
        )
    return EXIT_OK
