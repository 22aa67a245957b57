"""Practice puzzles: chosen from a player's reviewed moves (`kingdoms review --all` on the records'
lake), judged as the review judged them, and brought back on Leitner's schedule, with the
progress kept in a JSON file beside the lake."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import polars as pl
import pytest

from data.cli import main
from data.lake import Lake
from data.practice import (
    FLOOR,
    MOST_PUZZLES,
    PracticeError,
    Puzzle,
    answer_actions,
    choices,
    judge,
    player_puzzles,
    puzzle_position,
)
from data.practice_schedule import (
    BOXES,
    WAITS,
    Progress,
    ProgressError,
    answered,
    due_puzzles,
    load_progress,
    next_return,
    progress_path,
    save_progress,
)
from data.reader import connect, execute
from data.reviews import load_review
from engine import pieces
from engine.evaluate import describe
from engine.moves import CASTLE, DRAW, Move
from engine.turns import Turn, walk
from tests.lakes import scratch_lake

BUDGET, SEED = 40, 1  # a small review budget: the puzzles' choice does not depend on it
PLAYER = "Bob"
NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def lake(tmp_path_factory: pytest.TempPathFactory) -> Lake:
    """The records' lake with every recorded game reviewed by `kingdoms review`."""
    lake = scratch_lake(tmp_path_factory.mktemp("practice-lake"))
    argv = ["review", "--all", "--player", PLAYER, "--budget", str(BUDGET), "--seed", str(SEED)]
    assert main([*argv, "--workers", "2", "--lake", str(lake.root)]) == 0
    return lake


@pytest.fixture(scope="module")
def puzzles(lake: Lake) -> list[Puzzle]:
    return player_puzzles(lake, PLAYER, BUDGET, SEED)


def _costly_moves(lake: Lake) -> pl.DataFrame:
    """The player's reviewed moves that lost more than FLOOR while the game was open, read
    from the stored reviews and the seats table here."""
    seats = execute(
        connect(lake), "SELECT game_id, seat FROM seats WHERE player = $p", {"p": PLAYER}
    )
    frames = []
    for game_id, seat in seats.iter_rows():
        review = load_review(lake, game_id, BUDGET, SEED)
        frames.append(
            review.filter(
                (pl.col("seat") == seat) & ~pl.col("decided") & (pl.col("loss") > FLOOR)
            ).with_columns(pl.lit(game_id).alias("game_id"))
        )
    return pl.concat(frames)


def test_puzzles_are_the_players_costliest_open_moves(lake: Lake, puzzles: list[Puzzle]) -> None:
    costly = _costly_moves(lake)
    assert 0 < len(puzzles) == min(costly.height, MOST_PUZZLES)
    assert {(p.game_id, p.ply) for p in puzzles} == set(costly.select("game_id", "ply").iter_rows())
    losses = [p.loss for p in puzzles]
    assert losses == sorted(losses, reverse=True)
    assert all(p.quality in ("inaccuracy", "mistake", "blunder") for p in puzzles)


def test_a_player_without_reviews_has_no_puzzles(lake: Lake) -> None:
    assert player_puzzles(lake, PLAYER, BUDGET + 1, SEED) == []
    assert player_puzzles(lake, "Nobody", BUDGET, SEED) == []


def test_the_position_is_the_turn_the_player_met(lake: Lake, puzzles: list[Puzzle]) -> None:
    for puzzle in puzzles[:5]:
        position = puzzle_position(lake, puzzle, SEED)
        assert position.state.current_player() == puzzle.seat
        assert position.state.epoch == puzzle.epoch
        turns = [
            item
            for item in walk(position.game, [*position.before, *position.played])
            if isinstance(item, Turn)
        ]
        assert len(turns) == puzzle.ply
        assert describe(turns[-1].move, position.game) == puzzle.played
        assert turns[-1].before.board == position.state.board


def test_a_draw_shows_the_tile_drawn_in_the_game(lake: Lake, puzzles: list[Puzzle]) -> None:
    drawn = [p for p in puzzles if p.played.startswith("d")]
    assert drawn, "the records' reviews give a costly draw"
    for puzzle in drawn:
        position = puzzle_position(lake, puzzle, SEED)
        tile = pieces.parse_tile(puzzle.played.split()[0][1:])
        assert position.drawn_tile == tile
        assert Move(DRAW, tile=tile) in choices(position)


def test_the_move_played_is_judged_as_the_review_judged_it(
    lake: Lake, puzzles: list[Puzzle]
) -> None:
    """The known answer is the stored review's loss: the judge searches on the review's seeds."""
    for puzzle in puzzles[:4]:
        position = puzzle_position(lake, puzzle, SEED)
        played = Move.from_str(puzzle.played, position.game.geometry)
        judged = judge(position, played, BUDGET)
        assert judged.loss == pytest.approx(puzzle.loss, abs=1e-6)
        assert judged.quality == puzzle.quality and not judged.passed
        assert judged.line[0] == (pieces.SEAT_LETTERS[puzzle.seat], judged.best)
        assert 1 <= len(judged.line) <= 4


