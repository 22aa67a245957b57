"""A named player's record across their recorded games, from the engine's stored reviews: each
game's result, accuracy, luck and skill; every reviewed move's loss by kind of move, by epoch (their
habits) and by when in its epoch it came; when the player plays their starting tile and what
that costs; the opponents met and the player's results against them.

The game is the unit of every interval; a player who held two seats of one game counts that
game once, with the mean of the seats (docs/metrics.md, "A player's record").
"""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from data.accuracy import seat_accuracy
from data.lake import Lake
from data.luck import seat_luck
from data.reader import connect, execute
from data.reviews import has_review, load_review
from engine import moves, pieces
from engine.geometry import geometry
from engine.moves import Move
from engine.stats import ratio_interval, wilson_interval

COUNTED = ("inaccuracies", "mistakes", "blunders")
GAME_SCHEMA: dict[str, pl.DataType] = {
    "game_id": pl.Int64(),
    "created": pl.Datetime("ms", "UTC"),
    "players": pl.Int64(),
    "result": pl.Float64(),  # the player's win share
    "reviewed": pl.Boolean(),
    "accuracy": pl.Float64(),  # the rest null when not reviewed
    "luck": pl.Float64(),
    "skill": pl.Float64(),
    "adjusted": pl.Float64(),
    "moves": pl.Int64(),
    "inaccuracies": pl.Int64(),  # the counts of COUNTED
    "mistakes": pl.Int64(),
    "blunders": pl.Int64(),
}
MOVE_SCHEMA = {
    "game_id": pl.Int64,
    "ply": pl.Int64,
    "epoch": pl.Int64,
    "kind": pl.String,  # one of KINDS
    "loss": pl.Float64,  # the expected win share the move gave up
}
TIMINGS = ("early", "middle", "late")  # thirds of the board filled before a move, in its epoch
KINDS = (
    *(f"castle rank {rank}" for rank in pieces.CASTLE_RANKS),
    "drawn tile",
    "starting tile",
    "pass",
)
HABIT_SCHEMA = {
    "kind": pl.String,
    "epoch": pl.Int64,  # null: every epoch
    "moves": pl.Int64,
    "games": pl.Int64,
    "loss": pl.Float64,  # mean expected win share given up a move
    "low": pl.Float64,  # its 95% interval (null from a single game)
    "high": pl.Float64,
    "total": pl.Float64,  # summed over the moves: what the habit cost in all
}
TIMING_SCHEMA = {
    "timing": pl.String,  # one of TIMINGS
    "moves": pl.Int64,
    "games": pl.Int64,
    "loss": pl.Float64,  # as in HABIT_SCHEMA
    "low": pl.Float64,
    "high": pl.Float64,
    "total": pl.Float64,
}
STARTING_SCHEMA = {
    "timing": pl.String,  # one of TIMINGS
    "moves": pl.Int64,  # starting tiles played then
    "games": pl.Int64,
    "share": pl.Float64,  # of all the player's starting tiles played, with its 95% interval
    "share_low": pl.Float64,
    "share_high": pl.Float64,
    "loss": pl.Float64,  # as in HABIT_SCHEMA
    "low": pl.Float64,
    "high": pl.Float64,
    "total": pl.Float64,
}
OPPONENT_SCHEMA = {
    "opponent": pl.String,
    "games": pl.Int64,
    "win_share": pl.Float64,  # the player's mean win share in the games with the opponent
    "low": pl.Float64,
    "high": pl.Float64,
}


@dataclass(frozen=True)
class PlayerRecord:
    """A player's recorded games (GAME_SCHEMA, oldest first), their reviewed moves
    (MOVE_SCHEMA) and the seats of those games, at one review budget and seed."""

    player: str
    games: pl.DataFrame
    moves: pl.DataFrame  # with `timing`, when in its epoch the move came (one of TIMINGS)
    seats: pl.DataFrame  # every seat of the games: game_id, seat, player, win_share

    @property
    def reviewed(self) -> pl.DataFrame:
        """The reviewed games."""
        return self.games.filter(pl.col("reviewed"))


def player_record(lake: Lake, player: str, budget: int, seed: int) -> PlayerRecord:
    """The player's recorded games, each with its review's figures where it has one."""
    con = connect(lake)
    seats = execute(con, "player_seats", {"player": player})
    games: list[dict] = []
    played: list[dict] = []
    for (game_id,), rows in seats.group_by("game_id", maintain_order=True):
        held = rows.filter(pl.col("player") == player)["seat"].to_list()
        results = rows["win_share"].to_list()
        row = {
            "game_id": game_id,
            "created": rows["created"][0],
            "players": rows["players"][0],
            "result": sum(results[pieces.SEAT_LETTERS.index(s)] for s in held) / len(held),
            "reviewed": False,
        }
        review = load_review(lake, int(str(game_id)), budget, seed)
        if review is not None:
            row.update(_reviewed(review, held, results))
            played.extend(_move_losses(review, held, int(str(game_id))))
        games.append(row)
    timing = execute(con, "player_move_timing", {"player": player}).select(
        pl.col("game_id"),
        pl.col("ply").cast(pl.Int64),
        pl.col("third").replace_strict(range(1, len(TIMINGS) + 1), TIMINGS).alias("timing"),
    )
    return PlayerRecord(
        player,
        pl.DataFrame(games, schema=GAME_SCHEMA),
        pl.DataFrame(played, schema=MOVE_SCHEMA).join(timing, on=["game_id", "ply"], how="left"),
        seats.select("game_id", "seat", "player", "win_share"),
    )


