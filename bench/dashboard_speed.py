"""Dashboard speed on the default lake and on the benchmark lake (about 10 million moves): first
page load and a filter change re-render (cache miss), per page.

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

import dashboard
from bench.lake_speed import BENCH_LAKE, bench_lake
from dashboard.charts import clear_shapes
from data.default_lake import build_preset_lake
from data.lake import Lake
from engine.cli_support import workers_count

APP = str(Path(dashboard.__file__).with_name("streamlit_app.py"))
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
    clear_shapes()


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


def page_figures(lake: str | os.PathLike[str], repeats: int = 3) -> dict[str, tuple[float, float]]:
    """Per page of the lake: median first load (s) and median filter change re-render (ms)."""
    previous = os.environ.get("KINGDOMS_LAKE")
    os.environ["KINGDOMS_LAKE"] = str(Path(lake).resolve())
    try:
        return {
            page: (
                statistics.median(_first_load(page) for _ in range(repeats)),
                1000 * statistics.median(t for _ in range(repeats) for t in _filter_change(page)),
            )
            for page in PAGES
        }
    finally:
        if previous is None:
            os.environ.pop("KINGDOMS_LAKE", None)
        else:
            os.environ["KINGDOMS_LAKE"] = previous


def default_lake(path: Path) -> Path:
    """A default lake at `path` (built, as `make run` does, when it holds no game yet)."""
    lake = Lake(path)
    if not lake.batches():
        build_preset_lake(lake, "default", workers_count("auto"), progress=False)
    return lake.root


def lakes_figures(root: Path, repeats: int = 3) -> dict[str, dict[str, tuple[float, float]]]:
    """`page_figures` of a default lake and of the benchmark lake, both kept under `root`."""
    lakes = {"default": default_lake(root / "default"), "bench": bench_lake(root / BENCH_LAKE).root}
    return {name: page_figures(path, repeats) for name, path in lakes.items()}


def flat_figures(per_lake: dict[str, dict[str, tuple[float, float]]]) -> dict[str, float]:
    """`dashboard_first_load_s` and `dashboard_filter_change_ms` of the slowest page over every
    lake, then `dashboard_<lake>_<page>_first_load_s` and `…_filter_change_ms` of each page."""
    first, change = {}, {}
    for name, pages in per_lake.items():
        for page, (first_s, change_ms) in pages.items():
            where = f"{name}_{Path(page).stem}"
            first[where], change[where] = first_s, change_ms
    return {
        "dashboard_first_load_s": max(first.values()),
        "dashboard_filter_change_ms": max(change.values()),
        **{f"dashboard_{where}_first_load_s": value for where, value in first.items()},
        **{f"dashboard_{where}_filter_change_ms": value for where, value in change.items()},
    }


def dashboard_figures(root: Path, repeats: int = 3) -> dict[str, float]:
    """Medians of the default and the benchmark lake under `root` (`flat_figures`)."""
    return flat_figures(lakes_figures(root, repeats))
