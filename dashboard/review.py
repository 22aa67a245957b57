"""The engine's review of a whole game as the viewer shows it: one row per move (no Streamlit).

The judging is the engine's evaluator (engine.evaluate): each move from the position before it,
with what the seat to move could know; here its verdicts become the rows the lake caches.
"""

from __future__ import annotations

from collections.abc import Callable

import polars as pl

from dashboard.timeline import Timeline
from data.reviews import SCHEMA
from engine import pieces
from engine.evaluate import DEFAULT_BUDGET, describe, iter_reviews
from engine.record import parse_record, write_record

DEFAULT_SEED = 1
BADGES = {
    "best": "★ best",
    "excellent": "✓ excellent",
    "good": "good",
    "inaccuracy": "?! inaccuracy",
    "mistake": "? mistake",
    "blunder": "?? blunder",
}


def review_game(
    timeline: Timeline,
    budget: int = DEFAULT_BUDGET,
    seed: int = DEFAULT_SEED,
    progress: Callable[[int, int], None] | None = None,
) -> pl.DataFrame:
    """Judge every move; `progress(done, total)` is called after each one."""
    rows: dict[str, list] = {name: [] for name in SCHEMA.names}
    reviews = iter_reviews(timeline.game, timeline.actions, budget, seed)
    for move, judged in zip(timeline.moves, reviews, strict=True):
        best = judged.best or move.move
        best_value = judged.win_share_before
        rows["ply"].append(move.ply)
        rows["seat"].append(pieces.SEAT_LETTERS[move.seat])
        rows["move"].append(move.text)
        rows["expected"].append(list(judged.win_shares))
        rows["played_value"].append(best_value - judged.loss)
        rows["best_move"].append(describe(best, timeline.game))
        rows["best_cell"].append(
            timeline.geometry.cell_name(best.cell) if best.cell is not None else None
        )
        rows["best_value"].append(best_value)
        rows["loss"].append(judged.loss)
        rows["gold_loss"].append(judged.gold_loss)
        rows["decided"].append(judged.decided)
        rows["quality"].append(judged.quality)
        if progress is not None:
            progress(move.ply, timeline.plies)
    return pl.DataFrame(rows, schema=pl.Schema(pl.from_arrow(SCHEMA.empty_table()).schema))


def move_comment(entry: dict) -> str:
    """A review row as a record comment: `mistake, loses 0.12; best C4 b2`."""
    if entry["quality"] == "best":
        return "best"
    return f"{entry['quality']}, loses {entry['loss']:.2f}; best {entry['best_move']}"


def with_review_comments(record_text: str, review: pl.DataFrame) -> str:
    """The record with each move's judgement written as its comment."""
    record = parse_record(record_text)
    comments = {row["ply"]: move_comment(row) for row in review.iter_rows(named=True)}
    ply = 0
    for epoch in record.epochs:
        for recorded in epoch.moves:
            ply += 1
            if ply in comments:
                recorded.comment = comments[ply]
    return write_record(record)


def best_label(best_move: str, seat: int) -> str:
    """How the engine's best move would look on the board: `B4` for seat B's rank-4 castle
    (`C4 b2`), the tile's value for a tile (`d+5 c3`, `s-2 a1`)."""
    action = best_move.split()[0]
    if action.startswith("C"):
        return f"{pieces.SEAT_LETTERS[seat]}{action[1:]}"
    return action[1:].replace("-", "−")
