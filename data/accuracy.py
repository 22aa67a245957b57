"""A stored review's accuracy (engine/accuracy.py) per seat, for the game and per epoch, with
the seat's counts of inaccuracies, mistakes and blunders; each move's accuracy and weight, from
which those are worked out for one game or many at once; and the expected win shares after
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


def move_figures(review: pl.DataFrame) -> pl.DataFrame:
    """One game's review in ply order with each move's `move_accuracy` (0 to 100, from its
    loss) and `weight` (its volatility weight in the game)."""
    ordered = review.sort("ply")
    movers = [pieces.SEAT_LETTERS.index(seat) for seat in ordered["seat"].to_list()]
    weights = move_weights(movers, positions(ordered)) if movers else []
    scores = [move_accuracy(loss) for loss in ordered["loss"]]
    return ordered.with_columns(
        move_accuracy=pl.Series(scores, dtype=pl.Float64),
        weight=pl.Series(weights, dtype=pl.Float64),
    )


def accuracies(moves: pl.DataFrame, by: Sequence[str]) -> pl.DataFrame:
    """Per group of the columns `by` (in order of first appearance), its moves' count, accuracy
    and class counts, from moves with their figures (move_figures, of one game or many)."""
    grouped = moves.group_by(list(by), maintain_order=True).agg(
        pl.col("move_accuracy"),
        pl.col("weight"),
        pl.len().cast(pl.Int64).alias("moves"),
        *((pl.col("quality") == name).sum().cast(pl.Int64).alias(c) for name, c in COUNTED.items()),
    )
    scores = [
        accuracy(scored, weights)
        for scored, weights in zip(
            grouped["move_accuracy"].to_list(), grouped["weight"].to_list(), strict=True
        )
    ]
    return grouped.drop("move_accuracy", "weight").with_columns(
        accuracy=pl.Series(scores, dtype=pl.Float64)
    )


def seat_accuracy(review: pl.DataFrame, epochs: Sequence[int] | None = None) -> pl.DataFrame:
    """Per seat that moved, its accuracy, moves and class counts over the game (epoch null)
    and, given each move's epoch in ply order, in each epoch (columns as SCHEMA)."""
    moves = move_figures(review)
    tables = [accuracies(moves, ["seat"]).with_columns(epoch=pl.lit(None, pl.Int64))]
    if epochs is not None:
        by_epoch = moves.with_columns(epoch=pl.Series(list(epochs), dtype=pl.Int64))
        tables.append(accuracies(by_epoch, ["seat", "epoch"]))
    table = pl.concat([t.select(SCHEMA.keys()).cast(SCHEMA) for t in tables])  # type: ignore[arg-type]
    return table.sort(["seat", pl.col("epoch").fill_null(0)])
