"""The Sandbox page: a rule set edited in the form or as text, checked by the engine, what it
changes in its base, and its comparison with the base over games kept in the lake."""

from __future__ import annotations

import re

import polars as pl
import pytest
from streamlit.testing.v1 import AppTest

from dashboard.access import SHARED
from dashboard.sandbox_charts import difference_chart
from dashboard.text import plain
from data.compare import NO_INTERVAL, REAL, UNCLEAR, compare
from data.lake import Lake
from engine.rulefile import RuleFileError
from engine.rules import RuleSet, rule_set, rule_text, rules_from_text
from tests.dashboard.conftest import open_page
from tests.lakes import scratch_lake

PAGE = "app_pages/sandbox.py"
TEXT = "sandbox_text"


@pytest.fixture(scope="module")
def lake(tmp_path_factory: pytest.TempPathFactory) -> Lake:
    return scratch_lake(tmp_path_factory.mktemp("sandbox-lake"))


@pytest.fixture
def app(monkeypatch: pytest.MonkeyPatch, lake: Lake) -> AppTest:
    page = open_page(monkeypatch, lake, PAGE)
    assert not page.exception
    return page


def text_of(app: AppTest) -> str:
    return app.text_area(key=TEXT).value


def set_text(app: AppTest, text: str) -> AppTest:
    return app.text_area(key=TEXT).set_value(text).run()


def engine_refusal(text: str) -> str:
    """What the engine says of a rule-set text it refuses, as the page calls the text."""
    with pytest.raises(RuleFileError) as refusal:
        rules_from_text(text, "rules.toml")
    return str(refusal.value)


def changes(app: AppTest) -> dict[str, tuple[str, str]]:
    """The differences table: each setting's base and edited values."""
    table = app.dataframe[0].value
    return {row[0]: (row[1], row[2]) for row in table.itertuples(index=False)}


def test_the_page_opens_on_the_base_with_nothing_changed(app):
    assert app.title[0].value == "Sandbox"
    assert rules_from_text(text_of(app)) == rule_set()
    assert not app.error
    assert "Nothing yet" in app.info[0].value


def test_a_valid_form_edit_shows_no_error_and_the_differences_from_the_base(app):
    app.number_input(key="sandbox_rows").set_value(6).run()
    app.number_input(key="sandbox_tile GM").set_value(0).run()
    assert not app.exception and not app.error
    assert "playable rule set" in app.success[0].value
    edited = rules_from_text(text_of(app))
    assert (edited.rows, edited.columns, edited.cells) == (6, 6, 36)
    assert edited.gold_mine_factor == rule_set().gold_mine_factor
    assert changes(app) == {"rows": ("5", "6"), "tiles.GM": ("1", "0")}


@pytest.mark.parametrize(
    "old, new",
    [('"+3" = 2', '"+3" = -1'), ("epochs = 3", "epochs = 3\nspeed = 2"), ("rows = 5", "rows = 8")],
)
def test_a_bad_text_edit_shows_the_engines_refusal_at_its_line(app, old, new):
    before = app.number_input(key="sandbox_rows").value
    bad = text_of(app).replace(old, new)
    app = set_text(app, bad)
    assert not app.exception
    refusal = engine_refusal(bad)
    assert [e.value for e in app.error] == [plain(refusal)]
    line = bad.splitlines().index(new.splitlines()[-1]) + 1
    assert refusal.startswith(f"rules.toml:{line}:1: ")
    assert app.number_input(key="sandbox_rows").value == before, "the form keeps its values"
    assert app.get("download_button")[0].proto.disabled


def test_a_text_edit_shows_in_the_form(app):
    text = text_of(app).replace("start_gold = 50", "start_gold = 80").replace("GM = 1", "GM = 2")
    app = set_text(app, text.replace("[castles]\n2 = [4, 3, 2, 1]", "[castles]\n2 = [4, 3, 2, 2]"))
    assert not app.error
    assert app.number_input(key="sandbox_start_gold").value == 80
    assert app.number_input(key="sandbox_tile GM").value == 2
    assert app.number_input(key="sandbox_castles 2 4").value == 2
    assert changes(app) == {
        "start_gold": ("50", "80"),
        "tiles.GM": ("1", "2"),
        "castles.2": ("4, 3, 2, 1", "4, 3, 2, 2"),
    }


def test_a_form_edit_keeps_the_texts_other_values(app):
    app = set_text(app, text_of(app).replace("epochs = 3", "epochs = 4"))
    app.multiselect(key="sandbox_returning_ranks").set_value([1, 2]).run()
    app.number_input(key="sandbox_gold_mine_factor").set_value(3).run()
    edited = rules_from_text(text_of(app))
    assert (edited.epochs, edited.returning_ranks, edited.gold_mine_factor) == (4, (1, 2), 3)


def test_a_form_edit_the_engine_refuses_is_shown_with_its_line(app):
    app.number_input(key="sandbox_rows").set_value(3).run()
    app.number_input(key="sandbox_columns").set_value(8).run()
    app.number_input(key="sandbox_rows").set_value(8).run()
    refusal = engine_refusal(text_of(app))
    assert [e.value for e in app.error] == [plain(refusal)]
    assert "rows = 8" in text_of(app).splitlines()[int(refusal.split(":")[1]) - 1]


