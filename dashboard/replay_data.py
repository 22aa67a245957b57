"""The replay viewer's way to the lake: open a game, its cached review, its record to download.

Opening a game replays its actions once into a Timeline, kept in a small shared cache keyed
by the lake's version; reviews are read from and written to the lake (data/reviews.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import polars as pl
import streamlit as st

from dashboard.lake_data import fetch, lake_version
from dashboard.review import with_review_comments
from dashboard.timeline import Timeline
from data.importer import export_record
from data.lake import Lake, lake_path
from data.reader import QueryError, connect
from data.review_rows import review_game
from data.reviews import load_review, save_review
from data.rule_sets import stored_rules
from engine.rulefile import RuleFileError
from engine.rules import RulesError
from engine.state import Game
from engine.tokens import parse_int


@dataclass(frozen=True)
class OpenedGame:
    """A stored game ready to step through."""

    game_id: int
    source: str
    edition: str
    variant: str
    names: tuple[str, ...]
    agents: tuple[str | None, ...]
    timeline: Timeline


def parse_game_id(text: object) -> int | None:
    """A game id from URL or input text (None for anything that is not one)."""
    return parse_int(str(text).strip(), 0, 2**63 - 1)


def open_game(game_id: int) -> OpenedGame | None:
    """The game with this id, or None when the lake has no such game."""
    return _open(lake_version(), game_id)


@st.cache_resource(max_entries=16, show_spinner=False)
def _open(version: str, game_id: int) -> OpenedGame | None:
    try:
        found = fetch("game_record", game_id=game_id)
    except QueryError:
        return None
    if found.is_empty():
        return None
    row = found.row(0, named=True)
    try:
        game = Game(row["players"], stored_rules(row))
    except (RulesError, RuleFileError):
        return None
    names = tuple(row["seat_players"])
    return OpenedGame(
        game_id=game_id,
        source=row["source"],
        edition=row["edition"],
        variant=row["variant"] or "",
        names=names,
        agents=tuple(row["seat_agents"]),
        timeline=Timeline(game, list(row["actions"]), list(names)),
    )


def stored_review(game_id: int, budget: int, seed: int) -> pl.DataFrame | None:
    return load_review(Lake(lake_path()), game_id, budget, seed)


def make_review(
    opened: OpenedGame, budget: int, seed: int, progress: Callable[[int, int], None]
) -> pl.DataFrame:
    """Review the whole game and keep the review in the lake."""
    timeline = opened.timeline
    review = review_game(timeline.game, timeline.actions, budget, seed, progress)
    save_review(Lake(lake_path()), opened.game_id, budget, seed, review)
    return review


def record_text(game_id: int, review: pl.DataFrame | None) -> str:
    """The game as `.kgn`, with the review's judgement as move comments when there is one."""
    text = export_record(connect(Lake(lake_path())), game_id) or ""
    return with_review_comments(text, review) if text and review is not None else text
