"""Every stored review at one budget and seed as one table of moves, each with its figures (its
accuracy and weight, its mover's expected win share before it, its kind), kept in the lake and
brought up to date from the reviews stored since: what a player's record and the agents' ladder
read, rather than every game's review file.

The table is `review_tables/budget=<b>-seed=<s>.parquet`, stamped with the evaluator's version
and the reviews' stamp it covers (data/reviews.py's reviews_version); a game whose review folder
changed since is read again. A lake that cannot be written still gets the table, made anew.
"""

from __future__ import annotations

import os
from contextlib import suppress
from pathlib import Path
from typing import cast

import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

from data.accuracy import move_figures
from data.lake import Lake, replace_file_atomically
from data.luck import own_share
from data.reviews import EVALUATOR, FOLDER, load_review, reviews_version
from engine import moves, pieces
from engine.evaluate import VERSION
from engine.geometry import geometry
from engine.moves import Move

TABLES = "review_tables"
COVERS = b"covers"  # the Parquet metadata key of the reviews' stamp the table covers
KINDS = (
    *(f"castle rank {rank}" for rank in pieces.CASTLE_RANKS),
    "drawn tile",
    "starting tile",
    "pass",
)
SCHEMA = pa.schema(
    [
        ("game_id", pa.int64()),
        ("ply", pa.int64()),
        ("seat", pa.string()),
        ("epoch", pa.int64()),
        ("kind", pa.string()),  # one of KINDS
        ("quality", pa.string()),
        ("own_share", pa.float64()),  # the mover's expected win share before the move
        ("best_value", pa.float64()),
        ("played_value", pa.float64()),
        ("draw_luck", pa.float64()),
        ("deal_luck", pa.float64()),
        ("move_accuracy", pa.float64()),
        ("weight", pa.float64()),
    ]
)


def move_kind(move: Move) -> str:
    """The kind of a move as a player's habits are grouped (one of KINDS)."""
    if move.kind == moves.CASTLE:
        return f"castle rank {move.rank}"
    if move.kind == moves.DRAW:
        return "drawn tile"
    if move.kind == moves.START:
        return "starting tile"
    return "pass"


def review_table(lake: Lake, budget: int, seed: int) -> pl.DataFrame:
    """Every move of the games reviewed at this budget and seed (columns as SCHEMA), in game
    and ply order, the stored table brought up to date first."""
    path = lake.root / TABLES / f"budget={int(budget)}-seed={int(seed)}.parquet"
    covers = reviews_version(lake)  # read before the folders: a review stored meanwhile is newer
    stored, since = _stored(path)
    if stored is not None and since == covers:
        return stored
    changed = _changed_since(lake, since)
    fresh = [
        _table_rows(game_id, review)
        for game_id in changed
        if (review := load_review(lake, game_id, budget, seed)) is not None
    ]
    kept = [] if stored is None else [stored.filter(~pl.col("game_id").is_in(changed))]
    table = pl.concat([_empty(), *kept, *fresh]).sort("game_id", "ply")
    stamped = (
        table.to_arrow()
        .cast(SCHEMA)
        .replace_schema_metadata({EVALUATOR: str(VERSION).encode(), COVERS: str(covers).encode()})
    )
    with suppress(OSError):  # a lake this process cannot write: the table is still the answer
        replace_file_atomically(stamped, path)
    return table


def _stored(path: Path) -> tuple[pl.DataFrame | None, int]:
    """The stored table and the reviews' stamp it covers, if today's evaluator made it."""
    if not path.exists():
        return None, -1
    table = pq.read_table(path)
    metadata = table.schema.metadata or {}
    made_by, covers = metadata.get(EVALUATOR), metadata.get(COVERS)
    if made_by != str(VERSION).encode() or covers is None or table.schema != SCHEMA:
        return None, -1
    return cast(pl.DataFrame, pl.from_arrow(table)), int(covers)


def _changed_since(lake: Lake, since: int) -> list[int]:
    """The games whose review folder changed at or after the stamp `since` (all for -1)."""
    folder = lake.root / FOLDER
    if not folder.is_dir():
        return []
    with os.scandir(folder) as games:
        return sorted(
            int(game.name.removeprefix("game_id="))
            for game in games
            if game.name.startswith("game_id=") and game.stat().st_mtime_ns >= since
        )


def _table_rows(game_id: int, review: pl.DataFrame) -> pl.DataFrame:
    """One game's review as the table's rows."""
    board = geometry()
    kinds = [move_kind(Move.from_str(move, board)) for move in review.sort("ply")["move"]]
    return (
        move_figures(review)
        .with_columns(
            game_id=pl.lit(game_id, pl.Int64),
            kind=pl.Series(kinds, dtype=pl.String),
            own_share=own_share(),
        )
        .select(SCHEMA.names)
        .cast(_empty().schema)
    )


def _empty() -> pl.DataFrame:
    """A table without a move (columns as SCHEMA)."""
    return cast(pl.DataFrame, pl.from_arrow(SCHEMA.empty_table()))
