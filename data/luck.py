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


def seat_luck(review: pl.DataFrame, results: Sequence[float]) -> pl.DataFrame:
    """Per seat of the game (`results`, its win shares in seat order), its luck, skill, the
    others' part and luck-adjusted result (columns as SCHEMA)."""
    players = len(results)
    start = 1.0 / players
    rows = review.sort("ply").rows(named=True)
    table = []
    for seat, result in enumerate(results):
        letter = pieces.SEAT_LETTERS[seat]
        own = [row for row in rows if row["seat"] == letter]
        reached = start  # the seat's expected win share after its last turn, luck included
        others = 0.0
        for row in own:
            before = float(row["expected"][seat])
            others += before - float(row["deal_luck"]) - reached
            given_up = before - float(row["played_value"])
            reached = before - given_up + float(row["draw_luck"])
        others += result - reached
        draw = sum(float(row["draw_luck"]) for row in own)
        deal = sum(float(row["deal_luck"]) for row in own)
        skill = sum(float(row["expected"][seat]) - float(row["played_value"]) for row in own)
        qualities = [row["quality"] for row in own]
        table.append(
            {
                "seat": letter,
                "result": result,
                "start": start,
                "draw_luck": draw,
                "deal_luck": deal,
                "luck": draw + deal,
                "skill": skill,
                "others": others,
                "adjusted": result - draw - deal,
                "moves": len(own),
                **{quality: qualities.count(quality) for quality in COSTLY},
            }
        )
    return pl.DataFrame(table, schema=SCHEMA)
