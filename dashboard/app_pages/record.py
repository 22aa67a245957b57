"""Record a game at the table, move by move, every move checked by the engine; or upload
`.kgn` records. The game in progress is kept in the lake as a draft (`?draft=ID`), so a page
reload loses nothing.

A move is an action from the palette and a cell chosen on the board (or in the Cell box), then
Play or Enter: nothing is recorded on a cell that was not chosen for that very move.
"""

from __future__ import annotations

from datetime import date

import streamlit as st

from dashboard.board_chart import board_chart, board_frame
from dashboard.record_charts import PICK, clickable_board, clicked_cell
from dashboard.record_data import (
    Upload,
    draft_label,
    drafts,
    forget,
    import_texts,
    keep,
    resume,
    save_recording,
    start_draft,
)
from dashboard.recording import Choice, EpochEnd, Recording, RecordingError
from dashboard.scoring_view import epoch_scoring
from engine import pieces
from engine.moves import CASTLE, DRAW, PASS, START
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


def replay_link(game_id: int, label: str) -> None:
    st.markdown(f"[{label}](replay?game={game_id}&ply=0)")


def new_game_form() -> None:
    st.subheader("Record a new game")
    count = st.radio("Players", [2, 3, 4], index=1, horizontal=True, key="record_players")
    with st.form("record_new"):
        edition = st.selectbox("Edition", EDITIONS, index=EDITIONS.index(DEFAULT_EDITION))
        variants = st.multiselect("Variants", VARIANTS)
        names = [
            st.text_input(f"Seat {letter}", key=f"record_name_{letter}", placeholder="name")
            for letter in SEATS[:count]
        ]
        first = st.selectbox("Who starts", list(SEATS[:count]), key="record_first")
        played_on = st.date_input("Date", value=date.today(), key="record_date")
        site = st.text_input("Where", placeholder="Kitchen table")
        started = st.form_submit_button("Start recording", type="primary")
    if started:
        try:
            recording = Recording.new(
                edition,
                names,
                SEATS.index(first),
                ",".join(variants),
                {"Date": f"{played_on:%Y.%m.%d}" if played_on else "", "Site": site},
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
        if st.button(f"Resume: {draft_label(draft)}", key=f"record_resume_{draft.draft_id}"):
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


# ---------------------------------------------------------------- the move being entered


def move_key(draft_id: str) -> str:
    """Names this move's choices in the session: every change of the record (a move played
    or taken back) starts a new key, so a move starts with nothing chosen."""
    return f"{draft_id}_{st.session_state.get('record_changes', 0)}"


def changed() -> None:
    st.session_state["record_changes"] = st.session_state.get("record_changes", 0) + 1


def chosen_choice(key: str) -> Choice | None:
    return st.session_state.get(f"record_choice_{key}")


def choose(key: str, choice: Choice | None, group: str | None = None) -> None:
    """Palette callback: the action (or the group whose value comes next) for this move."""
    st.session_state[f"record_choice_{key}"] = choice
    st.session_state[f"record_group_{key}"] = group


def palette(key: str, recording: Recording) -> Choice | None:
    """The actions of the seat to move as buttons: castle ranks held, "drawn tile" then its
    value, the starting tile (its value too when nobody saw it), pass only when it is all."""
    names = DISPLAY_NAMES[recording.rules.edition]
    seat = recording.seat_to_move
    assert seat is not None
    choices = recording.choices()
    chosen = chosen_choice(key)
    group = st.session_state.get(f"record_group_{key}")
    if choices == [Choice(PASS)]:
        choose(key, choices[0])
        st.info("Nothing else is possible: this turn is a pass.")
        return choices[0]
    castles = [c for c in choices if c.kind == CASTLE]
    held = recording.state.castles[seat]
    if castles:
        st.caption(f"{names['castle'].capitalize()} of rank (× how many are left)")
    columns = st.columns(max(len(castles), 1))
    for column, choice in zip(columns, castles, strict=False):
        left = held[choice.rank - 1]
        column.button(
            f"{choice.rank} ×{left}",
            help=f"{names['castle']} of rank {choice.rank}, {left} left",
            key=f"record_pick_castle_{choice.rank}",
            type="primary" if chosen == choice else "secondary",
            on_click=choose,
            args=(key, choice),
            width="stretch",
        )
    tiles = {kind: [c for c in choices if c.kind == kind] for kind in (DRAW, START)}
    labels = {DRAW: "Drawn tile", START: "Starting tile"}
    present = [kind for kind in (DRAW, START) if tiles[kind]]
    for column, kind in zip(st.columns(max(len(present), 1)), present, strict=False):
        only = tiles[kind][0] if len(tiles[kind]) == 1 else None
        label = labels[kind] + (f" {pieces.piece_token(only.tile)}" if only else " …")
        column.button(
            label,
            key=f"record_pick_{kind}",
            type="primary"
            if group == kind or (chosen is not None and chosen == only)
            else "secondary",
            on_click=choose,
            args=(key, only, None if only else kind),
            width="stretch",
        )
    if group in tiles and len(tiles[group]) > 1:
        st.caption(f"{labels[group]}: which one?")
        values = tiles[group]
        for start in range(0, len(values), 8):
            row = values[start : start + 8]
            for column, choice in zip(st.columns(8), row, strict=False):
                column.button(
                    pieces.piece_token(choice.tile).replace("-", "−"),
                    key=f"record_pick_{group}_{choice.tile}",
                    type="primary" if chosen == choice else "secondary",
                    on_click=choose,
                    args=(key, choice, group),
                    width="stretch",
                )
    return chosen


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
    changed()
    flash("success", f"{SEATS[seat or 0]} {text} recorded.")


def why_not_yet(choice: Choice | None, cell: int | None) -> str | None:
    """Why Play cannot record a move yet (None: it can)."""
    if choice is None:
        return "Choose an action first."
    if choice.kind != PASS and cell is None:
        return "Choose a cell: click it on the board, or pick it in the Cell box."
    return None


def move_entry(draft_id: str, recording: Recording) -> None:
    names = DISPLAY_NAMES[recording.rules.edition]
    seat = recording.seat_to_move
    assert seat is not None
    key = move_key(draft_id)
    st.markdown(
        f"**Epoch {recording.epoch}** · to move: "
        f":{_colour(seat)}-badge[{SEATS[seat]} {recording.names[seat]}]"
    )
    choice = palette(key, recording)
    cell = None
    if choice is not None and choice.kind != PASS:
        geometry = recording.state.geometry
        empties = [c for c, piece in enumerate(recording.state.board) if not piece]
        cell = st.selectbox(
            "Cell (or click it on the board)",
            empties,
            index=None,
            format_func=geometry.cell_name,
            placeholder="not chosen yet",
            key=f"record_cell_{key}",
        )
    if choice is not None:
        st.caption(f"Action: {choice.label(names)}")
    reason = why_not_yet(choice, cell)
    if st.button(
        "Play",
        key="record_play",
        type="primary",
        disabled=reason is not None,
        help=reason or "Record this move (Enter).",
        shortcut="Enter",
    ):
        assert choice is not None
        play(draft_id, recording, choice, cell)
        st.rerun()
    if reason:
        st.caption(reason)


def _colour(seat: int) -> str:
    return ("red", "blue", "green", "violet")[seat]


def board(draft_id: str, recording: Recording) -> None:
    """The board as it stands; a click on an empty cell chooses it for the move being entered."""
    state = recording.state
    moves = recording.record.epochs[-1].moves
    last = moves[-1].move.cell if moves else None
    key = move_key(draft_id)
    cell_key = f"record_cell_{key}"
    chosen = st.session_state.get(cell_key)
    cells = board_frame(state.board, state.geometry, recording.rules.edition, last_cell=last)
    chart_key = f"record_board_{key}"

    def clicked() -> None:
        name = clicked_cell(st.session_state[chart_key])
        if name is None:
            return
        cell = state.geometry.parse_cell(name)
        if state.board[cell]:
            flash("warning", f"{name} is not empty: choose an empty cell.")
        else:
            st.session_state[cell_key] = cell

    chosen_name = state.geometry.cell_name(chosen) if chosen is not None else None
    st.altair_chart(
        clickable_board(cells, chosen_name),
        on_select=clicked,
        selection_mode=PICK,
        key=chart_key,
    )


def gold_line(recording: Recording) -> None:
    gold = recording.state.gold
    parts = [f"{SEATS[s]} {recording.names[s]}: {g}" for s, g in enumerate(gold)]
    st.caption("Gold — " + " · ".join(parts))
    gains = recording.last_epoch_gains()
    if gains is not None:
        scored = " · ".join(f"{SEATS[s]} {g:+d}" for s, g in enumerate(gains))
        st.caption(f"Last epoch scored: {scored}")


# ---------------------------------------------------------------- the end of an epoch


def continued_key(draft_id: str, end: EpochEnd) -> str:
    return f"record_continued_{draft_id}_{end.epoch}"


def epoch_over(draft_id: str, recording: Recording, end: EpochEnd) -> None:
    """The finished epoch's full board, kept on screen until the table has checked its gold."""
    board_column, side = st.columns([3, 2])
    cells = board_frame(end.board, recording.state.geometry, recording.rules.edition)
    board_column.altair_chart(
        board_chart(cells, title=f"Epoch {end.epoch} · the full board"), key="record_epoch_board"
    )
    with side:
        gold_line(recording)
        if recording.is_over:
            finished(draft_id, recording)
        else:
            st.info(f"Epoch {end.epoch} is over: check each seat's gold against the table's.")
            if st.button(
                f"Continue to epoch {recording.epoch}",
                key="record_continue",
                type="primary",
                shortcut="Enter",
            ):
                st.session_state[continued_key(draft_id, end)] = True
                st.rerun()
        undo_button(recording, draft_id)
    epoch_scoring(end.breakdown, end.board, recording.state.geometry, recording.players, end.epoch)


def finished(draft_id: str, recording: Recording) -> None:
    st.success(f"The game is over: {recording.record.tags.get('Result', '')}.")
    if st.button("Save to the lake", key="record_save", type="primary"):
        upload = save_recording(draft_id, recording)
        if upload.report.errors:
            st.error("; ".join(upload.report.errors))
        else:
            game_id = upload.games[0][1]
            del st.query_params["draft"]
            flash("success", f"Saved as game {game_id} (source: recorded).")
            st.session_state["record_saved"] = game_id
            st.rerun()


# ---------------------------------------------------------------- the recorder


def undo_button(recording: Recording, draft_id: str) -> None:
    if st.button("Undo the last move", key="record_undo", disabled=not recording.moves):
        taken = recording.undo()
        if taken is not None:
            keep(draft_id, recording)
            changed()
            flash(
                "info",
                f"Took back {SEATS[taken.seat]} {taken.move.to_str(recording.state.geometry)}.",
            )
        st.rerun()


def discard(draft_id: str, recording: Recording) -> None:
    """Throwing a draft away asks first: its moves cannot be recovered."""
    asking = st.session_state.get("record_confirm_discard") == draft_id
    if not asking:
        if st.button("Throw this draft away", key="record_discard"):
            st.session_state["record_confirm_discard"] = draft_id
            st.rerun()
        return
    st.warning(
        f"Throw away this draft and its {len(recording.moves)} moves? This cannot be undone."
    )
    yes, no = st.columns(2)
    if yes.button("Yes, throw it away", key="record_discard_yes", type="primary"):
        forget(draft_id)
        del st.session_state["record_confirm_discard"]
        del st.query_params["draft"]
        flash("info", "The draft was thrown away.")
        st.rerun()
    if no.button("Keep it", key="record_discard_no"):
        del st.session_state["record_confirm_discard"]
        st.rerun()


def draft_tools(draft_id: str, recording: Recording) -> None:
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
    discard(draft_id, recording)
    with st.expander("The record so far"):
        st.code(recording.text(), language=None)


def recorder(draft_id: str, recording: Recording) -> None:
    rules: RuleSet = recording.rules
    st.caption(
        f"Draft {draft_id} · {rules.edition}"
        + (f" ({rules.variant_text()})" if rules.variants else "")
        + " · "
        + ", ".join(f"{SEATS[s]} {n}" for s, n in enumerate(recording.names))
    )
    show_flash()
    end = recording.finished_epoch()
    if end is not None and (
        recording.is_over or not st.session_state.get(continued_key(draft_id, end))
    ):
        epoch_over(draft_id, recording, end)
        draft_tools(draft_id, recording)
        return
    left, right = st.columns([3, 2])
    with left:
        board(draft_id, recording)
        gold_line(recording)
    with right:
        if rules.starting_tiles:
            with st.expander(f"Starting tiles of epoch {recording.epoch}", expanded=False):
                starts_editor(draft_id, recording)
        move_entry(draft_id, recording)
        undo_button(recording, draft_id)
        draft_tools(draft_id, recording)


def uploads() -> None:
    st.subheader("Upload records")
    files = st.file_uploader(
        "`.kgn` files", type=["kgn", "txt"], accept_multiple_files=True, key="record_upload"
    )
    if st.button("Import", key="record_import", disabled=not files):
        outcome: Upload = import_texts([(f.name, f.getvalue()) for f in files or []])
        st.session_state["record_import_outcome"] = outcome
    outcome = st.session_state.get("record_import_outcome")
    if outcome is not None:
        report = outcome.report
        st.markdown(
            f"Imported **{report.added}** game(s), **{report.duplicates}** already in the lake, "
            f"**{len(report.errors)}** bad."
        )
        for name, game_id in outcome.games:
            replay_link(game_id, f"Replay {name} (game {game_id})")
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
        replay_link(saved, f"Replay game {saved}")
    new_game_form()
    draft_list()
    uploads()
else:
    recorder(draft_id, recording)
