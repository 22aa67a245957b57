"""The dashboard's only way to the lake: one cached connection and cached named queries.

The connection is rebuilt when the lake's manifest changes (a batch landed), so the cached
results, keyed by that version too, never show a stale lake.
"""

from __future__ import annotations

from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import NamedTuple

import duckdb
import polars as pl
import streamlit as st

from data.balance import balance_by_players
from data.console import ROW_CAP, console_schema, run_console
from data.lake import MANIFEST, Lake, lake_path
from data.ratings import FILTERS as RATING_FILTERS
from data.ratings import Placings, fit, of_player_count, outcomes
from data.reader import QueryError, connect, execute, query_parameters

__all__ = [
    "ROW_CAP",
    "QueryError",
    "SqlAnswer",
    "fetch",
    "fetch_all",
    "lake_folder",
    "lake_version",
    "player_count_balance",
    "player_ratings",
    "run_sql",
    "sql_schema",
]


def lake_folder() -> str:
    """The lake folder the dashboard reads (from KINGDOMS_LAKE, else data/lake)."""
    return str(lake_path().resolve())


def lake_version() -> str:
    """The lake folder and its manifest's modification time: changes when a batch lands."""
    root = lake_path().resolve()
    manifest = root / MANIFEST
    stamp = manifest.stat().st_mtime_ns if manifest.exists() else 0
    return f"{root}@{stamp}"


@st.cache_resource(max_entries=2)
def _connection(version: str) -> duckdb.DuckDBPyConnection:
    """A read-only connection over the lake as it was at `version` (shared, never mutated)."""
    try:
        return connect(Lake(version.rsplit("@", 1)[0]))
    except duckdb.Error as error:
        raise QueryError(f"the lake cannot be opened: {str(error).splitlines()[0]}") from None


@st.cache_data(max_entries=512, show_spinner=False)
def _cached(version: str, name: str, params: tuple[tuple[str, object], ...]) -> pl.DataFrame:
    return execute(_connection(version), name, dict(params))


def _bound(name: str, params: Mapping[str, object]) -> tuple[tuple[str, object], ...]:
    """The parameters the named query takes, in its order (others, e.g. unused filters, dropped)."""
    return tuple((key, params.get(key)) for key in query_parameters(name))


def fetch(name: str, params: Mapping[str, object] | None = None, **extra: object) -> pl.DataFrame:
    """Run the named query with the parameters it takes."""
    return _cached(lake_version(), name, _bound(name, {**(params or {}), **extra}))


def fetch_all(*requests: tuple[str, Mapping[str, object]]) -> list[pl.DataFrame]:
    """Run a page's independent named queries side by side, one thread (and DuckDB cursor) each;
    the frames come back in the order asked, each cached as `fetch` caches it."""
    version = lake_version()
    with ThreadPoolExecutor(max_workers=len(requests)) as pool:
        futures = [
            pool.submit(_cached, version, name, _bound(name, params)) for name, params in requests
        ]
        return [future.result() for future in futures]


@st.cache_data(max_entries=64, show_spinner=False)
def _cached_balance(version: str, params: tuple[tuple[str, object], ...]) -> pl.DataFrame:
    return balance_by_players(_cached(version, "balance_outcomes", params))


def player_count_balance(params: Mapping[str, object]) -> pl.DataFrame:
    """Each player count's games, balance and bootstrap interval (data/balance.py) over the
    games the filters keep, drawn once per lake version and filters, not on every page run."""
    return _cached_balance(lake_version(), _bound("balance_outcomes", params))


@st.cache_data(max_entries=64, show_spinner=False)
def _cached_outcomes(
    version: str, params: tuple[tuple[str, object], ...]
) -> dict[int, dict[Placings, int]]:
    return outcomes(_connection(version), dict(params))


@st.cache_data(max_entries=64, show_spinner=False)
def _cached_ratings(version: str, params: tuple[tuple[str, object], ...]) -> pl.DataFrame:
    every_count = tuple((key, None if key == "players" else value) for key, value in params)
    return fit(of_player_count(_cached_outcomes(version, every_count), dict(params)["players"]))


def player_ratings(params: Mapping[str, object]) -> pl.DataFrame:
    """Every agent's and named person's rating from the games the game filters keep
    (data/ratings.py), fitted once per lake version and filters from outcome counts read once
    for every player count."""
    return _cached_ratings(lake_version(), tuple((key, params.get(key)) for key in RATING_FILTERS))


class SqlAnswer(NamedTuple):
    """A console query's rows, whether the row cap cut them, and the rows as CSV."""

    frame: pl.DataFrame
    truncated: bool
    csv: str


@st.cache_data(max_entries=64, show_spinner=False)
def _cached_sql(version: str, sql: str) -> SqlAnswer:
    result = run_console(Lake(version.rsplit("@", 1)[0]), sql)
    return SqlAnswer(result.frame, result.truncated, result.csv())


def run_sql(sql: str) -> SqlAnswer:
    """Run one query typed by a person on the console's sealed connection (data/console.py);
    its CSV is written within the query's time limit too."""
    return _cached_sql(lake_version(), sql)


@st.cache_data(max_entries=2, show_spinner=False)
def _cached_schema(version: str) -> pl.DataFrame:
    return console_schema(Lake(version.rsplit("@", 1)[0]))


def sql_schema() -> pl.DataFrame:
    """The views the SQL console sees: what each holds, its columns, types and meanings."""
    return _cached_schema(lake_version())
