"""The sidebar's Rule set filter: the lake's rule sets by name, only when it holds several, and
the choice kept in the URL and followed by the figures."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from data.lake import Lake
from data.simulate import Plan, simulate
from engine.rules import rule_set, rules_hash
from tests.dashboard.conftest import open_page
from tests.lakes import SIX_BY_SIX


@pytest.fixture(scope="module")
def two_rule_sets(tmp_path_factory: pytest.TempPathFactory) -> Lake:
    """8 games of the six-by-six rule set (four epochs) and 20 of the 2011 edition."""
    lake = Lake(tmp_path_factory.mktemp("two_rule_sets"))
    simulate(lake, Plan(8, rules=SIX_BY_SIX, seed=3), progress=False)
    simulate(lake, Plan(20, rules=rule_set(), seed=4), progress=False)
    return lake


def _matching(app: AppTest) -> str:
    return next(m.value for m in app.metric if m.label == "Matching the filters")


def test_the_rule_set_filter_lists_the_rule_sets_and_keeps_the_choice_in_the_url(
    monkeypatch: pytest.MonkeyPatch, two_rule_sets: Lake
) -> None:
    app = open_page(monkeypatch, two_rule_sets, "app_pages/overview.py")
    assert not app.exception
    select = app.selectbox(key="filter_rules")
    six, shipped = rules_hash(SIX_BY_SIX), rules_hash(rule_set())
    assert select.options == [
        "All",
        "Kingdoms (2011) (5 × 6, 20 games)",
        "Six by six (6 × 6, 8 games)",
    ]
    assert _matching(app).startswith("28")
    select.set_value(six).run()
    assert not app.exception
    assert app.query_params["rules"] == six
    assert app.session_state["filters"].rules == six
    assert _matching(app).startswith("8")

    again = open_page(monkeypatch, two_rule_sets, "app_pages/overview.py", rules=shipped)
    assert again.selectbox(key="filter_rules").value == shipped
    assert _matching(again).startswith("20")


def test_the_epoch_filter_lists_every_epoch_the_games_played(
    monkeypatch: pytest.MonkeyPatch, two_rule_sets: Lake
) -> None:
    app = open_page(monkeypatch, two_rule_sets, "app_pages/overview.py", epoch="4")
    assert not app.exception
    assert app.selectbox(key="filter_epoch").options == ["All", "1", "2", "3", "4"]
    assert app.selectbox(key="filter_epoch").value == "4"


def test_a_lake_of_one_rule_set_has_no_rule_set_filter(
    monkeypatch: pytest.MonkeyPatch, tmp_path
) -> None:
    lake = Lake(tmp_path / "lake")
    simulate(lake, Plan(4, seed=5), progress=False)
    app = open_page(monkeypatch, lake, "app_pages/overview.py")
    assert not app.exception
    assert "filter_rules" not in [select.key for select in app.selectbox]


# Every page of the app, and what it shows of the six-by-six rule set's games once chosen.
PAGES = (
    "overview",
    "heatmaps",
    "tile_impact",
    "balance",
    "sandbox",
    "replay",
    "player",
    "practice",
    "record",
    "sql_console",
)


@pytest.mark.parametrize("page", PAGES)
def test_every_page_renders_a_rule_set_of_its_own_board_and_epochs(
    monkeypatch: pytest.MonkeyPatch, two_rule_sets: Lake, page: str
) -> None:
    app = open_page(
        monkeypatch, two_rule_sets, f"app_pages/{page}.py", rules=rules_hash(SIX_BY_SIX)
    )
    assert not app.exception
    assert not app.error
    assert app.session_state["filters"].rules == rules_hash(SIX_BY_SIX)
