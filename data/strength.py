"""A player's estimated strength: where they stand on the agents' ladder (data/levels.py's
LEVELS), from their mean game accuracy placed among each agent's, every game reviewed at one
budget and seed, and from results, their rating placed among the agents' where games link them
(data/ratings.py). The game is the unit of every mean and interval (docs/metrics.md,
"Estimated strength").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import polars as pl
from duckdb import DuckDBPyConnection

from data.accuracy import accuracies
from data.lake import Lake
from data.levels import LEVELS
from data.player import PlayerRecord
from data.ratings import ratings
from data.reader import connect, execute
from data.review_table import review_table
from engine.accuracy import move_accuracy
from engine.stats import mean_interval

BEST_ACCURACY = move_accuracy(0.0)  # no loss: the top of the scale (100)
SUGGESTED_SAMPLE = 20  # the games of each agent that the hints propose to review


@dataclass(frozen=True)
class Rung:
    """One agent on the ladder: its figure (mean game accuracy, or rating) over `games` games
    with its 95% interval (None below two games); no figure without a game."""

    agent: str
    games: int
    mean: float | None
    interval: tuple[float, float] | None

    def text(self, form: str, unit: str) -> str:
        """e.g. "63.1 (95% interval 51.3 to 74.9, 3 reviewed games)", or "no game yet"."""
        if self.mean is None:
            return f"no {unit} yet"
        games = f"{self.games:,} {unit}{'s' if self.games != 1 else ''}"
        if self.interval is None:
            return f"{self.mean:{form}} ({games}: no interval from one game)"
        low, high = self.interval
        return f"{self.mean:{form}} (95% interval {low:{form}} to {high:{form}}, {games})"


@dataclass(frozen=True)
class Placement:
    """Where a value falls among the agents' figures: the agent just below it (or level with
    it) and the one just above it; None past either end of the ladder."""

    below: str | None
    above: str | None

    def text(self) -> str:
        """e.g. "between greedy and heuristic", "above strong", "below random"."""
        if self.below is None:
            return f"below {self.above}"
        if self.above is None:
            return f"above {self.below}"
        return f"between {self.below} and {self.above}"


@dataclass(frozen=True)
class Estimate:
    """A player's figure placed on the ladder: its mean's placement, and its interval's ends'
    (None below two games)."""

    mean: float
    games: int
    interval: tuple[float, float] | None
    placement: Placement
    low: Placement | None
    high: Placement | None

    def text(self, form: str) -> str:
        """e.g. "between greedy and heuristic (88.1 over 12 games; 95% interval 84.0 to 92.2:
        from between greedy and heuristic to between heuristic and apprentice)"."""
        over = f"{self.mean:{form}} over {self.games:,} game{'s' if self.games != 1 else ''}"
        if self.interval is None or self.low is None or self.high is None:
            return f"{self.placement.text()} ({over}; no interval from one game)"
        low, high = self.interval
        within = (
            f"all of it {self.low.text()}"
            if self.low == self.high
            else f"from {self.low.text()} to {self.high.text()}"
        )
        interval = f"95% interval {low:{form}} to {high:{form}}"
        return f"{self.placement.text()} ({over}; {interval}: {within})"


@dataclass(frozen=True)
class Strength:
    """A player's strength by accuracy and by results, with the ladders behind them (an
    estimate is None where the player or every agent lacks games)."""

    accuracy_ladder: list[Rung]  # every agent of LEVELS, weakest first
    by_accuracy: Estimate | None
    rating_ladder: list[Rung]  # the agents rated with the player (linked by games)
    by_results: Estimate | None


def place(value: float, ladder: Sequence[Rung]) -> Placement:
    """Where `value` falls among the ladder's figures, ordered by figure (agents without one
    left out): a value equal to an agent's counts as reaching it."""
    ordered = sorted((rung.mean, rung.agent) for rung in ladder if rung.mean is not None)
    reached = [agent for mean, agent in ordered if mean <= value]
    beyond = [agent for mean, agent in ordered if mean > value]
    return Placement(reached[-1] if reached else None, beyond[0] if beyond else None)


