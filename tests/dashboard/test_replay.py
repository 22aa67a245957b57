"""The replay viewer: open a game by URL at a ply, step, review and jump, pick a game."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from dashboard.review import DEFAULT_BUDGET, DEFAULT_SEED
from dashboard.timeline import Timeline
from data.lake import Lake
from data.reader import connect, execute
from data.reviews import load_review
from engine.rules import rule_set
from engine.state import Game
from tests.lakes import APP_PAGES, scratch_lake

PAGE = str(APP_PAGES / "replay.py")


@pytest.fixture(scope="module")
def lake(tmp_path_factory: pytest.TempPathFactory) -> Lake:
    return scratch_lake(tmp_path_factory.mktemp("replay-lake"))


@pytest.fixture(autouse=True)
def use_lake(lake: Lake, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KINGDOMS_LAKE", str(lake.root))


@pytest.fixture(scope="module")
def game(lake: Lake) -> tuple[int, Timeline]:
    """A simulated 3-player game of the lake and its timeline, read straight from the lake."""
    con = connect(lake)
    row = execute(con, "SELECT game_id FROM games WHERE players = 3 AND source = 'simulated'")
    game_id = row["game_id"][0]
    stored = execute(con, "game_record", {"game_id": game_id}).row(0, named=True)
    rules = rule_set(stored["edition"], stored["variant"])
    return game_id, Timeline(Game(stored["players"], rules), list(stored["actions"]))


def _open(game_id: int, ply: int | str) -> AppTest:
    app = AppTest.from_file(PAGE, default_timeout=60)
    app.query_params["game"] = str(game_id)
    app.query_params["ply"] = str(ply)
    return app.run()


def _gold(app: AppTest) -> list[int]:
    return [int(g) for g in app.dataframe[0].value["gold"].tolist()]


def _board(app: AppTest) -> str:
    """The board chart's Vega-Lite spec (the first chart of the page)."""
    return app.get("vega_lite_chart")[0].proto.spec


def _board_rows(app: AppTest) -> bytes:
    """The board chart's cells, as the page sends them (Arrow)."""
    return app.get("vega_lite_chart")[0].proto.data.data


def test_open_a_game_by_url_at_a_ply(game: tuple[int, Timeline]) -> None:
    game_id, timeline = game
    app = _open(game_id, 30)
    assert not app.exception
    assert app.markdown[0].value.startswith("**Move 30** (epoch 1, turn 30): ")
    assert timeline.moves[29].text in app.markdown[0].value
    assert _gold(app) == list(timeline.positions[30].gold)
    assert app.slider(key="replay_slider").value == 30
    assert any("Epoch 1 scored" in m.value for m in app.markdown)


def test_step_forward_and_back_changes_board_and_gold(game: tuple[int, Timeline]) -> None:
    game_id, timeline = game
    app = _open(game_id, 30)
    board_before, rows_before = _board(app), _board_rows(app)
    app.button(key="replay_forward").click().run()
    assert app.query_params["ply"] == ["31"] or app.query_params["ply"] == "31"
    assert _gold(app) == list(timeline.positions[31].gold)
    assert _board(app) != board_before
    assert _board_rows(app) != rows_before
    app.button(key="replay_back").click().run()
    app.button(key="replay_back").click().run()
    assert app.slider(key="replay_slider").value == 29
    assert _gold(app) == list(timeline.positions[29].gold)
    app.button(key="replay_last").click().run()
    assert _gold(app) == list(timeline.positions[-1].gold)


def test_out_of_range_ply_and_unknown_game_are_handled(game: tuple[int, Timeline]) -> None:
    game_id, timeline = game
    assert _open(game_id, 10_000).slider(key="replay_slider").value == timeline.plies
    assert _open(game_id, "x").slider(key="replay_slider").value == 0
    missing = _open(12345, 3)
    assert not missing.exception
    assert "no game" in missing.warning[0].value


def test_pick_a_game_from_the_search(game: tuple[int, Timeline]) -> None:
    app = AppTest.from_file(PAGE, default_timeout=60).run()
    assert not app.exception
    choice = app.selectbox(key="replay_choice")
    choice.set_value(choice.options and game[0]).run()
    assert app.query_params["game"] in (str(game[0]), [str(game[0])])
    assert app.slider(key="replay_slider").value == 0


@pytest.mark.slow
def test_review_then_jump_to_a_costly_move(lake: Lake, game: tuple[int, Timeline]) -> None:
    game_id, timeline = game
    app = _open(game_id, 5)
    app.button(key="replay_review").click().run()
    assert not app.exception
    review = load_review(lake, game_id, DEFAULT_BUDGET, DEFAULT_SEED)
    assert review is not None and review.height == timeline.plies
    jump = app.selectbox(key="replay_jump")
    target = next(p for p in jump.options if p not in (None, "—"))
    jump.select(target).run()
    ply = int(str(target).split()[1]) if not str(target).isdigit() else int(target)
    assert app.slider(key="replay_slider").value == ply
    assert "loses" in app.markdown[0].value or "best" in app.markdown[0].value
