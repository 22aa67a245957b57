"""A named player's summary over their recorded games: how many, how many the engine has
reviewed, their accuracy, luck and skill (each the mean over reviewed games, the game the unit,
with its 95% interval), their counts of costly moves, their costliest habits and their estimated
strength on the agents' ladder (data/strength.py)."""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from data.lake import Lake
from data.player import COUNTED, PlayerRecord, habits, player_record
from data.strength import BEST_ACCURACY, Strength, player_strength
from engine.stats import mean_interval

WORST_ACCURACY = 0.0
HABITS_SHOWN = 3


@dataclass(frozen=True)
class Figure:
    """A mean over the reviewed games with its 95% interval (None below two games)."""

    mean: float | None
    interval: tuple[float, float] | None


@dataclass(frozen=True)
class Insights:
    """What `kingdoms insights` reports of one player."""

    player: str
    games: int  # recorded games with a seat held by the player
    reviewed: int  # of those, the games reviewed at the budget and seed asked for
    accuracy: Figure  # 0 to 100
    luck: Figure  # expected win share the tiles gave (−1 to 1)
    skill: Figure  # expected win share the player's moves gave up (0 up)
    moves: int  # the player's moves in the reviewed games
    counts: dict[str, int]  # inaccuracies, mistakes, blunders in the reviewed games
    habits: pl.DataFrame  # the costliest kinds of move by epoch (data/player.py's `habits`)
    strength: Strength  # where the player stands on the agents' ladder


def figure(record: PlayerRecord, column: str, low: float, high: float) -> Figure:
    """The mean of a reviewed game's figure over the player's reviewed games."""
    values = record.reviewed[column].drop_nulls().to_list()
    mean = sum(values) / len(values) if values else None
    return Figure(mean, mean_interval(values, low, high))


def player_insights(lake: Lake, player: str, budget: int, seed: int) -> Insights:
    """The player's games, reviews (at `budget` and `seed`), accuracy, luck, skill, costly
    moves, costliest habits and estimated strength."""
    record = player_record(lake, player, budget, seed)
    reviewed = record.reviewed
    return Insights(
        player=player,
        games=record.games.height,
        reviewed=reviewed.height,
        accuracy=figure(record, "accuracy", WORST_ACCURACY, BEST_ACCURACY),
        luck=figure(record, "luck", -1.0, 1.0),
        skill=figure(record, "skill", 0.0, float("inf")),
        moves=sum(reviewed["moves"].to_list()),
        counts={column: sum(reviewed[column].to_list()) for column in COUNTED},
        habits=habits(record).head(HABITS_SHOWN),
        strength=player_strength(lake, record, budget, seed),
    )
