"""Record a game at the table, move by move, every move checked by the engine; or upload
`.kgn` records. The game in progress is kept in the lake as a draft (`?draft=ID`), so a page
reload loses nothing.

A move is typed in the record notation (`C1 c3` then Enter), or made of an action picked in the
palette and a cell chosen on the board (or in the Cell box), then Play or Enter: nothing is
recorded on a cell that was not chosen for that very move. The recorder is a fragment and its
controls act through callbacks, so a click or a move reruns the recorder once, not the page.
"""

from __future__ import annotations

from datetime import date

import streamlit as st

from dashboard.access import writes_allowed
from dashboard.board_chart import board_chart, board_frame
from dashboard.filters import rule_set_choices
from dashboard.record_charts import PICK, clickable_board, clicked_cell, with_chosen
from dashboard.record_data import (
    draft_label,
    drafts,
    forget,
    import_texts,
    keep,
    resume,
    save_recording,
    start_draft,
    uploaded_rules,
)
from dashboard.recording import Choice, EpochEnd, Recording, RecordingError
from dashboard.replay_charts import spec_without_rows
from dashboard.scoring_view import epoch_scoring
from dashboard.text import plain
from data.rule_sets import parsed_rules
from engine import pieces
from engine.geometry import Geometry
from engine.moves import CASTLE, DRAW, PASS, START, Move
from engine.rulefile import RuleFileError
from engine.rules import (
    DEFAULT_EDITION,
    EDITIONS,
    VARIANTS,
    RulesError,
    RuleSet,
    is_shipped,
    rule_set,
)

SEATS = pieces.SEAT_LETTERS
UNKNOWN = "?"
PALETTE = (CASTLE, DRAW, START)  # the rows of the palette, one action picked in all of them
READ_ONLY = (
    "This dashboard is shared read-only: recording and uploading games are turned off here "
    "(a game being recorded is kept in the lake from its first move). `kingdoms import` adds "
    "`.kgn` records where the lake is kept."
)


def flash(kind: str, message: str) -> None:
    """A message to show after the rerun that follows a change."""
    st.session_state["record_flash"] = (kind, message)


def show_flash() -> None:
    """The message, in a slot that is there with or without one: what follows keeps its place
    on the page (the typing box its keyboard focus)."""
    slot = st.empty()
    kind, message = st.session_state.pop("record_flash", (None, None))
    if kind:
        getattr(slot, kind)(message)


def remember(name: str, value: object) -> None:
    """Button callback: keep a step of the page (a question asked, an epoch continued)."""
    st.session_state[name] = value


def drop(name: str) -> None:
    """Button callback: forget a step of the page (a question answered "no")."""
    st.session_state.pop(name, None)


def missing_draft(draft_id: str) -> None:
    st.warning(f"There is no draft '{plain(draft_id)}' (it may have been saved or thrown away).")


def replay_link(game_id: int, label: str) -> None:
    st.markdown(f"[{plain(label)}](replay?game={game_id}&ply=0)")


def lake_rule_sets() -> dict[str, RuleSet]:
    """The lake's rule sets that no edition ships (a designer's, or an imported game's), by
    hash: a game played by one is recorded by it."""
    found = {}
    for row in rule_set_choices().iter_rows(named=True):
        rules = parsed_rules(row["text"])
        if not is_shipped(rules):
            found[row["rules"]] = rules
    return found


def rules_label(choice: str, own: dict[str, RuleSet]) -> str:
    if choice in EDITIONS:
        return choice
    rules = own[choice]
    return f"{rules.name} ({rules.rows} × {rules.columns}, a rule set in the lake)"


def chosen_rules(
    choice: str, variants: list[str], own: dict[str, RuleSet], given: RuleSet | None
) -> RuleSet:
    """The rules the form names: a rule-set file's when one is given, else an edition with its
    variants, or a lake rule set as it is."""
    if given is None and choice in EDITIONS:
        return rule_set(choice, ",".join(variants))
    rules = given or own[choice]
    if variants:
        raise RecordingError(f"the rule set {rules.name} has its own rules: leave Variants empty")
    return rules


