"""Board strings: round-trips and the bad-input cases of the notation spec."""

import pytest
from hypothesis import given

from engine.geometry import geometry
from engine.notation import BoardSyntaxError, board_string, parse_board
from engine.rules import RuleSet
from tests.engine.boards import board, random_boards

RULES = RuleSet()
GEO = geometry()


@given(random_boards(players=4))
def test_board_strings_round_trip(cells: list[int]) -> None:
    text = board_string(cells, GEO)
    assert parse_board(text, RULES) == cells
    assert board_string(parse_board(text, RULES), GEO) == text


def test_commas_and_spacing_are_accepted() -> None:
    spaced = "A1,+5 ,. . . .  /. . . . . . /. . . . . ./. . . . . . / . . . . . ."
    assert parse_board(spaced, RULES) == parse_board(board("A1 +5 . . . ."), RULES)


BAD_BOARDS = [
    (board("A1 Q7 . . . ."), "row 1, token 2: unknown piece 'Q7'"),
    (board("A1 +5 . . ."), "row 1: expected 6 tokens, found 5"),
    ("A1 . . . . . / . . . . . .", "expected 5 rows separated by '/', found 2"),
    (board(". . . A5 . ."), "row 1, token 4: castle rank 5 does not exist in 'A5'"),
    (
        board("+1 +1 +1 . . ."),
        "row 1, token 1: 3 pieces '+1' but the kingdoms-2011 edition has 2 +1",
    ),
    (
        board("A4 A4 . . . ."),
        "row 1, token 1: 2 pieces 'A4' but the kingdoms-2011 edition has 1 A4",
    ),
]


@pytest.mark.parametrize(("text", "message"), BAD_BOARDS)
def test_bad_boards_say_what_and_where(text: str, message: str) -> None:
    with pytest.raises(BoardSyntaxError) as caught:
        parse_board(text, RULES)
    assert str(caught.value) == message


def test_the_wizard_does_not_exist_before_2011() -> None:
    with pytest.raises(BoardSyntaxError, match="kingdoms-2002 edition has no WZ"):
        parse_board(board("A1 WZ . . . ."), RuleSet("kingdoms-2002"))


def test_castles_of_a_seat_beyond_the_player_count_are_refused() -> None:
    with pytest.raises(BoardSyntaxError, match="no seat C in a 2-player game"):
        parse_board(board("A1 C1 . . . ."), RULES, players=2)
