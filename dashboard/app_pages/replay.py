"""Replay: step through a stored game: board, gold, epoch scoring and the engine's review.

`?game=ID&ply=K` opens a game at a move; the URL follows every step, so a position can be
shared. ← and → step, Home and End go to the ends.
"""

from __future__ import annotations

from dataclasses import replace

import polars as pl
import streamlit as st

from dashboard.access import writes_allowed
from dashboard.board_chart import board_chart, board_frame
from dashboard.filters import Filters
from dashboard.lake_data import QueryError, fetch, lake_version
from dashboard.replay_charts import (
    current_ply,
    evaluation_chart,
    evaluation_frame,
    gold_at,
    gold_chart,
    selected_ply,
    spec_without_rows,
)
from dashboard.replay_data import (
    OpenedGame,
    make_review,
    open_game,
    parse_game_id,
    record_text,
    stored_review,
)
from dashboard.review import (
    BADGES,
    accuracy_table,
    board_view,
    costly_moves,
    first_mover,
    key_moments,
    loss_text,
    luck_verdict,
)
from dashboard.scoring_view import epoch_scoring
from dashboard.text import plain
from dashboard.timeline import Timeline
from data.accuracy import seat_accuracy
from data.levels import RECORDED
from data.luck import seat_luck
from data.review_rows import DEFAULT_SEED
from engine import pieces
from engine.evaluate import DEFAULT_BUDGET
from engine.outcome import Outcome
from engine.rules import DISPLAY_NAMES

MOVES_SHOWN = 12  # rows of the move list around the current move
MOVES_BEFORE = 5
BADGE_COLOURS = {
    "best": "green",
    "excellent": "green",
    "good": "gray",
    "inaccuracy": "orange",
    "mistake": "orange",
    "blunder": "red",
}


@st.cache_data(max_entries=16, show_spinner=False)
def chart_specs(version: str, game_id: int, _opened: OpenedGame) -> dict[str, dict]:
    """The board and gold charts of the game `game_id` of the lake at `version`, as Vega-Lite
    specs without their rows: built once per game, each step passes only its own rows."""
    timeline = _opened.timeline
    cells = board_frame(timeline.positions[0].board, timeline.geometry, _opened.edition)
    gold = gold_chart(timeline.gold_frame, 0, timeline.epoch_starts())
    return {"board": spec_without_rows(board_chart(cells)), "gold": spec_without_rows(gold)}


@st.cache_data(max_entries=16, show_spinner=False)
def evaluation_spec(version: str, game_id: int, _opened: OpenedGame, _review: pl.DataFrame) -> dict:
    """The evaluation graph of a reviewed game as a spec without its rows, like `chart_specs`."""
    timeline = _opened.timeline
    evaluated = evaluation_frame(_review, timeline.players)
    moments = key_moments(_review, timeline.players)
    chart = evaluation_chart(evaluated, timeline.players, 0, timeline.epoch_starts(), moments)
    return spec_without_rows(chart)


@st.cache_data(max_entries=16, show_spinner=False)
def accuracy_rows(
    version: str, game_id: int, _opened: OpenedGame, _review: pl.DataFrame
) -> pl.DataFrame:
    """Each player's accuracy in a reviewed game, for the game and per epoch, with its counts
    of costly moves (cached like `evaluation_spec`)."""
    timeline = _opened.timeline
    epochs = [move.epoch for move in timeline.moves]
    return accuracy_table(seat_accuracy(_review, epochs), timeline.players)


@st.cache_data(max_entries=16, show_spinner=False)
def luck_rows(
    version: str, game_id: int, _opened: OpenedGame, _review: pl.DataFrame
) -> pl.DataFrame:
    """Each seat's luck and skill in a finished, reviewed game (cached like `evaluation_spec`)."""
    final = _opened.timeline.positions[-1]
    return seat_luck(_review, Outcome.of(final.gold).win_shares)


def go_to(ply: int) -> None:
    """Show another ply (a button or control callback): the URL holds the ply."""
    st.query_params["ply"] = str(ply)