def new_game_form() -> None:
    st.subheader("Record a new game")
    count = st.radio("Players", [2, 3, 4], index=1, horizontal=True, key="record_players")
    own = lake_rule_sets()
    with st.form("record_new"):
        choice = st.selectbox(
            "Rules",
            [*EDITIONS, *own],
            index=EDITIONS.index(DEFAULT_EDITION),
            format_func=lambda option: rules_label(option, own),
            key="record_rules",
            help="An edition (with any variants below), or a rule set kept in the lake.",
        )
        variants = st.multiselect("Variants", VARIANTS)
        rules_file = st.file_uploader(
            "Or a rule-set file (.toml), in place of the rules above",
            type=["toml"],
            key="record_new_rules_file",
        )
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
            given = uploaded_rules(rules_file.name, rules_file.getvalue()) if rules_file else None
            recording = Recording.new(
                chosen_rules(choice, variants, own, given),
                names,
                SEATS.index(first),
                {"Date": f"{played_on:%Y.%m.%d}" if played_on else "", "Site": site},
            )
        except (RulesError, RuleFileError, RecordingError) as error:
            st.error(plain(error))
            return
        st.query_params["draft"] = start_draft(recording)
        st.rerun()


def draft_list() -> None:
    found = drafts()
    if not found:
        return
    st.subheader("Games being recorded")
    for draft in found[:10]:
        if st.button(f"Resume: {plain(draft_label(draft))}", key=f"record_resume_{draft.draft_id}"):
            st.query_params["draft"] = draft.draft_id
            st.rerun()


def set_starts(draft_id: str, epoch: int, players: int) -> None:
    """Starting tiles callback: enter the tiles chosen in the boxes."""
    recording = resume(draft_id)
    if recording is None:
        return
    chosen = [st.session_state[f"record_start_{epoch}_{seat}"] for seat in range(players)]
    wanted = [None if t == UNKNOWN else pieces.parse_tile(t) for t in chosen]
    try:
        recording.set_starts(wanted)
    except RecordingError as error:
        flash("error", f"Refused: {error}")
    else:
        keep(draft_id, recording)
        flash("success", "Starting tiles entered.")


def starts_editor(draft_id: str, recording: Recording) -> None:
    """The current epoch's starting tiles, entered when known."""
    tiles = [UNKNOWN] + [pieces.piece_token(t) for t in sorted(set(recording.rules.tiles))]
    current = recording.starts()
    columns = st.columns(recording.players)
    for seat, column in enumerate(columns):
        known = current[seat]
        value = pieces.piece_token(known) if known else UNKNOWN
        column.selectbox(
            f"{SEATS[seat]} {recording.names[seat]}",
            tiles,
            index=tiles.index(value),
            key=f"record_start_{recording.epoch}_{seat}",
        )
    st.button(
        "Set starting tiles",
        key="record_set_starts",
        on_click=set_starts,
        args=(draft_id, recording.epoch, recording.players),
    )


# ---------------------------------------------------------------- the move being entered


def move_key(draft_id: str) -> str:
    """Names this move's choices in the session: every change of the record (a move played
    or taken back) starts a new key, so a move starts with nothing chosen."""
    return f"{draft_id}_{st.session_state.get('record_changes', 0)}"


def changed() -> None:
    st.session_state["record_changes"] = st.session_state.get("record_changes", 0) + 1


def pick_key(kind: str, key: str) -> str:
    return f"record_pick_{kind}_{key}"


def chosen_choice(key: str) -> Choice | None:
    """The action picked in the palette for this move (None: nothing yet)."""
    rows = (st.session_state.get(pick_key(kind, key)) for kind in PALETTE)
    return next((choice for choice in rows if choice is not None), None)


