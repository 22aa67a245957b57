"""Dashboard speed on a lake: first page load and a filter change re-render (cache miss).

Both run the real page scripts server side through Streamlit's AppTest (no browser): the first
load is a fresh session over a fresh connection; a filter change picks a value whose queries
were never cached. Medians over a few repeats.
"""

from __future__ import annotations

import os
import statistics
import time
from pathlib import Path

import streamlit as st
from streamlit.testing.v1 import AppTest

from data.lake import lake_path

APP = str(Path(__file__).with_name("streamlit_app.py"))
PAGES = (
    "app_pages/overview.py",
    "app_pages/heatmaps.py",
    "app_pages/tile_impact.py",
    "app_pages/balance.py",
)
FILTER_VALUES = ("2", "3", "4")


def _clear_caches() -> None:
    st.cache_data.clear()
    st.cache_resource.clear()


def _first_load(page: str) -> float:
    _clear_caches()
    started = time.perf_counter()
    app = AppTest.from_file(APP, default_timeout=120).switch_page(page).run()
    elapsed = time.perf_counter() - started
    if app.exception:
        raise RuntimeError(f"{page}: {app.exception[0].message}")
    return elapsed


def _filter_change(page: str) -> list[float]:
    """Re-render times (s) after choosing each player count, every one a cache miss (the
    filter's choices, which do not depend on the filters, stay cached as in real use)."""
    _clear_caches()
    app = AppTest.from_file(APP, default_timeout=120).switch_page(page).run()
    times = []
    for value in FILTER_VALUES:
        app.selectbox(key="filter_players").set_value(value)
        started = time.perf_counter()
        app.run()
        times.append(time.perf_counter() - started)
        if app.exception:
            raise RuntimeError(f"{page}: {app.exception[0].message}")
    return times


def dashboard_figures(
    lake: str | os.PathLike[str] | None = None, repeats: int = 3
) -> dict[str, float]:
    """Median first page load (s, slowest page) and filter-change re-render (ms, slowest page)."""
    previous = os.environ.get("KINGDOMS_LAKE")
    os.environ["KINGDOMS_LAKE"] = str(lake_path(lake).resolve())
    try:
        first = {p: statistics.median(_first_load(p) for _ in range(repeats)) for p in PAGES}
        change = {p: statistics.median(_filter_change(p)) for p in PAGES}
    finally:
        if previous is None:
            os.environ.pop("KINGDOMS_LAKE", None)
        else:
            os.environ["KINGDOMS_LAKE"] = previous
    return {
        "dashboard_first_load_s": max(first.values()),
        "dashboard_filter_change_ms": 1000 * max(change.values()),
    }