def open_id(game_id: int) -> None:
    st.query_params["game"] = str(game_id)
    st.query_params["ply"] = "0"


RECORDED_COLUMNS = ("played", "seated", "result", "winners", "edition", "players", "plies")
SIMULATED_COLUMNS = ("seated", "result", "winners", "edition", "players", "plies")


def played_between() -> tuple[str | None, str | None]:
    """The days played the lists keep (None: any), from the page's own date range."""
    picked = st.date_input(
        "Played between",
        value=(),
        key="replay_played",
        help="The day a game was played: a record's own Date where it gives one, else the day "
        "the game was stored (simulated, imported or saved). The sidebar's dates are the day "
        "stored.",
    )
    days = (tuple(picked) + (None, None))[:2] if isinstance(picked, tuple) else (picked, None)
    return days[0].isoformat() if days[0] else None, days[1].isoformat() if days[1] else None


def game_list(title: str, games: pl.DataFrame, columns: tuple[str, ...], key: str) -> int | None:
    """A list of games under its title; the game a click on a row picks."""
    st.markdown(title)
    shown = games.select(
        pl.col("game_id").cast(pl.String),
        *columns,
        pl.col("created").dt.strftime("%Y-%m-%d %H:%M").alias("stored"),
    )
    picked = st.dataframe(
        shown, hide_index=True, on_select="rerun", selection_mode="single-row", key=key
    )
    rows = picked.selection.rows if picked else []
    return games["game_id"][rows[0]] if rows else None


def picker() -> None:
    """Find a game: by id, among the recorded games (every play level, the latest saved
    first), or among the simulated games matching the sidebar filters."""
    st.subheader("Open a game")
    typed = st.text_input("Game id", key="replay_game_id", placeholder="e.g. 4214138427410389")
    if st.button("Open", key="replay_open") and typed:
        wanted = parse_game_id(typed)
        if wanted is None:
            st.error(f"'{plain(typed)}' is not a game id (a whole number).")
        else:
            open_id(wanted)
            st.rerun()
    filters: Filters = st.session_state.get("filters", Filters())
    played_from, played_to = played_between()
    played = {"played_from": played_from, "played_to": played_to, "limit": 200}
    searches = {}
    if filters.source != "simulated":
        searches["recorded"] = replace(filters, level=None, source="recorded").params()
    if filters.source != "recorded" and filters.level != RECORDED:
        searches["simulated"] = replace(filters, source="simulated").params()
    try:
        found = {name: fetch("game_search", params, **played) for name, params in searches.items()}
    except QueryError as error:
        st.error(f"The lake cannot be searched: {plain(error)}")
        return
    if all(games.is_empty() for games in found.values()):
        st.info(
            "No game matches the filters. Record one on the Record page, import `.kgn` files "
            "with `kingdoms import`, or simulate some with `kingdoms simulate`."
        )
        return
    kept = plain(filters.describe())
    st.caption(
        "Pick a game to replay. *played*: the record's own Date where it gives one, else the day "
        "stored; *stored*: when it was simulated, imported or saved (UTC)."
    )
    picks = []
    if not found.get("recorded", pl.DataFrame()).is_empty():
        following = plain(replace(filters, level=None, source=None).describe())
        title = f"**Recorded games**, the latest stored first: {following}"
        picks.append(game_list(title, found["recorded"], RECORDED_COLUMNS, "replay_pick_recorded"))
    if not found.get("simulated", pl.DataFrame()).is_empty():
        title = f"**Simulated games**, the latest first: {kept}"
        picks.append(game_list(title, found["simulated"], SIMULATED_COLUMNS, "replay_pick"))
    every = [game for games in found.values() for game in games["game_id"].to_list()]
    choice = st.selectbox(
        "Or choose from the lists",
        [None, *every],
        format_func=lambda g: "—" if g is None else str(g),
        key="replay_choice",
    )
    for picked in [*picks, choice]:
        if picked is not None:
            open_id(picked)
            st.rerun()


