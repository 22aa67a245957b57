"""The lake's stored tables and their columns, as the writer writes them.

The views (data/views.py) add what follows from these (cell row and column, the action id,
the castles and tile impacts of the final boards, which are stored on the turns that placed
them), so the files stay small. `SCHEMA_VERSION` changes whenever
a stored column is added, renamed or retyped.
"""

from __future__ import annotations

import pyarrow as pa

SCHEMA_VERSION = 3
ENGINE_VERSION = "0.1.0"

_DICT = pa.dictionary(pa.int8(), pa.string())

TABLE_SCHEMAS: dict[str, pa.Schema] = {
    "games": pa.schema(
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
        ]
    ),
    "seats": pa.schema(
        [
            ("game_id", pa.int64()),
            ("seat", _DICT),
            ("player", pa.string()),
            ("agent", _DICT),
            ("turn_position", pa.int8()),
            ("final_gold", pa.int16()),
            ("rank", pa.float32()),
            ("win_share", pa.float32()),
            ("utility", pa.float32()),
            ("margin", pa.int16()),
        ]
    ),
    "moves": pa.schema(
        [
            ("game_id", pa.int64()),
            ("epoch", pa.int8()),
            ("ply", pa.int16()),
            ("turn", pa.int8()),
            ("seat", _DICT),
            ("kind", _DICT),
            ("cell", _DICT),
            ("piece", _DICT),
            ("gold_before", pa.int16()),
            ("effective_rank", pa.int8()),
            ("row_gold", pa.int16()),
            ("column_gold", pa.int16()),
            ("impact_a", pa.int16()),
            ("impact_b", pa.int16()),
            ("impact_c", pa.int16()),
            ("impact_d", pa.int16()),
        ]
    ),
    "epoch_scores": pa.schema(
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
