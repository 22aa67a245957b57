"""`kingdoms score BOARD`: score one epoch on a board string and explain it."""

from __future__ import annotations

import argparse
import json
import re

from engine import pieces
from engine.cli_support import (
    EXIT_OK,
    BadInput,
    add_rules_argument,
    load_rules_file,
    player_count,
)
from engine.geometry import geometry
from engine.notation import BoardSyntaxError, parse_board
from engine.rules import DEFAULT_EDITION, EDITIONS, RulesError, RuleSet
from engine.scoring import Breakdown, score_breakdown

NAME = "score"
HELP = "Score one epoch on a board string (rows separated by '/')."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("board", metavar="BOARD", help="board string, e.g. '+5 A1 . . . . / …'")
    parser.add_argument("--edition", default=DEFAULT_EDITION, choices=EDITIONS)
    parser.add_argument(
        "--players", type=player_count, help="player count (default: seats on the board)"
    )
    parser.add_argument("--json", action="store_true", help="print JSON on stdout")
    add_rules_argument(parser)
    # A board may start with a hazard tile (`-1,A1,…`): a word of '-' then a digit is the board,
    # not an unknown option. Newer argparse versions read such words so; this one is told to.
    parser._negative_number_matcher = re.compile(r"-\.?\d")


def run(args: argparse.Namespace) -> int:
    try:
        rules = load_rules_file(args.rules) if args.rules else RuleSet(edition=args.edition)
        board = parse_board(args.board, rules, args.players)
    except (BoardSyntaxError, RulesError) as error:
        raise BadInput(str(error)) from None
    seats = (
        list(range(args.players))
        if args.players
        else sorted({pieces.castle_seat(p) for p in board if pieces.is_castle(p)})
    )
    players = max(seats, default=0) + 1
    breakdown = score_breakdown(board, max(players, 2), geometry(rules.rows, rules.columns), rules)
    if args.json:
        print(json.dumps(_as_json(breakdown, seats, rules)))
    else:
        print(_explain(breakdown, seats, rules))
    return EXIT_OK


def _as_json(breakdown: Breakdown, seats: list[int], rules: RuleSet) -> dict:
    geo = geometry(rules.rows, rules.columns)
    letter = pieces.SEAT_LETTERS
    return {
        "gold": {letter[s]: breakdown.gold[s] for s in seats},
        "segments": [
            {
                "line": segment.line,
                "cells": [geo.cell_name(c) for c in segment.cells],
                "base": segment.base,
                "gold": {letter[s]: segment.gold[s] for s in seats if segment.ranks[s]},
            }
            for segment in breakdown.segments
        ],
        "castles": [
            {
                "cell": geo.cell_name(c.cell),
                "seat": letter[c.seat],
                "rank": c.rank,
                "effective_rank": c.effective_rank,
                "row_gold": c.row_gold,
                "column_gold": c.column_gold,
            }
            for c in breakdown.castles
        ],
    }


def _explain(breakdown: Breakdown, seats: list[int], rules: RuleSet) -> str:
    geo = geometry(rules.rows, rules.columns)
    letter = pieces.SEAT_LETTERS
    lines = []
    for segment in breakdown.segments:
        earners = [s for s in seats if segment.ranks[s]]
        if not earners:
            continue
        span = f"{geo.cell_name(segment.cells[0])}-{geo.cell_name(segment.cells[-1])}"
        shares = ", ".join(
            f"{letter[s]} rank {segment.ranks[s]} → {segment.gold[s]:+d}" for s in earners
        )
        lines.append(f"{segment.line:<9} {span:<6} base {segment.base:+d}: {shares}")
    lines.append("")
    lines.append("gold: " + ", ".join(f"{letter[s]} {breakdown.gold[s]:+d}" for s in seats))
    return "\n".join(lines)
