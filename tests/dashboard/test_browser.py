"""The real thing: `kingdoms dashboard` on a free port, every page in headless Chromium."""

from __future__ import annotations

import pytest

from data.reader import connect, execute
from tests.dashboard.browser import CHART, PAGES, chromium, dashboard_server, open_page

pytestmark = pytest.mark.slow


def test_every_page_renders_text_and_a_chart_in_chromium(lake):
    with dashboard_server(lake.root) as url, chromium() as browser:
        for name, (path, text) in PAGES.items():
            page = open_page(browser, url, path, timeout_ms=120_000)
            body = page.inner_text("body")
            assert text in body, f"{name}: '{text}' missing"
            assert "Traceback" not in body and "Error" not in page.title(), name
            assert page.locator(CHART).count() > 0, f"{name}: no chart drawn"
            page.close()


def test_replay_steps_with_the_keyboard(lake):
    """Open a replay by URL, press → twice: the move, the URL and the drawn board change."""
    game_id = execute(connect(lake), "game_search", {"limit": 1})["game_id"][0]
    with dashboard_server(lake.root) as url, chromium() as browser:
        page = open_page(browser, url, f"replay?game={game_id}&ply=30", timeout_ms=120_000)
        assert "Move 30" in page.inner_text("body")
        board_before = page.locator(CHART).first.screenshot()
        for _ in range(2):
            page.keyboard.press("ArrowRight")
            page.wait_for_timeout(700)
        page.wait_for_function("() => window.location.search.includes('ply=32')", timeout=30_000)
        page.wait_for_function(
            "() => !document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=30_000
        )
        page.wait_for_timeout(800)
        assert "Move 32" in page.inner_text("body")
        assert page.locator(CHART).first.screenshot() != board_before


def test_a_heatmap_example_opens_its_replay_in_the_same_tab(lake):
    """Click an example game's row under the heatmap: the same tab shows its replay at the ply
    of the placement."""
    examples = execute(
        connect(lake), "cell_examples", {"cell": "d2", "piece_kind": "castle", "limit": 25}
    )
    first = examples.row(0, named=True)
    with dashboard_server(lake.root) as url, chromium() as browser:
        page = open_page(
            browser, url, "heatmaps?metric=Occupancy%3A+castle&cell=d2", timeout_ms=120_000
        )
        grid = page.locator('[data-testid="stDataFrame"]').first
        grid.scroll_into_view_if_needed()
        box = grid.bounding_box()
        page.mouse.click(box["x"] + 16, box["y"] + 35 + 17)  # the first row's selection box
        page.wait_for_function("() => window.location.pathname.endsWith('/replay')", timeout=60_000)
        assert f"game={first['game_id']}" in page.url and f"ply={first['ply']}" in page.url
        assert len(page.context.pages) == 1, "the replay opens in the same tab"
