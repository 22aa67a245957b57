"""The SQL page: DuckDB's hints kept in a code block (the caret under the mistake), the limits
and that the sidebar's filters do not apply said, and a hostile query from the page leaving the
lake and the working folder as they were."""

from __future__ import annotations

import hashlib
from pathlib import Path

from data.console import SQL_LIMIT
from tests.dashboard.conftest import open_page

PAGE = "app_pages/sql_console.py"


def test_refusal_keeps_duckdbs_hints_with_the_caret_under_the_mistake(monkeypatch, lake):
    app = open_page(monkeypatch, lake, PAGE)
    app.text_area[0].set_value("SELECT cel FROM castles").run()
    assert not app.exception
    assert app.error[0].value.startswith("Refused")
    lines = app.code[0].value.splitlines()
    assert lines[1].startswith('Candidate bindings: "cell"')
    echoed = lines.index("LINE 1: SELECT cel FROM castles")
    assert lines[echoed + 1].index("^") == lines[echoed].index("cel ")


def test_page_says_its_limits_and_that_the_sidebar_filters_do_not_apply(monkeypatch, lake):
    app = open_page(monkeypatch, lake, PAGE, player="Ann")
    said = app.caption[0].value
    assert "The sidebar's filters do not apply here" in said
    assert f"{SQL_LIMIT:,} characters" in said and "GB of memory" in said
    assert app.text_area[0].max_chars == SQL_LIMIT


def _tree(root: Path) -> dict[str, str]:
    return {
        str(path.relative_to(root)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


def test_a_copy_to_the_databases_own_files_writes_nothing(monkeypatch, lake, tmp_path):
    monkeypatch.chdir(tmp_path)
    before = _tree(lake.root)
    app = open_page(monkeypatch, lake, PAGE)
    for sql in (
        "EXPLAIN ANALYZE COPY (SELECT * FROM moves) TO ':memory:.wal'",
        "WITH x AS (COPY (SELECT * FROM moves) TO ':memory:.wal.checkpoint') SELECT * FROM x",
    ):
        app.text_area[0].set_value(sql).run()
        assert not app.exception and app.error
    assert list(tmp_path.iterdir()) == [], "nothing in the working folder"
    assert _tree(lake.root) == before


def test_every_type_it_shows_is_drawn_as_a_table(monkeypatch, lake):
    app = open_page(monkeypatch, lake, PAGE)
    app.text_area[0].set_value(
        "SELECT 2::HUGEINT AS huge, MAP {'a': 1} AS map, {'a': [1]} AS struct, "
        "[1, 2]::INTEGER[2] AS array, TIME '12:00' AS time, 'a'::ENUM('a', 'b') AS enum, "
        "1.5::DECIMAL(38, 10) AS decimal, uuid() AS id, NULL AS nothing"
    ).run()
    assert not app.exception and not app.error
    assert app.dataframe[0].value.shape == (1, 9)
