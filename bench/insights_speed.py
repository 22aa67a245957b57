"""The Player page's speed for `kingdoms bench --only insights` (medians, server side): its first
load and a change of player, on a lake of 1,000 reviewed recorded games of 10 named players.

The lake is built once and kept under the given folder: games played by the kernel's heuristic
and greedy agents, 2 to 4 seats each drawn from the 10 names, stored as recorded games in 10
batches, every game reviewed. A review at the default budget takes seconds a game, so these are
made at a small budget (REVIEW_BUDGET) and filed under the default budget the page reads: the
page reads the same rows either way, only the judgements are coarser. The lake's review table
(data/review_table.py), which the page keeps in the lake and brings up to date when reviews
land, is made before the timing (once per lake: about 7 s for these 1,000 games on a loaded
2-core machine), so a first load reads it rather than making it. The page runs under
Streamlit's AppTest, so the figures include the page's whole script run, not a browser's drawing.
"""

from __future__ import annotations

import dataclasses
import os
import statistics
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import streamlit as st
from streamlit.testing.v1 import AppTest

import dashboard
from data.lake import Lake
from data.played import PlayedGames
from data.review_all import pending_reviews, review_job
from data.review_rows import DEFAULT_SEED
from data.review_table import review_table
from data.reviews import save_review
from data.simulate import Plan, plan_games
from data.store import store_games
from engine.cli_support import workers_count
from engine.evaluate import DEFAULT_BUDGET
from engine.executors import LocalExecutor

INSIGHTS_LAKE = "insights"  # the lake's folder under the path the figures are given
APP = str(Path(dashboard.__file__).with_name("streamlit_app.py"))
PAGE = "app_pages/player.py"
PLAYERS = ("Ann", "Bob", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jun")
GAMES = 1_000
BATCHES = 10  # imported at 10 times, so the games span 10 dates
REVIEW_BUDGET = 8  # search iterations a decision for the lake's reviews (see above)
SEED = 39


def insights_lake(path: Path) -> Lake:
    """The lake of GAMES recorded games of PLAYERS, every one reviewed (built when missing)."""
    lake = Lake(path)
    if not lake.batches():
        games = _named(
            plan_games(Plan(GAMES, (2, 3, 4), ("heuristic", "greedy"), seed=SEED), 0, GAMES)
        )
        for part in np.array_split(np.arange(GAMES), BATCHES):
            store_games(lake, games[part], "recorded")
    jobs, _ = pending_reviews(lake, DEFAULT_BUDGET, DEFAULT_SEED)
    cheap = [dataclasses.replace(job, budget=REVIEW_BUDGET) for job in jobs]
    executor = LocalExecutor(workers_count("auto"), agents=("strong",))
    for game_id, review in executor.map_unordered(review_job, cheap):
        save_review(lake, game_id, DEFAULT_BUDGET, DEFAULT_SEED, review)
    return lake


def _named(games: PlayedGames) -> PlayedGames:
    """The games with people's names in their seats, each seat a different player of PLAYERS."""
    rng = np.random.default_rng(SEED)
    line_ups: dict[tuple[str, ...], int] = {}
    line_up = []
    for code in games.setups.code.tolist():
        players = games.setups.distinct[code][0]
        names = tuple(str(name) for name in rng.choice(PLAYERS, size=players, replace=False))
        line_up.append(line_ups.setdefault(names, len(line_ups)))
    return dataclasses.replace(
        games,
        line_ups=[(names, (None,) * len(names)) for names in line_ups],
        line_up=np.array(line_up, dtype=np.int64),
    )


@contextmanager
def _reading(lake: Lake) -> Iterator[None]:
    """The dashboard reading `lake` meanwhile."""
    previous = os.environ.get("KINGDOMS_LAKE")
    os.environ["KINGDOMS_LAKE"] = str(lake.root)
    try:
        yield
    finally:
        if previous is None:
            os.environ.pop("KINGDOMS_LAKE", None)
        else:
            os.environ["KINGDOMS_LAKE"] = previous


def _run(app: AppTest) -> float:
    """Seconds of one run of the page's script, which must not fail."""
    started = time.perf_counter()
    app.run()
    elapsed = time.perf_counter() - started
    if app.exception:
        raise RuntimeError(f"{PAGE}: {app.exception[0].message}")
    return elapsed


def _first_load(player: str) -> float:
    """A fresh session on the player's page over a fresh connection, nothing cached."""
    st.cache_data.clear()
    st.cache_resource.clear()
    app = AppTest.from_file(APP, default_timeout=120).switch_page(PAGE)
    app.query_params["player"] = player
    return _run(app)


def _player_changes(first: str, others: tuple[str, ...]) -> list[float]:
    """Re-render times after choosing each other player in turn, every one a cache miss."""
    st.cache_data.clear()
    st.cache_resource.clear()
    app = AppTest.from_file(APP, default_timeout=120).switch_page(PAGE)
    app.query_params["player"] = first
    _run(app)
    times = []
    for player in others:
        app.selectbox[0].select(player)
        times.append(_run(app))
    return times


def insights_figures(root: Path, repeats: int = 5) -> dict[str, float]:
    """insights_first_load_s (a new session on a player's page, nothing cached) and
    insights_player_change_ms (another player chosen, a cache miss), medians over `repeats`
    players of about 300 games each, on the lake whose reviews are made at REVIEW_BUDGET."""
    lake = insights_lake(root / INSIGHTS_LAKE)
    review_table(lake, DEFAULT_BUDGET, DEFAULT_SEED)  # made once, kept with the lake
    with _reading(lake):
        first = [_first_load(player) for player in PLAYERS[:repeats]]
        changes = _player_changes(PLAYERS[-1], PLAYERS[:repeats])
    return {
        "insights_first_load_s": round(statistics.median(first), 3),
        "insights_player_change_ms": round(1000 * statistics.median(changes), 1),
    }
