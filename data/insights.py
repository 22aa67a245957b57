"""A named player's summary over their recorded games: how many, how many the engine has
reviewed, their accuracy (the mean over reviewed games, the game the unit) and their counts of
costly moves."""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from data.accuracy import COUNTED, seat_accuracy
from data.lake import Lake
from data.reader import connect, execute
from data.reviews import load_review
from engine.accuracy import move_accuracy
from engine.stats import mean_interval

BEST_ACCURACY = move_accuracy(0.0)  # no loss: the top of the scale (100)
WORST_ACCURACY = 0.0


@dataclass(frozen=True)
class Insights:
    """What `kingdoms insights` reports of one player."""

    player: str
    games: int  # recorded games with a seat held by the player
    reviewed: int  # of those, the games reviewed at the budget and seed asked for
    accuracy: float | None  # the mean of the reviewed games' accuracies
    interval: tuple[float, float] | None  # its 95% interval (t, games the unit); None below 2
    moves: int  # the player's moves in the reviewed games
    counts: dict[str, int]  # inaccuracies, mistakes, blunders in the reviewed games


def player_insights(lake: Lake, player: str, budget: int, seed: int) -> Insights:
    """The player's games, reviews (at `budget` and `seed`), accuracy and costly moves."""
    seats = execute(connect(lake), "player_games", {"player": player})
    accuracies = []
    moves = reviewed = 0
    counts = dict.fromkeys(COUNTED.values(), 0)
    game_ids = seats["game_id"].unique(maintain_order=True).to_list()
    for game_id in game_ids:
        review = load_review(lake, game_id, budget, seed)
        if review is None:
            continue
        reviewed += 1
        held = seats.filter(pl.col("game_id") == game_id)["seat"].to_list()
        table = seat_accuracy(review).filter(pl.col("seat").is_in(held))
        moves += int(table["moves"].sum())
        for column in counts:
            counts[column] += int(table[column].sum())
        scores = table["accuracy"].drop_nulls().to_list()
        if scores:
            accuracies.append(sum(scores) / len(scores))
    return Insights(
        player=player,
        games=len(game_ids),
        reviewed=reviewed,
        accuracy=sum(accuracies) / len(accuracies) if accuracies else None,
        interval=mean_interval(accuracies, WORST_ACCURACY, BEST_ACCURACY),
        moves=moves,
        counts=counts,
    )