def picked(kind: str, key: str) -> None:
    """Palette callback: one action at a time, so a pick in one row clears the others."""
    for other in PALETTE:
        if other != kind and pick_key(other, key) in st.session_state:
            st.session_state[pick_key(other, key)] = None


def tile_label(choice: Choice) -> str:
    return pieces.piece_token(choice.tile).replace("-", "−")


def palette(key: str, recording: Recording) -> Choice | None:
    """The actions of the seat to move, as rows of pills that wrap rather than squeeze: castle
    ranks held (× how many are left), the drawn tile's value, the starting tile (its value too
    when nobody saw it); pass only when it is all."""
    names = recording.rules.display_names
    seat = recording.seat_to_move
    assert seat is not None
    choices = recording.choices()
    if choices == [Choice(PASS)]:
        st.info("Nothing else is possible: this turn is a pass.")
        return choices[0]
    held = recording.state.castles[seat]
    rows = {
        CASTLE: (
            f"{names['castle'].capitalize()} of rank (× how many are left)",
            lambda choice: f"C{choice.rank} ×{held[choice.rank - 1]}",
        ),
        DRAW: ("Drawn tile", tile_label),
        START: ("Starting tile", tile_label),
    }
    for kind, (label, text) in rows.items():
        options = [choice for choice in choices if choice.kind == kind]
        if options:
            st.pills(
                label,
                options,
                format_func=text,
                key=pick_key(kind, key),
                on_change=picked,
                args=(kind, key),
                wrap=True,
            )
    return chosen_choice(key)


def play(draft_id: str, recording: Recording, move: Move) -> None:
    """Try one move; a refused move leaves the recording as it was."""
    seat = recording.seat_to_move
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


def play_chosen(draft_id: str, key: str, choice: Choice) -> None:
    """Play callback: the action picked and the cell chosen for this move (nothing if the
    record changed since, e.g. by a move typed and entered with the same Enter)."""
    if key != move_key(draft_id):
        return
    recording = resume(draft_id)
    cell = st.session_state.get(f"record_cell_{key}")
    if recording is not None and why_not_yet(choice, cell) is None:
        play(draft_id, recording, choice.move(cell))


def typed_key(draft_id: str) -> str:
    """The typing box keeps its key from move to move, so it keeps the keyboard's focus."""
    return f"record_typed_{draft_id}"


def play_typed(draft_id: str) -> None:
    """Typing box callback: read what was typed with the engine's move parser and play it;
    what cannot be read is refused with the parser's reason, shown as plain text."""
    box = typed_key(draft_id)
    text, st.session_state[box] = st.session_state.get(box), None
    recording = resume(draft_id)
    if not text or recording is None or recording.seat_to_move is None:
        return
    try:
        move = recording.read_move(text)
    except RecordingError as error:
        st.session_state["record_unread"] = f"Refused “{text}”: {error}"
        return
    play(draft_id, recording, move)


def typed_entry(draft_id: str, recording: Recording) -> None:
    """A move typed in the record notation: the list completes it with the legal moves that
    begin with what is typed, and Enter plays it (checked by the engine)."""
    geometry = recording.state.geometry
    st.selectbox(
        "Type a move",
        [move.to_str(geometry) for move in recording.legal_moves()],
        index=None,
        key=typed_key(draft_id),
        accept_new_options=True,
        filter_mode="prefix",
        placeholder="e.g. C1 c3, d+5 a2, s-2 e1 or pass, then Enter",
        on_change=play_typed,
        args=(draft_id,),
        help="The record notation: `C1`–`C4` a castle of that rank, `d` and the tile drawn, "
        "`s` and the starting tile, then the cell; `pass` when nothing else is possible. "
        "The list holds the legal moves that begin with what is typed.",
    )
    unread = st.session_state.pop("record_unread", None)
    if unread:
        st.text(unread)


