"""Game records: round-trips through the engine, and the errors of the notation spec."""

import re

import pytest

from engine.record import RecordError, parse_record, record_from_state, replay_record, write_record
from engine.state import Game
from tests.random_games import random_game

HEADER = """[Game "Kingdoms"]
[Edition "kingdoms-2011"]
[A "Ann"]
[B "Bob"]
"""


def _random_record(players: int, seed: int) -> tuple[str, list[int]]:
    state = random_game(Game(players), seed)
    return write_record(record_from_state(state, {"Seed": str(seed)})), state.history


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_random_game_survives_export_and_replay(players: int) -> None:
    for seed in range(1000):
        text, history = _random_record(players, seed)
        state = replay_record(parse_record(text))
        assert state.history == history
        assert write_record(record_from_state(state, {"Seed": str(seed)})) == text


def test_unknown_starting_tiles_replay() -> None:
    text, _ = _random_record(2, 3)
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("start"))
    lines[start] = "start A=? B=?"
    gold = replay_record(parse_record(text)).gold
    assert replay_record(parse_record("\n".join(lines))).gold == gold


def test_comments_are_ignored_and_kept_on_moves() -> None:
    text, _ = _random_record(2, 4)
    first_move = re.search(r"\n[AB] ", text).start()  # whichever seat moves first
    end = text.index("\n", first_move + 1)
    commented = text[:end] + "   ; a fine move\n{ a long\ncomment }" + text[end:]
    record = parse_record(commented)
    assert record.epochs[0].moves[0].comment == "a fine move"
    assert replay_record(record).gold == replay_record(parse_record(text)).gold


def _error(text: str) -> str:
    with pytest.raises(RecordError) as caught:
        replay_record(parse_record(text))
    return str(caught.value)


def test_wrong_turn_names_the_seat_whose_turn_it_is() -> None:
    text = HEADER + "\nepoch 1\nstart A=+1 B=+2\nA C4 a1\nA C3 b1\n"
    assert _error(text) == "9:1: seat A cannot move now, it is B's turn"


def test_a_tile_not_left_in_the_supply() -> None:
    text = HEADER + "\nepoch 1\nstart A=+6 B=+6\nA d+6 a1\n"
    assert _error(text) == "8:3: no +6 tile left in the supply"


def test_an_occupied_cell() -> None:
    text = HEADER + "\nepoch 1\nstart A=+1 B=+2\nA C4 a1\nB C4 a1\n"
    assert _error(text) == "9:3: a1 is not empty"


def test_a_starting_tile_that_does_not_match() -> None:
    text = HEADER + "\nepoch 1\nstart A=+1 B=+2\nA s+3 a1\n"
    assert _error(text) == "8:3: seat A's starting tile is +1, not +3"


def test_syntax_errors_carry_line_and_column() -> None:
    assert _error(HEADER + "\nepoch 1\nstart A=+1 B=+2\nA X9 a1\n") == "8:3: unknown action 'X9'"
    assert _error(HEADER + "\nepoch 1\nstart A=+1 B=+2\nA C4 z9\n") == (
        "8:6: 'z9' is not a cell of a 5x6 board"
    )
    assert _error('[Edition "kingdoms-2011"]\n[A "Ann"]\n\nepoch 1\n').startswith("4:1: the seats")
    assert _error(HEADER.replace("kingdoms-2011", "chess") + "epoch 1\n").startswith(
        "2:11: unknown edition"
    )
    assert _error(HEADER + "{ never closed\n").startswith("5:1: comment")


def test_a_result_that_the_moves_do_not_give_is_rejected() -> None:
    text, _ = _random_record(2, 9)
    lines = text.splitlines()
    index = next(i for i, line in enumerate(lines) if line.startswith("[Result"))
    lines[index] = '[Result "A 1, B 2"]'
    assert "Result says A 1 but the moves give" in _error("\n".join(lines))


def test_an_unfinished_record_is_rejected() -> None:
    text = HEADER + "\nepoch 1\nstart A=+1 B=+2\nA C4 a1\n"
    assert _error(text) == "8:1: the record ends before the game is over"