def test_the_reviews_best_move_loses_less_than_the_move_played(
    lake: Lake, puzzles: list[Puzzle]
) -> None:
    puzzle = next(p for p in puzzles if p.best.split()[0][0] in "Cs")  # a whole move
    position = puzzle_position(lake, puzzle, SEED)
    judged = judge(position, Move.from_str(puzzle.best, position.game.geometry), BUDGET)
    assert judged.loss < puzzle.loss


def test_an_illegal_answer_is_refused_with_the_rules_reason(
    lake: Lake, puzzles: list[Puzzle]
) -> None:
    position = puzzle_position(lake, puzzles[0], SEED)
    board = position.state.board
    taken = next(cell for cell, piece in enumerate(board) if piece)
    rank = next(r for r, left in enumerate(position.state.castles[position.seat], 1) if left)
    with pytest.raises(PracticeError, match="is not empty"):
        answer_actions(position, Move(CASTLE, taken, rank=rank))
    if position.drawn_tile is not None:
        empty = board.index(pieces.EMPTY)
        other = next(t for t in pieces.TILE_KINDS if t != position.drawn_tile)
        with pytest.raises(PracticeError, match="the tile drawn here is"):
            answer_actions(position, Move(DRAW, empty, tile=other))


def test_a_gone_game_is_a_practice_error(lake: Lake, puzzles: list[Puzzle]) -> None:
    gone = Puzzle(1, 1, 0, 1, "pass", 0.1, "inaccuracy", "pass")
    with pytest.raises(PracticeError, match="no longer in the lake"):
        puzzle_position(lake, gone, SEED)


# ---------------------------------------------------------------- the schedule


def _puzzle(ply: int, loss: float) -> Puzzle:
    return Puzzle(7, ply, 0, 1, "C1 a1", loss, "mistake", "C2 a1")


def test_solved_moves_up_a_box_and_missed_goes_back_to_the_first() -> None:
    puzzle = _puzzle(1, 0.2)
    progress = Progress(PLAYER)
    for box in [2, 3, 4, 5, BOXES]:
        progress = answered(progress, puzzle, True, NOW)
        assert progress.card(puzzle).box == box
    progress = answered(progress, puzzle, False, NOW)
    card = progress.card(puzzle)
    assert (card.box, card.tries, card.solved, card.answered) == (1, 6, 5, NOW)


def test_a_puzzle_comes_back_after_its_boxs_wait() -> None:
    missed, solved, new = _puzzle(1, 0.3), _puzzle(2, 0.2), _puzzle(3, 0.1)
    progress = answered(Progress(PLAYER), missed, False, NOW)
    progress = answered(progress, solved, True, NOW)
    puzzles = [missed, solved, new]
    assert due_puzzles(puzzles, progress, NOW) == [new]
    assert due_puzzles(puzzles, progress, NOW + WAITS[1]) == [missed, new]
    assert due_puzzles(puzzles, progress, NOW + WAITS[2]) == [missed, new, solved]
    assert next_return(puzzles, progress) == NOW + WAITS[1]
    assert next_return([new], progress) is None


def test_the_lowest_box_comes_first_then_the_costliest() -> None:
    low, high, higher = _puzzle(1, 0.1), _puzzle(2, 0.2), _puzzle(3, 0.3)
    progress = answered(Progress(PLAYER), higher, True, NOW - timedelta(days=30))
    puzzles = [higher, high, low]  # costliest first, as player_puzzles gives them
    assert due_puzzles(puzzles, progress, NOW) == [high, low, higher]


def test_progress_survives_a_new_reader_in_one_json_file(tmp_path: Path) -> None:
    lake = Lake(tmp_path)
    name = "Zoë / the ../ elder"
    progress = answered(Progress(name), _puzzle(1, 0.2), True, NOW)
    save_progress(lake, progress)
    save_progress(lake, answered(progress, _puzzle(2, 0.1), False, NOW))
    path = progress_path(lake, name)
    assert path.parent == tmp_path / "practice"
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no temporary file left
    read = load_progress(lake, name)
    assert read.card(_puzzle(1, 0.2)).box == 2 and read.card(_puzzle(2, 0.1)).box == 1
    assert json.loads(path.read_text())["player"] == name
    assert load_progress(lake, "Someone else") == Progress("Someone else")


def test_a_damaged_progress_file_says_where(tmp_path: Path) -> None:
    lake = Lake(tmp_path)
    path = progress_path(lake, PLAYER)
    path.parent.mkdir()
    path.write_text('{"player": "Bob",\n "cards": {')
    with pytest.raises(ProgressError, match=rf"{path.name}:2:\d+: "):
        load_progress(lake, PLAYER)
    path.write_text('{"player": "Bob", "cards": {"7:1": {"box": 9}}}')
    with pytest.raises(ProgressError, match=rf"{path.name}:1:1: "):
        load_progress(lake, PLAYER)
