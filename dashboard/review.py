"""The engine's review of a game as the viewer shows it (no Streamlit): badges, the costly
moves, the board at a flagged move, the review as record comments. The rows themselves are
data/review_rows.py's."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import polars as pl

from dashboard.text import plain
from dashboard.timeline import Timeline
from engine import pieces
from engine.evaluate import JUDGED_BY_GOLD
from engine.record import parse_record, write_record

BADGES = {
    "best": "★ best",
    "excellent": "✓ excellent",
    "good": "good",
    "inaccuracy": "?! inaccuracy",
    "mistake": "? mistake",
    "blunder": "?? blunder",
}
FLAGGED = ("inaccuracy", "mistake", "blunder")  # the moves that cost their player
KEY_LOSSES = 3  # the costliest moves marked as key moments
LARGEST_LOSS = "largest loss"
LEAD_CHANGE = "lead change"
MOMENT_SCHEMA = {
    "ply": pl.Int64,
    "player": pl.String,
    "win_share": pl.Float64,
    "moment": pl.String,
    "label": pl.String,
}


def loss_text(entry: dict) -> str:
    """`loses 0.034 win share`: the move's one loss, which its class follows; in a decided game
    it is the gold given up, and the text says so (`loses 0.113 win share (11.3 gold; decided:
    judged by gold lost, 1 gold = 0.01)`)."""
    text = f"loses {entry['loss']:.3f} win share"
    if entry["decided"]:
        return f"{text} ({entry['gold_loss']:.1f} gold; {JUDGED_BY_GOLD})"
    return text


def costly_moves(review: pl.DataFrame) -> list[tuple[int, str]]:
    """The moves that cost their player, largest loss first, as (ply, label)."""
    rows = [row for row in review.iter_rows(named=True) if row["quality"] in FLAGGED]
    rows.sort(key=lambda row: (-row["loss"], row["ply"]))
    return [
        (
            row["ply"],
            f"ply {row['ply']} · {row['seat']} {row['move']} · {row['quality']}: " + loss_text(row),
        )
        for row in rows
    ]


def key_moments(review: pl.DataFrame, players: Sequence[str]) -> pl.DataFrame:
    """The game's key moments as the evaluation graph marks them: its KEY_LOSSES costliest
    flagged moves (on the mover's line), and each ply where the engine's expected leader (one
    seat ahead of all others) is another seat than the last one ahead (on the new leader's
    line); `players` in seat order."""
    rows = review.sort("ply").rows(named=True)
    costly = sorted((r for r in rows if r["quality"] in FLAGGED), key=lambda r: -r["loss"])
    moments = []
    for row in sorted(costly[:KEY_LOSSES], key=lambda r: r["ply"]):
        seat = pieces.SEAT_LETTERS.index(row["seat"])
        label = f"{players[seat]} {row['move']}: {row['quality']}, {loss_text(row)}"
        moments.append((row["ply"], seat, row["expected"][seat], LARGEST_LOSS, label))
    leader = None
    for row in rows:
        shares = row["expected"]
        ahead = [seat for seat, share in enumerate(shares) if share == max(shares)]
        if len(ahead) == 1 and ahead[0] != leader:
            if leader is not None:
                label = f"{players[ahead[0]]} takes the expected lead ({shares[ahead[0]]:.2f})"
                moments.append((row["ply"], ahead[0], shares[ahead[0]], LEAD_CHANGE, label))
            leader = ahead[0]
    frame = pl.DataFrame(
        [(ply, players[seat], share, kind, label) for ply, seat, share, kind, label in moments],
        schema=MOMENT_SCHEMA,
        orient="row",
    )
    return frame.sort("ply", "moment")


def accuracy_table(accuracies: pl.DataFrame, players: Sequence[str]) -> pl.DataFrame:
    """A row per player that moved (`accuracies` as data/accuracy.py's `seat_accuracy`,
    `players` in seat order): the game's accuracy, each epoch's, its moves and class counts."""
    epochs = sorted(e for e in accuracies["epoch"].unique().to_list() if e is not None)
    rows = []
    for seat, letter in enumerate(pieces.SEAT_LETTERS[: len(players)]):
        own = accuracies.filter(pl.col("seat") == letter)
        game = own.filter(pl.col("epoch").is_null())
        if not game.height:
            continue
        whole = game.row(0, named=True)
        by_epoch = {row["epoch"]: row["accuracy"] for row in own.iter_rows(named=True)}
        rows.append(
            {
                "player": players[seat],
                "accuracy": whole["accuracy"],
                **{f"epoch {epoch}": by_epoch.get(epoch) for epoch in epochs},
                "moves": whole["moves"],
                "inaccuracies": whole["inaccuracies"],
                "mistakes": whole["mistakes"],
                "blunders": whole["blunders"],
            }
        )
    return pl.DataFrame(rows)


NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
EVEN = 0.005  # a share of a win this small reads as none


def luck_verdict(name: str, luck: dict) -> str:
    """One line of what the tiles and the player's own moves gave or cost them in a game
    (`luck`: a row of data/luck.py's `seat_luck`), e.g. "B lost 0.31 of a win to the tiles
    and 0.12 to their moves (two mistakes)"."""
    drawn = luck["luck"]
    if drawn <= -EVEN:
        tiles = f"lost {-drawn:.2f} of a win to the tiles"
    elif drawn >= EVEN:
        tiles = f"gained {drawn:.2f} of a win from the tiles"
    else:
        tiles = "broke even on the tiles"
    costly = [(luck[q], q) for q in reversed(FLAGGED) if luck[q]]
    parts = [f"{_count(n)} {_plural(q, n)}" for n, q in costly]
    named = " and ".join([", ".join(parts[:-1]), parts[-1]] if len(parts) > 2 else parts)
    moves = f"{luck['skill']:.2f} to their moves" if luck["skill"] >= EVEN else "nothing"
    if named:
        moves += f" ({named})"
    elif luck["skill"] < EVEN:
        moves += " to their moves"
    adjusted = round(luck["adjusted"], 2) + 0.0  # never "-0.00"
    return (
        f"{plain(name)} {tiles} and {moves}: a result of {luck['result']:.2f} of a win, "
        f"{adjusted:.2f} without the luck."
    )


def _count(n: int) -> str:
    return NUMBER_WORDS[n] if n < len(NUMBER_WORDS) else f"{n:,}"


def _plural(quality: str, n: int) -> str:
    if n == 1:
        return quality
    return "inaccuracies" if quality == "inaccuracy" else f"{quality}s"


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
    """`A Mia moves first`, for Markdown (the name as its characters); a seat played by an agent
    is named by its letter, not the agent."""
    if agent and name == agent:
        return f"{letter} moves first (played by the {plain(agent)} agent)"
    return f"{letter} {plain(name)} moves first"


def move_comment(entry: dict) -> str:
    """A review row as a record comment: `mistake, loses 0.120 win share; best C4 b2`."""
    if entry["quality"] == "best":
        return "best"
    return f"{entry['quality']}, {loss_text(entry)}; best {entry['best_move']}"


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