def step_controls(timeline: Timeline, ply: int) -> None:
    last = timeline.plies
    first_col, back_col, forward_col, last_col, _ = st.columns([1.3, 1.2, 1.4, 1.2, 3])
    first_col.button(
        "First",
        icon=":material/first_page:",
        key="replay_first",
        on_click=go_to,
        args=(0,),
        shortcut="Home",
    )
    back_col.button(
        "Back",
        icon=":material/chevron_left:",
        key="replay_back",
        on_click=go_to,
        args=(max(0, ply - 1),),
        shortcut="Left",
    )
    forward_col.button(
        "Forward",
        icon=":material/chevron_right:",
        key="replay_forward",
        on_click=go_to,
        args=(min(last, ply + 1),),
        shortcut="Right",
    )
    last_col.button(
        "Last",
        icon=":material/last_page:",
        key="replay_last",
        on_click=go_to,
        args=(last,),
        shortcut="End",
    )
    st.session_state["replay_slider"] = ply
    st.slider(
        "Ply",
        0,
        max(last, 1),
        key="replay_slider",
        on_change=lambda: go_to(st.session_state["replay_slider"]),
        help="Ply 0 is the position before the first move; ply k the position after move k.",
    )


def move_list(timeline: Timeline, ply: int, review: pl.DataFrame | None, key: str) -> None:
    """The moves around the current one (marked ▶); a click on a row jumps there."""
    first = max(1, min(ply - MOVES_BEFORE, timeline.plies - MOVES_SHOWN + 1))
    frame = timeline.move_frame.filter(pl.col("ply").is_between(first, first + MOVES_SHOWN - 1))
    frame = frame.with_columns(
        pl.when(pl.col("ply") == ply).then(pl.lit("▶")).otherwise(pl.lit("")).alias("now"),
        pl.when(pl.col("turn") == 1)
        .then(pl.format("epoch {}", pl.col("epoch")))
        .otherwise(pl.lit(""))
        .alias("epoch start"),
    )
    if review is not None:
        badges = review.select(
            pl.col("ply").cast(pl.Int64), pl.col("quality").replace_strict(BADGES).alias("class")
        )
        frame = frame.join(badges, on="ply", how="left")
    columns = ["now", "ply", "seat", "move"]
    columns += ["class"] if review is not None else []
    columns += ["epoch start"]
    plies = frame["ply"].to_list()

    def jump() -> None:
        rows = st.session_state[key].selection.rows
        if rows:
            go_to(plies[rows[0]])

    st.dataframe(
        frame.select(columns),
        hide_index=True,
        on_select=jump,
        selection_mode="single-row",
        key=key,
        column_config={"now": st.column_config.TextColumn("", width="small")},
    )
    st.caption(
        f"Moves {first}–{first + len(plies) - 1} of {timeline.plies}; click one to go there."
    )


def seats_table(opened: OpenedGame, ply: int, omniscient: bool) -> pl.DataFrame:
    position = opened.timeline.positions[ply]
    letters = pieces.SEAT_LETTERS
    rows = []
    for seat, name in enumerate(opened.names):
        tile = position.start_tiles[seat]
        visible = omniscient or position.to_move == seat
        held = pieces.piece_token(tile) if tile and visible else ("hidden" if tile else "—")
        agent = opened.agents[seat]
        rows.append(
            {
                "seat": letters[seat],
                "player": f"{name} ({agent})" if agent and agent != name else name,
                "gold": position.gold[seat],
                "castles left (rank 1/2/3/4)": "/".join(str(c) for c in position.castles[seat]),
                "starting tile": held,
                "to move": "●" if position.to_move == seat else "",
            }
        )
    return pl.DataFrame(rows)


def scoring(opened: OpenedGame, ply: int) -> None:
    timeline = opened.timeline
    breakdown = timeline.breakdown(ply)
    position = timeline.positions[ply]
    if breakdown is None:
        ends = [p for p in timeline.epoch_end_plies() if p >= ply]
        if ends:
            st.caption(f"Epoch {position.epoch} is scored at ply {ends[0]}.")
            st.button(
                f"Go to the scoring of epoch {position.epoch}",
                key="replay_to_scoring",
                on_click=go_to,
                args=(ends[0],),
            )
        return
    epoch_scoring(breakdown, position.board, timeline.geometry, len(opened.names), position.epoch)


