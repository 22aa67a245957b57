"""The Sandbox page: a rule set edited in the form or as text, checked by the engine, and what
it changes in its base."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from dashboard.text import plain
from data.lake import Lake
from engine.rulefile import RuleFileError
from engine.rules import RuleSet, rule_set, rules_from_text
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
