"""Recorded games in and out of the lake: `.kgn` files are replayed by the engine before they
enter, and any stored game can be written back out as a record."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import duckdb

from data.lake import Lake
from data.reader import execute
from data.rows import PlayedGame, build_tables
from engine.record import RecordError, read_record_file, record_from_state, write_record
from engine.rules import rule_set
from engine.state import Game

SOURCE = "recorded"


@dataclass
class ImportReport:
    """What an import did: games added, duplicates skipped, and one message per bad file."""

    added: int = 0
    duplicates: int = 0
    errors: list[str] = field(default_factory=list)


def played_from_record(path: str | Path) -> PlayedGame:
    """Read and replay one record (raises RecordError) into a game ready for the lake."""
    record, state = read_record_file(path)
    return PlayedGame(
        players=record.players,
        rules=record.rules,
        history=list(state.history),
        epoch_gains=[list(g) for g in state.epoch_gains],
        players_names=record.names,
        agents=record.agents,
        seed=record.seed,
        tags=dict(record.tags),
        unseen_starts=record.unseen_starts,
    )


def import_records(lake: Lake, paths: Sequence[str | Path]) -> ImportReport:
    """Validate every file; add the good, new games as one `recorded` batch."""
    report = ImportReport()
    games: dict[int, PlayedGame] = {}
    for path in paths:
        try:
            game = played_from_record(path)
        except RecordError as error:
            report.errors.append(error.located(str(path)))
            continue
        except OSError as error:
            report.errors.append(f"{path}:1:1: {error.strerror}")
            continue
        games.setdefault(game.game_id, game)
    known = lake.stored_ids()  # not staged; the commit checks again, under the writer's lock
    fresh = [g for gid, g in games.items() if gid not in known]
    if fresh:
        with lake.staging_run() as run:
            staging = lake.stage_tables(build_tables(fresh, datetime.now(UTC)), run)
            batch = lake.commit(staging, SOURCE)
        report.added = batch.games if batch else 0
    report.duplicates = len(paths) - len(report.errors) - report.added
    return report


def export_record(con: duckdb.DuckDBPyConnection, game_id: int) -> str | None:
    """The stored game as `.kgn` text, or None when no game has that id."""
    found = execute(con, "game_record", {"game_id": game_id})
    if found.is_empty():
        return None
    game = found.row(0, named=True)
    state = Game(game["players"], rule_set(game["edition"], game["variant"])).new_initial_state()
    for action in game["actions"]:
        state.apply_action(action)
    tags = _tags(game["tags"]) if game["source"] == SOURCE else {}
    if not tags:
        tags = {"Source": game["source"]}
        if game["seed"] is not None:
            tags["Seed"] = str(game["seed"])
        for letter, player, agent in zip(
            game["seats"], game["seat_players"], game["seat_agents"], strict=True
        ):
            tags[letter] = player
            if agent:
                tags[f"Agent{letter}"] = agent
    for name in ("Game", "Edition", "Variant", "Result"):
        tags.pop(name, None)
    unseen = {divmod(p, game["players"]) for p in game["unseen_starts"]}
    return write_record(record_from_state(state, tags, {(e + 1, s) for e, s in unseen}))


def _tags(stored: dict[str, str] | list[dict[str, str]] | None) -> dict[str, str]:
    """The stored tag map (Polars gives a list of key/value pairs) as a dict."""
    if isinstance(stored, dict):
        return dict(stored)
    return {pair["key"]: pair["value"] for pair in stored or []}