def evaluation(opened: OpenedGame, ply: int, review: pl.DataFrame | None) -> None:
    st.subheader("Engine evaluation")
    if review is None:
        if not writes_allowed():
            st.caption(
                "This game has no review yet, and this shared dashboard is read-only: "
                "`kingdoms review --all` reviews the lake's games."
            )
            return
        st.caption(
            f"The engine reviews every move (budget {DEFAULT_BUDGET} iterations, seed "
            f"{DEFAULT_SEED}) once; the review is kept in the lake."
        )
        if st.button("Review this game", key="replay_review", type="primary"):
            bar = st.progress(0.0, text="Reviewing…")

            def progress(done: int, total: int) -> None:
                bar.progress(done / max(total, 1), text=f"Reviewing move {done} of {total}")

            make_review(opened, DEFAULT_BUDGET, DEFAULT_SEED, progress)
            st.rerun()
        return
    chart_key = f"replay_eval_{opened.game_id}"

    def jump_from_chart() -> None:
        chosen = selected_ply(st.session_state[chart_key])
        if chosen is not None:
            go_to(chosen)

    st.vega_lite_chart(
        current_ply(ply),
        evaluation_spec(lake_version(), opened.game_id, opened, review),
        on_select=jump_from_chart,
        selection_mode="jump",
        key=chart_key,
    )
    st.caption(
        "Each line is a player's expected win share as the engine judged it at that player's "
        "own turns, from what the player could see, held until its next turn; a point marks "
        "each move, a diamond a mistake or blunder. Key moments are ringed: a circle for the "
        "three costliest moves, a square where another player takes the expected lead. "
        "Click a point to go to its ply."
    )
    accuracy(opened, review)
    luck(opened, review)
    labels = dict(costly_moves(review))

    def jump_from_list() -> None:
        chosen = st.session_state["replay_jump"]
        if chosen is not None:
            go_to(int(chosen))

    st.selectbox(
        "Jump to a move that cost its player",
        [None, *labels],
        format_func=lambda p: "—" if p is None else labels[p],
        key="replay_jump",
        on_change=jump_from_list,
        help="The inaccuracies, mistakes and blunders, the costliest first, each by its one "
        "loss, which its class follows: the expected win share its player gave up. Once a game "
        "is decided (the mover's win chance within 0.02 of 0 or 1) the loss is the gold given "
        "up, as the heuristic values the moves, at 1 gold = 0.01 win share.",
    )


def accuracy(opened: OpenedGame, review: pl.DataFrame) -> None:
    """Each player's accuracy, for the game and per epoch, with its costly moves."""
    st.markdown("**Accuracy** (0–100: lichess's, on the loss of expected win share)")
    table = accuracy_rows(lake_version(), opened.game_id, opened, review)
    shares = [c for c in table.columns if c == "accuracy" or c.startswith("epoch ")]
    st.dataframe(
        table,
        hide_index=True,
        key="replay_accuracy",
        column_config={c: st.column_config.NumberColumn(format="%.1f") for c in shares},
    )
    st.caption(
        "A move's accuracy falls with its loss (100 for none, about 65 for 0.10 of a win, 10 "
        "for 0.50); a player's is the mean of the moves' accuracy weighted by how much the "
        "player's expected win share moved around them, and their harmonic mean, so a few "
        "bad moves weigh. One game: a description of it, without an interval. Definitions in "
        "docs/metrics.md (Accuracy)."
    )


