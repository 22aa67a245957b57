"""Record a game at the table, move by move, every move checked by the engine; or upload
`.kgn` records. The game in progress is kept in the lake as a draft (`?draft=ID`), so a page
reload loses nothing."""

from __future__ import annotations

import altair as alt
import streamlit as st

from dashboard.board_chart import board_chart, board_frame
from dashboard.record_data import (
    Upload,
    drafts,
    forget,
    import_texts,
    keep,
    resume,
    save_recording,
    start_draft,
)
from dashboard.recording import Choice, Recording, RecordingError
from engine import pieces
from engine.rules import DEFAULT_EDITION, DISPLAY_NAMES, EDITIONS, VARIANTS, RuleSet

SEATS = pieces.SEAT_LETTERS
UNKNOWN = "?"


def flash(kind: str, message: str) -> None:
    """A message to show after the rerun that follows a change."""
    st.session_state["record_flash"] = (kind, message)


def show_flash() -> None:
    kind, message = st.session_state.pop("record_flash", (None, None))
    if kind:
        getattr(st, kind)(message)


def new_game_form() -> None:
    st.subheader("Record a new game")
    with st.form("record_new"):
        edition = st.selectbox("Edition", EDITIONS, index=EDITIONS.index(DEFAULT_EDITION))
        variants = st.multiselect("Variants", VARIANTS)
        count = st.radio("Players", [2, 3, 4], index=1, horizontal=True)
        names = [
            st.text_input(f"Seat {letter}", key=f"record_name_{letter}", placeholder="name")
            for letter in SEATS
        ]
        first = st.selectbox("Who starts", list(SEATS), key="record_first")
        site = st.text_input("Where", placeholder="Kitchen table")
        started = st.form_submit_button("Start recording", type="primary")
    if started:
        try:
            recording = Recording.new(
                edition,
                names[:count],
                SEATS.index(first),
                ",".join(variants),
                {"Site": site},
            )
        except RecordingError as error:
            st.error(str(error))
            return
        st.query_params["draft"] = start_draft(recording)
        st.rerun()


def draft_list() -> None:
    found = drafts()
    if not found:
        return
    st.subheader("Games being recorded")
    for draft in found[:10]:
        first_line = next(
            (line for line in draft.record.splitlines() if line.startswith("[A ")), ""
        )
        label = f"Resume {draft.draft_id} · {first_line} · changed {draft.updated:%Y-%m-%d %H:%M}"
        if st.button(label, key=f"record_resume_{draft.draft_id}"):
            st.query_params["draft"] = draft.draft_id
            st.rerun()


def starts_editor(draft_id: str, recording: Recording) -> None:
    """The current epoch's starting tiles, entered when known."""
    tiles = [UNKNOWN] + [pieces.piece_token(t) for t in sorted(set(recording.rules.tiles))]
    current = recording.starts()
    columns = st.columns(recording.players + 1)
    chosen = []
    for seat, column in enumerate(columns[:-1]):
        known = current[seat]
        value = pieces.piece_token(known) if known else UNKNOWN
        chosen.append(
            column.selectbox(
                f"{SEATS[seat]} {recording.names[seat]}",
                tiles,
                index=tiles.index(value),
                key=f"record_start_{recording.epoch}_{seat}",
            )
        )
    if columns[-1].button("Set starting tiles", key="record_set_starts"):
        wanted = [None if t == UNKNOWN else pieces.parse_tile(t) for t in chosen]
        try:
            recording.set_starts(wanted)
        except RecordingError as error:
            flash("error", f"Refused: {error}")
        else:
            keep(draft_id, recording)
            flash("success", "Starting tiles entered.")
        st.rerun()


def play(draft_id: str, recording: Recording, choice: Choice, cell: int | None) -> None:
    """Try one move; refused moves leave the recording as it was."""
    seat = recording.seat_to_move
    move = choice.move(cell)
    text = move.to_str(recording.state.geometry)
    try:
        recording.play(move)
    except RecordingError as error:
        flash("error", f"Refused {SEATS[seat or 0]} {text}: {error}")
        return
    keep(draft_id, recording)
    flash("success", f"{SEATS[seat or 0]} {text} recorded.")


def move_entry(draft_id: str, recording: Recording) -> None:
    names = DISPLAY_NAMES[recording.rules.edition]
    seat = recording.seat_to_move
    assert seat is not None
    choices = recording.choices()
    st.markdown(
        f"**Epoch {recording.epoch}** · to move: "
        f":{_colour(seat)}-badge[{SEATS[seat]} {recording.names[seat]}]"
    )
    choice = st.selectbox(
        "Action",
        choices,
        format_func=lambda c: c.label(names),
        key="record_action",
    )
    geometry = recording.state.geometry
    board = recording.state.board
    empties = [c for c, piece in enumerate(board) if not piece]
    if choice is not None and choice.kind != "pass":
        cell = st.selectbox(
            "Cell (or click it on the board)",
            empties + [c for c, piece in enumerate(board) if piece],
            format_func=lambda c: geometry.cell_name(c) + (" (taken)" if board[c] else ""),
            key="record_cell",
        )
    else:
        cell = None
    if st.button("Play", key="record_play", type="primary", disabled=choice is None):
        play(draft_id, recording, choice, cell)
        st.rerun()
    st.session_state["record_choice"] = choice


