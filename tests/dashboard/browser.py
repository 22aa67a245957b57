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
from collections.abc import Callable, Iterator
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


def wait_for_script(page: Page, timeout_ms: float = 30_000) -> None:
    """Wait until the app's script run that an interaction started has finished."""
    page.wait_for_timeout(500)
    page.wait_for_function(
        "() => !document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=timeout_ms
    )
    page.wait_for_timeout(500)


def _tooltip_cell(page: Page, x: float, y: float) -> str | None:
    """The board cell under (x, y), read from the chart's tooltip (`cell` row)."""
    page.mouse.move(x, y)
    page.wait_for_timeout(60)
    tip = page.locator("#vg-tooltip-element")
    if not tip.count() or not tip.is_visible():
        return None
    lines = [line.strip() for line in tip.inner_text().splitlines() if line.strip()]
    return lines[1] if len(lines) > 1 and lines[0] == "cell" else None


def board_cell_point(page: Page, chart: str, cell: str, steps: int = 40) -> tuple[float, float]:
    """Where cell `cell` (e.g. "c2") of a board chart is on the screen: found by moving the
    mouse across the chart, then down its column, reading the tooltip, so no layout is assumed."""
    box = page.locator(chart).first.bounding_box()
    assert box is not None, "the board chart is not drawn"

    def middle(
        points: list[tuple[float, float]], found: Callable[[str], bool]
    ) -> tuple[float, float]:
        hits = [p for p in points if found(_tooltip_cell(page, *p) or "")]
        assert hits, f"no point of the chart shows cell {cell}"
        return hits[len(hits) // 2]

    fraction = [i / steps for i in range(1, steps)]
    across = [(box["x"] + box["width"] * f, box["y"] + box["height"] / 2) for f in fraction]
    x, _ = middle(across, lambda name: name[:1] == cell[0])
    down = [(x, box["y"] + box["height"] * f) for f in fraction]
    return middle(down, lambda name: name == cell)
