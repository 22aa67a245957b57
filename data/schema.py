"""The lake's stored tables and their columns, as the writer writes them.

The views (data/views.py) add what follows from these (cell row and column, the action id,
the castles and tile impacts of the final boards, which are stored on the turns that placed
them), so the files stay small. `moves`, by far the largest table, is stored as plain small
integers without nulls: seat 0–3, kind 0–3, cell 0–29 or -1, the engine's piece code (0 for
none), and what the placement scored in four columns `value_a` … `value_d`:
- a castle: its row gold and column gold as value + `VALUE_OFFSET`, its effective rank, 0;
- a tile: its impact on seat A … D as value + `VALUE_OFFSET` (0 for a seat not in the game);
- a pass: 0.
So every column is a small unsigned number. Parquet writes those, byte-stream-split, about
twice as fast as dictionaries and nulls, and a castle's three figures sharing the tiles'
columns saves a fifth of the writing; the views turn the codes back into names and NULLs.
A seat's outcome (`rank`, `win_share`, `utility`) is a DOUBLE: each is a fraction with a small
denominator (halves to sixths), and the win shares of tied winners add up to exactly 1.
`SCHEMA_VERSION` changes whenever a stored column is added, renamed or retyped.
"""

from __future__ import annotations

import pyarrow as pa

from engine import pieces
from engine.geometry import geometry

SCHEMA_VERSION = 8
ENGINE_VERSION = "0.1.0"

_DICT = pa.dictionary(pa.int8(), pa.string())
KINDS = ("castle", "draw", "start", "pass")  # a stored move's `kind` is an index here
CELL_NAMES = tuple(geometry(5, 6).cell_name(cell) for cell in range(30))  # `cell`: -1 for none
PIECE_TOKENS = tuple(  # a stored `piece` is the engine's code, an index here (0: none)
    pieces.piece_token(code) if 0 < code <= pieces.WIZARD or code >= pieces.CASTLE_BASE else None
    for code in range(pieces.CASTLE_BASE + 4 * pieces.MAX_SEATS)
)
VALUE_OFFSET = 32768  # added to stored gold and impacts; a stored 0 means none


def _schema(columns: list[tuple[str, pa.DataType]], nullable: tuple[str, ...] = ()) -> pa.Schema:
    """Columns are declared required unless named: Parquet then writes no definition levels,
    which makes `moves` a quarter faster to write."""
    return pa.schema([pa.field(name, type_, nullable=name in nullable) for name, type_ in columns])


TABLE_SCHEMAS: dict[str, pa.Schema] = {
    "games": _schema(
        [
            ("game_id", pa.int64()),
            ("edition", _DICT),
            ("variant", _DICT),
            ("players", pa.int8()),
            ("seed", pa.int64()),
            ("first_seat", _DICT),
            ("plies", pa.int16()),
            ("created", pa.timestamp("ms", tz="UTC")),
            ("engine_version", _DICT),
            ("tags", pa.map_(pa.string(), pa.string())),
            ("deals", pa.list_(pa.uint8())),
            ("unseen_starts", pa.list_(pa.uint8())),
        ],
        nullable=("seed",),  # none for a recorded game
    ),
    "seats": _schema(
        [
            ("game_id", pa.int64()),
            ("seat", _DICT),
            ("player", pa.string()),
            ("agent", _DICT),
            ("turn_position", pa.int8()),
            ("final_gold", pa.int16()),
            ("rank", pa.float64()),
            ("win_share", pa.float64()),
            ("utility", pa.float64()),
            ("margin", pa.int16()),
        ],
        nullable=("agent",),  # none for a person
    ),
    "moves": _schema(
        [
            ("game_id", pa.int64()),
            ("epoch", pa.int8()),
            ("ply", pa.int16()),
            ("turn", pa.int8()),
            ("seat", pa.int8()),
            ("kind", pa.int8()),
            ("cell", pa.int8()),
            ("piece", pa.int8()),
            ("legal_actions", pa.int16()),
            ("gold_before", pa.int16()),
            ("value_a", pa.uint16()),
            ("value_b", pa.uint16()),
            ("value_c", pa.uint16()),
            ("value_d", pa.uint16()),
        ]
    ),
    "epoch_scores": _schema(
        [
            ("game_id", pa.int64()),
            ("epoch", pa.int8()),
            ("seat", _DICT),
            ("gained", pa.int16()),
            ("gold_after", pa.int16()),
        ]
    ),
}

TABLES = tuple(TABLE_SCHEMAS)
PARTITION_COLUMNS = ("source", "batch_id")
SOURCES = ("simulated", "recorded")
