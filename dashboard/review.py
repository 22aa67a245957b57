"""The engine's review of a whole game as the viewer shows it: one row per move (no Streamlit).

The judging is the engine's evaluator (engine.evaluate): each move from the position before it,
with what the seat to move could know; here its verdicts become the rows the lake caches.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

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
FLAGGED = ("inaccuracy", "mistake", "blunder")  # the moves that cost their player


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
        rows["quality"].append(judged.quality)
        if progress is not None:
            progress(move.ply, timeline.plies)
    return pl.DataFrame(rows, schema=pl.Schema(pl.from_arrow(SCHEMA.empty_table()).schema))


def loss_text(entry: dict) -> str:
    """`loses 12.0 win-share points` (a point is a hundredth of a win)."""
    return f"loses {100 * entry['loss']:.1f} win-share points"


def costly_moves(review: pl.DataFrame) -> list[tuple[int, str]]:
    """The moves that cost their player, largest judged loss first, as (ply, label)."""
    rows = [row for row in review.iter_rows(named=True) if row["quality"] in FLAGGED]
    rows.sort(key=lambda row: (-row["loss"], row["ply"]))
    return [
        (
            row["ply"],
            f"ply {row['ply']} · {row['seat']} {row['move']} · {row['quality']}: " + loss_text(row),
        )
        for row in rows
    ]


@dataclass(frozen=True)
class BoardView:
    """What the replay's board shows at a ply."""

    ply: int  # the position shown: the ply itself, or the one before a flagged move
    board: tuple[int, ...]
    last_cell: int | None  # outlined: the move that led here, or the flagged move's cell
    best: tuple[int, str] | None  # drawn dashed: (cell, label) of the engine's move
    title: str
    caption: str


def board_view(timeline: Timeline, review: pl.DataFrame | None, ply: int) -> BoardView:
    """At a flagged move, the position before it with the engine's alternative; elsewhere the
    position at the ply with the engine's best next move, unless the board is full."""
    position = timeline.positions[ply]
    move = timeline.last_move(ply)
    row = _review_row(review, ply)
    if move is not None and row is not None and row["quality"] in FLAGGED:
        letter = pieces.SEAT_LETTERS[move.seat]
        best = _best_on_board(row, timeline, move.seat)
        instead = (
            f"dashed, the engine's alternative {row['best_move']}"
            if best
            else f"the engine preferred {row['best_move']}"
        )
        return BoardView(
            ply=ply - 1,
            board=timeline.positions[ply - 1].board,
            last_cell=move.move.cell,
            best=best,
            title=f"Epoch {move.epoch} · before move {ply}",
            caption=f"Before move {ply}: {letter} played {move.text} (outlined); {instead}.",
        )
    last_cell = move.move.cell if move is not None else None
    title = f"Epoch {position.epoch} · ply {ply}"
    following = _review_row(review, ply + 1)
    if following is None or position.epoch_end:
        return BoardView(ply, position.board, last_cell, None, title, "")
    best = _best_on_board(following, timeline, timeline.moves[ply].seat)
    if best is None or position.board[best[0]]:
        return BoardView(ply, position.board, last_cell, None, title, "")
    caption = f"Dashed: the engine's best move for the seat to move here ({best[1]})."
    return BoardView(ply, position.board, last_cell, best, title, caption)


def _review_row(review: pl.DataFrame | None, ply: int) -> dict | None:
    if review is None:
        return None
    found = review.filter(pl.col("ply") == ply)
    return found.row(0, named=True) if found.height else None


def _best_on_board(row: dict, timeline: Timeline, seat: int) -> tuple[int, str] | None:
    if row["best_cell"] is None:
        return None
    return timeline.geometry.parse_cell(row["best_cell"]), best_label(row["best_move"], seat)


def first_mover(letter: str, name: str, agent: str | None) -> str:
    """`A Mia moves first`; a seat played by an agent is named by its letter, not the agent."""
    if agent and name == agent:
        return f"{letter} moves first (played by the {agent} agent)"
    return f"{letter} {name} moves first"


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
