"""The SQL console: one query typed by a person, run in a sandbox that cannot write anything.

The query is checked here first: at most `SQL_LIMIT` characters, and one plain query as DuckDB's
parser reads it (SELECT, with its FROM-first, VALUES, DESCRIBE, SUMMARIZE and SHOW forms);
anything else (EXPLAIN, COPY, SET, CREATE, …) is refused. It then runs in a process of its own
(data/console_sandbox.py) on a connection that reaches no file, killed when its time is up,
with DuckDB's memory capped and its result capped at `ROW_CAP` rows and `RESULT_BYTES` bytes.
What a query creates lives in that process and is gone with it.
"""

from __future__ import annotations

import json
import os
import pickle
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import cast

import duckdb
import polars as pl
import pyarrow as pa

from data.aggregates import aggregate_names, aggregate_schemas
from data.console_sandbox import (
    MEMORY_LIMIT,
    REFUSED,
    Dataset,
    Job,
    Tables,
    sealed_connection,
)
from data.lake import Lake
from data.reader import QueryError
from data.schema import TABLE_SCHEMAS
from data.view_columns import AGGREGATE_MEANING, COLUMN_MEANINGS, VIEW_MEANINGS
from data.views import game_view_statements

ROW_CAP = 100_000  # rows a console query returns at most
RESULT_BYTES = 32 << 20  # bytes of those rows, as Arrow holds them
SQL_LIMIT = 20_000  # characters of SQL
TIME_LIMIT = 10.0  # seconds for a query, its rows fetched and its output written
_SLICE = 10_000  # rows written between two looks at the clock
# the sandbox's command: the project importable, the working folder not on its path
SANDBOX = [sys.executable, "-P", "-c", "import data.console_sandbox as s; exit(s.main())"]
_PROJECT = str(Path(__file__).resolve().parents[1])


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


def console_tables(lake: Lake) -> Tables:
    """The lake's committed files as the sandbox reads them: the stored tables under `_stored_…`
    with the lake's views over them (same names and columns), and the `agg_…` tables."""
    files = lake.table_files()  # a damaged file is named here, before any query runs
    stored = {name: f"_stored_{name}" for name in TABLE_SCHEMAS}
    schemas = {stored[name]: (name, schema) for name, schema in TABLE_SCHEMAS.items()}
    schemas.update((name, (name, schema)) for name, schema in aggregate_schemas().items())
    return Tables(
        tuple(
            Dataset(shown, tuple(map(str, files[table])), schema, str(lake.root / table))
            for shown, (table, schema) in schemas.items()
        ),
        tuple(game_view_statements(stored)),
    )


def console_connection(lake: Lake) -> duckdb.DuckDBPyConnection:
    """The sandbox's connection over the lake, in this process (for the schema, and tests)."""
    return sealed_connection(console_tables(lake))


def run_console(
    lake: Lake,
    sql: str,
    params: Mapping[str, object] | None = None,
    *,
    timeout: float = TIME_LIMIT,
    row_cap: int = ROW_CAP,
) -> ConsoleResult:
    """Run one query typed by a person (`$name` parameters bound from `params`) in the
    sandbox: its first `row_cap` rows, stopped after `timeout` seconds, which also bound
    writing its output. A refusal is a QueryError carrying DuckDB's whole message."""
    deadline = time.monotonic() + timeout
    _check_one_query(sql)
    try:
        tables = console_tables(lake)
    except OSError as error:  # a committed file is missing or unreadable
        raise QueryError(f"the lake cannot be read: missing or unreadable {error}") from None
    job = Job(tables, sql, dict(params) if params else None, row_cap, RESULT_BYTES, timeout)
    frame = cast(pl.DataFrame, pl.from_arrow(_sandboxed(job, deadline)))  # a table gives a frame
    return ConsoleResult(frame.head(row_cap), frame.height > row_cap, deadline, timeout)


def _sandboxed(job: Job, deadline: float) -> pa.Table:
    """The job's rows from a sandbox process, killed at `deadline`."""
    path = os.pathsep.join(filter(None, [_PROJECT, os.environ.get("PYTHONPATH")]))
    try:
        done = subprocess.run(
            SANDBOX,
            input=pickle.dumps(job),
            capture_output=True,
            timeout=max(deadline - time.monotonic(), 0.0),
            env={**os.environ, "PYTHONPATH": path},
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise _too_long(job.seconds) from None
    said = done.stderr.decode(errors="replace").strip()
    if done.returncode == REFUSED:
        raise QueryError(said)
    if done.returncode < 0:
        raise QueryError(
            f"the query's process was ended ({signal.Signals(-done.returncode).name}); it may "
            f"need more memory than the console's {MEMORY_LIMIT >> 30} GB"
        )
    if done.returncode != 0:
        raise QueryError(said.splitlines()[-1] if said else f"exit status {done.returncode}")
    return pa.ipc.open_stream(done.stdout).read_all()


def _check_one_query(sql: str) -> None:
    """Refuse SQL past `SQL_LIMIT` characters, and anything but one plain query as DuckDB's
    parser reads it."""
    if len(sql) > SQL_LIMIT:
        raise QueryError(f"the SQL is {len(sql):,} characters long; at most {SQL_LIMIT:,} run")
    with duckdb.connect(":memory:") as parser:
        try:
            statements = parser.extract_statements(sql)
        except duckdb.Error as error:
            raise QueryError(str(error)) from None
    if len(statements) != 1:
        raise QueryError("give exactly one SELECT statement")
    kind = statements[0].type
    if kind != duckdb.StatementType.SELECT:
        name = str(kind).rsplit(".", 1)[-1]
        raise QueryError(f"only a plain query (SELECT …) runs here, not {name}")


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