def _colour(seat: int) -> str:
    return ("red", "blue", "green", "violet")[seat]


def board(draft_id: str, recording: Recording) -> None:
    """The board as it stands; a click on an empty cell plays the chosen action there."""
    state = recording.state
    moves = recording.record.epochs[-1].moves
    last = moves[-1].move.cell if moves else None
    cells = board_frame(state.board, state.geometry, recording.rules.edition, last_cell=last)
    key = f"record_board_{len(recording.moves)}_{recording.epoch}"

    def clicked() -> None:
        picked = (st.session_state[key].selection or {}).get("cell") or []
        choice = st.session_state.get("record_choice")
        if picked and choice is not None and not recording.is_over:
            play(draft_id, recording, choice, state.geometry.parse_cell(picked[0]["cell"]))

    chart = board_chart(cells).add_params(
        alt.selection_point(name="cell", fields=["cell"], on="click")
    )
    st.altair_chart(chart, on_select=clicked, selection_mode="cell", key=key)


def gold_line(recording: Recording) -> None:
    gold = recording.state.gold
    parts = [f"{SEATS[s]} {recording.names[s]}: {g}" for s, g in enumerate(gold)]
    st.caption("Gold — " + " · ".join(parts))
    gains = recording.last_epoch_gains()
    if gains is not None:
        scored = " · ".join(f"{SEATS[s]} {g:+d}" for s, g in enumerate(gains))
        st.caption(f"Last epoch scored: {scored}")


def recorder(draft_id: str, recording: Recording) -> None:
    rules: RuleSet = recording.rules
    st.caption(
        f"Draft {draft_id} · {rules.edition}"
        + (f" ({rules.variant_text()})" if rules.variants else "")
        + " · "
        + ", ".join(f"{SEATS[s]} {n}" for s, n in enumerate(recording.names))
    )
    show_flash()
    left, right = st.columns([3, 2])
    with left:
        board(draft_id, recording)
        gold_line(recording)
    with right:
        if recording.is_over:
            st.success(f"The game is over: {recording.record.tags.get('Result', '')}.")
            if st.button("Save to the lake", key="record_save", type="primary"):
                upload = save_recording(draft_id, recording)
                if upload.report.errors:
                    st.error("; ".join(upload.report.errors))
                else:
                    game_id = upload.game_ids[0]
                    del st.query_params["draft"]
                    flash("success", f"Saved as game {game_id} (source: recorded).")
                    st.session_state["record_saved"] = game_id
                    st.rerun()
        else:
            if rules.starting_tiles:
                with st.expander(f"Starting tiles of epoch {recording.epoch}", expanded=False):
                    starts_editor(draft_id, recording)
            move_entry(draft_id, recording)
        if st.button("Undo the last move", key="record_undo", disabled=not recording.moves):
            taken = recording.undo()
            if taken is not None:
                keep(draft_id, recording)
                flash(
                    "info",
                    f"Took back {SEATS[taken.seat]} {taken.move.to_str(recording.state.geometry)}.",
                )
            st.rerun()
        st.download_button(
            "Download .kgn",
            data=recording.text(),
            file_name=f"kingdoms-{draft_id}.kgn",
            mime="text/plain",
            key="record_download",
        )
        if st.button("Close (keep the draft)", key="record_close"):
            del st.query_params["draft"]
            st.rerun()
        if st.button("Throw this draft away", key="record_discard"):
            forget(draft_id)
            del st.query_params["draft"]
            st.rerun()
        with st.expander("The record so far"):
            st.code(recording.text(), language=None)


def uploads() -> None:
    st.subheader("Upload records")
    files = st.file_uploader(
        "`.kgn` files", type=["kgn", "txt"], accept_multiple_files=True, key="record_upload"
    )
    if st.button("Import", key="record_import", disabled=not files):
        outcome: Upload = import_texts([(f.name, f.getvalue()) for f in files or []])
        report = outcome.report
        st.session_state["record_import_report"] = report
    report = st.session_state.get("record_import_report")
    if report is not None:
        st.markdown(
            f"Imported **{report.added}** game(s), **{report.duplicates}** already in the lake, "
            f"**{len(report.errors)}** bad."
        )
        for message in report.errors:
            st.error(message)


st.title("Record a game")
draft_id = st.query_params.get("draft")
recording = resume(draft_id) if draft_id else None
if draft_id and recording is None:
    st.warning(f"There is no draft '{draft_id}' (it may have been saved or thrown away).")
if recording is None:
    show_flash()
    saved = st.session_state.get("record_saved")
    if saved is not None:
        st.markdown(f"[Replay game {saved}](replay?game={saved}&ply=0)")
    new_game_form()
    draft_list()
    uploads()
else:
    recorder(draft_id, recording)
