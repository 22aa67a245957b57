"""Pieces as small integers, and their text tokens (`+3`, `-6`, `MT`, `A4`, `.`).

Board cells hold these integers so that scoring loops stay cheap; the token functions
are the one place where a piece becomes text and back.
"""

from __future__ import annotations

from engine.tokens import is_digits

EMPTY = 0
# Resource tiles +1..+6 are the codes 1..6; hazard tiles -1..-6 are the codes 7..12.
MOUNTAIN = 13
DRAGON = 14
GOLD_MINE = 15
WIZARD = 16
CASTLE_BASE = 32  # castle code = CASTLE_BASE + 4 * seat + (rank - 1)

MAX_SEATS = 4
SEAT_LETTERS = "ABCD"
CASTLE_RANKS = (1, 2, 3, 4)
SPECIAL_TOKENS = {MOUNTAIN: "MT", DRAGON: "DR", GOLD_MINE: "GM", WIZARD: "WZ"}
TOKEN_SPECIALS = {token: code for code, token in SPECIAL_TOKENS.items()}
TILE_KINDS = tuple(range(1, 17))  # every tile code, resources first


def resource(value: int) -> int:
    """The code of the resource tile worth +value."""
    return value


def hazard(value: int) -> int:
    """The code of the hazard tile worth -value."""
    return 6 + value


def castle(seat: int, rank: int) -> int:
    return CASTLE_BASE + 4 * seat + rank - 1


def is_castle(piece: int) -> bool:
    return piece >= CASTLE_BASE


def is_tile(piece: int) -> bool:
    return EMPTY < piece < CASTLE_BASE


def castle_seat(piece: int) -> int:
    return (piece - CASTLE_BASE) >> 2


def castle_rank(piece: int) -> int:
    return ((piece - CASTLE_BASE) & 3) + 1


def piece_kind(piece: int) -> str:
    """What a piece is: `castle`, `resource`, `hazard`, or a special tile's own token."""
    if is_castle(piece):
        return "castle"
    if piece in SPECIAL_TOKENS:
        return SPECIAL_TOKENS[piece]
    return "resource" if tile_value(piece) > 0 else "hazard"


def tile_value(piece: int) -> int:
    """Face value of a resource (+) or hazard (-) tile; 0 for special tiles."""
    if 1 <= piece <= 6:
        return piece
    if 7 <= piece <= 12:
        return 6 - piece
    return 0


# Per-code lookup tables for the scoring loops: face value of value tiles, castles' seat and rank.
_CODES = range(CASTLE_BASE + 4 * MAX_SEATS)
TILE_VALUE = tuple(tile_value(code) for code in _CODES)
CASTLE_SEAT = tuple(castle_seat(code) if is_castle(code) else -1 for code in _CODES)
CASTLE_RANK = tuple(castle_rank(code) if is_castle(code) else 0 for code in _CODES)


class PieceError(ValueError):
    """A token that names no piece."""


def piece_token(piece: int) -> str:
    """The notation token of a piece (`.` for an empty space)."""
    if piece == EMPTY:
        return "."
    if is_castle(piece):
        return f"{SEAT_LETTERS[castle_seat(piece)]}{castle_rank(piece)}"
    if piece in SPECIAL_TOKENS:
        return SPECIAL_TOKENS[piece]
    value = tile_value(piece)
    return f"{value:+d}"


def parse_piece(token: str) -> int:
    """The piece a notation token names; raises PieceError for anything else."""
    if token == ".":
        return EMPTY
    if token in TOKEN_SPECIALS:
        return TOKEN_SPECIALS[token]
    if len(token) == 2 and token[0] in "+-" and token[1] in "123456":
        value = int(token[1])
        return resource(value) if token[0] == "+" else hazard(value)
    if len(token) == 2 and token[0] in SEAT_LETTERS and is_digits(token[1]):
        rank = int(token[1])
        if rank not in CASTLE_RANKS:
            raise PieceError(f"castle rank {rank} does not exist in '{token}'")
        return castle(SEAT_LETTERS.index(token[0]), rank)
    raise PieceError(f"unknown piece '{token}'")


def parse_tile(token: str) -> int:
    """Like parse_piece, but only tiles (what `d…`, `s…` and `start` name)."""
    piece = parse_piece(token)
    if not is_tile(piece):
        raise PieceError(f"'{token}' is not a tile")
    return piece