def luck(opened: OpenedGame, review: pl.DataFrame) -> None:
    """One line a player of a finished game: what the tiles and their own moves cost them."""
    if opened.timeline.positions[-1].to_move is not None:
        return
    st.markdown("**Luck and skill**")
    for row in luck_rows(lake_version(), opened.game_id, opened, review).iter_rows(named=True):
        if row["moves"]:
            name = opened.timeline.players[pieces.SEAT_LETTERS.index(row["seat"])]
            st.markdown(luck_verdict(name, row))
    st.caption(
        "Luck: what the tiles a player drew and was dealt gave or took, each against the mean "
        "of the tiles they could have met, in expected win share; their moves: the expected "
        "win share their moves gave up. Without the luck: the result minus the luck. One game, "
        "without an interval. Definitions in docs/metrics.md (Luck and skill)."
    )


def current_move(opened: OpenedGame, ply: int, review: pl.DataFrame | None) -> None:
    """What happened at this ply, its class, and the engine's best next move."""
    timeline = opened.timeline
    move = timeline.last_move(ply)
    position = timeline.positions[ply]
    if move is None:
        seat = position.to_move or 0
        opening = first_mover(pieces.SEAT_LETTERS[seat], opened.names[seat], opened.agents[seat])
        st.markdown(f"**Start of the game.** {opening}.")
    else:
        letter = pieces.SEAT_LETTERS[move.seat]
        text = f"**Move {ply}** (epoch {move.epoch}, turn {move.turn}): {letter} {move.text}"
        if review is not None:
            row = review.filter(pl.col("ply") == ply).row(0, named=True)
            colour = BADGE_COLOURS[row["quality"]]
            text += f" :{colour}-badge[{BADGES[row['quality']]}]"
            if row["quality"] != "best":
                text += f" — {loss_text(row)}; best was {row['best_move']}"
        st.markdown(text)


st.title("Replay")
game_id = parse_game_id(st.query_params.get("game"))
opened = open_game(game_id) if game_id is not None else None
if opened is None:
    if game_id is not None or "game" in st.query_params:
        st.warning(f"There is no game '{plain(st.query_params.get('game'))}' in the lake.")
    picker()
    st.stop()

timeline = opened.timeline
ply = timeline.clamp(parse_game_id(st.query_params.get("ply")) or 0)
if st.query_params.get("ply") != str(ply):
    st.query_params["ply"] = str(ply)
review = stored_review(opened.game_id, DEFAULT_BUDGET, DEFAULT_SEED)
names = DISPLAY_NAMES[opened.edition]
seated = plain(", ".join(f"{pieces.SEAT_LETTERS[s]} {n}" for s, n in enumerate(opened.names)))
st.caption(
    f"Game {opened.game_id} · {opened.source} · {plain(timeline.game.rules.name)} "
    f"({timeline.geometry.rows} × {timeline.geometry.columns}) · {seated} · {timeline.plies} moves"
)
specs = chart_specs(lake_version(), opened.game_id, opened)
step_controls(timeline, ply)
current_move(opened, ply, review)

board_column, list_column = st.columns([3, 2])
with board_column:
    view = board_view(timeline, review, ply)
    cells = board_frame(
        view.board, timeline.geometry, opened.edition, last_cell=view.last_cell, best=view.best
    )
    st.vega_lite_chart(cells, {**specs["board"], "title": view.title}, key="replay_board")
    if view.caption:
        st.caption(view.caption)
    omniscient = st.toggle(
        "Show every starting tile (omniscient)",
        value=True,
        key="replay_omniscient",
        help=f"Off: only what the seat to move could see (its own {names['castle']}s, "
        "the board and its own starting tile).",
    )
    st.dataframe(seats_table(opened, view.ply, omniscient), hide_index=True)
with list_column:
    move_list(timeline, ply, review, key=f"replay_moves_{opened.game_id}_{ply}")
    st.download_button(
        "Download .kgn" + (" with the review" if review is not None else ""),
        data=lambda: record_text(opened.game_id, review),
        file_name=f"kingdoms-{opened.game_id}.kgn",
        mime="text/plain",
        key="replay_download",
    )

st.subheader("Gold over the game")
st.vega_lite_chart(gold_at(timeline.gold_frame, ply), specs["gold"], key="replay_gold")
scoring(opened, ply)
evaluation(opened, ply, review)
