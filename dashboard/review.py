"""The engine's review of a whole game for the viewer: one row per move (no Streamlit here).

Each move is judged from the position before it, with what the seat to move could know: the
search values every candidate, the played one included, and the loss of expected win_share
classifies the move (thresholds in the metrics spec). A drawn tile is judged where its
placement was chosen, once the tile was seen.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import polars as pl

from dashboard.timeline import PlyMove, Timeline
from data.reviews import SCHEMA
from engine import pieces
from engine.agents.mcts import search_observation
from engine.record import parse_record, write_record
from engine.state import State

DEFAULT_BUDGET = 400
DEFAULT_SEED = 1
QUALITIES = ("best", "excellent", "good", "inaccuracy", "mistake", "blunder")
_LIMITS = ((0.02, "excellent"), (0.05, "good"), (0.10, "inaccuracy"), (0.20, "mistake"))
BADGES = {
    "best": "★ best",
    "excellent": "✓ excellent",
    "good": "good",
    "inaccuracy": "?! inaccuracy",
    "mistake": "? mistake",
    "blunder": "?? blunder",
}


def quality(loss: float, is_best: bool) -> str:
    """The move-quality class of a loss of expected win_share."""
    if is_best or loss <= 0:
        return "best"
    return next((name for limit, name in _LIMITS if loss <= limit), "blunder")


def _decision(move: PlyMove) -> tuple[State, int]:
    """The state where the move's choice was made and the action chosen there."""
    if move.move.kind == "draw" and len(move.actions) > 1:
        state = move.before.clone()
        for action in move.actions[:-1]:
            state.apply_action(action)
        return state, move.actions[-1]
    return move.before, move.actions[0]


def describe_action(action: int, state: State, timeline: Timeline) -> tuple[str, str | None]:
    """A chosen action as move text and its cell (None for a draw or a pass)."""
    codes = timeline.game.codes
    geometry = timeline.geometry
    cells = codes.cells
    kind, cell = divmod(action, cells)
    if action == codes.draw or action > codes.pass_:
        return "draw", None
    if action == codes.pass_:
        return "pass", None
    name = geometry.cell_name(cell)
    if kind < 4:
        return f"C{kind + 1} {name}", name
    if kind == 4:
        return f"s{pieces.piece_token(state.start_tiles[state.seat])} {name}", name
    return f"d{pieces.piece_token(state.pending_tile)} {name}", name


def review_game(
    timeline: Timeline,
    budget: int = DEFAULT_BUDGET,
    seed: int = DEFAULT_SEED,
    progress: Callable[[int, int], None] | None = None,
) -> pl.DataFrame:
    """Judge every move; `progress(done, total)` is called after each one."""
    rows: dict[str, list] = {name: [] for name in SCHEMA.names}
    total = timeline.plies
    for move in timeline.moves:
        state, played = _decision(move)
        seat = move.seat
        rng = random.Random(seed * 100_003 + move.ply)
        result = search_observation(state.observation(seat), budget, rng, include=[played])
        best = result.best_action
        expected = list(result.win_shares)
        played_value = result.values.get(played, result.win_shares[seat])
        best_value = max(result.values[best], played_value)
        loss = max(0.0, best_value - played_value)
        best_text, best_cell = describe_action(best, state, timeline)
        rows["ply"].append(move.ply)
        rows["seat"].append(pieces.SEAT_LETTERS[seat])
        rows["move"].append(move.text)
        rows["expected"].append(expected)
        rows["played_value"].append(played_value)
        rows["best_move"].append(best_text)
        rows["best_cell"].append(best_cell)
        rows["best_value"].append(best_value)
        rows["loss"].append(loss)
        rows["quality"].append(quality(loss, best == played))
        if progress is not None:
            progress(move.ply, total)
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
