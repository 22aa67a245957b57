"""Board strings: one position as text (`+3 B1 A4 C1 -6 A1 / C2 GM …`), read and written.

Rows top to bottom separated by `/`, tokens inside a row separated by spaces or commas.
Reading is strict: every error names the row and the token it is about.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from engine import pieces
from engine.geometry import Geometry
from engine.rules import RuleSet

_TOKEN_SPLIT = re.compile(r"[\s,]+")


class BoardSyntaxError(ValueError):
    """A board string that breaks the notation; the message says where."""


def board_string(board: Sequence[int], geometry: Geometry) -> str:
    columns = geometry.columns
    rows = (
        " ".join(pieces.piece_token(board[r * columns + c]) for c in range(columns))
        for r in range(geometry.rows)
    )
    return " / ".join(rows)


def parse_board(text: str, rules: RuleSet, players: int | None = None) -> list[int]:
    """The board a string describes, checked against the rule set's components.

    With `players`, castles of other seats and more rank-1 castles than that count allows
    are refused; without it, any seat A-D is accepted.
    """
    row_texts = text.split("/")
    if len(row_texts) != rules.rows:
        raise BoardSyntaxError(
            f"expected {rules.rows} rows separated by '/', found {len(row_texts)}"
        )
    board: list[int] = []
    positions: dict[int, tuple[int, int]] = {}
    for row_number, row_text in enumerate(row_texts, start=1):
        tokens = [t for t in _TOKEN_SPLIT.split(row_text.strip()) if t]
        if len(tokens) != rules.columns:
            raise BoardSyntaxError(
                f"row {row_number}: expected {rules.columns} tokens, found {len(tokens)}"
            )
        for token_number, token in enumerate(tokens, start=1):
            try:
                piece = pieces.parse_piece(token)
            except pieces.PieceError as error:
                raise BoardSyntaxError(f"row {row_number}, token {token_number}: {error}") from None
            positions.setdefault(piece, (row_number, token_number))
            board.append(piece)
    _check_components(board, rules, players, positions)
    return board


def _check_components(
    board: list[int],
    rules: RuleSet,
    players: int | None,
    positions: dict[int, tuple[int, int]],
) -> None:
    available = Counter(rules.tiles)
    ranks = rules.castles(players or 2)
    for piece, count in Counter(board).items():
        if piece == pieces.EMPTY:
            continue
        row, token = positions[piece]
        where = f"row {row}, token {token}"
        name = pieces.piece_token(piece)
        if pieces.is_castle(piece):
            seat = pieces.castle_seat(piece)
            if players is not None and seat >= players:
                raise BoardSyntaxError(f"{where}: no seat {name[0]} in a {players}-player game")
            limit = ranks[pieces.castle_rank(piece) - 1]
        else:
            limit = available[piece]
        if count > limit:
            have = f"{limit} {name}" if limit else f"no {name}"
            raise BoardSyntaxError(
                f"{where}: {count} pieces '{name}' but the {rules.edition} edition has {have}"
            )
