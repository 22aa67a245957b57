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

from data.accuracy import accuracies
from data.lake import Lake
from data.luck import luck_sums
from data.reader import connect, execute
from data.review_table import review_table
from data.reviews import has_review
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
    "kind": pl.String,  # one of data/review_table.py's KINDS
    "loss": pl.Float64,  # the expected win share the move gave up
}
TIMINGS = ("early", "middle", "late")  # thirds of the board filled before a move, in its epoch
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
    return record_from(
        player,
        execute(con, "player_seats", {"player": player}),
        execute(con, "player_move_timing", {"player": player}),
        review_table(lake, budget, seed),
    )


def record_from(
    player: str, seats: pl.DataFrame, timing: pl.DataFrame, reviews: pl.DataFrame
) -> PlayerRecord:
    """The player's record from the queries player_seats and player_move_timing and the lake's
    review table at one budget and seed (data/review_table.py)."""
    held = seats.filter(pl.col("player") == player).select("game_id", "seat")
    reviewed = reviews.join(seats.select("game_id").unique(), on="game_id", how="semi")
    own = reviewed.join(held, on=["game_id", "seat"], how="semi")
    timed = timing.select(
        pl.col("game_id"),
        pl.col("ply").cast(pl.Int64),
        pl.col("third").replace_strict(range(1, len(TIMINGS) + 1), TIMINGS).alias("timing"),
    )
    played = own.select(
        "game_id",
        "ply",
        "epoch",
        "kind",
        loss=pl.col("best_value") - pl.col("played_value"),
    ).cast(MOVE_SCHEMA)  # type: ignore[arg-type]
    return PlayerRecord(
        player,
        _games(seats, player, reviewed["game_id"].unique(), own),
        played.join(timed, on=["game_id", "ply"], how="left"),
        seats.select("game_id", "seat", "player", "win_share"),
    )


def _games(
    seats: pl.DataFrame, player: str, reviewed: pl.Series, own: pl.DataFrame
) -> pl.DataFrame:
    """Each game's result and, where reviewed, its figures for the seats the player held (`own`
    their reviewed moves): the mean of the seats, and for the counts their sum."""
    mine = pl.col("player") == player
    games = seats.group_by("game_id", maintain_order=True).agg(
        pl.col("created").first(),
        pl.col("players").first(),
        pl.col("win_share").filter(mine).mean().alias("result"),
        mine.sum().alias("held"),
    )
    by_seat = ["game_id", "seat"]
    scored = (
        accuracies(own, by_seat)
        .group_by("game_id")
        .agg(pl.col("accuracy").mean(), pl.col("moves").sum(), *(pl.col(c).sum() for c in COUNTED))
    )
    lucky = (
        luck_sums(own, by_seat)
        .group_by("game_id")
        .agg((pl.col("draw_luck") + pl.col("deal_luck")).sum().alias("luck"), pl.col("skill").sum())
    )
    counted = ["moves", *COUNTED]
    table = (
        games.join(scored, on="game_id", how="left")
        .join(lucky, on="game_id", how="left")
        .with_columns(reviewed=pl.col("game_id").is_in(reviewed.implode()))
        .with_columns(
            *(pl.when("reviewed").then(pl.col(c).fill_null(0)) for c in [*counted, "luck", "skill"])
        )
        .with_columns(pl.col("luck") / pl.col("held"), pl.col("skill") / pl.col("held"))
        .with_columns(adjusted=pl.col("result") - pl.col("luck"))
    )
    return table.select(GAME_SCHEMA.keys()).cast(GAME_SCHEMA)  # type: ignore[arg-type]


def reviewed_count(lake: Lake, player: str, budget: int, seed: int) -> tuple[int, int]:
    """How many of the player's recorded games have a review at this budget and seed, of how
    many: what a review of their games has done so far."""
    ids = set(execute(connect(lake), "player_games", {"player": player})["game_id"].to_list())
    return sum(has_review(lake, game_id, budget, seed) for game_id in ids), len(ids)


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
