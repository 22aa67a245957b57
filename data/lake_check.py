"""Finding a lake's damage: its manifest, and every listed file read to the end.

Each file is opened by its footer, its columns compared with its table's, and every row group
decoded; then a batch's tables are held to one another: as many games as the manifest lists,
a seat per player, a move per ply, the same games in every stored table and in its id index.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from data.aggregates import aggregate_schemas
from data.lake import Batch, Lake, LakeError, tail_problem
from data.schema import TABLE_SCHEMAS, TABLES, all_tables


@dataclass(frozen=True)
class Damage:
    """One thing wrong with a lake: the file, its table and batch (None for the manifest)."""

    file: str
    problem: str
    table: str | None = None
    batch_id: int | None = None

    def __str__(self) -> str:
        return f"{self.file}: {self.problem}"

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


@dataclass(frozen=True)
class Health:
    """What a check found: the batches, games and files it read, and every damage."""

    batches: int
    games: int
    files: int
    damage: tuple[Damage, ...]

    @property
    def healthy(self) -> bool:
        return not self.damage


def check_lake(lake: Lake) -> Health:
    """Read the whole lake and list what is damaged (a damaged manifest stops the check)."""
    try:
        batches = lake.batches()
    except LakeError as error:
        return Health(0, 0, 0, (Damage(str(error.file), error.problem),))
    schemas = {**TABLE_SCHEMAS, **aggregate_schemas()}
    damage = [d for batch in batches for d in _check_batch(lake, batch, schemas)]
    files = len(batches) * (len(all_tables()) + 1)  # and each batch's id index
    return Health(len(batches), sum(b.games for b in batches), files, tuple(damage))


def _check_batch(lake: Lake, batch: Batch, schemas: dict[str, pa.Schema]) -> Iterator[Damage]:
    """Every damaged file of one batch, then whatever its readable tables disagree on."""
    stored: dict[str, pa.Table] = {}
    for table in all_tables():
        path = lake.part(table, batch)
        try:
            stored[table] = _read_to_the_end(path, schemas[table])
        except _Unreadable as error:
            yield Damage(str(path), str(error), table, batch.batch_id)
    for table, problem in _disagreements(batch, stored):
        yield Damage(str(lake.part(table, batch)), problem, table, batch.batch_id)
    yield from _index_damage(lake, batch, stored.get("games"))


def _index_damage(lake: Lake, batch: Batch, games: pa.Table | None) -> Iterator[Damage]:
    """The batch's id index, unreadable or not listing the games of its games table."""
    path = lake.index_path(batch.source, batch.batch_id)
    try:
        index = np.load(path, allow_pickle=False)
    except (OSError, ValueError) as error:
        problem = f"the batch's id index cannot be read ({error})"
        yield Damage(str(path), problem, "games", batch.batch_id)
        return
    if games is not None and not np.array_equal(index, np.sort(games["game_id"].to_numpy())):
        problem = "the batch's id index does not list the games of its games table"
        yield Damage(str(path), problem, "games", batch.batch_id)


class _Unreadable(Exception):
    """A file that is not its table's Parquet file to the end; the message says why."""


def _read_to_the_end(path: Path, schema: pa.Schema) -> pa.Table:
    """Decode every row group of one file; keep the columns the batch is checked by
    (`game_id`, `players`, `plies`: those the table has)."""
    problem = tail_problem(path)
    if problem:
        raise _Unreadable(problem)
    try:
        parquet = pq.ParquetFile(path)
    except (OSError, pa.ArrowException) as error:
        raise _Unreadable(f"the Parquet footer cannot be read ({error})") from None
    with parquet:
        if parquet.schema_arrow.names != schema.names:
            names = parquet.schema_arrow.names
            raise _Unreadable(f"columns {names} are not the table's {schema.names}")
        columns = [c for c in ("game_id", "players", "plies") if c in schema.names]
        kept = [schema.empty_table().select(columns)]
        for group in range(parquet.num_row_groups):
            try:
                kept.append(parquet.read_row_group(group).select(columns))
            except (OSError, pa.ArrowException) as error:
                raise _Unreadable(f"row group {group} cannot be decoded ({error})") from None
    return pa.concat_tables(kept)


def _disagreements(batch: Batch, stored: dict[str, pa.Table]) -> Iterator[tuple[str, str]]:
    """The batch's readable stored tables held to its games table and to the manifest."""
    games = stored.get("games")
    if games is None:  # already reported as damaged
        return
    if games.num_rows != batch.games:
        yield "games", f"{games.num_rows:,} games, the manifest lists {batch.games:,}"
    ids = np.unique(games["game_id"].to_numpy())
    expected = {
        "seats": int(games["players"].to_numpy().astype(np.int64).sum()),
        "moves": int(games["plies"].to_numpy().astype(np.int64).sum()),
    }
    for table, rows in stored.items():
        if table == "games" or table not in TABLES:
            continue
        if table in expected and rows.num_rows != expected[table]:
            yield table, f"{rows.num_rows:,} rows, its games call for {expected[table]:,}"
        elif not np.array_equal(np.unique(rows["game_id"].to_numpy()), ids):
            yield table, "its games are not the games of the batch's games table"
