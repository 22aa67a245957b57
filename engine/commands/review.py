"""`kingdoms review FILE.kgn`: every move of a recorded game with its class and its cost."""

from __future__ import annotations

import argparse
import json

from engine import pieces
from engine.cli_support import EXIT_OK, BadInput, load_record, whole_number

NAME = "review"
HELP = "Judge every move of a .kgn record: class (best … blunder), expected loss, best move."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE.kgn", help="game record to review")
    parser.add_argument(
        "--budget",
        type=whole_number,
        help="search iterations per decision (default: the strong agent's 2,000)",
    )
    parser.add_argument("--seed", type=whole_number, default=0, help="seed of the evaluator")
    parser.add_argument("--json", action="store_true", help="print JSON on stdout")


def run(args: argparse.Namespace) -> int:
    from engine.evaluate import DEFAULT_BUDGET, describe, move_reviews  # loads the kernel

    if args.budget is None:
        args.budget = DEFAULT_BUDGET
    if args.budget < 1:
        raise BadInput(f"--budget must be at least 1, not {args.budget}")
    _, state = load_record(args.file)
    game = state.game
    reviews = move_reviews(game, state.history, args.budget, args.seed)
    rows = [
        {
            "epoch": review.epoch,
            "seat": pieces.SEAT_LETTERS[review.seat],
            "move": describe(review.move, game),
            "class": review.quality,
            "loss": round(review.loss, 4),
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
        print(
            f"{row['seat']} {row['move']:<8} {row['class']:<11} loss {row['loss']:.3f}"
            f"  win {row['win_share_before']:.2f}{better}"
        )
    return EXIT_OK
