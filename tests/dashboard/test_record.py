"""Recording a game on the Record page, and uploading records."""

from __future__ import annotations

from datetime import date

import pytest
from streamlit.testing.v1 import AppTest

from dashboard.record_data import keep, resume, start_draft
from dashboard.recording import Recording, RecordingError
from data.drafts import list_drafts
from data.importer import played_from_record
from data.lake import Lake
from data.reader import connect, execute
from engine import pieces
from engine.moves import CASTLE, DRAW, PASS, Move
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


def _pick(app: AppTest, move: Move) -> AppTest:
    """Choose a move's action on the palette: a castle rank, or the tile's group then value."""
    if move.kind == CASTLE:
        return app.button(key=f"record_pick_castle_{move.rank}").click().run()
    if move.kind == PASS:
        return app
    app.button(key=f"record_pick_{move.kind}").click().run()
    value = f"record_pick_{move.kind}_{move.tile}"
    if any(b.key == value for b in app.button):
        app.button(key=value).click().run()
    return app


def _cell_box(app: AppTest):
    return next(s for s in app.selectbox if s.key and s.key.startswith("record_cell_"))


def _play_in_app(app: AppTest, move: Move) -> AppTest:
    app = _pick(app, move)
    if move.kind != PASS:
        _cell_box(app).set_value(move.cell).run()
    return app.button(key="record_play").click().run()


def _start(app: AppTest, names: list[str], first: int, played_on: date | None = None) -> str:
    app.radio(key="record_players").set_value(len(names)).run()
    for letter, name in zip("ABCD", names, strict=False):
        app.text_input(key=f"record_name_{letter}").input(name)
    app.selectbox(key="record_first").set_value("ABCD"[first])
    if played_on is not None:
        app.date_input(key="record_date").set_value(played_on)
    app.button[0].click().run()
    draft_id = app.query_params["draft"]
    return draft_id[0] if isinstance(draft_id, list) else draft_id


def _reopen(draft_id: str) -> AppTest:
    app = AppTest.from_file(PAGE, default_timeout=60)
    app.query_params["draft"] = draft_id
    return app.run()


def test_record_a_game_undo_save_and_find_it(lake: Lake) -> None:
    app = AppTest.from_file(PAGE, default_timeout=60).run()
    assert not app.exception
    turns = _turns(seed=4)
    draft_id = _start(app, ["Ann", "Bob"], turns[0].seat)
    assert any(d.draft_id == draft_id for d in list_drafts(lake))

    # The table plays all but the last two moves; the page records the rest.
    recording = resume(draft_id)
    assert recording is not None
    for turn in turns[:-2]:
        recording.play(turn.move)
    keep(draft_id, recording)
    app = _reopen(draft_id)
    assert not app.exception

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
    assert any(f"(replay?game={game_id}&ply=0)" in m.value for m in app.markdown)


def test_play_waits_for_a_cell_chosen_for_this_very_move() -> None:
    """After a move nothing is chosen: Play is disabled and says why, so no move lands on a1
    (or any cell) that nobody picked."""
    app = AppTest.from_file(PAGE, default_timeout=60).run()
    draft_id = _start(app, ["Ann", "Bob"], 0)
    app = _reopen(draft_id)
    play = app.button(key="record_play")
    assert play.disabled and any("Choose an action" in c.value for c in app.caption)
    app = _pick(app, Move(CASTLE, None, rank=1))
    assert app.button(key="record_pick_castle_1").proto.type == "primary"  # highlighted
    assert _cell_box(app).value is None
    assert app.button(key="record_play").disabled
    assert any("Choose a cell" in c.value for c in app.caption)
    app = _play_in_app(app, Move(CASTLE, 7, rank=1))
    assert [m.move.cell for m in resume(draft_id).moves] == [7]
    # B's turn: the same action, and again no cell until one is chosen.
    app = _pick(app, Move(CASTLE, None, rank=1))
    assert _cell_box(app).value is None and app.button(key="record_play").disabled
    assert len(resume(draft_id).moves) == 1
    assert "b2" not in _cell_box(app).options  # cell 7, taken
    # Taking A's move back does not bring back what was chosen for it.
    app.button(key="record_undo").click().run()
    assert resume(draft_id).moves == []
    assert app.button(key="record_play").disabled
    assert app.button(key="record_pick_castle_1").proto.type == "secondary"


