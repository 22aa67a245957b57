"""`kingdoms replay FILE.kgn`: check a game record by replaying it, and print the result."""

from __future__ import annotations

import argparse
import json

from engine import pieces
from engine.cli_support import EXIT_OK, add_rules_argument, load_record, load_rules_file
from engine.turns import Turn, walk

NAME = "replay"
HELP = "Check and replay a .kgn game record; print final gold and winners."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE.kgn", help="game record to replay")
    parser.add_argument("--json", action="store_true", help="print JSON on stdout")
    add_rules_argument(parser)


def run(args: argparse.Namespace) -> int:
    rules = load_rules_file(args.rules) if args.rules else None
    record, state = load_record(args.file, rules)
    letters = pieces.SEAT_LETTERS
    gold = {letters[s]: g for s, g in enumerate(state.gold)}
    best = max(state.gold)
    winners = [letters[s] for s, g in enumerate(state.gold) if g == best]
    plies = sum(1 for item in walk(state.game, state.history) if isinstance(item, Turn))
    if args.json:
        print(json.dumps({"gold": gold, "winners": winners, "plies": plies}))
        return EXIT_OK
    names = {letters[s]: record.tags[letters[s]] for s in range(record.players)}
    for number, gains in enumerate(state.epoch_gains, start=1):
        print(f"epoch {number}: " + ", ".join(f"{letters[s]} {g:+d}" for s, g in enumerate(gains)))
    print("final: " + ", ".join(f"{names[k]} ({k}) {v}" for k, v in gold.items()))
    print(f"winner{'s' if len(winners) > 1 else ''}: {', '.join(names[w] for w in winners)}")
    print(f"plies: {plies}")
    return EXIT_OK
