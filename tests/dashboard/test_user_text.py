"""Text a person supplied (a player's name, a URL's value) is shown as its characters on the
pages, never as a link, an image, HTML or emphasis: the Markdown each page sends is rendered
here by a CommonMark renderer (markdown-it) and checked."""

from __future__ import annotations

import html
import re

import pytest
from markdown_it import MarkdownIt

from dashboard.record_data import start_draft
from dashboard.recording import Recording
from dashboard.text import plain
from data.importer import import_records
from data.lake import Lake
from data.reader import connect, execute
from engine.rules import rule_set
from tests.dashboard.conftest import open_page
from tests.lakes import RECORDS

NAME = "[x](http://example.com) ![i](http://example.com/i.png) **b** <b>h</b>"
MARKDOWN = MarkdownIt("commonmark", {"html": True})
_TAG = re.compile(r"<[^>]+>")


@pytest.fixture(scope="module")
def named_lake(tmp_path_factory: pytest.TempPathFactory) -> Lake:
    """A lake holding one recorded game whose first player is called NAME."""
    source = (RECORDS / "2026-11-02-ann-bob.kgn").read_text()
    record = tmp_path_factory.mktemp("records") / "named.kgn"
    record.write_text(source.replace('[A "Ann"]', f'[A "{NAME}"]'))
    lake = Lake(tmp_path_factory.mktemp("named_lake"))
    assert import_records(lake, [record]).errors == []
    return lake


def rendered(app) -> list[str]:
    """Every text element of the page as a browser would get it from its Markdown."""
    parts = [*app.markdown, *app.caption, *app.info, *app.warning, *app.error, *app.success]
    return [MARKDOWN.render(str(part.value)) for part in parts]


def assert_shown_as_text(app) -> None:
    pages = rendered(app)
    shown = [page for page in pages if html.unescape(_TAG.sub("", page)).count(NAME)]
    assert shown, "the name is on the page"
    for page in pages:
        assert "<a " not in page and "<img" not in page, page
        assert "<b>" not in page and "<strong>b</strong>" not in page, page


@pytest.mark.parametrize(
    "text",
    [NAME, "a_b_ *c* `d` $e$ :red[f] # g", "line\n\n# break", "\\[escaped\\](x)", "&amp; &lt;"],
)
def test_plain_markdown_renders_as_the_characters_typed(text):
    page = MARKDOWN.render(plain(text))
    assert _TAG.sub("", page).strip() == html.escape(text.replace("\n\n", " "), quote=False)


def test_replay_shows_a_players_name_as_text(monkeypatch, named_lake):
    game_id = execute(connect(named_lake), "SELECT min(game_id) AS g FROM games")["g"][0]
    app = open_page(monkeypatch, named_lake, "app_pages/replay.py", game=str(game_id))
    assert not app.exception
    assert_shown_as_text(app)


def test_replay_list_and_sidebar_show_a_chosen_players_name_as_text(monkeypatch, named_lake):
    app = open_page(monkeypatch, named_lake, "app_pages/replay.py", player=NAME)
    assert not app.exception
    assert_shown_as_text(app)


def test_a_game_id_from_the_url_is_shown_as_text(monkeypatch, named_lake):
    app = open_page(monkeypatch, named_lake, "app_pages/replay.py", game=NAME)
    assert not app.exception
    assert_shown_as_text(app)


@pytest.mark.parametrize(
    "page", ["app_pages/overview.py", "app_pages/heatmaps.py", "app_pages/tile_impact.py"]
)
def test_statistics_pages_show_a_chosen_players_name_as_text(monkeypatch, named_lake, page):
    app = open_page(monkeypatch, named_lake, page, player=NAME, level="recorded")
    assert not app.exception
    assert_shown_as_text(app)


def test_the_record_page_shows_a_players_name_as_text(monkeypatch, named_lake):
    monkeypatch.setenv("KINGDOMS_LAKE", str(named_lake.root))
    draft_id = start_draft(Recording.new(rule_set(), [NAME, "Bob"], first_seat=0))
    app = open_page(monkeypatch, named_lake, "app_pages/record.py", draft=draft_id)
    assert not app.exception
    assert_shown_as_text(app)
    listed = open_page(monkeypatch, named_lake, "app_pages/record.py")
    resume_labels = [b.label for b in listed.button if b.key.startswith("record_resume_")]
    assert resume_labels and all("<a " not in MARKDOWN.render(label) for label in resume_labels)
