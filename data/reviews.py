"""Engine reviews of games, cached in the lake so that a game is reviewed once.

A review is one row per move (the evaluator's judgement of it) and is stored per game, budget
and seed as `reviews/game_id=<id>/budget=<b>-seed=<s>.parquet`, stamped with the evaluator's
version, written to a temporary file and renamed into place. Game ids are hashes of the moves,
so a review stays valid as long as the lake keeps the game and the evaluator its version.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import cast

import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

from data.lake import Lake, replace_file_atomically
from engine.evaluate import VERSION

EVALUATOR = b"evaluator"  # the Parquet metadata key of the evaluator's version

FOLDER = "reviews"
SCHEMA = pa.schema(
    [
        ("ply", pa.int16()),
        ("seat", pa.string()),
        ("epoch", pa.int8()),
        ("move", pa.string()),
        ("expected", pa.list_(pa.float32())),  # every seat's expected win_share before the move
        ("played_value", pa.float32()),  # the mover's expected win_share after the move played
        ("best_move", pa.string()),
        ("best_cell", pa.string()),  # null for a draw or a pass
        ("best_value", pa.float32()),
        ("loss", pa.float32()),  # the move's one loss, in win share, its class follows
        ("gold_loss", pa.float32()),  # gold given up against best_move, by the heuristic's values
        ("decided", pa.bool_()),  # the mover's win_share was settled: the loss is the gold's
        ("quality", pa.string()),  # best, excellent, good, inaccuracy, mistake, blunder
        ("draw_luck", pa.float32()),  # the mover's luck in the tile it drew this turn, else 0
        ("deal_luck", pa.float32()),  # its luck in its starting tile, at its epoch's first turn
    ]
)


def _path(lake: Lake, game_id: int, budget: int, seed: int) -> Path:
    return (
        lake.root
        / FOLDER
        / f"game_id={int(game_id)}"
        / f"budget={int(budget)}-seed={int(seed)}.parquet"
    )


def save_review(lake: Lake, game_id: int, budget: int, seed: int, review: pl.DataFrame) -> None:
    """Store a game's review (columns as SCHEMA) atomically."""
    table = review.select(SCHEMA.names).to_arrow().cast(SCHEMA)
    stamped = table.replace_schema_metadata({EVALUATOR: str(VERSION).encode()})
    replace_file_atomically(stamped, _path(lake, game_id, budget, seed))


def has_review(lake: Lake, game_id: int, budget: int, seed: int) -> bool:
    """Whether a review of the game at this budget and seed is stored by today's evaluator with
    all of today's columns (one made before either is made again)."""
    path = _path(lake, game_id, budget, seed)
    if not path.exists():
        return False
    stored = pq.read_schema(path)
    made_by = (stored.metadata or {}).get(EVALUATOR)
    return made_by == str(VERSION).encode() and not set(SCHEMA.names) - set(stored.names)


def reviews_version(lake: Lake) -> int:
    """A stamp that changes whenever a review is stored (the latest change of a game's folder,
    as the lake's version does when a batch lands): what caches of reviews' figures key on."""
    folder = lake.root / FOLDER
    if not folder.is_dir():
        return 0
    with os.scandir(folder) as games:
        return max((game.stat().st_mtime_ns for game in games), default=0)


def reviewed_games(lake: Lake, budget: int, seed: int) -> list[int]:
    """The ids of the games with a review stored at this budget and seed (see has_review)."""
    name = f"budget={int(budget)}-seed={int(seed)}.parquet"
    ids = [
        int(path.parent.name.removeprefix("game_id="))
        for path in (lake.root / FOLDER).glob(f"game_id=*/{name}")
    ]
    return sorted(game_id for game_id in ids if has_review(lake, game_id, budget, seed))


def load_review(lake: Lake, game_id: int, budget: int, seed: int) -> pl.DataFrame | None:
    """The stored review of a game at this budget and seed, or None if there is none (see
    has_review)."""
    if not has_review(lake, game_id, budget, seed):
        return None
    path = _path(lake, game_id, budget, seed)
    return cast(pl.DataFrame, pl.from_arrow(pq.read_table(path, schema=SCHEMA)))
