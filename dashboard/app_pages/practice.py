"""Practice: a named player's costliest reviewed moves as puzzles. The page shows the position as
the player met it, asks for their move and lets the engine judge it; missed puzzles come back
sooner (Leitner's boxes, data/practice_schedule.py), and the progress is kept beside the lake.

`?player=NAME` opens a player; the URL follows the choice, so the page can be shared.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import streamlit as st

from dashboard.access import writes_allowed
from dashboard.board_chart import board_chart, board_frame
from dashboard.lake_data import lake_version
from dashboard.player_choice import choose_player
from dashboard.record_charts import PICK, clickable_board, clicked_cell, with_chosen
from dashboard.replay_charts import spec_without_rows
from dashboard.text import plain
from data.lake import Lake, lake_path
from data.practice import (
    FLOOR,
    Judgement,
    Position,
    PracticeError,
    Puzzle,
    choices,
    judge,
    player_puzzles,
    puzzle_position,
)
from data.practice_schedule import (
    WAITS,
    Progress,
    ProgressError,
    answered,
    due_puzzles,
    load_progress,
    next_return,
    save_progress,
)
from data.review_rows import DEFAULT_SEED
from data.reviews import reviews_version
from engine import pieces
from engine.evaluate import DEFAULT_BUDGET, JUDGED_BY_GOLD
from engine.geometry import Geometry
from engine.moves import CASTLE, DRAW, PASS, START, Move, MoveSyntaxError
from engine.rules import DISPLAY_NAMES

SEATS = pieces.SEAT_LETTERS
JUDGED = "practice_judged"  # session: (player, puzzle key, answer's judgement, card's new box)


@st.cache_data(max_entries=16, show_spinner=False)
def puzzles_of(version: str, reviews: int, player: str) -> list[Puzzle]:
    """The player's puzzles in the lake at `version` with its reviews at `reviews`."""
    return player_puzzles(Lake(lake_path()), player, DEFAULT_BUDGET, DEFAULT_SEED)


@st.cache_resource(max_entries=32, show_spinner=False)
def position_of(version: str, puzzle: Puzzle) -> Position:
    """The puzzle's position (shared, never changed: the judge works on a copy)."""
    return puzzle_position(Lake(lake_path()), puzzle, DEFAULT_SEED)


@st.cache_data(max_entries=64, show_spinner=False)
def judgement_of(version: str, puzzle: Puzzle, answer: Move) -> Judgement:
    return judge(position_of(version, puzzle), answer, DEFAULT_BUDGET)


@st.cache_data(max_entries=8, show_spinner=False)
def board_spec(geometry: Geometry, edition: str) -> dict:
    """The clickable board of a board size as a spec without its rows, built once."""
    empty = board_frame([pieces.EMPTY] * geometry.cells, geometry, edition)
    return spec_without_rows(clickable_board(empty, None))


def summary(player: str, puzzles: list[Puzzle], progress: Progress, due: int) -> None:
    games = len({puzzle.game_id for puzzle in puzzles})
    boxes = [progress.card(p).box for p in puzzles if progress.card(p).tries]
    new = len(puzzles) - len(boxes)
    counts = " · ".join(
        f"box {box}: {boxes.count(box)}" for box in sorted(WAITS) if boxes.count(box)
    )
    st.markdown(
        f"**{len(puzzles)}** puzzles from {plain(player)}'s costliest moves in **{games}** "
        f"reviewed game{'s' if games != 1 else ''} · **{due}** due now · "
        f"**{len(boxes)}** answered, **{new}** new" + (f" ({counts})" if counts else "")
    )
    st.caption(
        f"A puzzle: a turn whose move gave up more than {FLOOR:g} of a win while the game was "
        f"still open, as the engine's review found (budget {DEFAULT_BUDGET:,}, seed "
        f"{DEFAULT_SEED}). Solved (giving up at most {FLOOR:g}), it moves up a box and comes "
        "back later; missed, it goes back to box 1 and comes back in 10 minutes "
        "(docs/metrics.md, Practice)."
    )


