"""Ratings of every agent and named person from the lake's games (engine/ratings.py's
Bradley–Terry fit): agent seats keyed by agent name, people's seats by the player's name; a game
counts only if it seats two different players.
"""

from __future__ import annotations

from collections.abc import Mapping

import duckdb
import polars as pl

from data.reader import execute
from engine.ratings import Placings, fit_ratings

FILTERS = ("edition", "variant", "players", "source", "date_from", "date_to", "rules")
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
WHERE kept(edition, variant, players, level, source, created, rules,
           $edition, $variant, $players, NULL, $source, $date_from, $date_to, $rules)
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
    JOIN filtered_games($edition, $variant, $players, $source, $date_from, $date_to, $rules) g
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


def outcomes(
    con: duckdb.DuckDBPyConnection, filters: Mapping[str, object]
) -> dict[int, dict[Placings, int]]:
    """Per player count, how many of the filtered games ended in each outcome (games of one
    player left out)."""
    params = {name: filters.get(name) for name in FILTERS}
    batches = execute(con, COMPARED_BATCHES, params)["batch_id"].to_list()
    if not batches:
        return {}
    frame = execute(con, OUTCOMES, {**params, "batches": batches})
    counts: dict[int, dict[Placings, int]] = {}
    for players, outcome, games in frame.iter_rows():
        seats = tuple(((seat["person"], seat["name"]), seat["rank"]) for seat in outcome)
        counts.setdefault(players, {})[seats] = games
    return counts


def of_player_count(
    counts: Mapping[int, Mapping[Placings, int]], players: int | None
) -> dict[Placings, int]:
    """The outcome counts of one player count, or of all of them (None)."""
    chosen = counts if players is None else {players: counts.get(players, {})}
    return {outcome: games for per_count in chosen.values() for outcome, games in per_count.items()}


def fit(counts: Mapping[Placings, int]) -> pl.DataFrame:
    """Every player's rating with its 95% half width and interval, the games behind it, its
    group (the players linked to it by games: ratings compare only within one; group 1 holds
    the highest rating) and its rank within that group (1 the strongest), group by group."""
    fitted = fit_ratings(counts)
    if not fitted:
        return pl.DataFrame(schema=SCHEMA)
    frame = pl.DataFrame(
        {
            "player": [r.player[1] for r in fitted],
            "kind": ["person" if r.player[0] else "agent" for r in fitted],
            "rating": [r.rating for r in fitted],
            "half_width": [r.half_width for r in fitted],
            "rating_low": [r.rating - r.half_width for r in fitted],
            "rating_high": [r.rating + r.half_width for r in fitted],
            "games": [r.games for r in fitted],
            "root": [r.group for r in fitted],
        }
    ).sort(["rating", "kind", "player"], descending=[True, False, False])
    numbers = {
        root: number for number, root in enumerate(frame["root"].unique(maintain_order=True), 1)
    }
    return (
        frame.with_columns(
            pl.col("root").replace_strict(numbers, return_dtype=pl.Int64).alias("group")
        )
        .with_columns((pl.int_range(pl.len()).over("group") + 1).cast(pl.Int64).alias("rank"))
        .sort("group", "rank")
        .select(list(SCHEMA))
    )


def ratings(con: duckdb.DuckDBPyConnection, filters: Mapping[str, object]) -> pl.DataFrame:
    """The ratings fitted from the games the filters keep (see `fit`)."""
    return fit(of_player_count(outcomes(con, filters), None))
