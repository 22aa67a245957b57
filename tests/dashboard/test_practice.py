"""The Practice page: a named player's costliest reviewed moves as puzzles, opened by name from the
URL, an answer judged by the engine, and the progress kept across sessions (a reload)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from streamlit.testing.v1 import AppTest

from data.lake import Lake
from data.practice import player_puzzles, puzzle_position
from data.practice_schedule import load_progress
from data.review_rows import DEFAULT_SEED
from engine.evaluate import DEFAULT_BUDGET
from engine.moves import Move
from tests.dashboard.conftest import APP
from tests.lakes import review_first_game_of, scratch_lake

PAGE = "app_pages/practice.py"
PLAYER = "Bob"  # his moves in the Ann–Bob record include mistakes at the default budget


@pytest.fixture(scope="module")
def lake(tmp_path_factory: pytest.TempPathFactory) -> Lake:
    """The records' lake with the first of the player's games reviewed as the page reads it."""
    lake = scratch_lake(tmp_path_factory.mktemp("practice-page-lake"))
    review_first_game_of(lake, PLAYER)
    return lake


def _open(lake: Lake, monkeypatch: pytest.MonkeyPatch, **query: str) -> AppTest:
    monkeypatch.setenv("KINGDOMS_LAKE", str(lake.root))
    app = AppTest.from_file(APP, default_timeout=180)
    app.query_params.update(query)
    return app.switch_page(PAGE).run()


def _text(app: AppTest) -> str:
    return "\n".join(m.value for m in [*app.markdown, *app.caption, *app.error, *app.success])


def test_a_puzzle_answered_is_judged_and_its_progress_kept_for_the_next_session(
    lake: Lake, monkeypatch: pytest.MonkeyPatch
) -> None:
    puzzles = player_puzzles(lake, PLAYER, DEFAULT_BUDGET, DEFAULT_SEED)
    assert puzzles, "the reviewed game gives the player a costly move"
    first = puzzles[0]
    app = _open(lake, monkeypatch, player=PLAYER)
    assert not app.exception
    text = _text(app)
    assert f"**{len(puzzles)}** puzzles from {PLAYER}'s costliest moves" in text
    assert f"Game {first.game_id}, move {first.ply}" in text
    assert "**0** answered" in text

    position = puzzle_position(lake, first, DEFAULT_SEED)
    played = Move.from_str(first.played, position.game.geometry)
    app.button_group[0].set_value(replace(played, cell=None)).run()  # the palette's action
    cell = next(box for box in app.selectbox if box.label.startswith("Cell"))
    cell.set_value(played.cell).run()
    app.button(key="practice_answer").click().run()
    assert not app.exception
    verdict = "\n".join(e.value for e in app.error)
    assert f"Missed. Your move **{first.played}** gave up **{first.loss:.3f}**" in verdict
    assert "The line it expects" in _text(app)
    card = load_progress(lake, PLAYER).card(first)
    assert (card.box, card.tries, card.solved) == (1, 1, 0)

    again = _open(lake, monkeypatch, player=PLAYER)  # a reload: a new session
    text = _text(again)
    assert "**1** answered" in text and "(box 1: 1)" in text
    assert f"Game {first.game_id}, move {first.ply} " not in text  # it comes back later


def test_a_player_without_reviewed_mistakes_is_told_how_to_get_puzzles(
    lake: Lake, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = _open(lake, monkeypatch, player="Cy")
    assert not app.exception
    (info,) = app.info
    assert "No puzzle yet" in info.value and 'kingdoms review --all --player "Cy"' in info.value
