"""Recording a game on the Record page, and uploading records."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from dashboard.record_data import keep, resume
from dashboard.recording import Choice, Recording, RecordingError
from data.drafts import list_drafts
from data.lake import Lake
from data.reader import connect, execute
from engine.moves import CASTLE, Move
from engine.playout import random_game
from engine.state import Game
from engine.turns import Turn, walk
from tests.lakes import APP_PAGES, RECORDS, scratch_lake

PAGE = str(APP_PAGES / "record.py")


@pytest.fixture(scope="module")
def lake(tmp_path_factory: pytest.TempPathFactory) -> Lake:
    return scratch_lake(tmp_path_factory.mktemp("record-lake"))


@pytest.fixture(autouse=True)
def use_lake(lake: Lake, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KINGDOMS_LAKE", str(lake.root))


def _turns(seed: int) -> list[Turn]:
    game = Game(2)
    state = random_game(game, seed)
    return [t for t in walk(game, state.history) if isinstance(t, Turn)]


def _play_in_app(app: AppTest, move: Move) -> AppTest:
    wanted = Choice(move.kind, rank=move.rank, tile=move.tile)
    app.selectbox(key="record_action").set_value(wanted).run()
    app.selectbox(key="record_cell").set_value(move.cell).run()
    return app.button(key="record_play").click().run()


def test_record_a_game_refuse_undo_save_and_find_it(lake: Lake) -> None:
    app = AppTest.from_file(PAGE, default_timeout=60).run()
    assert not app.exception
    app.text_input(key="record_name_A").input("Ann")
    app.text_input(key="record_name_B").input("Bob")
    turns = _turns(seed=4)
    app.radio[0].set_value(2)
    app.selectbox(key="record_first").set_value("AB"[turns[0].seat])
    app.button[0].click().run()
    draft_id = app.query_params["draft"]
    draft_id = draft_id[0] if isinstance(draft_id, list) else draft_id
    assert any(d.draft_id == draft_id for d in list_drafts(lake))

    # The table plays all but the last two moves; the page records the rest.
    recording = resume(draft_id)
    assert recording is not None
    for turn in turns[:-2]:
        recording.play(turn.move)
    keep(draft_id, recording)
    app = AppTest.from_file(PAGE, default_timeout=60)
    app.query_params["draft"] = draft_id
    app.run()
    assert not app.exception

    occupied = next(c for c, piece in enumerate(recording.state.board) if piece)
    free = turns[-2].move
    illegal = (
        Move(CASTLE, occupied, rank=1)
        if recording.state.castles[turns[-2].seat][0]
        else Move(free.kind, occupied, rank=free.rank, tile=free.tile)
    )
    before = resume(draft_id).text()
    app = _play_in_app(app, illegal)
    assert app.error and "is not empty" in app.error[0].value
    assert resume(draft_id).text() == before  # nothing lost, nothing added

    app = _play_in_app(app, turns[-2].move)
    assert app.success and "recorded" in app.success[0].value
    app.button(key="record_undo").click().run()
    assert len(resume(draft_id).moves) == len(turns) - 2
    app = _play_in_app(app, turns[-2].move)
    app = _play_in_app(app, turns[-1].move)
    assert any("The game is over" in s.value for s in app.success)
    app.button(key="record_save").click().run()
    assert not app.exception
    saved = next(s.value for s in app.success if "Saved as game" in s.value)
    game_id = int(saved.split("game ")[1].split()[0])
    found = execute(connect(lake), "game_record", {"game_id": game_id})
    assert found["source"].to_list() == ["recorded"]
    assert found["seat_players"].to_list() == [["Ann", "Bob"]]
    assert resume(draft_id) is None


def test_upload_a_good_and_a_bad_record() -> None:
    good = sorted(RECORDS.glob("*.kgn"))[0].read_bytes()
    bad = good.replace(b"epoch 1", b"epoch 2", 1)
    app = AppTest.from_file(PAGE, default_timeout=60).run()
    uploader = app.get("file_uploader")[0]
    uploader.upload("good.kgn", good, "text/plain")
    uploader.upload("bad.kgn", bad, "text/plain")
    app.run()
    app.button(key="record_import").click().run()
    assert not app.exception
    summary = next(m.value for m in app.markdown if "Imported" in m.value)
    assert "**1** already in the lake" in summary and "**1** bad" in summary
    assert app.error[0].value.startswith("bad.kgn:")
    assert "expected 'epoch 1'" in app.error[0].value


def test_recording_refuses_and_keeps_state() -> None:
    recording = Recording.new("kingdoms-2011", ["Ann", "Bob"], first_seat=1)
    with pytest.raises(RecordingError, match="player count"):
        Recording.new("kingdoms-2011", ["Ann"], first_seat=0)
    recording.play(Move(CASTLE, 0, rank=4))
    text = recording.text()
    with pytest.raises(RecordingError, match="a1 is not empty"):
        recording.play(Move(CASTLE, 0, rank=1))
    assert recording.text() == text
    assert recording.seat_to_move == 0
    recording.undo()
    assert recording.moves == [] and recording.seat_to_move == 1
