"""Recorded games in and out of the lake: records are replayed by the engine before they enter,
and a stored game is written back out as a record from its stored actions."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import duckdb

from data.lake import Lake
from data.played import PlayedGame, PlayedGames
from data.reader import execute
from data.rule_sets import stored_rules
from data.store import store_games
from engine.record import (
    RecordError,
    parse_record,
    read_record_text,
    record_from_state,
    record_text,
    replay_record,
    write_record,
)
from engine.rules import RuleSet
from engine.state import Game
from engine.turns import final_state

SOURCE = "recorded"


@dataclass
class ImportReport:
    """What an import did: games added, duplicates skipped, and one message per bad record."""

    added: int = 0
    duplicates: int = 0
    errors: list[str] = field(default_factory=list)


def played_from_text(text: str, rules: RuleSet | None = None) -> PlayedGame:
    """Parse and replay one record's text (raises RecordError) into a game ready for the lake;
    with `rules`, played by them (a record of a rule-set file's game) rather than its tags'."""
    record = parse_record(text, rules)
    state = replay_record(record)
    return PlayedGame(
        players=record.players,
        rules=record.rules,
        history=list(state.history),
        players_names=record.names,
        agents=record.agents,
        seed=record.seed,
        tags=dict(record.tags),
        unseen_starts=record.unseen_starts,
    )


def played_from_record(path: str | Path, rules: RuleSet | None = None) -> PlayedGame:
    """Read and replay one record file (raises RecordError or OSError)."""
    return played_from_text(read_record_text(path), rules)


Named = Sequence[tuple[str, bytes]]  # (name, contents) of each record


def parse_records(
    named: Named, rules: RuleSet | None = None
) -> tuple[list[tuple[str, PlayedGame]], list[str]]:
    """Records given as (name, contents), each parsed once (with `rules`, played by them, as
    `played_from_text`): the good ones' games by name, a `name:line:col: message` per bad one."""
    games, errors = [], []
    for name, content in named:
        try:
            games.append((name, played_from_text(record_text(content), rules)))
        except RecordError as error:
            errors.append(error.located(name))
    return games, errors


def store_records(lake: Lake, games: Sequence[PlayedGame], errors: list[str]) -> ImportReport:
    """Add the good records' games to the lake as one `recorded` batch."""
    stored = store_games(lake, PlayedGames.of(games), SOURCE)
    return ImportReport(stored.added, stored.duplicates, errors)


def import_records(
    lake: Lake, paths: Sequence[str | Path], rules: RuleSet | None = None
) -> ImportReport:
    """Validate every file; add the good, new games as one `recorded` batch (with `rules`, each
    played by them, as `played_from_text`)."""
    games, errors = [], []
    for path in paths:
        try:
            games.append(played_from_record(path, rules))
        except RecordError as error:
            errors.append(error.located(str(path)))
        except OSError as error:
            errors.append(f"{path}:1:1: {error.strerror}")
    return store_records(lake, games, errors)


def export_record(con: duckdb.DuckDBPyConnection, game_id: int) -> str | None:
    """The stored game as `.kgn` text, or None when no game has that id."""
    found = execute(con, "game_record", {"game_id": game_id})
    if found.is_empty():
        return None
    game = found.row(0, named=True)
    state = final_state(Game(game["players"], stored_rules(game)), list(game["actions"]))
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
