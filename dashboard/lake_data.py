"""The dashboard's only way to the lake: one cached connection and cached named queries.

The connection is rebuilt when the lake's manifest changes (a batch landed), so the cached
results, keyed by that version too, never show a stale lake.
"""

from __future__ import annotations

from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor

import duckdb
import polars as pl
import streamlit as st

from data.lake import MANIFEST, Lake, lake_path
from data.reader import QueryError, connect, execute, query_parameters

__all__ = ["QueryError", "fetch", "fetch_all", "lake_folder", "lake_version", "run_sql"]


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
def _cached_sql(version: str, sql: str) -> pl.DataFrame:
    return execute(_connection(version), sql)


def run_sql(sql: str) -> pl.DataFrame:
    """Run one read-only SELECT typed by a person (refused with QueryError otherwise)."""
    return _cached_sql(lake_version(), sql)
