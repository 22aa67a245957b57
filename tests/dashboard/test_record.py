"""Recording a game on the Record page, and uploading records."""

from __future__ import annotations

import copy
from datetime import date

import pytest
from streamlit.testing.v1 import AppTest

from dashboard.access import SHARED
from dashboard.record_data import keep, resume, start_draft
from dashboard.recording import Choice, Recording, RecordingError
from dashboard.text import plain
from data.drafts import list_drafts
from data.importer import played_from_record
from data.lake import Lake
from data.reader import connect, execute
from engine import pieces
from engine.moves import CASTLE, DRAW, PASS, START, IllegalMoveError, Move, MoveSyntaxError
from engine.rules import rule_set
from engine.state import Game
from engine.turns import Turn, walk
from tests.lakes import APP_PAGES, RECORDS, scratch_lake
from tests.random_games import random_game

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


def _pills(app: AppTest, kind: str):
    """The palette's row of one kind of action (castle, draw, start) for the move at hand."""
    return next(g for g in app.button_group if g.key.startswith(f"record_pick_{kind}_"))


def _pick(app: AppTest, move: Move) -> AppTest:
    """Choose a move's action in the palette: a castle rank, a drawn or a starting tile."""
    if move.kind == PASS:
        return app
    choice = (
        Choice(move.kind, rank=move.rank)
        if move.kind == CASTLE
        else Choice(move.kind, tile=move.tile)
    )
    return _pills(app, move.kind).set_value(choice).run()


def _typing_box(app: AppTest):
    return next(s for s in app.selectbox if s.key and s.key.startswith("record_typed_"))


def _type(app: AppTest, text: str) -> AppTest:
    """Enter `text` in the typing box as the browser sends it: a text that is no option of the
    box (what the user typed) is sent as it is."""
    box = _typing_box(app)
    if text not in box.options:
        box.options.append(text)
    return box.set_value(text).run()


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


def _uploader(app: AppTest, key: str):
    return next(u for u in app.get("file_uploader") if u.key == key)


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
    games_before = len(execute(connect(lake), "game_search", {"limit": 10_000}))
    app.button(key="record_save").click().run()  # asks first
    assert "as a recorded game?" in app.warning[0].value
    app.button(key="record_save_no").click().run()
    assert resume(draft_id) is not None and not app.warning
    assert len(execute(connect(lake), "game_search", {"limit": 10_000})) == games_before
    app.button(key="record_save").click().run()
    app.button(key="record_save_yes").click().run()
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
    assert _pills(app, CASTLE).value == Choice(CASTLE, rank=1)  # highlighted
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
    assert _pills(app, CASTLE).value is None


def test_the_palette_holds_ranks_still_held_then_tile_values() -> None:
    recording = Recording.new(rule_set(), ["Ann", "Bob"], first_seat=0)
    recording.play(Move(CASTLE, 0, rank=4))  # A's only rank-4 castle
    recording.play(Move(CASTLE, 1, rank=4))  # B's
    recording.set_starts([pieces.resource(3), None])  # A's starting tile was seen, B's not
    app = _reopen(start_draft(recording))
    assert _pills(app, CASTLE).options == ["C1 ×4", "C2 ×3", "C3 ×2"]  # A has placed its C4
    assert _pills(app, START).options == ["+3"]  # known: the one tile it can be
    _pills(app, START).set_value(Choice(START, tile=pieces.resource(3))).run()
    assert any(c.value == "Action: starting tile +3" for c in app.caption)
    draws = [c for c in recording.choices() if c.kind == DRAW]
    assert _pills(app, DRAW).options == [
        pieces.piece_token(c.tile).replace("-", "−") for c in draws
    ]
    _pills(app, DRAW).set_value(draws[0]).run()  # one action at a time
    assert _pills(app, START).value is None
    assert any(c.value.startswith("Action: drawn tile") for c in app.caption)


def test_an_ended_epoch_stays_on_screen_until_the_table_continues() -> None:
    turns = _turns(seed=5)
    recording = Recording.new(rule_set(), ["Ann", "Bob"], turns[0].seat)
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
    recording = Recording.new(rule_set(), ["Mia", "Noa"], 0, extra_tags={"Date": "2026.11.21"})
    recording.play(Move(CASTLE, 3, rank=2))
    draft_id = start_draft(recording)
    app = AppTest.from_file(PAGE, default_timeout=60).run()
    label = app.button(key=f"record_resume_{draft_id}").label
    assert label.startswith(
        "Resume: " + plain("Mia, Noa · 2026.11.21 · epoch 1, 1 moves · changed ")
    )
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
    uploader = _uploader(app, "record_upload")
    uploader.upload("good.kgn", good, "text/plain")
    uploader.upload("bad.kgn", bad, "text/plain")
    app.run()
    app.button(key="record_import").click().run()
    app.button(key="record_import_yes").click().run()
    assert not app.exception
    summary = next(m.value for m in app.markdown if "Imported" in m.value)
    assert "**1** already in the lake" in summary and "**1** bad" in summary
    assert app.error[0].value.startswith(plain("bad.kgn:"))
    assert plain("expected 'epoch 1'") in app.error[0].value
    game_id = played_from_record(sorted(RECORDS.glob("*.kgn"))[0]).game_id
    links = [m.value for m in app.markdown if "replay?game=" in m.value]
    label = plain(f"Replay good.kgn (game {game_id})")
    assert links == [f"[{label}](replay?game={game_id}&ply=0)"]


