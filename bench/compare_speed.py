"""A comparison of two rule sets for `kingdoms bench --only compare`: 2 × 2,000 heuristic games
(each of 2, 3 and 4 players in turn) played into a fresh lake, both sides' figures and design
measures read, the HTML report written; then the same again, the games found in the lake."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from data.compare import DEFAULT_GAMES, compare
from data.lake import Lake
from data.report import report_html
from engine.cli_support import workers_count
from engine.rules import rule_set, rules_from_text

# A designer's question: what if the gold mine tripled its segment rather than doubling it?
TRIPLE_MINE = 'name = "Triple gold mine"\nbase = "kingdoms-2011"\n[gold_mine]\nfactor = 3\n'


def compare_figures(root: Path) -> dict[str, float]:
    """Seconds of a whole comparison into a fresh lake, report written, and of its rerun."""
    a, b = rule_set("kingdoms-2011"), rules_from_text(TRIPLE_MINE)
    workers = workers_count("auto")
    figures = {}
    with tempfile.TemporaryDirectory(dir=root) as folder:
        lake = Lake(Path(folder) / "lake")
        lake.require_writable()
        for figure in ("compare_seconds", "compare_rerun_seconds"):
            start = time.perf_counter()
            comparison = compare(a, b, lake, games=DEFAULT_GAMES, workers=workers)
            (Path(folder) / "report.html").write_text(report_html(comparison))
            figures[figure] = time.perf_counter() - start
    return figures
