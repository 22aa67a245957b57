"""The real thing: `kingdoms dashboard` on a free port, every page in headless Chromium."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from dashboard.recording import Recording
from data.drafts import delete_draft, load_draft, new_draft_id, save_draft
from data.levels import default_level, precisions
from data.reader import connect, execute
from tests.dashboard.browser import (
    CHART,
    PAGES,
    board_cell_point,
    chromium,
    dashboard_server,
    open_page,
    wait_for_script,
)

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
    con = connect(lake)
    level = default_level(precisions(execute(con, "level_precision")))  # the page's default
    examples = execute(
        con, "cell_examples", {"cell": "d2", "piece_kind": "castle", "limit": 25, "level": level}
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


def test_record_a_move_by_palette_board_click_and_enter(lake):
    """A castle from the palette, a click on c2: the cell is only chosen; Enter records it."""
    draft_id = new_draft_id()
    save_draft(lake, draft_id, 0, Recording.new("kingdoms-2011", ["Mia", "Noa"], 0).text())

    def moves() -> list:
        return Recording.from_text(load_draft(lake, draft_id).record, 0).moves

    try:
        with dashboard_server(lake.root) as url, chromium() as browser:
            page = open_page(browser, url, f"record?draft={draft_id}", timeout_ms=120_000)
            page.get_by_role("button", name="1 ×4").click()
            wait_for_script(page)
            page.mouse.click(*board_cell_point(page, CHART, "c2"))
            cell_box = page.locator('[data-testid="stSelectbox"]').filter(has_text="Cell")
            expect(cell_box.locator("input").first).to_have_value("c2", timeout=30_000)
            wait_for_script(page)
            assert moves() == []  # a click chooses the cell, it does not play
            expect(page.get_by_role("button", name="Play Shortcut Enter")).to_be_enabled()
            page.keyboard.press("Enter")
            expect(page.get_by_text("A C1 c2 recorded.")).to_be_visible(timeout=30_000)
            assert [(m.seat, m.move.rank, m.move.cell) for m in moves()] == [(0, 1, 8)]
            # B's move starts with nothing chosen.
            expect(page.get_by_text("Choose an action first.").first).to_be_visible(timeout=30_000)
    finally:
        delete_draft(lake, draft_id)
