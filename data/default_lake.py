"""The preset datasets: games of mixed player counts, mostly between the hand-written agents
(competent play), the strong search's own games and mixed tables, a random baseline, plus the
example records, built when the lake holds no game yet (`default` is what `make run` starts
from, `research` a bigger one)."""

from __future__ import annotations

import sys
from pathlib import Path

from data.importer import import_records
from data.lake import Lake
from data.simulate import Plan, simulate
from engine.rules import rule_set

RECORDS = Path(__file__).with_name("records")

# (games, agents) per part; player counts cycle 2, 3, 4, and agents rotate through the seats.
# The default's strong self-play is the fewest games (ENOUGH_GAMES in data/levels.py) that let
# the strong level be the pages' default; with the mixed tables it is most of the build's time.
PRESETS: dict[str, tuple[tuple[int, tuple[str, ...]], ...]] = {
    "default": (
        (30, ("strong",)),  # strong play: the search at every seat
        (18, ("strong", "heuristic", "greedy")),  # mixed tables
        (4000, ("heuristic", "greedy")),
        (2000, ("heuristic",)),
        (1000, ("heuristic", "greedy", "random")),
        (4000, ("random",)),  # the baseline of random play
    ),
    "research": (
        (300, ("strong",)),
        (300, ("strong", "heuristic", "greedy")),
        (300, ("strong", "heuristic")),
        (40000, ("heuristic", "greedy")),
        (20000, ("heuristic",)),
        (10000, ("heuristic", "greedy", "random")),
        (20000, ("random",)),
    ),
}


def build_preset_lake(lake: Lake, preset: str, workers: int, progress: bool = True) -> bool:
    """Fill an empty lake with a preset's games and the records; False if it had games."""
    if lake.batches():
        print(f"{lake.root} already holds games; leaving it as it is", file=sys.stderr)
        return False
    for seed, (games, agents) in enumerate(PRESETS[preset], start=1):
        print(f"simulating {games} games: {', '.join(agents)}", file=sys.stderr)
        simulate(lake, Plan(games, agents=agents, rules=rule_set(), seed=seed), workers, progress)
    report = import_records(lake, sorted(RECORDS.glob("*.kgn")))
    print(f"imported {report.added} example records", file=sys.stderr)
    return True
