"""A small lake for the replay and recording tests: random games and the example records."""

from __future__ import annotations

from pathlib import Path

from data.importer import import_records
from data.lake import Lake
from data.simulate import Plan, simulate

RECORDS = Path(__file__).resolve().parents[2] / "data" / "records"
PAGES = Path(__file__).resolve().parents[2] / "dashboard" / "app_pages"


def build_lake(folder: Path) -> Lake:
    lake = Lake(folder)
    simulate(lake, Plan(6, players=(2, 3), seed=11, batch_size=6), progress=False)
    assert import_records(lake, sorted(RECORDS.glob("*.kgn"))).errors == []
    return lake
