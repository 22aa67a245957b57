"""The dashboard's first load in a real browser (Debian's Chromium through Playwright, 1280 × 800)
on a default lake: from the navigation's start until the page's first chart is drawn, for a new
visitor of a running server and for the first visitor of a fresh one. Medians; skipped, saying
why, where Chromium or Playwright is missing (`make browser` installs Chromium, the dev extra
Playwright)."""

from __future__ import annotations

import importlib.util
import statistics
import sys
from pathlib import Path

from bench.dashboard_speed import default_lake

# Page: its URL path. Balance's first chart is its seat advantage, Overview's its first figure.
PAGES = {"balance": "balance", "overview": ""}
VIEWPORT = {"width": 1280, "height": 800}
TIMEOUT_MS = 60_000
# Set in every page before its own scripts: when (ms since the navigation began) a chart's
# marks are first in the page.
CHART_DRAWN = """
new MutationObserver((_, watch) => {
  if (document.querySelector('.vega-embed svg .role-mark, .vega-embed canvas')) {
    window.firstChartMs = performance.now();
    watch.disconnect();
  }
}).observe(document, {childList: true, subtree: true});
"""


def missing_browser() -> str | None:
    """Why the browser cannot be driven here, or None when it can."""
    if importlib.util.find_spec("playwright") is None:
        return "Playwright is not installed"
    from tests.dashboard.browser import CHROMIUM

    if not Path(CHROMIUM).is_file():
        return f"no Chromium at {CHROMIUM}"
    return None


def first_chart_seconds(browser, url: str, path: str) -> float:
    """Seconds from a new visitor's navigation to `url/path` (a new browser context: no cookie,
    no cached file) until its first chart is drawn."""
    context = browser.new_context(viewport=VIEWPORT)
    try:
        context.add_init_script(CHART_DRAWN)
        page = context.new_page()
        page.goto(f"{url}/{path}", wait_until="commit")
        drawn = page.wait_for_function("() => window.firstChartMs", timeout=TIMEOUT_MS, polling=20)
        return drawn.json_value() / 1000
    finally:
        context.close()


def browser_figures(root: Path, repeats: int = 5) -> dict[str, float]:
    """`browser_<page>_first_load_s` for a new visitor of a running server (which has served one
    before), and `browser_balance_fresh_server_s` for the first visitor of a just-started one."""
    missing = missing_browser()
    if missing is not None:
        print(f"bench: browser: skipped ({missing})", file=sys.stderr, flush=True)
        return {}
    from tests.dashboard.browser import chromium, dashboard_server

    lake = default_lake(root / "default")
    with chromium() as browser:
        fresh = []
        for _ in range(repeats):
            with dashboard_server(lake) as url:
                fresh.append(first_chart_seconds(browser, url, PAGES["balance"]))
        with dashboard_server(lake) as url:
            first_chart_seconds(browser, url, PAGES["balance"])  # the server's imports, caches
            figures = {
                f"browser_{page}_first_load_s": statistics.median(
                    first_chart_seconds(browser, url, path) for _ in range(repeats)
                )
                for page, path in PAGES.items()
            }
    return {**figures, "browser_balance_fresh_server_s": statistics.median(fresh)}