def move_entry(draft_id: str, recording: Recording) -> None:
    names = recording.rules.display_names
    seat = recording.seat_to_move
    assert seat is not None
    key = move_key(draft_id)
    st.markdown(
        f"**Epoch {recording.epoch}** · to move: "
        f":{_colour(seat)}-badge[{SEATS[seat]} {plain(recording.names[seat])}]"
    )
    typed_entry(draft_id, recording)
    choice = palette(key, recording)
    cell = None
    cell_column, play_column = st.columns(2, vertical_alignment="bottom")
    if choice is not None and choice.kind != PASS:
        geometry = recording.state.geometry
        empties = [c for c, piece in enumerate(recording.state.board) if not piece]
        cell = cell_column.selectbox(
            "Cell (or click it on the board)",
            empties,
            index=None,
            format_func=geometry.cell_name,
            placeholder="not chosen yet",
            key=f"record_cell_{key}",
        )
    reason = why_not_yet(choice, cell)
    play_column.button(
        "Play",
        key="record_play",
        type="primary",
        disabled=reason is not None,
        help=reason or "Record this move (Enter).",
        shortcut="Enter",
        on_click=play_chosen,
        args=(draft_id, key, choice),
        width="stretch",
    )
    if choice is not None:
        st.caption(f"Action: {choice.label(names)}")
    if reason:
        st.caption(reason)


def _colour(seat: int) -> str:
    return ("red", "blue", "green", "violet")[seat]


@st.cache_data(max_entries=8, show_spinner=False)
def board_spec(geometry: Geometry, edition: str) -> dict:
    """The clickable board of a board size as a spec without its rows, built once: a click
    or a move sends only the new rows."""
    empty = board_frame([pieces.EMPTY] * geometry.cells, geometry, edition)
    return spec_without_rows(clickable_board(empty, None))


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
    st.vega_lite_chart(
        with_chosen(cells, chosen_name),
        board_spec(state.geometry, recording.rules.edition),
        on_select=clicked,
        selection_mode=PICK,
        key=chart_key,
    )


def gold_line(recording: Recording) -> None:
    gold = recording.state.gold
    parts = [f"{SEATS[s]} {plain(recording.names[s])}: {g}" for s, g in enumerate(gold)]
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
            st.button(
                f"Continue to epoch {recording.epoch}",
                key="record_continue",
                type="primary",
                shortcut="Enter",
                on_click=remember,
                args=(continued_key(draft_id, end), True),
            )
        undo_button(draft_id, recording)
    epoch_scoring(end.breakdown, end.board, recording.state.geometry, recording.players, end.epoch)


def finished(draft_id: str, recording: Recording) -> None:
    """The game is over: save it to the lake, after a second click that says what it adds."""
    st.success(f"The game is over: {plain(recording.record.tags.get('Result', ''))}.")
    asking = st.session_state.get("record_confirm_save") == draft_id
    if not asking:
        st.button(
            "Save to the lake",
            key="record_save",
            type="primary",
            on_click=remember,
            args=("record_confirm_save", draft_id),
        )
        return
    st.warning(
        f"Add this game ({len(recording.moves)} moves) to the lake as a recorded game? "
        "Its draft goes once it is in."
    )
    yes, no = st.columns(2)
    if yes.button("Yes, save it", key="record_save_yes", type="primary"):
        del st.session_state["record_confirm_save"]
        upload = save_recording(draft_id, recording)
        if upload.report.errors:
            st.error(plain("; ".join(upload.report.errors)))
            return
        game_id = upload.games[0][1]
        del st.query_params["draft"]
        flash("success", f"Saved as game {game_id} (source: recorded).")
        st.session_state["record_saved"] = game_id
        st.rerun()
    no.button(
        "Not yet",
        key="record_save_no",
        on_click=drop,
        args=("record_confirm_save",),
    )


# ---------------------------------------------------------------- the recorder