def test_recording_refuses_and_keeps_state() -> None:
    recording = Recording.new(rule_set(), ["Ann", "Bob"], first_seat=1)
    with pytest.raises(RecordingError, match="player count"):
        Recording.new(rule_set(), ["Ann"], first_seat=0)
    recording.play(Move(CASTLE, 0, rank=4))
    text = recording.text()
    with pytest.raises(RecordingError, match="a1 is not empty"):
        recording.play(Move(CASTLE, 0, rank=1))
    assert recording.text() == text
    assert recording.seat_to_move == 0
    recording.undo()
    assert recording.moves == [] and recording.seat_to_move == 1


def test_a_typed_move_is_read_and_checked_by_the_engine() -> None:
    """`C1 c3` then Enter records the move; a text the engine's parser refuses, or a move its
    rules refuse, is shown with the engine's own reason and changes nothing."""
    app = AppTest.from_file(PAGE, default_timeout=60).run()
    draft_id = _start(app, ["Ann", "Bob"], 0)
    app = _type(_reopen(draft_id), "C4 c3")
    assert not app.exception
    assert [(m.seat, m.move) for m in resume(draft_id).moves] == [(0, Move(CASTLE, 14, rank=4))]
    assert any(s.value == "A C4 c3 recorded." for s in app.success)
    app = _type(app, "C1 d3")  # B's move
    recording = resume(draft_id)
    before = recording.text()
    geometry = recording.state.geometry

    app = _type(app, "C9 e1")
    with pytest.raises(MoveSyntaxError) as unread:
        Move.from_str("C9 e1", geometry)
    assert any(str(unread.value) in t.value for t in app.text)
    app = _type(app, "C4 e1")  # A has placed its only rank-4 castle
    with pytest.raises(IllegalMoveError) as refused:
        recording.state.clone().apply_move(Move.from_str("C4 e1", geometry))
    assert any(str(refused.value) in e.value for e in app.error)
    assert resume(draft_id).text() == before
    assert _typing_box(app).value is None  # emptied for the next try


def test_the_typing_box_completes_with_exactly_the_legal_moves(lake: Lake) -> None:
    """Mid-game, with a starting tile nobody saw: the box's list is every text of the notation
    that the engine accepts as the next move, and nothing else."""
    turns = _turns(seed=6)
    recording = Recording.new(rule_set(), ["Ann", "Bob"], turns[0].seat)
    for turn in turns[:37]:  # into epoch 2
        recording.play(turn.move)
    app = _reopen(start_draft(recording))
    geometry = recording.state.geometry
    tiles = [pieces.piece_token(t) for t in sorted(set(recording.rules.tiles))]
    actions = [f"C{rank}" for rank in range(1, 5)] + [f"{k}{t}" for k in "ds" for t in tiles]
    texts = [f"{a} {geometry.cell_name(c)}" for a in actions for c in range(geometry.cells)]

    def accepted(text: str) -> bool:
        trial = copy.deepcopy(recording)
        try:
            trial.play(trial.read_move(text))
        except RecordingError:
            return False
        return True

    legal = [text for text in texts + ["pass"] if accepted(text)]
    assert legal and len(legal) < len(texts)
    assert sorted(_typing_box(app).options) == sorted(legal)


def test_a_shared_dashboard_records_nothing_and_imports_nothing(
    lake: Lake, monkeypatch: pytest.MonkeyPatch
) -> None:
    recording = Recording.new(rule_set(), ["Ann", "Bob"], first_seat=0)
    draft_id = start_draft(recording)
    monkeypatch.setenv(SHARED, "1")
    before = sorted((p, p.stat().st_mtime_ns) for p in lake.root.rglob("*"))
    for app in (AppTest.from_file(PAGE, default_timeout=60).run(), _reopen(draft_id)):
        assert not app.exception
        assert not app.get("file_uploader") and not app.get("form")
        assert not [b for b in app.button if b.key and b.key.startswith("record_")]
        assert any("turned off" in i.value for i in app.info)
    assert sorted((p, p.stat().st_mtime_ns) for p in lake.root.rglob("*")) == before


def test_import_asks_first(lake: Lake) -> None:
    record = sorted(RECORDS.glob("*.kgn"))[1]
    app = AppTest.from_file(PAGE, default_timeout=60).run()
    _uploader(app, "record_upload").upload(record.name, record.read_bytes(), "text/plain")
    app.run()
    app.button(key="record_import").click().run()
    assert "Add 1 record(s) to the lake" in app.warning[0].value
    assert not any("Imported" in m.value for m in app.markdown)
    app.button(key="record_import_no").click().run()
    assert not app.warning and not any("Imported" in m.value for m in app.markdown)
    app.button(key="record_import").click().run()
    app.button(key="record_import_yes").click().run()
    assert not app.exception
    assert any("Imported" in m.value for m in app.markdown)


def test_starting_tiles_are_entered_when_seen() -> None:
    draft_id = start_draft(Recording.new(rule_set(), ["Ann", "Bob"], first_seat=0))
    app = _reopen(draft_id)
    app.selectbox(key="record_start_1_0").set_value("+3")
    app.button(key="record_set_starts").click().run()
    assert resume(draft_id).starts() == [pieces.resource(3), None]
    assert any(s.value == "Starting tiles entered." for s in app.success)
    assert _pills(app, START).options == ["+3"]
