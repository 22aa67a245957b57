"""The SQL console: SQL typed by a person, on a connection that cannot write or change anything.

Each query gets a DuckDB connection of its own, made for it and closed after it. The lake's
files are opened by Arrow and handed to that connection as registered datasets; the
connection itself has external access off from its first moment (no directory is allowed, so
no COPY, EXPORT, ATTACH of a file, INSTALL or file-reading function reaches any file), no temp
directory (nothing spills to disk), no lookup of Python variables, and a locked
configuration (no SET, RESET or PRAGMA can undo any of it). What a query creates (a table, a
macro, a variable) lives in memory and is gone with its connection. So the console is
read-only whatever the SQL says; the statement check below only gives a clearer refusal.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import cast

import duckdb
import polars as pl
import pyarrow as pa
import pyarrow.dataset as ds

from data.aggregates import aggregate_names, aggregate_schemas
from data.lake import Lake
from data.reader import QueryError
from data.schema import TABLE_SCHEMAS, TABLES
from data.view_columns import AGGREGATE_MEANING, COLUMN_MEANINGS, VIEW_MEANINGS
from data.views import game_view_statements

ROW_CAP = 100_000  # rows a console query returns at most
TIME_LIMIT = 10.0  # seconds for a query, its rows fetched and its output written
_SLICE = 10_000  # rows written between two looks at the clock
_ANSWERS = {duckdb.StatementType.SELECT, duckdb.StatementType.EXPLAIN}
# the folders' partition columns, as DuckDB's hive partitioning reads them for the named queries
_PARTITIONS = pa.schema([("batch_id", pa.int64()), ("source", pa.string())])
SEALED: dict[str, str | bool | int | float | list[str]] = {
    "enable_external_access": False,  # no file or network, and allowed_directories stays empty
    "temp_directory": "",  # no spilling to disk
    "python_enable_replacements": False,  # no Python variable read by its name
    "autoinstall_known_extensions": False,
    "autoload_known_extensions": False,
    "allow_community_extensions": False,
    "allow_persistent_secrets": False,
    "lock_configuration": True,  # no SET, RESET or PRAGMA changes any of the above
}


@dataclass(frozen=True)
class ConsoleResult:
    """A console query's rows (at most `ROW_CAP`), whether more were cut, and the moment (on
    `time.monotonic`) by which its output must be written."""

    frame: pl.DataFrame
    truncated: bool
    deadline: float
    timeout: float

    def table(self) -> str:
        """The rows as a text table (the first and last fifty when there are more)."""
        with pl.Config(tbl_rows=100, tbl_cols=30, fmt_str_lengths=40):
            text = str(self.frame)
        if time.monotonic() > self.deadline:
            raise _too_long(self.timeout)
        return text

    def csv(self) -> str:
        """The rows as CSV, list, map and struct values as JSON text."""
        parts = self._written(lambda part, first: _flat(part).write_csv(include_header=first))
        return "".join(parts)

    def json(self) -> str:
        """The rows as a JSON list of objects."""
        parts = self._written(lambda part, _: json.dumps(part.to_dicts(), default=str)[1:-1])
        return "[" + ", ".join(p for p in parts if p) + "]"

    def _written(self, write: Callable[[pl.DataFrame, bool], str]) -> list[str]:
        """The output a slice of rows at a time, stopped when the query's time has run out."""
        parts = []
        for offset in range(0, max(self.frame.height, 1), _SLICE):
            if time.monotonic() > self.deadline:
                raise _too_long(self.timeout)
            parts.append(write(self.frame.slice(offset, _SLICE), offset == 0))
        return parts


def _flat(frame: pl.DataFrame) -> pl.DataFrame:
    """The frame with every nested column (list, array, struct, map) as JSON text, for CSV."""
    nested = [name for name, dtype in frame.schema.items() if dtype.is_nested()]
    return frame.with_columns(
        pl.Series(
            name,
            [None if v is None else json.dumps(v, default=str) for v in frame[name].to_list()],
            pl.String,
        )
        for name in nested
    )


