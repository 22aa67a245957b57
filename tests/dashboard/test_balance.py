"""The Balance page's sections: the headline balance on every one, the open section's figures
only (the others neither run nor ship their charts), the open one kept in the URL."""

from __future__ import annotations

import json
import shutil

import pytest
from streamlit.testing.v1 import AppTest

from dashboard.access import SHARED
from data.compare import compare
from data.lake import Lake
from engine.rules import rule_set
from tests.dashboard.conftest import open_page

PAGE = "app_pages/balance.py"
SEAT_TITLE = "Mean win share against the fair share 1/N (red tick)"
# Section: the titles of the charts it draws on the seeded lake.
SECTION_CHARTS = {
    "Seat advantage": [SEAT_TITLE],
    "Scores and duration": ["Final gold per seat", "Margin of victory per game"],
    "Lead changes": [
        "Lead changes across the epochs",
        "Comebacks",
        "Leader after epoch k goes on to win",
    ],
    "Agent ladder": [
        "Ratings (Bradley–Terry, every game's seat pairs)",
        "Head to head: row agent against column agent",
    ],
    "Rule sets": [SEAT_TITLE, SEAT_TITLE],
}


def chart_titles(app: AppTest) -> list[str]:
    return [json.loads(chart.proto.spec)["title"]["text"] for chart in app.get("vega_lite_chart")]


def balance_cards(app: AppTest) -> list[str]:
    return [m.label for m in app.metric if m.label.startswith("Balance, ")]


def test_the_first_screen_is_the_balance_and_the_seat_advantage_only(monkeypatch, lake):
    app = open_page(monkeypatch, lake, PAGE)
    assert not app.exception
    assert [tab.label for tab in app.tabs] == list(SECTION_CHARTS)
    assert balance_cards(app) == ["Balance, 2 players", "Balance, 3 players", "Balance, 4 players"]
    assert chart_titles(app) == [SEAT_TITLE], "no other section's chart is drawn or sent"
    assert not app.dataframe


@pytest.mark.parametrize("section", SECTION_CHARTS)
def test_a_section_from_the_url_draws_its_figures_below_the_balance(monkeypatch, lake, section):
    app = open_page(monkeypatch, lake, PAGE, section=section)
    assert not app.exception
    assert len(balance_cards(app)) == 3
    assert chart_titles(app) == SECTION_CHARTS[section]


def test_choosing_a_section_draws_it_in_place_of_the_seat_advantage(monkeypatch, lake):
    app = open_page(monkeypatch, lake, PAGE)
    app.session_state["section"] = "Lead changes"
    app.run()
    assert not app.exception
    assert chart_titles(app) == SECTION_CHARTS["Lead changes"]
    assert len(balance_cards(app)) == 3


def test_the_rule_sets_comparison_report_is_made_into_the_lake_and_offered(
    monkeypatch, lake, tmp_path
):
    copy = Lake(shutil.copytree(lake.root, tmp_path / "lake"))
    app = open_page(monkeypatch, copy, PAGE, section="Rule sets")
    labels = [app.selectbox(key=key).value for key in ("rules_a", "rules_b")]
    app.number_input(key="balance_report_games").set_value(10)
    app.number_input(key="balance_report_skill_games").set_value(1).run()
    app = app.button(key="balance_make_report").click().run()
    assert not app.exception and not app.error
    assert [button.label for button in app.get("download_button")] == [
        "Download the comparison report"
    ]
    _, html = app.session_state["balance_report"]
    a, b = (rule_set(label.removeprefix("edition ")) for label in labels)
    assert f"A: <b>{a.name}</b> · B: <b>{b.name}</b>" in html and "<svg" in html
    again = compare(a, b, copy, games=10, workers=1, skill_games=0)
    assert again.simulated == 0, "the report's games were kept in the lake"


def test_a_read_only_dashboard_makes_no_comparison_report(monkeypatch, lake):
    monkeypatch.setenv(SHARED, "1")
    app = open_page(monkeypatch, lake, PAGE, section="Rule sets")
    assert app.button(key="balance_make_report").disabled
    assert not app.get("download_button")