def test_the_palette_holds_ranks_still_held_then_tile_values() -> None:
    recording = Recording.new("kingdoms-2011", ["Ann", "Bob"], first_seat=0)
    recording.play(Move(CASTLE, 0, rank=4))  # A's only rank-4 castle
    recording.play(Move(CASTLE, 1, rank=4))  # B's
    recording.set_starts([pieces.resource(3), None])  # A's starting tile was seen, B's not
    app = _reopen(start_draft(recording))
    keys = {b.key for b in app.button}
    assert {"record_pick_castle_1", "record_pick_castle_2", "record_pick_castle_3"} <= keys
    assert "record_pick_castle_4" not in keys  # A has placed it
    assert app.button(key="record_pick_castle_1").label == "1 ×4"
    assert app.button(key="record_pick_castle_1").help.endswith("of rank 1, 4 left")
    app.button(key="record_pick_start").click().run()  # known: one click is the whole action
    assert app.button(key="record_pick_start").label == "Starting tile +3"
    assert any(c.value == "Action: starting tile +3" for c in app.caption)
    app.button(key="record_pick_draw").click().run()
    values = [b for b in app.button if b.key and b.key.startswith("record_pick_draw_")]
    assert len(values) == len({c.tile for c in recording.choices() if c.kind == DRAW})
    values[0].click().run()
    assert any(c.value.startswith("Action: drawn tile") for c in app.caption)


def test_an_ended_epoch_stays_on_screen_until_the_table_continues() -> None:
    turns = _turns(seed=5)
    recording = Recording.new("kingdoms-2011", ["Ann", "Bob"], turns[0].seat)
    for turn in turns[:29]:
        recording.play(turn.move)
    draft_id = start_draft(recording)
    app = _play_in_app(_reopen(draft_id), turns[29].move)
    assert not app.exception
    gains = resume(draft_id).last_epoch_gains()
    scored = " · ".join(f"{letter} {g:+d}" for letter, g in zip("AB", gains, strict=True))
    assert any(m.value == f"**Epoch 1 scored:** {scored}" for m in app.markdown)
    assert len(app.dataframe) == 2  # line by line, and tile impacts
    assert not any(b.key == "record_play" for b in app.button)
    app = _reopen(draft_id)  # a reload keeps it on screen too
    assert any(b.key == "record_continue" for b in app.button)
    app.button(key="record_continue").click().run()
    assert any(b.key == "record_play" for b in app.button)
    assert not any("Epoch 1 scored" in m.value for m in app.markdown)


def test_new_game_form_has_a_date_and_only_the_seats_in_play() -> None:
    app = AppTest.from_file(PAGE, default_timeout=60).run()
    app.radio(key="record_players").set_value(2).run()
    seats = [t.label for t in app.text_input if t.label.startswith("Seat")]
    assert seats == ["Seat A", "Seat B"]
    assert app.selectbox(key="record_first").options == ["A", "B"]
    app.radio(key="record_players").set_value(4).run()
    assert [t.label for t in app.text_input if t.label.startswith("Seat")][-1] == "Seat D"
    draft_id = _start(app, ["Ann", "Bob", "Cy"], 1, played_on=date(2026, 11, 20))
    recording = resume(draft_id)
    assert recording.record.tags["Date"] == "2026.11.20"
    assert recording.names == ["Ann", "Bob", "Cy"]


def test_drafts_are_listed_by_players_and_date_and_thrown_away_only_when_confirmed() -> None:
    recording = Recording.new("kingdoms-2011", ["Mia", "Noa"], 0, extra_tags={"Date": "2026.11.21"})
    recording.play(Move(CASTLE, 3, rank=2))
    draft_id = start_draft(recording)
    app = AppTest.from_file(PAGE, default_timeout=60).run()
    label = app.button(key=f"record_resume_{draft_id}").label
    assert label.startswith("Resume: Mia, Noa · 2026.11.21 · epoch 1, 1 moves · changed ")
    assert "[A " not in label
    app = _reopen(draft_id)
    app.button(key="record_discard").click().run()
    assert resume(draft_id) is not None
    assert "cannot be undone" in app.warning[0].value
    app.button(key="record_discard_no").click().run()
    assert resume(draft_id) is not None and not app.warning
    app.button(key="record_discard").click().run()
    app.button(key="record_discard_yes").click().run()
    assert resume(draft_id) is None
    assert not app.exception


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
    game_id = played_from_record(sorted(RECORDS.glob("*.kgn"))[0]).game_id
    links = [m.value for m in app.markdown if "replay?game=" in m.value]
    assert links == [f"[Replay good.kgn (game {game_id})](replay?game={game_id}&ply=0)"]


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
