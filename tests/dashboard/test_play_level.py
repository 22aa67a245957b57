"""The play-level filter: every statistics page defaults to the strongest level with enough
games, says which level its figures come from, and follows another choice."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from data.lake import Lake
from data.levels import ENOUGH_GAMES
from data.simulate import Plan, simulate
from tests.dashboard.conftest import open_page

STATISTICS_PAGES = [
    "app_pages/overview.py",
    "app_pages/heatmaps.py",
    "app_pages/tile_impact.py",
    "app_pages/balance.py",
]
HEURISTIC_GAMES = ENOUGH_GAMES + 2
STRONG_GAMES = 2  # too few to be the default


@pytest.fixture(scope="module")
def levels_lake(tmp_path_factory: pytest.TempPathFactory) -> Lake:
    """Random play as the bulk, enough heuristic play, and a couple of strong games."""
    lake = Lake(tmp_path_factory.mktemp("levels_lake"))
    simulate(lake, Plan(3 * HEURISTIC_GAMES, seed=21), progress=False)
    simulate(lake, Plan(HEURISTIC_GAMES, agents=("heuristic",), seed=22), progress=False)
    simulate(lake, Plan(STRONG_GAMES, (2,), ("strong",), seed=23), progress=False)
    return lake


def matching(app: AppTest) -> str:
    return next(m.value for m in app.metric if m.label == "Matching the filters")


@pytest.mark.parametrize("page", STATISTICS_PAGES)
def test_a_page_defaults_to_the_strongest_level_with_enough_games(monkeypatch, levels_lake, page):
    app = open_page(monkeypatch, levels_lake, page)
    assert not app.exception
    level = app.selectbox(key="filter_level")
    assert level.options[:3] == [  # strongest first, each with its games; random labelled
        f"strong play: {STRONG_GAMES} games",
        f"heuristic play: {HEURISTIC_GAMES} games",
        f"random play (baseline): {3 * HEURISTIC_GAMES} games",
    ]
    assert level.value == "heuristic"  # strong has fewer than ENOUGH_GAMES
    said = [c.value for c in app.caption if c.value.startswith("Figures from")]
    assert said == [
        "Figures from **heuristic play**: tables whose weakest seat plays at that level. "
        "Choose another *Play level* in the sidebar."
    ]
    assert "level" not in app.query_params  # the default needs no URL


def test_the_overview_follows_the_chosen_level(monkeypatch, levels_lake):
    app = open_page(monkeypatch, levels_lake, "app_pages/overview.py")
    assert matching(app) == f"{HEURISTIC_GAMES:,}"
    app.selectbox(key="filter_level").set_value("strong").run()
    assert not app.exception
    assert matching(app) == f"{STRONG_GAMES:,}"
    assert app.query_params["level"] == "strong"
    app.selectbox(key="filter_level").set_value("random").run()
    assert matching(app) == f"{3 * HEURISTIC_GAMES:,}"
    baseline = [c.value for c in app.caption if c.value.startswith("Figures from")]
    assert "**random play (baseline)**" in baseline[0]


def test_every_level_together_is_a_choice_kept_in_the_url(monkeypatch, levels_lake):
    app = open_page(monkeypatch, levels_lake, "app_pages/overview.py", level="All")
    assert app.selectbox(key="filter_level").value == "All"
    assert matching(app) == f"{4 * HEURISTIC_GAMES + STRONG_GAMES:,}"


def test_the_default_follows_the_other_filters(monkeypatch, levels_lake):
    app = open_page(monkeypatch, levels_lake, "app_pages/overview.py", agent="random")
    assert app.selectbox(key="filter_level").value == "random"  # the only level seating it
    assert matching(app) == f"{3 * HEURISTIC_GAMES:,}"


def test_heatmaps_compare_two_play_levels_side_by_side(monkeypatch, levels_lake):
    app = open_page(
        monkeypatch, levels_lake, "app_pages/heatmaps.py", compare="play level", left="strong"
    )
    assert not app.exception
    assert app.selectbox(key="heatmap_left").options[:3] == ["strong", "heuristic", "random"]
    boards = [m.value for m in app.markdown if "observations" in m.value]
    assert "strong play" in boards[0] and "heuristic play" in boards[1]
