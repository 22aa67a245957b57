"""A comparison of two rule sets for `kingdoms bench --only compare`: 2 × 2,000 heuristic games
(each of 2, 3 and 4 players in turn) played into a fresh lake, both sides' figures and design
measures read, the HTML report written; then the same again, the games found in the lake; and
the Sandbox page's check of an edited rule set."""

from __future__ import annotations

import os
import re
import statistics
import tempfile
import time
from pathlib import Path

from streamlit.testing.v1 import AppTest

from bench.dashboard_speed import APP
from data.compare import DEFAULT_GAMES, compare
from data.lake import Lake
from data.report import report_html
from engine.cli_support import workers_count
from engine.rules import rule_set, rules_from_text

# A designer's question: what if the gold mine tripled its segment rather than doubling it?
TRIPLE_MINE = 'name = "Triple gold mine"\nbase = "kingdoms-2011"\n[gold_mine]\nfactor = 3\n'
EDITS = 9  # the Sandbox's rule-set text edited this many times, the gold mine's factor 1 to 9


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
        figures["sandbox_check_ms"] = sandbox_check_ms(lake)
    return figures


def sandbox_check_ms(lake: Lake) -> float:
    """Median milliseconds of the Sandbox page's run after its rule-set text is edited: the
    text read by the engine, checked, and the differences from the base listed (AppTest)."""
    previous = os.environ.get("KINGDOMS_LAKE")
    os.environ["KINGDOMS_LAKE"] = str(lake.root)
    try:
        app = AppTest.from_file(APP, default_timeout=120).switch_page("app_pages/sandbox.py")
        app.run()
        times = []
        for factor in range(1, EDITS + 1):
            text = app.text_area(key="sandbox_text")
            text.set_value(re.sub(r"factor = \d+", f"factor = {factor}", text.value))
            start = time.perf_counter()
            app.run()
            times.append(1000 * (time.perf_counter() - start))
            if app.exception or app.error:
                raise RuntimeError(f"sandbox: {(app.exception or app.error)[0].value}")
        return statistics.median(times)
    finally:
        if previous is None:
            os.environ.pop("KINGDOMS_LAKE", None)
        else:
            os.environ["KINGDOMS_LAKE"] = previous
