"""The SQL console's sandbox: the process a query typed by a person runs in, and its connection.

The connection reads the lake only through Arrow datasets it is handed. DuckDB's local file
system is disabled before anything runs on it, so no statement opens, creates or reads a file
(not even the `:memory:.wal` files DuckDB allows an in-memory database with external access
off); nothing spills to disk, memory is capped, and the configuration is locked. The process
runs one query: it may not write a byte to any file (RLIMIT_FSIZE) nor grow past its memory
(RLIMIT_DATA), and its alarm ends it when its time is up, as its parent does: DuckDB's
interrupt does not reach a query that is still being planned.

Only DuckDB and Arrow are imported here, so the process starts quickly.
"""

from __future__ import annotations

import math
import pickle
import resource
import signal
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.dataset as ds

MEMORY_LIMIT = 1 << 30  # bytes DuckDB may hold for one query
# what the process may allocate beyond its start: DuckDB's share, then what DuckDB does not
# count (a query's plan, Arrow's copy of the result)
HEADROOM = 3 * MEMORY_LIMIT
REFUSED = 3  # exit status of a query that failed; DuckDB's message is on stderr
BATCH_ROWS = 2048  # rows fetched at a time, so the caps are checked as the rows arrive
SEALED: dict[str, str | bool | int | float | list[str]] = {
    "enable_external_access": False,  # no network, no extension, allowed_directories empty
    "temp_directory": "",  # no spilling to disk
    "max_temp_directory_size": "0B",
    "memory_limit": f"{MEMORY_LIMIT}B",
    "python_enable_replacements": False,  # no Python variable read by its name
    "autoinstall_known_extensions": False,
    "autoload_known_extensions": False,
    "allow_community_extensions": False,
    "allow_persistent_secrets": False,
}
# run once the database is up (DuckDB takes neither in the connection's configuration)
_SEAL = (
    "SET disabled_filesystems = 'LocalFileSystem'",
    "SET lock_configuration = true",  # no SET, RESET or PRAGMA undoes any of it
)
# the folders' partition columns, as DuckDB's hive partitioning reads them for the named queries
PARTITIONS = pa.schema([("batch_id", pa.int64()), ("source", pa.string())])


@dataclass(frozen=True)
class Dataset:
    """A table the connection reads, under `name`: its committed files, its columns, and the
    folder whose `batch_id=…/source=…` partitions add the columns of `PARTITIONS`."""

    name: str
    files: tuple[str, ...]
    schema: pa.Schema
    folder: str

    def opened(self) -> ds.Dataset:
        return ds.dataset(
            list(self.files),
            schema=pa.unify_schemas([self.schema, PARTITIONS]),
            format="parquet",
            partitioning=ds.partitioning(PARTITIONS, flavor="hive"),
            partition_base_dir=self.folder,
        )


@dataclass(frozen=True)
class Tables:
    """What the connection sees: the datasets, then the statements declaring views over them."""

    datasets: tuple[Dataset, ...]
    views: tuple[str, ...]


@dataclass(frozen=True)
class Job:
    """One query for the sandbox: its SQL and `$name` parameters, the tables, the caps on the
    rows (one more is fetched, to tell a cut) and on their bytes, and the seconds it has."""

    tables: Tables
    sql: str
    params: Mapping[str, object] | None
    row_cap: int
    byte_cap: int
    seconds: float


class Refusal(Exception):
    """A result the console does not show: past the byte cap, or of a type it cannot show."""


def sealed_connection(tables: Tables) -> duckdb.DuckDBPyConnection:
    """An in-memory connection that reaches no file and reads `tables`."""
    con = duckdb.connect(":memory:", config=SEALED)
    for statement in _SEAL:
        con.execute(statement)
    for dataset in tables.datasets:
        con.register(dataset.name, dataset.opened())
    for statement in tables.views:
        con.execute(statement)
    return con


def answer(job: Job) -> pa.Table:
    """The job's first `row_cap + 1` rows; a Refusal past `byte_cap` bytes, or for a column
    of a type the console cannot show."""
    con = sealed_connection(job.tables)
    params = dict(job.params) if job.params else None
    try:
        relation = con.sql(job.sql, params=params)
    except duckdb.Error:
        # a relation's error drops the line and caret under the query; executing the same
        # statement fails the same way, with them
        con.execute(job.sql, params)
        raise
    reader = relation.to_arrow_reader(BATCH_ROWS)
    for name, kind, field in zip(relation.columns, relation.types, reader.schema, strict=True):
        if not _showable(field.type):
            raise Refusal(
                f'column "{name}" is of type {kind}, which the console cannot show: '
                f'cast it to text ("{name}"::VARCHAR)'
            )
    batches, rows, size = [], 0, 0
    for batch in reader:
        batches.append(batch)
        rows, size = rows + batch.num_rows, size + batch.nbytes
        if size > job.byte_cap:
            raise Refusal(
                f"the result is larger than {job.byte_cap >> 20} MB: "
                "select fewer columns or rows, or aggregate them"
            )
        if rows > job.row_cap:
            break
    return pa.Table.from_batches(batches, reader.schema).slice(0, job.row_cap + 1)


def _showable(kind: pa.DataType) -> bool:
    """Whether the console shows a value of this Arrow type (as a table, CSV and JSON): text,
    numbers, times and truth values, and lists, maps and structs of them; not bytes, intervals,
    unions or DuckDB's own types."""
    if isinstance(kind, pa.ListType | pa.LargeListType | pa.FixedSizeListType):
        return _showable(kind.value_type)
    if isinstance(kind, pa.MapType):
        return _showable(kind.key_type) and _showable(kind.item_type)
    if isinstance(kind, pa.StructType):
        return all(_showable(field.type) for field in kind)
    if isinstance(kind, pa.DictionaryType):
        return _showable(kind.value_type)
    return any(
        check(kind)
        for check in (
            pa.types.is_null,
            pa.types.is_boolean,
            pa.types.is_integer,
            pa.types.is_floating,
            pa.types.is_decimal,
            pa.types.is_string,
            pa.types.is_large_string,
            pa.types.is_temporal,
        )
    ) and not pa.types.is_interval(kind)


def _confine(seconds: float) -> None:
    """Bound this process: its time, its memory, no byte written to a file, no core dump."""
    signal.alarm(math.ceil(seconds) + 1)  # ends the process should its parent be gone
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write to a file fails rather than kills
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    in_use = int(Path("/proc/self/statm").read_text().split()[5]) * resource.getpagesize()
    resource.setrlimit(resource.RLIMIT_DATA, (in_use + HEADROOM, in_use + HEADROOM))


def main() -> int:
    """Read a pickled Job on stdin; write its rows as an Arrow stream on stdout, or exit with
    `REFUSED` and DuckDB's whole message (hints, line and caret) on stderr."""
    job = pickle.load(sys.stdin.buffer)
    _confine(job.seconds)
    try:
        table = answer(job)
    except (duckdb.Error, pa.ArrowException, Refusal, MemoryError) as error:
        sys.stderr.write(str(error) or type(error).__name__)
        return REFUSED
    with pa.ipc.new_stream(sys.stdout.buffer, table.schema) as stream:
        stream.write_table(table)
    return 0
