"""A stored review's accuracy (engine/accuracy.py) per seat, for the game and per epoch, with
the seat's counts of inaccuracies, mistakes and blunders; and the expected win shares after
every move that its weights and the key moments read."""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from engine import pieces
from engine.accuracy import accuracy, move_accuracy, move_weights
from engine.evaluate import latest_shares

COUNTED = {"inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders"}
SCHEMA = {
    "seat": pl.String,
    "epoch": pl.Int64,  # null: the whole game
    "moves": pl.Int64,
    "accuracy": pl.Float64,  # null without a move
    **{column: pl.Int64 for column in COUNTED.values()},
}


def positions(review: pl.DataFrame) -> list[tuple[float, ...]]:
    """Every seat's expected win share after k moves, k = 0 to the review's moves: before each
    move as the review stored it, and after the last as its mover's played value leaves it."""
    rows = review.sort("ply").rows(named=True)
    before = [tuple(float(share) for share in row["expected"]) for row in rows]
    if not rows:
        return []
    last = rows[-1]
    mover = pieces.SEAT_LETTERS.index(last["seat"])
    return [*before, latest_shares(before[-1], mover, float(last["played_value"]))]


def seat_accuracy(review: pl.DataFrame, epochs: Sequence[int] | None = None) -> pl.DataFrame:
    """Per seat that moved, its accuracy, moves and class counts over the game (epoch null)
    and, given each move's epoch in ply order, in each epoch (columns as SCHEMA)."""
    rows = review.sort("ply").rows(named=True)
    if not rows:
        return pl.DataFrame(schema=SCHEMA)
    movers = [pieces.SEAT_LETTERS.index(row["seat"]) for row in rows]
    weights = move_weights(movers, positions(review))
    scores = [move_accuracy(row["loss"]) for row in rows]
    groups: dict[tuple[int, int | None], list[int]] = {}
    for index, seat in enumerate(movers):
        groups.setdefault((seat, None), []).append(index)
        if epochs is not None:
            groups.setdefault((seat, epochs[index]), []).append(index)
    table = []
    for (seat, epoch), chosen in sorted(groups.items(), key=lambda g: (g[0][0], g[0][1] or 0)):
        classes = [rows[i]["quality"] for i in chosen]
        table.append(
            {
                "seat": pieces.SEAT_LETTERS[seat],
                "epoch": epoch,
                "moves": len(chosen),
                "accuracy": accuracy([scores[i] for i in chosen], [weights[i] for i in chosen]),
                **{column: classes.count(name) for name, column in COUNTED.items()},
            }
        )
    return pl.DataFrame(table, schema=SCHEMA)
