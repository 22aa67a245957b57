"""Finding a lake's damage: its manifest, the batches on disk it does not list, and every
listed file read to the end.

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
import pyarrow.compute as pc
import pyarrow.parquet as pq

from data.aggregates import aggregate_schemas
from data.lake import PART, REPAIR_HINT, Batch, Lake, LakeError, file_problem, read_game_index
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


@dataclass(frozen=True)
class BatchCheck:
    """What reading one batch found: its damage, and its games' ids (sorted) and earliest
    creation time when its games table is readable."""

    damage: tuple[Damage, ...]
    game_ids: np.ndarray | None
    created: str | None


def table_schemas() -> dict[str, pa.Schema]:
    """Every table's columns: the stored tables' from the catalogue, the aggregates' from
    their SQL."""
    return {**TABLE_SCHEMAS, **aggregate_schemas()}


def check_lake(lake: Lake) -> Health:
    """Read the whole lake and list what is damaged (a damaged manifest stops the check)."""
    try:
        manifest, unlisted = lake.manifest_and_unlisted()
    except LakeError as error:
        return Health(0, 0, 0, (Damage(str(error.file), error.problem),))
    batches = [Batch(**entry) for entry in manifest["batches"]]
    damage = unlisted_damage(lake, unlisted)
    schemas = table_schemas()
    for batch in batches:
        checked = check_batch(lake, batch.source, batch.batch_id, schemas)
        damage += [*checked.damage, *count_damage(lake, batch, checked)]
    files = len(batches) * (len(all_tables()) + 1)  # and each batch's id index
    return Health(len(batches), sum(b.games for b in batches), files, tuple(damage))


def unlisted_damage(lake: Lake, unlisted: list[tuple[str, int]]) -> list[Damage]:
    """The batches on disk the manifest does not list (or the manifest missing), as damage."""
    if not unlisted:
        return []
    return [
        Damage(str(file), f"{problem}; {REPAIR_HINT}")
        for file, problem in lake.unlisted_problems(unlisted)
    ]


def count_damage(lake: Lake, batch: Batch, checked: BatchCheck) -> list[Damage]:
    """The manifest's game count of a batch, when its readable games table holds another."""
    if checked.game_ids is None or len(checked.game_ids) == batch.games:
        return []
    problem = f"{len(checked.game_ids):,} games, the manifest lists {batch.games:,}"
    return [Damage(str(lake.part("games", batch)), problem, "games", batch.batch_id)]


def check_batch(
    lake: Lake, source: str, batch_id: int, schemas: dict[str, pa.Schema]
) -> BatchCheck:
    """Every damaged file of one batch, then whatever its readable tables disagree on."""
    stored: dict[str, pa.Table] = {}
    damage = []
    for table in all_tables():
        path = lake.batch_dir(table, source, batch_id) / PART
        try:
            stored[table] = _read_to_the_end(path, table, schemas[table])
        except _Unreadable as error:
            damage.append(Damage(str(path), str(error), table, batch_id))
    for table, problem in _disagreements(stored):
        damage.append(
            Damage(str(lake.batch_dir(table, source, batch_id) / PART), problem, table, batch_id)
        )
    games = stored.get("games")
    ids = None if games is None else np.sort(games["game_id"].to_numpy())
    damage += _index_damage(lake, source, batch_id, ids)
    created = None
    if games is not None and games.num_rows:
        created = pc.min(games["created"]).as_py().isoformat(timespec="seconds")
    return BatchCheck(tuple(damage), ids, created)


def _index_damage(lake: Lake, source: str, batch_id: int, ids: np.ndarray | None) -> list[Damage]:
    """The batch's id index, unreadable or not listing the games of its games table."""
    path = lake.index_path(source, batch_id)
    try:
        index = read_game_index(path)
    except LakeError as error:
        return [Damage(str(path), error.problem, "games", batch_id)]
    if ids is not None and not np.array_equal(index, ids):
        problem = "the batch's id index does not list the games of its games table"
        return [Damage(str(path), problem, "games", batch_id)]
    return []


class _Unreadable(Exception):
    """A file that is not its table's Parquet file to the end; the message says why."""


def _read_to_the_end(path: Path, table: str, schema: pa.Schema) -> pa.Table:
    """Decode every row group of one file; keep the columns the batch is checked by
    (`game_id`, `players`, `plies`, `created`: those the table has)."""
    problem = file_problem(path, table, schema)
    if problem:
        raise _Unreadable(problem)
    try:
        parquet = pq.ParquetFile(path)
    except (OSError, pa.ArrowException) as error:
        raise _Unreadable(f"the Parquet footer cannot be read ({error})") from None
    with parquet:
        columns = [c for c in ("game_id", "players", "plies", "created") if c in schema.names]
        kept = [schema.empty_table().select(columns)]
        for group in range(parquet.num_row_groups):
            try:
                kept.append(parquet.read_row_group(group).select(columns))
            except (OSError, pa.ArrowException) as error:
                raise _Unreadable(f"row group {group} cannot be decoded ({error})") from None
    return pa.concat_tables(kept)


def _disagreements(stored: dict[str, pa.Table]) -> Iterator[tuple[str, str]]:
    """The batch's readable stored tables held to its games table."""
    games = stored.get("games")
    if games is None:  # already reported as damaged
        return
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