def estimate(
    mean: float | None, games: int, interval: tuple[float, float] | None, ladder: Sequence[Rung]
) -> Estimate | None:
    """The figure placed on the ladder, or None without a figure or an agent with one."""
    if mean is None or all(rung.mean is None for rung in ladder):
        return None
    if interval is None:
        return Estimate(mean, games, None, place(mean, ladder), None, None)
    low, high = interval
    return Estimate(
        mean, games, interval, place(mean, ladder), place(low, ladder), place(high, ladder)
    )


def accuracy_rung(agent: str, accuracies: Sequence[float]) -> Rung:
    """An agent's mean game accuracy over its reviewed games, with its 95% interval."""
    if not accuracies:
        return Rung(agent, 0, None, None)
    mean = sum(accuracies) / len(accuracies)
    return Rung(agent, len(accuracies), mean, mean_interval(accuracies, 0.0, BEST_ACCURACY))


def agent_accuracies(con: DuckDBPyConnection, reviewed: pl.DataFrame) -> dict[str, list[float]]:
    """Per agent of LEVELS, the accuracy of each of its simulated games in the review table
    `reviewed` (data/review_table.py; the mean of its seats where it held several)."""
    found: dict[str, list[float]] = {agent: [] for agent in LEVELS}
    if reviewed.is_empty():
        return found
    game_ids = reviewed["game_id"].unique().to_list()
    seats = execute(con, "agent_seats", {"game_ids": game_ids, "agents": list(LEVELS)})
    scores = accuracies(reviewed.join(seats, on=["game_id", "seat"]), ["game_id", "agent", "seat"])
    per_game = scores.group_by("game_id", "agent").agg(pl.col("accuracy").drop_nulls().mean())
    for (agent,), games in per_game.drop_nulls("accuracy").group_by("agent"):
        found[str(agent)] = games.sort("game_id")["accuracy"].to_list()
    return found


def rating_ladder(frame: pl.DataFrame, player: str) -> tuple[Rung | None, list[Rung]]:
    """From data/ratings.py's fit: the person's rating and the ladder's agents rated in the
    same group (ratings compare only within one), weakest first."""
    people = frame.filter((pl.col("kind") == "person") & (pl.col("player") == player))
    if people.is_empty():
        return None, []
    row = people.row(0, named=True)
    agents = frame.filter(
        (pl.col("kind") == "agent")
        & pl.col("player").is_in(list(LEVELS))
        & (pl.col("group") == row["group"])
    )
    rungs = {
        r["player"]: Rung(r["player"], r["games"], r["rating"], (r["rating_low"], r["rating_high"]))
        for r in agents.iter_rows(named=True)
    }
    person = Rung(player, row["games"], row["rating"], (row["rating_low"], row["rating_high"]))
    return person, [rungs[agent] for agent in LEVELS if agent in rungs]


@dataclass(frozen=True)
class Ladders:
    """What every player is placed against: each agent's accuracies (agent_accuracies) and the
    lake's ratings (data/ratings.py's fit)."""

    accuracies: dict[str, list[float]]
    ratings: pl.DataFrame


def ladders(lake: Lake, budget: int, seed: int) -> Ladders:
    """The agents' ladders of the lake, at this review budget and seed."""
    con = connect(lake)
    return Ladders(agent_accuracies(con, review_table(lake, budget, seed)), ratings(con, {}))


def player_strength(lake: Lake, record: PlayerRecord, budget: int, seed: int) -> Strength:
    """The player's strength from their reviewed games' accuracy and from their results."""
    return placed(record, ladders(lake, budget, seed))


def placed(record: PlayerRecord, found: Ladders) -> Strength:
    """The player's strength on ladders already worked out (the same for every player)."""
    ladder = [accuracy_rung(agent, found.accuracies[agent]) for agent in LEVELS]
    own = accuracy_rung(record.player, record.reviewed["accuracy"].drop_nulls().to_list())
    person, rated = rating_ladder(found.ratings, record.player)
    by_results = None
    if person is not None:
        by_results = estimate(person.mean, person.games, person.interval, rated)
    return Strength(
        accuracy_ladder=ladder,
        by_accuracy=estimate(own.mean, own.games, own.interval, ladder),
        rating_ladder=rated,
        by_results=by_results,
    )
