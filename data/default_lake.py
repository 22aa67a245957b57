"""The preset datasets: the corpus of strong play (data/corpus/) and games of mixed player counts
between the hand-written agents, a random baseline among them, plus the example records, built
when the lake holds no game yet (`default` is what `make run` starts from, `research` a bigger
one). The corpus is checked before anything is written: a refused one leaves the lake empty."""

from __future__ import annotations

import sys
from pathlib import Path

from data.corpus import CORPUS, import_corpus, load_corpus
from data.importer import import_records
from data.lake import Lake
from data.simulate import Plan, simulate
from engine.rules import rule_set

RECORDS = Path(__file__).with_name("records")

# (games, agents) per part simulated at build time; player counts cycle 2, 3, 4, and agents
# rotate through the seats. Strong play comes from the corpus, not from these. In the default
# lake at most a fifth of the games seat a random agent (even without the corpus's games): the
# random baseline is the pages' `random` level, labelled, never their default.
PRESETS: dict[str, tuple[tuple[int, tuple[str, ...]], ...]] = {
    "default": (
        (4000, ("heuristic", "greedy")),
        (2000, ("heuristic",)),
        (500, ("heuristic", "greedy", "random")),
        (1000, ("random",)),  # the baseline of random play
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
    """Fill an empty lake with the corpus, a preset's games and the records; False if it had
    games. A refused corpus is a CorpusError before anything is written."""
    if lake.batches():
        print(f"{lake.root} already holds games; leaving it as it is", file=sys.stderr)
        return False
    strong = load_corpus(CORPUS)
    stored = import_corpus(lake, strong)
    print(f"imported {stored.added} games of the corpus {strong.path.name}", file=sys.stderr)
    for seed, (games, agents) in enumerate(PRESETS[preset], start=1):
        print(f"simulating {games} games: {', '.join(agents)}", file=sys.stderr)
        simulate(lake, Plan(games, agents=agents, rules=rule_set(), seed=seed), workers, progress)
    report = import_records(lake, sorted(RECORDS.glob("*.kgn")))
    print(f"imported {report.added} example records", file=sys.stderr)
    return True