def take_back(draft_id: str) -> None:
    """Undo callback: take back the last move."""
    recording = resume(draft_id)
    taken = recording.undo() if recording is not None else None
    if recording is None or taken is None:
        return
    keep(draft_id, recording)
    changed()
    flash("info", f"Took back {SEATS[taken.seat]} {taken.move.to_str(recording.state.geometry)}.")


def undo_button(draft_id: str, recording: Recording) -> None:
    st.button(
        "Undo the last move",
        key="record_undo",
        disabled=not recording.moves,
        on_click=take_back,
        args=(draft_id,),
    )


def discard(draft_id: str, recording: Recording) -> None:
    """Throwing a draft away asks first: its moves cannot be recovered."""
    asking = st.session_state.get("record_confirm_discard") == draft_id
    if not asking:
        st.button(
            "Throw this draft away",
            key="record_discard",
            on_click=remember,
            args=("record_confirm_discard", draft_id),
        )
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
    no.button(
        "Keep it",
        key="record_discard_no",
        on_click=drop,
        args=("record_confirm_discard",),
    )


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


@st.fragment
def recorder(draft_id: str) -> None:
    """The draft as it stands: the board and the move being entered, or the epoch just ended."""
    recording = resume(draft_id)
    if recording is None:
        missing_draft(draft_id)
        return
    rules: RuleSet = recording.rules
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
        move_entry(draft_id, recording)
        undo_button(draft_id, recording)
        if rules.starting_tiles:
            with st.expander(f"Starting tiles of epoch {recording.epoch}", expanded=False):
                starts_editor(draft_id, recording)
        draft_tools(draft_id, recording)


def uploads() -> None:
    st.subheader("Upload records")
    files = st.file_uploader(
        "`.kgn` files", type=["kgn", "txt"], accept_multiple_files=True, key="record_upload"
    )
    rules_file = st.file_uploader(
        "Their rule-set file (only for games of rules no edition ships: a `Rules` tag)",
        type=["toml"],
        key="record_upload_rules",
    )
    rules = None
    if rules_file is not None:
        try:
            rules = uploaded_rules(rules_file.name, rules_file.getvalue())
        except RuleFileError as error:
            st.error(plain(error))
            return
        st.caption(f"Played by {plain(rules.name)} ({rules.rows} × {rules.columns}).")
    if st.session_state.get("record_confirm_import") and files:
        st.warning(
            f"Add {len(files)} record(s) to the lake as recorded games? "
            "Each is checked first; a bad one adds nothing."
        )
        yes, no = st.columns(2)
        if yes.button("Yes, import", key="record_import_yes", type="primary"):
            del st.session_state["record_confirm_import"]
            uploaded = [(f.name, f.getvalue()) for f in files]
            st.session_state["record_import_outcome"] = import_texts(uploaded, rules)
            st.rerun()
        no.button(
            "Cancel",
            key="record_import_no",
            on_click=drop,
            args=("record_confirm_import",),
        )
    else:
        st.button(
            "Import",
            key="record_import",
            disabled=not files,
            on_click=remember,
            args=("record_confirm_import", True),
        )
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
            st.error(plain(message))


st.title("Record a game")
if not writes_allowed():  # a draft is kept in the lake from the first move
    st.info(READ_ONLY)
    st.stop()
draft_id = st.query_params.get("draft")
recording = resume(draft_id) if draft_id else None
if draft_id and recording is None:
    missing_draft(draft_id)
if draft_id is None or recording is None:
    show_flash()
    saved = st.session_state.get("record_saved")
    if saved is not None:
        replay_link(saved, f"Replay game {saved}")
    new_game_form()
    draft_list()
    uploads()
else:
    st.caption(
        f"Draft {plain(draft_id)} · {plain(recording.rules.name)} · "
        + ", ".join(f"{SEATS[s]} {plain(n)}" for s, n in enumerate(recording.names))
    )
    recorder(draft_id)