def reviewed_count(lake: Lake, player: str, budget: int, seed: int) -> tuple[int, int]:
    """How many of the player's recorded games have a review at this budget and seed, of how
    many: what a review of their games has done so far."""
    ids = set(execute(connect(lake), "player_games", {"player": player})["game_id"].to_list())
    return sum(has_review(lake, game_id, budget, seed) for game_id in ids), len(ids)


def _reviewed(review: pl.DataFrame, held: list[str], results: list[float]) -> dict:
    """A reviewed game's figures for the seats the player held: the mean of the seats, and
    for the counts their sum."""
    accuracy = seat_accuracy(review).filter(pl.col("seat").is_in(held))
    luck = seat_luck(review, results).filter(pl.col("seat").is_in(held))
    scores = accuracy["accuracy"].drop_nulls().to_list()
    return {
        "reviewed": True,
        "accuracy": sum(scores) / len(scores) if scores else None,
        **{
            column: sum(luck[column].to_list()) / len(held)
            for column in ("luck", "skill", "adjusted")
        },
        "moves": sum(accuracy["moves"].to_list()),
        **{column: sum(accuracy[column].to_list()) for column in COUNTED},
    }


def _move_losses(review: pl.DataFrame, held: list[str], game_id: int) -> list[dict]:
    board = geometry()
    return [
        {
            "game_id": game_id,
            "ply": row["ply"],
            "epoch": row["epoch"],
            "kind": move_kind(Move.from_str(row["move"], board)),
            "loss": float(row["best_value"]) - float(row["played_value"]),
        }
        for row in review.sort("ply").iter_rows(named=True)
        if row["seat"] in held
    ]


def move_kind(move: Move) -> str:
    """The kind of a move as a player's habits are grouped (one of KINDS)."""
    if move.kind == moves.CASTLE:
        return f"castle rank {move.rank}"
    if move.kind == moves.DRAW:
        return "drawn tile"
    if move.kind == moves.START:
        return "starting tile"
    return "pass"


def habits(record: PlayerRecord, by_epoch: bool = True) -> pl.DataFrame:
    """The mean loss a move of each kind (and epoch, or every epoch), with its 95% interval
    clustered by game, the costliest in all first (HABIT_SCHEMA)."""
    keys = ["kind", "epoch"] if by_epoch else ["kind"]
    rows = [
        {"kind": key[0], "epoch": key[1] if by_epoch else None, **_losses(group)}
        for key, group in record.moves.group_by(keys)
    ]
    table = pl.DataFrame(rows, schema=HABIT_SCHEMA)
    return table.sort(["total", "kind", "epoch"], descending=[True, False, False])


def loss_by_timing(record: PlayerRecord) -> pl.DataFrame:
    """The mean loss a move made early, in the middle or late in its epoch (by the board's
    cells filled before it), with its 95% interval clustered by game (TIMING_SCHEMA)."""
    rows = [
        {"timing": timing, **_losses(group)}
        for timing in TIMINGS
        if not (group := record.moves.filter(pl.col("timing") == timing)).is_empty()
    ]
    return pl.DataFrame(rows, schema=TIMING_SCHEMA)


def starting_tile_timing(record: PlayerRecord) -> pl.DataFrame:
    """When in its epoch the player plays their starting tile: the share of their starting tiles
    played early, in the middle and late, and the mean loss of those moves, each with its 95%
    interval clustered by game (STARTING_SCHEMA)."""
    starts = record.moves.filter(pl.col("kind") == "starting tile")
    per_game = starts.group_by("game_id").agg(pl.len().alias("starts"))
    rows = []
    for timing in TIMINGS:
        group = starts.filter(pl.col("timing") == timing)
        if group.is_empty():
            continue
        then = per_game.join(
            group.group_by("game_id").agg(pl.len().alias("then")), on="game_id", how="left"
        ).fill_null(0)  # every game with a starting tile played is a group, 0 of them then too
        sums, counts = then["then"].to_list(), then["starts"].to_list()
        share_low, share_high = ratio_interval(sums, counts, 0.0, 1.0) or (None, None)
        rows.append(
            {
                "timing": timing,
                "share": sum(sums) / sum(counts),
                "share_low": share_low,
                "share_high": share_high,
                **_losses(group),
            }
        )
    return pl.DataFrame(rows, schema=STARTING_SCHEMA)


def _losses(moves: pl.DataFrame) -> dict:
    """Moves' count, games, mean loss with its 95% interval clustered by game, and total."""
    per_game = moves.group_by("game_id").agg(pl.col("loss").sum(), pl.len().alias("moves"))
    sums, counts = per_game["loss"].to_list(), per_game["moves"].to_list()
    low, high = ratio_interval(sums, counts, 0.0, 1.0) or (None, None)
    return {
        "moves": moves.height,
        "games": per_game.height,
        "loss": sum(sums) / sum(counts),
        "low": low,
        "high": high,
        "total": sum(sums),
    }


def opponents(record: PlayerRecord) -> pl.DataFrame:
    """Each opponent met, the games together and the player's mean win share in them with its
    95% Wilson interval over those games (OPPONENT_SCHEMA), the most met first."""
    results = dict(zip(record.games["game_id"], record.games["result"], strict=True))
    met = (
        record.seats.filter(pl.col("player") != record.player).select("game_id", "player").unique()
    )
    rows = []
    for (name,), group in met.group_by("player"):
        shares = [results[game_id] for game_id in group["game_id"].to_list()]
        low, high = wilson_interval(sum(shares), len(shares))
        rows.append(
            {
                "opponent": name,
                "games": len(shares),
                "win_share": sum(shares) / len(shares),
                "low": low,
                "high": high,
            }
        )
    table = pl.DataFrame(rows, schema=OPPONENT_SCHEMA)
    return table.sort(["games", "opponent"], descending=[True, False])
