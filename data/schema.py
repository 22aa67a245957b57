"""The lake's catalogue: every table a batch holds, its columns and types, and where its files
go. `moves` holds small unsigned codes without nulls, which the views name (data/views.py)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np
import pyarrow as pa

from engine import pieces
from engine.geometry import geometry
from engine.rulefile import SIDES

# Changes whenever a stored column is added, renamed or retyped; a lake of another is refused.
SCHEMA_VERSION = 13
SCHEMA_CHANGE = (
    "version 13 keeps every game's rule set (the games' `rules` hash, each batch's `rule_sets` "
    "with their names and text) and stores the actions two bytes each, for boards up to 8 × 8"
)
ENGINE_VERSION = "0.1.0"

_DICT = pa.dictionary(pa.int8(), pa.string())
KINDS = ("castle", "draw", "start", "pass")  # a stored move's `kind` is an index here
# A stored `cell` is coded on the largest board, row × 8 + column, whatever the game's board
# (-1 for none): its name, row and column never need the game's rules.
GRID = geometry(SIDES[-1], SIDES[-1])
CELL_NAMES = tuple(GRID.cell_name(code) for code in range(GRID.cells))


def grid_codes(cells: np.ndarray, columns: np.ndarray) -> np.ndarray:
    """Cells of boards `columns` wide (-1 for none) as stored codes."""
    row, column = np.divmod(cells, np.maximum(columns, 1))
    return np.where(cells < 0, -1, row * GRID.columns + column)


@cache
def board_cells(rows: int, columns: int) -> tuple[tuple[str, str], ...]:
    """Every cell of a board of this size, in order, with its mirror class, named by its first
    cell: the cell and its left-right and top-bottom mirror images, which a pooled heatmap
    counts as one."""
    board = geometry(rows, columns)
    return tuple(
        (board.cell_name(cell), board.cell_name(min(board.mirror_images(cell))))
        for cell in range(board.cells)
    )


PIECE_CODES = range(pieces.CASTLE_BASE + 4 * pieces.MAX_SEATS)  # a stored `piece` (0: none)
VALUE_OFFSET = 32768  # added to stored gold and impacts; a stored 0 means none


def _schema(columns: list[tuple[str, pa.DataType]], nullable: tuple[str, ...] = ()) -> pa.Schema:
    """Columns required unless named: Parquet then writes no definition levels (faster)."""
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
            ("actions", pa.binary()),  # the engine's action ids, two bytes each (little-endian)
            ("rules", pa.dictionary(pa.int16(), pa.string())),  # its rule set's `rules_hash`
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
            ("row_gold_or_impact_a", pa.uint16()),
            ("column_gold_or_impact_b", pa.uint16()),
            ("effective_rank_or_impact_c", pa.uint16()),
            ("impact_d", pa.uint16()),
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
    "rule_sets": _schema(  # each rule set the batch's games follow, once
        [
            ("rules", pa.string()),
            ("name", pa.string()),
            ("text", pa.string()),  # its canonical rule-set file (engine/rules.py `rule_text`)
            ("rows", pa.int8()),
            ("columns", pa.int8()),
            ("tiles", pa.list_(pa.string())),  # the tile kinds in its set, each once
        ]
    ),
}

RULE_SETS = "rule_sets"
TABLES = tuple(name for name in TABLE_SCHEMAS if name != RULE_SETS)  # a row or more per game
PLACEMENT_COLUMNS = tuple(TABLE_SCHEMAS["moves"].names[-4:])  # one per seat A–D for a tile
SOURCES = ("simulated", "recorded")

# The file layout: <root>/<table>/source=<source>/batch_id=<n>/part-0.parquet
PARTITION_COLUMNS = ("source", "batch_id")
PART = "part-0.parquet"
AGGREGATE_DIR = Path(__file__).with_name("aggregates")  # agg_<name>.sql: each aggregate's SQL


def piece_tokens() -> tuple[str | None, ...]:
    """The engine's token of every stored piece code, an index here (None where no piece)."""
    return tuple(
        pieces.piece_token(code) if code in pieces.TILE_KINDS or pieces.is_castle(code) else None
        for code in PIECE_CODES
    )


@cache
def aggregate_names() -> tuple[str, ...]:
    """The aggregate tables, one per SQL file in AGGREGATE_DIR."""
    return tuple(sorted(p.stem for p in AGGREGATE_DIR.glob("agg_*.sql")))


def all_tables() -> tuple[str, ...]:
    """Every table a batch holds: the stored game tables, its rule sets, then the aggregates."""
    return (*TABLES, RULE_SETS, *aggregate_names())


def batch_folder(root: Path, table: str, source: str, batch_id: int | str) -> Path:
    """The folder of one table's file of a batch."""
    return root / table / f"source={source}" / f"batch_id={batch_id}"
