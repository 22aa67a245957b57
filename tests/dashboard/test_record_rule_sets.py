"""Recording and uploading games of a rule set no edition ships: the lake's rule sets are offered
on the Record page, a draft keeps its rules, and a saved game is stored as following them."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from dashboard.record_data import keep, resume
from dashboard.text import plain
from data.importer import export_record
from data.lake import Lake
from data.reader import connect, execute
from data.simulate import Plan, simulate
from engine import pieces
from engine.rules import rule_text, rules_from_text, rules_hash
from engine.state import Game
from engine.turns import Turn, walk
from tests.lakes import APP_PAGES, SIX_BY_SIX
from tests.random_games import random_game

PAGE = str(APP_PAGES / "record.py")


@pytest.fixture(scope="module")
def lake(tmp_path_factory: pytest.TempPathFactory) -> Lake:
    """Four games of the six-by-six rule set (four epochs, no gold mine) and nothing else."""
    lake = Lake(tmp_path_factory.mktemp("record-rule-sets"))
    simulate(lake, Plan(4, rules=SIX_BY_SIX, seed=5), progress=False)
    return lake


@pytest.fixture(autouse=True)
def use_lake(lake: Lake, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KINGDOMS_LAKE", str(lake.root))


def _uploader(app: AppTest, key: str):
    return next(u for u in app.get("file_uploader") if u.key == key)


def _start(
    app: AppTest,
    choice: str,
    variants: list[str] | None = None,
    rules_file: tuple[str, bytes] | None = None,
) -> AppTest:
    app.radio(key="record_players").set_value(2).run()
    if rules_file is not None:
        _uploader(app, "record_new_rules_file").upload(*rules_file, "text/plain")
    app.selectbox(key="record_rules").set_value(choice)
    if variants:
        app.multiselect[0].set_value(variants)
    app.text_input(key="record_name_A").input("Ann")
    app.text_input(key="record_name_B").input("Bob")
    return app.button[0].click().run()


def test_a_lake_rule_set_is_recorded_kept_saved_and_stored_as_its_own(lake: Lake) -> None:
    six = rules_hash(SIX_BY_SIX)
    app = AppTest.from_file(PAGE, default_timeout=60).run()
    assert not app.exception
    assert app.selectbox(key="record_rules").options == [
        "kingdoms-2011",
        "kingdoms-2002",
        "heller-pfennig",
        "cosmolancer",
        "Six by six (6 × 6, a rule set in the lake)",
    ]

    app = _start(app, six, variants=["no-luck"])
    assert "has its own rules" in app.error[0].value and "draft" not in app.query_params
    app = _start(AppTest.from_file(PAGE, default_timeout=60).run(), six)
    assert not app.exception
    draft_id = app.query_params["draft"]
    draft_id = draft_id[0] if isinstance(draft_id, list) else draft_id
    assert any("Six by six" in c.value for c in app.caption)

    # The table plays a whole game by the rule set; the draft keeps its rules between visits.
    recording = resume(draft_id)
    assert recording is not None and recording.rules == SIX_BY_SIX
    assert recording.state.geometry.cells == 36
    game = Game(2, SIX_BY_SIX)
    for turn in walk(game, random_game(game, seed=9).history):
        if isinstance(turn, Turn):
            recording.play(turn.move)
    keep(draft_id, recording)
    recording = resume(draft_id)
    assert recording.is_over and recording.rules == SIX_BY_SIX

    app = AppTest.from_file(PAGE, default_timeout=60)
    app.query_params["draft"] = draft_id
    app.run()
    app.button(key="record_save").click().run()
    app.button(key="record_save_yes").click().run()
    assert not app.exception
    saved = next(s.value for s in app.success if "Saved as game" in s.value)
    game_id = int(saved.split("game ")[1].split()[0])
    stored = execute(connect(lake), "game_record", {"game_id": game_id})
    assert stored["source"].to_list() == ["recorded"]
    assert stored["rules"].to_list() == [six]
    moves = execute(
        connect(lake), "SELECT epoch, cell, piece FROM moves WHERE game_id = $g", {"g": game_id}
    )
    assert moves["epoch"].max() == 4
    assert moves["cell"].drop_nulls().n_unique() == 36  # (each epoch fills the 6 × 6 board)
    assert pieces.piece_token(pieces.GOLD_MINE) not in set(moves["piece"])


def test_an_upload_of_a_rule_sets_games_needs_its_file(lake: Lake, tmp_path) -> None:
    con = connect(lake)
    game_id = execute(con, "SELECT min(game_id) AS g FROM games")["g"][0]
    record = export_record(con, game_id)
    assert '[Rules "Six by six"]' in record  # (the record only names its rule set)

    app = AppTest.from_file(PAGE, default_timeout=60).run()
    _uploader(app, "record_upload").upload("six.kgn", record.encode(), "text/plain")
    app.run()
    app.button(key="record_import").click().run()
    app.button(key="record_import_yes").click().run()
    assert not app.exception
    assert plain("give its rule-set file") in app.error[0].value

    _uploader(app, "record_upload_rules").upload(
        "bad.toml", b'base = "kingdoms-2011"\nrows = 9\n', "text/plain"
    )
    app.run()
    assert app.error[0].value.startswith(plain("bad.toml:2:"))
    assert not [b for b in app.button if b.key == "record_import"]  # (nothing to import with)

    six_file = rule_text(SIX_BY_SIX).encode()
    _uploader(app, "record_upload_rules").upload("six.toml", six_file, "text/plain")
    app.run()
    assert any("Played by Six by six (6 × 6)" in c.value for c in app.caption)
    app.button(key="record_import").click().run()
    app.button(key="record_import_yes").click().run()
    assert not app.exception and not app.error
    summary = next(m.value for m in app.markdown if "Imported" in m.value)
    assert "**1** already in the lake" in summary and "**0** bad" in summary


def test_a_new_game_may_follow_a_rule_set_file_given_in_the_form() -> None:
    seven = rules_from_text(
        'name = "Seven by five"\nbase = "kingdoms-2011"\nrows = 5\ncolumns = 7\n[tiles]\n"+1" = 4\n'
    )
    app = AppTest.from_file(PAGE, default_timeout=60).run()
    app = _start(app, "kingdoms-2011", rules_file=("bad.toml", b"rows = 9\n"))
    assert app.error[0].value.startswith(plain("bad.toml:"))
    assert "draft" not in app.query_params

    app = AppTest.from_file(PAGE, default_timeout=60).run()
    given = ("seven.toml", rule_text(seven).encode())
    app = _start(app, rules_hash(SIX_BY_SIX), rules_file=given)  # (the file replaces the choice)
    assert not app.exception and not app.error
    draft_id = app.query_params["draft"]
    recording = resume(draft_id[0] if isinstance(draft_id, list) else draft_id)
    assert recording is not None and recording.rules == seven
    assert recording.state.geometry.cells == 35
