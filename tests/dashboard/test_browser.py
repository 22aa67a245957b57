"""The real thing: `kingdoms dashboard` on a free port, every page in headless Chromium."""

from __future__ import annotations

import shutil

import pytest

pytest.importorskip("playwright")
from tests.dashboard.browser import CHART, PAGES, chromium, dashboard_server, open_page  # noqa: E402

pytestmark = pytest.mark.slow


@pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed")
def test_every_page_renders_text_and_a_chart_in_chromium(lake):
    with dashboard_server(lake.root) as url, chromium() as browser:
        for name, (path, text) in PAGES.items():
            page = open_page(browser, url, path, timeout_ms=120_000)
            body = page.inner_text("body")
            assert text in body, f"{name}: '{text}' missing"
            assert "Traceback" not in body and "Error" not in page.title(), name
            assert page.locator(CHART).count() > 0, f"{name}: no chart drawn"
            page.close()
