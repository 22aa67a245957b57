"""Precomputed aggregates, one set per batch, written and committed with the batch itself.

The dashboard's queries read these (counts, sums and sums of squares by every filter
dimension) instead of scanning millions of rows, so they answer in milliseconds; because each
batch carries its own aggregates, they are always consistent with the batches in the lake.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import duckdb
import pyarrow as pa

from data.schema import TABLE_SCHEMAS, TABLES

AGGREGATE_DIR = Path(__file__).with_name("aggregates")


@cache
def aggregate_names() -> tuple[str, ...]:
    return tuple(sorted(p.stem for p in AGGREGATE_DIR.glob("agg_*.sql")))


def _batch_connection(tables: dict[str, pa.Table]) -> duckdb.DuckDBPyConnection:
    """The lake's views over one batch's tables, held in memory."""
    from data.views import game_view_statements, stand_in

    con = duckdb.connect(":memory:", config={"threads": 1})
    for name in TABLES:
        con.register(f"batch_{name}", tables[name])
    for statement in game_view_statements({n: stand_in(n, f"batch_{n}") for n in TABLES}):
        con.execute(statement)
    return con


def aggregate_tables(tables: dict[str, pa.Table]) -> dict[str, pa.Table]:
    """Every aggregate of one batch, computed from its stored tables."""
    con = _batch_connection(tables)
    result = {}
    for name in aggregate_names():
        sql = (AGGREGATE_DIR / f"{name}.sql").read_text()
        result[name] = con.sql(sql).to_arrow_table()
    con.close()
    return result


@cache
def aggregate_schemas() -> dict[str, pa.Schema]:
    """The columns of every aggregate (what an empty batch gives)."""
    con = _batch_connection({name: TABLE_SCHEMAS[name].empty_table() for name in TABLES})
    schemas = {}
    for name in aggregate_names():
        sql = (AGGREGATE_DIR / f"{name}.sql").read_text()
        schemas[name] = con.sql(sql).to_arrow_table().schema
    con.close()
    return schemas


def all_tables() -> tuple[str, ...]:
    """Every table a batch holds: the stored game tables, then the aggregates."""
    return TABLES + aggregate_names()
