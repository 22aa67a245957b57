"""Ratings of every agent and named person, fitted from the lake's games: Bradley–Terry on each
game's pairs of seats (a tie counts a half), with 95% intervals that treat each game as one
observation.

Agent seats are keyed by agent name, people's seats by the player's name. A game counts only
if it seats two different players; pairs of seats of one player carry nothing. The fit is the
posterior mode under a Gaussian prior on each strength (so a perfect record stays finite), on
the Elo scale, each group of players linked by games centred on 1500. Its covariance is the
sandwich H⁻¹ (J + P) H⁻¹ (H the information, J the variance of the games' scores, P the
prior's precision), as the pairs of one game are not independent. The fit depends only on how
many games ended in each outcome, never on their order.
"""

from __future__ import annotations

from collections.abc import Mapping

import duckdb
import numpy as np
import polars as pl

from data.reader import execute
from engine.stats import Z95
from engine.tournament import ELO_BASE, ELO_SCALE

PRIOR_SD = 3.0  # each strength's prior standard deviation, in logits (about 520 rating points)
NEWTON_STEPS = 100
CONVERGED = 1e-10
MAX_STEP = 2.0  # logits per Newton step, so that a near-perfect record converges smoothly
FILTERS = ("edition", "variant", "players", "source", "date_from", "date_to")
SCHEMA = {
    "rank": pl.Int64,
    "player": pl.String,
    "kind": pl.String,
    "rating": pl.Float64,
    "half_width": pl.Float64,
    "rating_low": pl.Float64,
    "rating_high": pl.Float64,
    "games": pl.Int64,
    "group": pl.Int64,
}

# The batches (from the per-batch aggregates) whose kept seats hold two or more players: only
# their seats are read, so a lake of self-play costs no scan of its seats.
COMPARED_BATCHES = """
SELECT batch_id FROM agg_seats
WHERE kept(edition, variant, players, source, created,
           $edition, $variant, $players, $source, $date_from, $date_to)
  AND coalesce(agent, player, '') <> ''
GROUP BY batch_id
HAVING count(DISTINCT (agent IS NULL, coalesce(agent, player))) >= 2
ORDER BY batch_id
"""

# Each game of two or more players as its outcome (the seats' players and ranks, best first),
# and how many games of each player count ended so.
OUTCOMES = """
WITH keyed AS (
    SELECT s.game_id, g.players, s.agent IS NULL AS person, coalesce(s.agent, s.player) AS name,
           s.rank
    FROM _seats s
    JOIN filtered_games($edition, $variant, $players, $source, $date_from, $date_to) g
        USING (game_id)
    WHERE list_contains($batches, s.batch_id) AND list_contains($batches, g.batch_id)
      AND coalesce(s.agent, s.player, '') <> ''
),
outcomes AS (
    SELECT game_id, players, list({'person': person, 'name': name, 'rank': rank}
                                  ORDER BY rank, person, name) AS outcome
    FROM keyed
    GROUP BY game_id, players
    HAVING count(DISTINCT (person, name)) >= 2
)
SELECT players, outcome, count(*) AS games FROM outcomes GROUP BY players, outcome
"""

Outcome = tuple[tuple[tuple[bool, str], float], ...]  # ((person, name), rank) per seat


def outcomes(
    con: duckdb.DuckDBPyConnection, filters: Mapping[str, object]
) -> dict[int, dict[Outcome, int]]:
    """Per player count, how many of the filtered games ended in each outcome (games of one
    player left out)."""
    params = {name: filters.get(name) for name in FILTERS}
    batches = execute(con, COMPARED_BATCHES, params)["batch_id"].to_list()
    if not batches:
        return {}
    frame = execute(con, OUTCOMES, {**params, "batches": batches})
    counts: dict[int, dict[Outcome, int]] = {}
    for players, outcome, games in frame.iter_rows():
        seats = tuple(((seat["person"], seat["name"]), seat["rank"]) for seat in outcome)
        counts.setdefault(players, {})[seats] = games
    return counts


def of_player_count(
    counts: Mapping[int, Mapping[Outcome, int]], players: int | None
) -> dict[Outcome, int]:
    """The outcome counts of one player count, or of all of them (None)."""
    chosen = counts if players is None else {players: counts.get(players, {})}
    return {outcome: games for per_count in chosen.values() for outcome, games in per_count.items()}


