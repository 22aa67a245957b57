"""The one way games enter the lake: rows built, aggregates worked out, staged, committed."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from data.aggregates import aggregate_tables
from data.lake import Batch, Lake
from data.played import PlayedGames
from data.rows import build_tables


@dataclass
class Stored:
    """What a write did: games added to the lake, and games left out as already in it."""

    added: int = 0
    duplicates: int = 0


def stage_games(lake: Lake, games: PlayedGames, run: str) -> Path:
    """Stage one batch of games (their rows and aggregates) in a run's staging area."""
    tables = build_tables(games, datetime.now(UTC))
    return lake.stage({**tables, **aggregate_tables(tables)}, run)


def commit(lake: Lake, staging: Path, source: str) -> Batch | None:
    """Commit a staged batch, its aggregates worked out again if some games were stored since."""
    return lake.commit(staging, source, aggregate_tables)


def store_games(lake: Lake, games: PlayedGames, source: str) -> Stored:
    """Add games to the lake as one batch of `source`, leaving out those it already holds."""
    fresh = games.unknown(lake.stored_among(games.ids.tolist()))  # checked again at commit
    stored = Stored(duplicates=len(games))
    if len(fresh):
        with lake.staging_run() as run:
            batch = commit(lake, stage_games(lake, fresh, run), source)
        stored.added = batch.games if batch else 0
        stored.duplicates -= stored.added
    return stored