def _too_long(timeout: float) -> QueryError:
    return QueryError(f"the query took longer than {timeout:g} s and was stopped")


def console_connection(lake: Lake) -> duckdb.DuckDBPyConnection:
    """A sealed in-memory connection whose views (the lake's, same names and columns) read
    the lake's committed files through Arrow datasets it was handed."""
    con = duckdb.connect(":memory:", config=SEALED)
    files = lake.table_files()  # a damaged file is named here, before any query runs
    for name in TABLES:
        con.register(f"_stored_{name}", _dataset(lake, name, files[name], TABLE_SCHEMAS[name]))
    for statement in game_view_statements({name: f"_stored_{name}" for name in TABLES}):
        con.execute(statement)
    for name, schema in aggregate_schemas().items():
        con.register(name, _dataset(lake, name, files[name], schema))
    return con


def _dataset(lake: Lake, table: str, files: list[Path], schema: pa.Schema) -> ds.Dataset:
    """One table's committed files, with the partition columns of their folders."""
    return ds.dataset(
        [str(path) for path in files],
        schema=pa.unify_schemas([schema, _PARTITIONS]),
        format="parquet",
        partitioning=ds.partitioning(_PARTITIONS, flavor="hive"),
        partition_base_dir=str(lake.root / table),
    )


def run_console(
    lake: Lake,
    sql: str,
    params: Mapping[str, object] | None = None,
    *,
    timeout: float = TIME_LIMIT,
    row_cap: int = ROW_CAP,
) -> ConsoleResult:
    """Run one query typed by a person (`$name` parameters bound from `params`): its first
    `row_cap` rows, stopped after `timeout` seconds, which also bound writing its output."""
    deadline = time.monotonic() + timeout
    try:
        con = console_connection(lake)
    except OSError as error:  # a committed file is missing or unreadable
        raise QueryError(f"the lake cannot be read: missing or unreadable {error}") from None
    timer = threading.Timer(timeout, con.interrupt)
    timer.start()
    try:
        _check_one_query(con, sql)
        relation = con.sql(sql, params=dict(params) if params else None)
        table = relation.limit(row_cap + 1).to_arrow_table()
    except (duckdb.Error, pa.ArrowException, OSError) as error:
        if time.monotonic() >= deadline:
            raise _too_long(timeout) from None
        raise QueryError(str(error).splitlines()[0]) from None
    finally:
        timer.cancel()
        con.close()
    frame = cast(pl.DataFrame, pl.from_arrow(table))  # a table gives a frame
    return ConsoleResult(frame.head(row_cap), frame.height > row_cap, deadline, timeout)


def _check_one_query(con: duckdb.DuckDBPyConnection, sql: str) -> None:
    """Refuse anything but one query (SELECT, DESCRIBE, SUMMARIZE, EXPLAIN …), with a message
    saying so; the connection would leave the lake alone either way."""
    statements = con.extract_statements(sql)
    if len(statements) != 1:
        raise QueryError("give exactly one SELECT statement")
    kind = statements[0].type
    if kind not in _ANSWERS:
        name = str(kind).rsplit(".", 1)[-1]
        raise QueryError(f"only SELECT queries are allowed here, not {name}")


def console_schema(lake: Lake) -> pl.DataFrame:
    """Every view the console sees (the documented ones, then the `agg_…` ones), what it
    holds, its columns, their types and (in the documented views) what each column means."""
    con = console_connection(lake)
    try:
        found = con.execute(
            "SELECT table_name, column_name, data_type FROM duckdb_columns() ORDER BY column_index"
        ).fetchall()
    finally:
        con.close()
    views = {**VIEW_MEANINGS, **dict.fromkeys(aggregate_names(), AGGREGATE_MEANING)}
    order = list(views)
    rows = sorted((row for row in found if row[0] in views), key=lambda row: order.index(row[0]))
    return pl.DataFrame(
        [
            (view, views[view], column, type_, COLUMN_MEANINGS.get(view, {}).get(column))
            for view, column, type_ in rows
        ],
        schema=["view", "holds", "column", "type", "meaning"],
        orient="row",
    )
