"""The Balance page's sections: the headline balance on every one, the open section's figures
only (the others neither run nor ship their charts), the open one kept in the URL."""

from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest

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
