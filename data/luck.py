"""A stored review's luck and skill per seat: what the tiles a seat met gave or took (its luck,
drawn and dealt), what its own moves gave up (its skill, the sum of their losses of expected
win share), what the other seats' moves did to it, and its luck-adjusted result.

A seat's result minus its expected win share at the even start (1 / players) is split whole:
luck − skill + others, where others is the change of the seat's expected win share between its
own turns that its luck does not account for (the search values a position for the seat to move
only, so the other seats' moves are read from the seat's next turn).
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from engine import pieces

COSTLY = ("inaccuracy", "mistake", "blunder")
SCHEMA = {
    "seat": pl.String,
    "result": pl.Float64,  # the seat's win share
    "start": pl.Float64,  # its expected win share at the even start
    "draw_luck": pl.Float64,
    "deal_luck": pl.Float64,
    "luck": pl.Float64,
    "skill": pl.Float64,  # expected win share its moves gave up (0 for none)
    "others": pl.Float64,
    "adjusted": pl.Float64,  # the luck-adjusted result: result − luck
    "moves": pl.Int64,
    **{quality: pl.Int64 for quality in COSTLY},
}


def own_share() -> pl.Expr:
    """A move's mover's expected win share before it, from the review's `expected` and `seat`."""
    letters = list(pieces.SEAT_LETTERS)
    mover = pl.col("seat").replace_strict(letters, range(len(letters)))
    return pl.col("expected").list.get(mover).cast(pl.Float64)


def luck_sums(moves: pl.DataFrame, by: Sequence[str]) -> pl.DataFrame:
    """Per group of the columns `by`, its moves' drawn and dealt luck, skill (the expected win
    share they gave up), count and costly classes, from review rows with their `own_share`."""
    return moves.group_by(list(by), maintain_order=True).agg(
        pl.col("draw_luck").cast(pl.Float64).sum(),
        pl.col("deal_luck").cast(pl.Float64).sum(),
        (pl.col("own_share") - pl.col("played_value").cast(pl.Float64)).sum().alias("skill"),
        pl.len().cast(pl.Int64).alias("moves"),
        *((pl.col("quality") == quality).sum().cast(pl.Int64).alias(quality) for quality in COSTLY),
    )


def seat_luck(review: pl.DataFrame, results: Sequence[float]) -> pl.DataFrame:
    """Per seat of the game (`results`, its win shares in seat order), its luck, skill, the
    others' part and luck-adjusted result (columns as SCHEMA): the others' part is what of the
    result's change from the even start its luck and skill leave."""
    start = 1.0 / len(results)
    seats = pl.DataFrame(
        {"seat": list(pieces.SEAT_LETTERS[: len(results)]), "result": list(results)},
        schema={"seat": pl.String, "result": pl.Float64},
    )
    sums = luck_sums(review.with_columns(own_share=own_share()), ["seat"])
    table = seats.join(sums, on="seat", how="left").fill_null(0)
    luck = pl.col("draw_luck") + pl.col("deal_luck")
    return (
        table.with_columns(
            start=pl.lit(start, pl.Float64),
            luck=luck,
            others=pl.col("result") - start - luck + pl.col("skill"),
            adjusted=pl.col("result") - luck,
        )
        .select(SCHEMA.keys())
        .cast(SCHEMA)  # type: ignore[arg-type]
    )
