"""Serve the dashboard with `kingdoms dashboard` and drive Debian's headless Chromium with
Playwright (no browser download): shared by the browser test and `make screenshots`."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import Browser, Page, sync_playwright

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# Every page of the app: URL path, and a text the rendered page must show.
PAGES = {
    "overview": ("", "Games in the lake"),
    "heatmaps": ("heatmaps", "Board heatmaps"),
    "tile_impact": ("tile_impact", "Improvement when placed"),
    "balance": ("balance", "Seat advantage"),
    "sql": ("sql_console", "SQL console"),
}
CHART = ".vega-embed canvas, .vega-embed svg"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def dashboard_server(lake: Path, startup_timeout: float = 60.0) -> Iterator[str]:
    """Run `kingdoms dashboard --lake LAKE --port P` until the block ends; yields its URL."""
    port = free_port()
    kingdoms = Path(sys.executable).with_name("kingdoms")
    server = subprocess.Popen(
        [str(kingdoms), "dashboard", "--lake", str(lake), "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + startup_timeout
        while True:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the dashboard did not start") from None
                time.sleep(0.3)
        yield url
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()


@contextmanager
def chromium() -> Iterator[Browser]:
    """Debian's Chromium, headless, through Playwright."""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def open_page(
    browser: Browser, url: str, path: str, timeout_ms: float = 30_000, chart: bool = True
) -> Page:
    """Open one app page and wait until the script has finished (and, with `chart`, until a
    chart is drawn)."""
    page = browser.new_page(viewport={"width": 1500, "height": 1000})
    page.goto(f"{url}/{path}", wait_until="domcontentloaded")
    page.wait_for_selector('[data-testid="stApp"]', timeout=timeout_ms)
    if chart:
        page.wait_for_selector(CHART, state="attached", timeout=timeout_ms)
    page.wait_for_function(
        "() => !document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=timeout_ms
    )
    page.wait_for_timeout(800)
    return page


def wait_until_drawn(page: Page, timeout_ms: float = 60_000) -> None:
    """Wait until no element of the page is left from the previous script run: a run marks the
    elements it has not drawn yet stale, so none stale once the run's first change showed
    means the run has drawn all it draws."""
    page.wait_for_function(
        "() => !document.querySelector('[data-stale=\"true\"]')", timeout=timeout_ms, polling=50
    )


def board_cell_centre(page: Page, cell: str) -> tuple[float, float]:
    """Where cell `cell` (e.g. "c2") of the Record page's board is on the screen: the board is
    drawn as SVG, each cell a mark described by its column and row, so no layout is assumed."""
    column, row = cell[0], cell[1:]
    mark = page.locator(f'.vega-embed [aria-label^="column: {column}; row: {row};"]').first
    box = mark.bounding_box()
    assert box is not None, f"cell {cell} is not drawn"
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def clipped_labels(page: Page, selector: str) -> list[str]:
    """The labels of the visible elements matching `selector` whose text does not fit (a part
    of them is wider than it shows, as text cut with an ellipsis is), or that show none."""
    return page.evaluate(
        """selector => [...document.querySelectorAll(selector)]
            .filter(button => button.checkVisibility())
            .filter(button => !button.innerText.trim() || [button, ...button.querySelectorAll('*')]
                .some(part => part.scrollWidth > part.clientWidth + 1))
            .map(button => button.innerText.trim() || '(blank)')""",
        selector,
    )


def compare_in_sandbox(page: Page, games: int, timeout_ms: float = 300_000) -> None:
    """On the Sandbox page: make the gold mine triple, ask for `games` games a rule set (and one
    skill-depth game a rung), compare with the base, and wait until the comparison is drawn."""
    page.get_by_text("The engine reads").wait_for(timeout=timeout_ms)
    asked = (("Gold mine ×", "3"), ("Games per rule set", str(games)))
    for label, value in (*asked, ("Skill-depth games a rung", "1")):
        box = page.get_by_label(label, exact=True)
        box.fill(value)
        box.press("Enter")
        page.wait_for_timeout(300)
        wait_until_drawn(page)
    page.get_by_role("button", name="Compare with the base").click()
    page.get_by_text("Download the report").filter(visible=True).wait_for(timeout=timeout_ms)
    wait_until_drawn(page)