def situation(position: Position) -> None:
    """What the player knew: their seat, starting tile, castles left, and every seat's gold."""
    state, seat = position.state, position.seat
    names = DISPLAY_NAMES[position.game.rules.edition]
    held = state.start_tiles[seat]
    castles = " ".join(
        f"C{rank} ×{left}" for rank, left in enumerate(state.castles[seat], start=1) if left
    )
    puzzle = position.puzzle
    st.markdown(
        f"Game {puzzle.game_id}, move {puzzle.ply} · epoch {puzzle.epoch} · you are "
        f"**{SEATS[seat]} {plain(position.names[seat])}**"
    )
    st.markdown(
        f"Your starting tile: **{pieces.piece_token(held) if held else 'none'}** · "
        f"your {names['castle']}s left: **{castles or 'none'}**"
    )
    gold = " · ".join(
        f"{SEATS[s]} {plain(position.names[s])}: {g}" for s, g in enumerate(state.gold)
    )
    st.caption(f"Gold — {gold}")


def choice_label(choice: Move, position: Position) -> str:
    if choice.kind == CASTLE:
        left = position.state.castles[position.seat][choice.rank - 1]
        return f"C{choice.rank} ×{left}"
    token = pieces.piece_token(choice.tile).replace("-", "−")
    if choice.kind == START:
        return f"Starting tile {token}"
    if choice.kind == DRAW:
        return "Draw a tile" if position.drawn_tile is not None else f"Tile {token}"
    return "Pass"


def drew(key: str, position: Position) -> None:
    """Palette callback: a tile drawn by chance cannot be put back, so the draw stays chosen."""
    choice = st.session_state.get(f"practice_pick_{key}")
    if choice is not None and choice.kind == DRAW and position.drawn_tile is not None:
        st.session_state[f"practice_drew_{key}"] = True


def move_entry(position: Position, key: str) -> Move | None:
    """The answer: an action from the palette and, but for a pass, a cell; None until both."""
    options = choices(position)
    committed = st.session_state.get(f"practice_drew_{key}", False)
    choice = st.pills(
        "Your move",
        options,
        format_func=lambda option: choice_label(option, position),
        key=f"practice_pick_{key}",
        on_change=drew,
        args=(key, position),
        disabled=committed,
        wrap=True,
    )
    if choice is None:
        st.caption("Choose an action, then its cell.")
        return None
    if choice.kind == PASS:
        return choice
    if choice.kind == DRAW and position.drawn_tile is not None:
        st.markdown(f"You draw **{pieces.piece_token(position.drawn_tile)}**: choose its cell.")
    state = position.state
    empties = [cell for cell, piece in enumerate(state.board) if not piece]
    cell = st.selectbox(
        "Cell (or click it on the board)",
        empties,
        index=None,
        format_func=state.geometry.cell_name,
        placeholder="not chosen yet",
        key=f"practice_cell_{key}",
    )
    return None if cell is None else replace(choice, cell=cell)


def board(position: Position, key: str) -> None:
    """The board as the player met it; a click on an empty cell chooses it for the answer."""
    state = position.state
    edition = position.game.rules.edition
    cell_key, chart_key = f"practice_cell_{key}", f"practice_board_{key}"
    chosen = st.session_state.get(cell_key)

    def clicked() -> None:
        name = clicked_cell(st.session_state[chart_key])
        if name is not None and not state.board[state.geometry.parse_cell(name)]:
            st.session_state[cell_key] = state.geometry.parse_cell(name)

    cells = board_frame(state.board, state.geometry, edition)
    st.vega_lite_chart(
        with_chosen(cells, state.geometry.cell_name(chosen) if chosen is not None else None),
        board_spec(state.geometry, edition),
        on_select=clicked,
        selection_mode=PICK,
        key=chart_key,
    )


def answer(player: str, position: Position, move: Move) -> None:
    """Judge the answer, keep the progress (where this session may write) and show the verdict."""
    puzzle = position.puzzle
    with st.spinner("The engine judges your move…"):
        judged = judgement_of(lake_version(), puzzle, move)
    lake = Lake(lake_path())
    progress = answered(load_progress(lake, player), puzzle, judged.passed, datetime.now(UTC))
    if writes_allowed():
        save_progress(lake, progress)
    st.session_state[JUDGED] = (player, puzzle.key, judged, progress.card(puzzle).box)


