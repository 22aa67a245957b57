"""A game's review as the rows the lake caches: one per move, the engine's verdict on it.

The judging is the engine's evaluator (engine.evaluate): each move from the position before it,
with what the seat to move could know. The replay viewer and `kingdoms review --all` both
review through `review_game`, at `DEFAULT_SEED` unless told otherwise.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import cast

import polars as pl

from data.reviews import SCHEMA
from engine import pieces
from engine.evaluate import DEFAULT_BUDGET, describe, iter_reviews
from engine.state import Game
from engine.turns import Turn, walk

DEFAULT_SEED = 1


def review_game(
    game: Game,
    actions: Sequence[int],
    budget: int = DEFAULT_BUDGET,
    seed: int = DEFAULT_SEED,
    progress: Callable[[int, int], None] | None = None,
) -> pl.DataFrame:
    """Judge every move (columns as SCHEMA, ply k the k-th move); `progress(done, total)` is
    called after each one."""
    total = sum(isinstance(item, Turn) for item in walk(game, actions))
    rows: dict[str, list] = {name: [] for name in SCHEMA.names}
    for ply, judged in enumerate(iter_reviews(game, actions, budget, seed), start=1):
        best = judged.best or judged.move
        best_value = judged.win_share_before
        rows["ply"].append(ply)
        rows["seat"].append(pieces.SEAT_LETTERS[judged.seat])
        rows["epoch"].append(judged.epoch)
        rows["move"].append(judged.move.to_str(game.geometry))
        rows["expected"].append(list(judged.win_shares))
        rows["played_value"].append(best_value - judged.win_share_loss)
        rows["best_move"].append(describe(best, game))
        rows["best_cell"].append(
            game.geometry.cell_name(best.cell) if best.cell is not None else None
        )
        rows["best_value"].append(best_value)
        rows["loss"].append(judged.loss)
        rows["gold_loss"].append(judged.gold_loss)
        rows["decided"].append(judged.decided)
        rows["quality"].append(judged.quality)
        rows["draw_luck"].append(judged.draw_luck)
        rows["deal_luck"].append(judged.deal_luck)
        if progress is not None:
            progress(ply, total)
    empty = cast(pl.DataFrame, pl.from_arrow(SCHEMA.empty_table()))
    return pl.DataFrame(rows, schema=empty.schema)
