"""Small seeded lakes for the tests, built in temporary folders, and the example records."""

from __future__ import annotations

from pathlib import Path

from data.importer import import_records
from data.lake import Lake
from data.played import PlayedGame, PlayedGames
from data.simulate import Plan, simulate
from engine.rules import rule_set

ROOT = Path(__file__).resolve().parents[1]
RECORDS = ROOT / "data" / "records"
APP_PAGES = ROOT / "dashboard" / "app_pages"


def seeded_lake(folder: Path) -> Lake:
    """Random games of 2–4 players in three rule sets, a few greedy games, and the records."""
    lake = Lake(folder)
    simulate(lake, Plan(150, seed=7, batch_size=60), workers=2, progress=False)
    simulate(lake, Plan(30, rules=rule_set("kingdoms-2002", "no-luck"), seed=8), progress=False)
    simulate(lake, Plan(30, rules=rule_set(variants="score-as-you-go"), seed=9), progress=False)
    simulate(lake, Plan(9, agents=("greedy", "random"), seed=10), progress=False)
    assert import_records(lake, sorted(RECORDS.glob("*.kgn"))).errors == []
    return lake


def one_by_one(games: PlayedGames) -> list[PlayedGame]:
    """A batch of simulated games as single games (no tags, every starting tile seen)."""
    seeds, ends = games.seeds.to_pylist(), games.offsets
    return [
        PlayedGame(
            *games.setups.distinct[setup],
            games.actions[ends[g] : ends[g + 1]],
            *games.line_ups[games.line_up[g]],
            seeds[g],
        )
        for g, setup in enumerate(games.setups.code)
    ]


def scratch_lake(folder: Path) -> Lake:
    """A few random games and the records, for tests that write to their lake."""
    lake = Lake(folder)
    simulate(lake, Plan(6, players=(2, 3), seed=11, batch_size=6), progress=False)
    assert import_records(lake, sorted(RECORDS.glob("*.kgn"))).errors == []
    return lake
