"""The default dataset: games of mixed player counts, mostly between the hand-written agents
(competent play) with a random baseline, plus the example records, built when the lake holds no
game yet (what `make run` starts from)."""

from __future__ import annotations

import sys
from pathlib import Path

from data.importer import import_records
from data.lake import Lake
from data.simulate import Plan, simulate
from engine.rules import rule_set

RECORDS = Path(__file__).with_name("records")

# (games, agents) per part; player counts cycle 2, 3, 4, and agents rotate through the seats.
PARTS = (
    (4000, ("heuristic", "greedy")),
    (2000, ("heuristic",)),
    (1000, ("heuristic", "greedy", "random")),
    (4000, ("random",)),  # the baseline of random play
)


def build_default_lake(lake: Lake, workers: int, progress: bool = True) -> bool:
    """Fill an empty lake with the default games and records; False if it had games."""
    if lake.batches():
        print(f"{lake.root} already holds games; leaving it as it is", file=sys.stderr)
        return False
    for seed, (games, agents) in enumerate(PARTS, start=1):
        print(f"simulating {games} games: {', '.join(agents)}", file=sys.stderr)
        simulate(lake, Plan(games, agents=agents, rules=rule_set(), seed=seed), workers, progress)
    report = import_records(lake, sorted(RECORDS.glob("*.kgn")))
    print(f"imported {report.added} example records", file=sys.stderr)
    return True