def verdict(position: Position, judged: Judgement, box: int) -> None:
    """The engine's judgement of the answer, the best move and the line it expects."""
    puzzle = position.puzzle
    said = f"Your move **{plain(judged.answer)}** gave up **{judged.loss:.3f}** of a win"
    said += f" ({judged.quality}" + (f"; {JUDGED_BY_GOLD})" if judged.decided else ")")
    if judged.passed:
        st.success(f"Solved. {said}.")
    else:
        st.error(f"Missed. {said}.")
    line = " · ".join(f"{seat} {plain(move)}" for seat, move in judged.line)
    st.markdown(
        f"The engine's best: **{plain(judged.best)}** (your expected win share before the move: "
        f"{judged.win_share:.2f}).  \nThe line it expects: {line}."
    )
    st.caption(
        f"In the game you played {plain(puzzle.played)}, which gave up {puzzle.loss:.3f} "
        f"({puzzle.quality}). The puzzle is now in box {box}: it comes back in "
        f"{waiting_text(box)}."
        + ("" if writes_allowed() else " This dashboard is shared read-only: not kept.")
    )


def waiting_text(box: int) -> str:
    wait = WAITS[box]
    if wait.days:
        return f"{wait.days} day{'s' if wait.days != 1 else ''}"
    return f"{wait.seconds // 60} minutes"


def next_puzzle() -> None:
    """Button callback: leave the judged puzzle for the next one due."""
    st.session_state.pop(JUDGED, None)


def puzzle_view(player: str, position: Position, judged: tuple | None) -> None:
    key = f"{player}_{position.puzzle.key}"
    left, right = st.columns([3, 2])
    with right:
        situation(position)
        if judged is None:
            move = move_entry(position, key)
            if st.button("Answer", type="primary", disabled=move is None, key="practice_answer"):
                assert move is not None
                try:
                    answer(player, position, move)
                except PracticeError as error:
                    st.error(f"Refused: {plain(error)}")
                else:
                    st.rerun()
        else:
            verdict(position, judged[2], judged[3])
            st.button("Next puzzle", type="primary", on_click=next_puzzle, key="practice_next")
    with left:
        if judged is None:
            board(position, key)
        else:
            best = best_on_board(position, judged[2])
            state = position.state
            cells = board_frame(state.board, state.geometry, position.game.rules.edition, best=best)
            st.altair_chart(board_chart(cells), key="practice_best_board")


def best_on_board(position: Position, judged: Judgement) -> tuple[int, str] | None:
    """The engine's best move drawn dashed on its cell (none for a pass or a draw not placed)."""
    try:
        best = Move.from_str(judged.best, position.state.geometry)
    except MoveSyntaxError:
        return None
    return None if best.cell is None else (best.cell, judged.best.split()[0])


def practice(player: str) -> None:
    lake = Lake(lake_path())
    puzzles = puzzles_of(lake_version(), reviews_version(lake), player)
    if not puzzles:
        st.info(
            f"No puzzle yet: none of {plain(player)}'s reviewed moves gave up more than "
            f'{FLOOR:g} of a win. `kingdoms review --all --player "{plain(player)}"` reviews '
            "their games first."
        )
        return
    try:
        progress = load_progress(lake, player)
    except ProgressError as error:
        st.error(f"The practice progress cannot be read: {plain(error)}")
        return
    now = datetime.now(UTC)
    due = due_puzzles(puzzles, progress, now)
    summary(player, puzzles, progress, len(due))
    judged = st.session_state.get(JUDGED)
    if judged is not None and judged[0] == player:
        shown = next((p for p in puzzles if p.key == judged[1]), None)
    else:
        judged, shown = None, (due[0] if due else None)
    if shown is None:
        back = next_return(puzzles, progress)
        when = f"{back:%Y-%m-%d %H:%M} UTC" if back else "later"
        st.success(f"Nothing due now: the next puzzle comes back at {when}.")
        return
    try:
        position = position_of(lake_version(), shown)
    except PracticeError as error:
        st.error(plain(error))
        return
    puzzle_view(player, position, judged)


st.title("Practice")
chosen_player = choose_player()
if chosen_player is not None:
    practice(chosen_player)
