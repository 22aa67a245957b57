"""One small seeded lake for the data tests, built once per session in a temporary folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from data.importer import import_records
from data.lake import Lake
from data.reader import connect
from data.simulate import Plan, simulate
from engine.rules import rule_set

RECORDS = Path(__file__).resolve().parents[2] / "data" / "records"


@pytest.fixture(scope="session")
def lake(tmp_path_factory: pytest.TempPathFactory) -> Lake:
    """Random games of 2–4 players in three rule sets, a few greedy games, and the records."""
    lake = Lake(tmp_path_factory.mktemp("lake"))
    simulate(lake, Plan(150, seed=7, batch_size=60), workers=2, progress=False)
    simulate(lake, Plan(30, rules=rule_set("kingdoms-2002", "no-luck"), seed=8), progress=False)
    simulate(lake, Plan(30, rules=rule_set(variants="score-as-you-go"), seed=9), progress=False)
    simulate(lake, Plan(9, agents=("greedy", "random"), seed=10), progress=False)
    report = import_records(lake, sorted(RECORDS.glob("*.kgn")))
    assert report.errors == []
    return lake


@pytest.fixture(scope="session")
def con(lake: Lake):
    return connect(lake)
