"""The replay viewer's speed figures for `kingdoms bench` (medians, server side).

A small lake is built in a temporary folder under the given path; the Replay page runs under
Streamlit's AppTest, so the figures include the page's whole script run, not the browser's drawing.
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from pathlib import Path

import streamlit as st
from streamlit.testing.v1 import AppTest

import dashboard
from dashboard.timeline import Timeline
from data.lake import Lake
from data.reader import connect, execute
from data.review_rows import DEFAULT_SEED, review_game
from data.reviews import save_review
from data.simulate import Plan, simulate
from engine.evaluate import DEFAULT_BUDGET
from engine.rules import rule_set
from engine.state import Game

PAGE = str(Path(dashboard.__file__).with_name("app_pages") / "replay.py")


def _games(lake: Lake) -> list[tuple[int, Timeline]]:
    con = connect(lake)
    ids = execute(con, "SELECT game_id FROM games WHERE players = 3 ORDER BY game_id")["game_id"]
    games = []
    for game_id in ids.to_list():
        row = execute(con, "game_record", {"game_id": game_id}).row(0, named=True)
        game = Game(row["players"], rule_set(row["edition"], row["variant"]))
        games.append((game_id, Timeline(game, list(row["actions"]))))
    return games


def _page(game_id: int, ply: int) -> AppTest:
    app = AppTest.from_file(PAGE, default_timeout=120)
    app.query_params["game"] = str(game_id)
    app.query_params["ply"] = str(ply)
    return app


def _step_ms(game_id: int, steps: int) -> list[float]:
    """The time of each click on Forward, from ply 20 of the game."""
    app = _page(game_id, 20).run()
    times = []
    for _ in range(steps):
        button = app.button(key="replay_forward")
        started = time.perf_counter()
        button.click().run()
        times.append((time.perf_counter() - started) * 1000)
    return times


def replay_figures(
    root: Path, steps: int = 15, opens: int = 5, reviews: int = 3
) -> dict[str, float]:
    """replay_step_ms, replay_step_reviewed_ms (with the evaluation graph), replay_open_game_ms
    and replay_review_game_s (a whole game at the default budget), medians."""
    previous = os.environ.get("KINGDOMS_LAKE")
    with tempfile.TemporaryDirectory(prefix="replay-bench-", dir=root) as folder:
        lake = Lake(folder)
        simulate(lake, Plan(2 * max(opens, reviews), players=(3,), seed=5), progress=False)
        os.environ["KINGDOMS_LAKE"] = folder
        try:
            games = _games(lake)
            open_ms = []
            for game_id, _ in games[:opens]:
                st.cache_resource.clear()
                st.cache_data.clear()
                app = _page(game_id, 40)
                started = time.perf_counter()
                app.run()
                open_ms.append((time.perf_counter() - started) * 1000)
            step_ms = _step_ms(games[0][0], steps)
            review_s = []
            for game_id, timeline in games[:reviews]:
                started = time.perf_counter()
                review = review_game(timeline.game, timeline.actions, DEFAULT_BUDGET, DEFAULT_SEED)
                review_s.append(time.perf_counter() - started)
                save_review(lake, game_id, DEFAULT_BUDGET, DEFAULT_SEED, review)
            reviewed_step_ms = _step_ms(games[0][0], steps)
        finally:
            if previous is None:
                os.environ.pop("KINGDOMS_LAKE", None)
            else:
                os.environ["KINGDOMS_LAKE"] = previous
    return {
        "replay_step_ms": round(statistics.median(step_ms), 1),
        "replay_step_reviewed_ms": round(statistics.median(reviewed_step_ms), 1),
        "replay_open_game_ms": round(statistics.median(open_ms), 1),
        "replay_review_game_s": round(statistics.median(review_s), 2),
    }