def test_the_form_cannot_empty_the_tile_set(app):
    app.number_input(key="sandbox_rows").set_value(3).run()
    app.number_input(key="sandbox_columns").set_value(3).run()
    for token in ("+1", "+2", "+3", "+4", "+5", "+6", "-1", "-2", "-3", "-4", "-5", "-6"):
        app.number_input(key=f"sandbox_tile {token}").set_value(0).run()
    for token in ("MT", "DR", "GM"):
        app.number_input(key=f"sandbox_tile {token}").set_value(0).run()
    assert rules_from_text(text_of(app)).tiles == (RuleSet().tiles[-1],)  # the wizard alone
    app.number_input(key="sandbox_tile WZ").set_value(0).run()
    assert app.number_input(key="sandbox_tile WZ").value == 1
    assert "every tile count is 0" in app.warning[0].value
    assert rules_from_text(text_of(app)).tiles == (RuleSet().tiles[-1],)


def test_another_base_starts_the_edit_from_it(app):
    app.number_input(key="sandbox_rows").set_value(6).run()
    app.selectbox(key="sandbox_edition").set_value("kingdoms-2002").run()
    app.multiselect(key="sandbox_variants").set_value(["no-luck"]).run()
    assert rules_from_text(text_of(app)) == rule_set("kingdoms-2002", "no-luck")
    assert app.number_input(key="sandbox_rows").value == 5
    assert "Nothing yet" in app.info[0].value


def compare_small(app: AppTest) -> AppTest:
    """Compare the rules on the page with their base: 2 players, 12 random games a rule set."""
    app.button_group(key="sandbox_players").set_value(2).run()
    app.number_input(key="sandbox_games").set_value(12).run()
    app.multiselect(key="sandbox_agents").set_value(["random"]).run()
    app.number_input(key="sandbox_skill_games").set_value(1).run()
    return app.button(key="sandbox_compare").click().run()


def test_comparing_shows_each_figures_difference_and_verdict_and_offers_the_report(app, lake):
    app.number_input(key="sandbox_gold_mine_factor").set_value(4).run()
    app = compare_small(app)
    assert not app.exception and not app.error
    edited = rules_from_text(text_of(app))
    again = compare(
        rule_set(), edited, lake, players=2, games=12, agents=("random",), skill_games=1
    )
    assert again.simulated == 0, "the page's games were kept in the lake"
    expected = again.figures
    table = app.dataframe[-1].value
    assert table["figure"].tolist() == expected["figure"].to_list()
    assert table["verdict"].tolist() == expected["verdict"].to_list()
    shown = [re.fullmatch(r"(\S+) \((\S+) to (\S+)\)", text) for text in table["yours − base"]]
    differences = [float(match[1]) for match in shown]
    assert differences == pytest.approx(expected["difference"].to_list(), abs=0.005)
    assert all(float(match[2]) <= float(match[1]) <= float(match[3]) for match in shown)
    games = [
        f"{a:,} · {b:,}" for a, b in zip(expected["games_a"], expected["games_b"], strict=True)
    ]
    assert table["games"].tolist() == games
    assert set(table["verdict"]) <= {REAL, UNCLEAR, NO_INTERVAL}
    assert len(app.get("vega_lite_chart")) == expected["unit"].n_unique()
    balance = expected.filter(pl.col("figure") == "balance").row(0, named=True)
    summary = app.markdown[-1].value
    assert (
        f"{balance['games_a']:,} games of the base and {balance['games_b']:,} of yours" in summary
    )
    assert "agents random" in summary
    assert [b.key for b in app.get("download_button")] == [
        "sandbox_download_rules",
        "sandbox_download_report",
    ]
    app = app.button(key="sandbox_compare").click().run()
    assert any(c.value.startswith("0 games played now") for c in app.caption)


def test_a_comparison_of_other_rules_is_not_shown_as_these(app):
    app.number_input(key="sandbox_epochs").set_value(2).run()
    app = compare_small(app)
    assert app.dataframe[-1].value["verdict"].size
    app.number_input(key="sandbox_epochs").set_value(4).run()
    assert len(app.dataframe) == 1, "only the differences from the base"
    assert any("compare again" in c.value for c in app.caption)


def test_the_button_is_off_until_the_rules_differ_and_an_agent_plays(app):
    assert app.button(key="sandbox_compare").disabled
    app.number_input(key="sandbox_start_gold").set_value(60).run()
    assert not app.button(key="sandbox_compare").disabled
    app.multiselect(key="sandbox_agents").set_value([]).run()
    assert app.button(key="sandbox_compare").disabled


def test_a_read_only_dashboard_does_not_compare_and_says_how_to(monkeypatch, lake):
    monkeypatch.setenv(SHARED, "1")
    app = open_page(monkeypatch, lake, PAGE)
    app.number_input(key="sandbox_rows").set_value(6).run()
    assert app.button(key="sandbox_compare").disabled
    notice = app.info[0].value
    assert "read-only" in notice
    assert "kingdoms compare --rules kingdoms-2011 --rules kingdoms-2011-edited.toml" in notice


def test_the_chart_marks_as_differing_exactly_the_figures_judged_real(lake):
    edited = rules_from_text(rule_text(rule_set()).replace("factor = 2", "factor = 5"))
    figures = compare(
        rule_set(), edited, lake, players=3, games=30, agents=("random",), skill_games=1
    ).figures
    spec = difference_chart(figures, "differences", "caption")
    drawn = {row["figure"]: row["verdict"] for row in next(iter(spec["datasets"].values()))}
    judged = {
        row["figure"]: row["verdict"]
        for row in figures.iter_rows(named=True)
        if row["difference_low"] is not None
    }
    assert drawn.keys() == judged.keys()
    assert {f for f, v in drawn.items() if v == "differs from 0"} == {
        f for f, v in judged.items() if v == REAL
    }
