"""The aggregates computed with numpy are the tables their SQL definitions give."""

from __future__ import annotations

from datetime import UTC, datetime

import pyarrow as pa
import pytest

from data.aggregates import aggregate_tables, batch_connection
from data.importer import played_from_record
from data.played import PlayedGames
from data.rows import build_tables
from data.schema import AGGREGATE_DIR, aggregate_names
from data.simulate import Plan, plan_games
from engine.rules import rule_set
from tests.lakes import RECORDS


def _sql_aggregates(tables: dict[str, pa.Table]) -> dict[str, pa.Table]:
    """The reference: every aggregate's SQL file run by DuckDB over the batch's views."""
    con = batch_connection(tables)
    result = {
        name: con.sql((AGGREGATE_DIR / f"{name}.sql").read_text()).to_arrow_table()
        for name in aggregate_names()
    }
    con.close()
    return result


@pytest.fixture(scope="module")
def batch() -> dict[str, pa.Table]:
    """Mixed player counts, agents and rule sets, and the recorded games, in one batch."""
    plans = [
        Plan(120, agents=("random", "greedy"), seed=3),
        Plan(30, rules=rule_set("kingdoms-2002", "no-luck"), seed=4),
        Plan(30, rules=rule_set(variants="score-as-you-go"), seed=5),
        Plan(30, rules=rule_set("kingdoms-2011"), seed=6),
    ]
    records = [played_from_record(path) for path in sorted(RECORDS.glob("*.kgn"))]
    games = PlayedGames.joined(
        [*(plan_games(plan, 0, plan.games) for plan in plans), PlayedGames.of(records)]
    )
    return build_tables(games, datetime(2026, 11, 20, 18, 30, tzinfo=UTC))


def _rows(table: pa.Table) -> list[tuple]:
    return sorted(zip(*table.to_pydict().values(), strict=True), key=repr)


@pytest.mark.parametrize("name", aggregate_names())
def test_numpy_aggregates_equal_their_sql(batch: dict[str, pa.Table], name: str) -> None:
    expected = _sql_aggregates(batch)[name]
    got = aggregate_tables(batch)[name]
    assert got.schema == expected.schema
    assert got.num_rows == expected.num_rows > 0
    floats = [pa.types.is_floating(t) for t in expected.schema.types]
    for got_row, expected_row in zip(_rows(got), _rows(expected), strict=True):
        for is_float, value, reference in zip(floats, got_row, expected_row, strict=True):
            assert value == (pytest.approx(reference, rel=1e-9) if is_float else reference)
