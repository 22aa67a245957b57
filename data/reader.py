"""The one way in to the lake for the code's own SQL: a DuckDB connection over the views, and
`execute`.

`execute` runs a named query from data/queries/ (or SQL the code wrote), binds `$name`
parameters, interrupts it after a time limit and returns a Polars frame. The connection reaches
only the lake's folder, cannot install or load extensions, and its configuration is locked; as
it could still write in that folder, SQL typed by a person goes to data/console.py instead,
whose connection cannot write anywhere.
"""

from __future__ import annotations

import re
import threading
import warnings
import weakref
from collections.abc import Mapping
from functools import cache
from numbers import Integral
from pathlib import Path
from typing import cast

import duckdb
import polars as pl

from data.aggregates import aggregate_schemas
from data.lake import Batch, Lake
from data.schema import TABLE_SCHEMAS, all_tables
from data.views import view_statements

QUERY_DIR = Path(__file__).with_name("queries")
_PARAMETER = re.compile(r"\$([a-z_][a-z0-9_]*)")
# bound by `execute` from $game_id: fetching one game reads one batch
GAME_BATCH, GAME_SOURCE = "game_batch", "game_source"


class QueryError(ValueError):
    """A query that is refused (unknown name, bad parameter, not one query) or that failed."""


@cache
def query_names() -> tuple[str, ...]:
    """Every named query shipped in data/queries/."""
    return tuple(sorted(p.stem for p in QUERY_DIR.glob("*.sql")))


@cache
def query_text(name: str) -> str:
    if name not in query_names():
        raise QueryError(f"no query named '{name}'")
    return (QUERY_DIR / f"{name}.sql").read_text()


@cache
def _placeholders(name: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys(_PARAMETER.findall(_strip_comments(query_text(name)))))


def query_parameters(name: str) -> tuple[str, ...]:
    """The `$name` parameters a named query takes (missing ones are bound to NULL)."""
    return tuple(p for p in _placeholders(name) if p not in (GAME_BATCH, GAME_SOURCE))


def _strip_comments(sql: str) -> str:
    return re.sub(r"--[^\n]*", "", sql)


def connect(lake: Lake, threads: int | None = None) -> duckdb.DuckDBPyConnection:
    """A read-only connection whose views show the lake's committed batches."""
    con = duckdb.connect(":memory:")
    con.execute("SET GLOBAL parquet_metadata_cache = true")  # warm queries skip the footers
    if threads:
        con.execute(f"SET threads = {int(threads)}")
    files = lake.table_files()  # refuses a damaged manifest or a missing, truncated file
    for table in all_tables():
        if not files[table]:  # the aggregates' columns are worked out (slowly) only then
            schema = TABLE_SCHEMAS.get(table) or aggregate_schemas()[table]
            empty = schema.empty_table()  # noqa: F841 - scanned by name below
            con.execute(f"CREATE TABLE empty_{table} AS SELECT * FROM empty")
    for statement in view_statements(files, lake.root):
        con.execute(statement)
    _OPENED[con] = (lake, lake.batches())  # the batches its views show, for `_game_batch`
    lake_dir = str(lake.root)
    con.execute("SET allowed_directories = [$dir]", {"dir": lake_dir + "/"})
    con.execute("SET enable_external_access = false")
    con.execute("SET autoinstall_known_extensions = false")
    con.execute("SET autoload_known_extensions = false")
    con.execute("SET lock_configuration = true")
    return con


def execute(
    con: duckdb.DuckDBPyConnection,
    query: str,
    params: Mapping[str, object] | None = None,
    *,
    timeout: float = 10.0,
) -> pl.DataFrame:
    """Run a named query (or SQL the code wrote) and return its rows as a Polars frame.

    Unknown parameters are refused; a named query's parameters that are not given are NULL
    (its "all" value); `$game_batch` and `$game_source` are where `$game_id` is stored. Longer
    than `timeout` seconds, the query is interrupted.
    """
    params = dict(params or {})
    if query in query_names():
        sql = query_text(query)
        wanted = query_parameters(query)
        unknown = sorted(set(params) - set(wanted))
        if unknown:
            raise QueryError(f"query '{query}' takes no parameter '{unknown[0]}'")
        params = {name: params.get(name) for name in wanted}
    else:
        sql = query
    cursor = _cursor(con)
    timer = threading.Timer(timeout, cursor.interrupt)
    timer.start()
    try:
        if query in query_names() and GAME_BATCH in _placeholders(query):
            params[GAME_BATCH], source = _game_batch(con, params["game_id"])
            if GAME_SOURCE in _placeholders(query):
                params[GAME_SOURCE] = source
        cursor.execute(sql, params or None)  # binds once (`sql()` binds twice: ms a query)
        with warnings.catch_warnings():  # the extra copy it warns of is of a few rows here
            warnings.filterwarnings("ignore", "Arrow output on a DB-API result", UserWarning)
            return cast(pl.DataFrame, pl.from_arrow(cursor.to_arrow_table()))  # a table: a frame
    except duckdb.InterruptException:
        raise QueryError(f"the query took longer than {timeout:g} s and was stopped") from None
    except duckdb.Error as error:
        raise QueryError(str(error).splitlines()[0]) from None
    finally:
        timer.cancel()


def _game_batch(con: duckdb.DuckDBPyConnection, game_id: object) -> tuple[object, object]:
    """The batch holding a game, and its source, from the batches' id indexes; for a game in
    none, the first batch (where the game is not: the query answers no rows, with its
    columns), or NULLs in an empty lake."""
    lake, batches = _OPENED[con]
    number = _whole_number(game_id)
    found = lake.find_game(number, batches) if number is not None else None
    found = found or (batches[0] if batches else None)
    return (found.batch_id, found.source) if found else (None, None)


def _whole_number(value: object) -> int | None:
    """A game id given as a number or as its digits (from the command line), else None."""
    if isinstance(value, Integral):
        return int(value)
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value)
    return None


# Each open connection's lake and the batches its views were made over.
_OPENED: weakref.WeakKeyDictionary[duckdb.DuckDBPyConnection, tuple[Lake, list[Batch]]] = (
    weakref.WeakKeyDictionary()
)

_THREAD = threading.local()


def _cursor(con: duckdb.DuckDBPyConnection) -> duckdb.DuckDBPyConnection:
    """This thread's cursor on the connection (cursors are per thread; opening one costs ms)."""
    cursors = _THREAD.__dict__.setdefault("cursors", {})
    if id(con) not in cursors:
        cursors[id(con)] = (con, con.cursor())
    return cursors[id(con)][1]