def fit(counts: Mapping[Outcome, int]) -> pl.DataFrame:
    """Every player's rating with its 95% half width and interval, the games behind it, its rank
    (1 the strongest) and its group (ratings compare only within one), strongest first."""
    keys = sorted({key for outcome in counts for key, _ in outcome})
    if not keys:
        return pl.DataFrame(schema=SCHEMA)
    index = {key: i for i, key in enumerate(keys)}
    ordered = sorted(counts.items())  # the same sums in the same order: the same figures
    weights = np.array([games for _, games in ordered], dtype=float)
    first, second, score, game = _pairs([outcome for outcome, _ in ordered], index)
    strength, covariance = _posterior(len(keys), weights, first, second, score, game)
    groups = _groups(len(keys), first, second)
    same = (groups[:, None] == groups[None, :]).astype(float)
    centring = np.eye(len(keys)) - same / same.sum(axis=1, keepdims=True)
    covariance = centring @ covariance @ centring.T  # only differences within a group are measured
    played = np.zeros(len(keys))
    for outcome, games in ordered:
        for key in {key for key, _ in outcome}:
            played[index[key]] += games
    half_width = Z95 * ELO_SCALE * np.sqrt(np.diag(covariance))
    rating = ELO_BASE + ELO_SCALE * strength
    frame = pl.DataFrame(
        {
            "player": [name for _, name in keys],
            "kind": ["person" if person else "agent" for person, _ in keys],
            "rating": rating,
            "half_width": half_width,
            "rating_low": rating - half_width,
            "rating_high": rating + half_width,
            "games": played.astype(np.int64),
            "root": groups,
        }
    ).sort(["rating", "kind", "player"], descending=[True, False, False])
    numbers = {
        root: number for number, root in enumerate(frame["root"].unique(maintain_order=True), 1)
    }
    return (
        frame.with_row_index("rank", offset=1)
        .with_columns(pl.col("root").replace_strict(numbers, return_dtype=pl.Int64).alias("group"))
        .cast({"rank": pl.Int64})
        .select(list(SCHEMA))
    )


def _pairs(
    outcomes_: list[Outcome], index: Mapping[tuple[bool, str], int]
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every pair of seats of two different players, per outcome: the better-placed player,
    the other, the first's score (1 ahead, ½ tied) and the outcome's number."""
    rows = []
    for number, outcome in enumerate(outcomes_):
        for i, (ahead, ahead_rank) in enumerate(outcome):
            for behind, behind_rank in outcome[i + 1 :]:
                if ahead != behind:
                    tied = ahead_rank == behind_rank
                    rows.append((index[ahead], index[behind], 0.5 if tied else 1.0, number))
    first, second, score, game = (np.array(column) for column in zip(*rows, strict=True))
    return first.astype(int), second.astype(int), score.astype(float), game.astype(int)


def _posterior(
    players: int,
    weights: np.ndarray,
    first: np.ndarray,
    second: np.ndarray,
    score: np.ndarray,
    game: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """The strengths' posterior mode (Newton's method) and their sandwich covariance."""
    prior = np.eye(players) / PRIOR_SD**2
    strength = np.zeros(players)
    for _ in range(NEWTON_STEPS):
        win = 1 / (1 + np.exp(strength[second] - strength[first]))
        residual = weights[game] * (score - win)
        gradient = _spread(players, first, second, residual) - prior @ strength
        information = _information(players, first, second, weights[game] * win * (1 - win))
        step = np.linalg.solve(information + prior, gradient)
        step *= min(1.0, MAX_STEP / max(np.abs(step).max(), MAX_STEP))
        strength += step
        if np.abs(step).max() < CONVERGED:
            break
    win = 1 / (1 + np.exp(strength[second] - strength[first]))
    per_game = np.zeros((len(weights), players))  # one game's score for each outcome
    np.add.at(per_game, (game, first), score - win)
    np.add.at(per_game, (game, second), win - score)
    spread = per_game.T @ (weights[:, None] * per_game)
    bread = np.linalg.inv(
        _information(players, first, second, weights[game] * win * (1 - win)) + prior
    )
    return strength, bread @ (spread + prior) @ bread


def _groups(players: int, first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """Each player's group: the players linked to it by games (a root player's number)."""
    group = list(range(players))

    def root(i: int) -> int:
        while group[i] != i:
            group[i] = group[group[i]]
            i = group[i]
        return i

    for a, b in zip(first.tolist(), second.tolist(), strict=True):
        group[root(a)] = root(b)
    return np.array([root(i) for i in range(players)])


def _spread(players: int, first: np.ndarray, second: np.ndarray, value: np.ndarray) -> np.ndarray:
    """Each pair's value added to its first player and taken from its second."""
    return np.bincount(first, value, players) - np.bincount(second, value, players)


def _information(
    players: int, first: np.ndarray, second: np.ndarray, weight: np.ndarray
) -> np.ndarray:
    """The pairs' Fisher information: the graph Laplacian of the pairs weighted by p·(1 − p)."""
    matrix = np.zeros((players, players))
    np.add.at(matrix, (first, first), weight)
    np.add.at(matrix, (second, second), weight)
    np.add.at(matrix, (first, second), -weight)
    np.add.at(matrix, (second, first), -weight)
    return matrix


def ratings(con: duckdb.DuckDBPyConnection, filters: Mapping[str, object]) -> pl.DataFrame:
    """The ratings fitted from the games the filters keep (see `fit`)."""
    return fit(of_player_count(outcomes(con, filters), None))
