"""The dashboard in a real browser (Debian's Chromium through Playwright, 1280 × 800) on a
default lake: the first load, from the navigation's start until the page's first chart is drawn,
for a new visitor of a running server and for the first visitor of a fresh one; and a filter
change on Balance, from the choice until its charts are drawn again. Medians; skipped, saying
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
# Set in every page too: when a chart's content last changed.
CHART_CHANGED = """
new MutationObserver((records) => {
  if (records.some((r) => r.target.closest && r.target.closest('.vega-embed'))) {
    window.lastChartMs = performance.now();
  }
}).observe(document, {childList: true, subtree: true, attributes: true});
"""
SETTLED_MS = 500  # a chart unchanged this long after the filter change is taken as drawn
# Balance's filter changes timed, each a player count none of the runs before asked for (each
# on a fresh server, so none is answered from the cache).
FILTER, FILTER_KEY = "Players", "players"  # its label, its key in the URL
FILTER_VALUES = ("2", "3", "4")


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


def filter_change_ms(browser, url: str, value: str) -> float:
    """Milliseconds from choosing `value` in Balance's sidebar filter until its charts stop
    changing (the last change; SETTLED_MS without one after it)."""
    context = browser.new_context(viewport=VIEWPORT)
    try:
        context.add_init_script(CHART_DRAWN + CHART_CHANGED)
        page = context.new_page()
        page.goto(f"{url}/{PAGES['balance']}", wait_until="commit")
        page.wait_for_function("() => window.firstChartMs", timeout=TIMEOUT_MS, polling=20)
        page.wait_for_function(
            "() => !document.querySelector('[data-testid=\"stStatusWidget\"]')",
            timeout=TIMEOUT_MS,
        )
        page.wait_for_timeout(SETTLED_MS)
        sidebar = page.locator('[data-testid="stSidebar"] [data-testid="stSelectbox"]')
        box = sidebar.filter(has_text=FILTER).locator("input")
        box.click()
        box.fill(value)  # the list narrows to the one choice, which Enter takes
        page.evaluate("() => { window.changedMs = performance.now(); }")
        box.press("Enter")
        page.wait_for_function(
            f"() => window.lastChartMs > window.changedMs"
            f" && performance.now() - window.lastChartMs > {SETTLED_MS}",
            timeout=TIMEOUT_MS,
            polling=20,
        )
        if f"{FILTER_KEY}={value}" not in page.url:
            raise RuntimeError(f"the filter did not change: {page.url}")
        return page.evaluate("() => window.lastChartMs - window.changedMs")
    finally:
        context.close()


def browser_figures(root: Path, repeats: int = 5) -> dict[str, float]:
    """`browser_<page>_first_load_s` for a new visitor of a running server (which has served one
    before), `browser_balance_fresh_server_s` for the first visitor of a just-started one, and
    `browser_balance_filter_change_ms` for a filter changed on Balance (a cache miss)."""
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
        changes = []
        for value in FILTER_VALUES:
            with dashboard_server(lake) as url:
                changes.append(filter_change_ms(browser, url, value))
    return {
        **figures,
        "browser_balance_fresh_server_s": statistics.median(fresh),
        "browser_balance_filter_change_ms": round(statistics.median(changes)),
    }
