"""Every page through Streamlit's AppTest on the seeded lake and on an empty one."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from data.lake import Lake
from data.reader import connect, execute
from tests.dashboard.conftest import APP

PAGES = {
    "app_pages/overview.py": "Kingdoms Analytics",
    "app_pages/heatmaps.py": "Board heatmaps",
    "app_pages/tile_impact.py": "Tile impact",
    "app_pages/balance.py": "Balance",
    "app_pages/sql_console.py": "SQL console",
}
REFUSED = [
    ("COPY games TO '/tmp/stolen.csv'", "COPY"),
    ("ATTACH '/tmp/other.duckdb' AS other", "ATTACH"),
    ("INSTALL httpfs", "only SELECT"),
    ("SELECT * FROM read_csv('/etc/passwd')", "/etc/passwd"),
    ("WITH x AS (COPY (SELECT 1) TO '/tmp/stolen.csv') SELECT * FROM x", "Permission Error"),
]


def open_page(monkeypatch: pytest.MonkeyPatch, lake: Lake, page: str, **query: str) -> AppTest:
    monkeypatch.setenv("KINGDOMS_LAKE", str(lake.root))
    app = AppTest.from_file(APP, default_timeout=60)
    app.query_params.update(query)
    return app.switch_page(page).run()


def charts(app: AppTest) -> list:
    return list(app.get("vega_lite_chart"))


def metric(app: AppTest, label: str) -> str:
    return next(m.value for m in app.metric if m.label == label)


def texts(app: AppTest) -> str:
    parts = [*app.markdown, *app.caption, *app.info, *app.warning, *app.error, *app.title]
    return "\n".join(str(p.value) for p in parts)


@pytest.mark.parametrize("page, title", PAGES.items())
def test_page_renders_with_charts(monkeypatch, lake, page, title):
    app = open_page(monkeypatch, lake, page)
    assert not app.exception
    assert app.title[0].value == title
    assert charts(app), "every page draws at least one chart"


@pytest.mark.parametrize("page", PAGES)
def test_empty_lake_says_how_to_add_games(monkeypatch, empty_lake, page):
    app = open_page(monkeypatch, empty_lake, page)
    assert not app.exception
    if page.endswith("sql_console.py"):
        assert app.dataframe, "the console still runs queries over empty views"
    else:
        assert "holds no games yet" in texts(app)
        assert "kingdoms simulate" in "\n".join(m.value for m in app.markdown)


@pytest.mark.parametrize("page", [p for p in PAGES if not p.endswith("sql_console.py")])
def test_filters_matching_nothing_explain_themselves(monkeypatch, lake, page):
    app = open_page(monkeypatch, lake, page, **{"from": "2001-01-01", "to": "2001-01-02"})
    assert not app.exception
    assert "No games match" in texts(app)


def test_overview_counts_follow_the_filters(monkeypatch, lake):
    app = open_page(monkeypatch, lake, "app_pages/overview.py")
    everything = metric(app, "Matching the filters")
    app.selectbox(key="filter_players").set_value("2").run()
    assert not app.exception
    assert metric(app, "Matching the filters") != everything
    assert app.query_params["players"] == "2"


@pytest.mark.parametrize(
    "query", [{"agent": "greedy"}, {"player": "Ann"}, {"agent": "random", "player": "random"}]
)
def test_overview_counts_games_seating_the_agent_and_player(monkeypatch, lake, query):
    app = open_page(monkeypatch, lake, "app_pages/overview.py", **query)
    assert not app.exception
    seated = execute(
        connect(lake),
        "SELECT count(DISTINCT game_id) AS games FROM filtered_seats("
        "NULL, NULL, NULL, NULL, NULL, NULL, $agent, $player)",
        {"agent": query.get("agent"), "player": query.get("player")},
    )["games"][0]
    assert seated > 0 and metric(app, "Matching the filters") == f"{seated:,}"
    assert charts(app)


def test_heatmap_counts_follow_the_filters(monkeypatch, lake):
    app = open_page(monkeypatch, lake, "app_pages/heatmaps.py")
    before = [m.value for m in app.markdown if "observations" in m.value]
    app.selectbox(key="filter_players").set_value("4").run()
    after = [m.value for m in app.markdown if "observations" in m.value]
    assert not app.exception
    assert before != after and "4 players" in after[0]


def test_heatmaps_compare_two_boards_and_list_examples(monkeypatch, lake):
    app = open_page(
        monkeypatch, lake, "app_pages/heatmaps.py", compare="player count", left="2", right="4"
    )
    assert not app.exception
    assert len(charts(app)) == 2
    boards = [m.value for m in app.markdown if "observations" in m.value]
    assert "2 players" in boards[0] and "4 players" in boards[1]
    app.selectbox(key="heatmap_cell").set_value("c3").run()
    assert app.dataframe[0].value.shape[0] > 0
    assert app.query_params["cell"] == "c3"


@pytest.mark.parametrize("metric_name", ["Tile swing for the placer", "Occupancy: dragon"])
def test_heatmap_metrics_come_from_the_url(monkeypatch, lake, metric_name):
    app = open_page(monkeypatch, lake, "app_pages/heatmaps.py", metric=metric_name)
    assert not app.exception
    assert app.selectbox(key="heatmap_metric").value == metric_name


def test_tile_impact_splits_and_downloads(monkeypatch, lake):
    app = open_page(monkeypatch, lake, "app_pages/tile_impact.py", split="timing")
    assert not app.exception
    table = app.dataframe[0].value
    assert {"placements", "net_swing", "sample"} <= set(table.columns)
    assert set(table["split"]) == {"1", "2", "3", "4", "5"}
    assert len(app.get("download_button")) == 2


def test_balance_shows_seat_advantage_ladder_and_comparison(monkeypatch, lake):
    app = open_page(monkeypatch, lake, "app_pages/balance.py")
    assert not app.exception
    assert any(m.label.startswith("Balance, 2 players") for m in app.metric)
    assert {"Seat advantage", "Agent ladder", "Two rule sets side by side"} <= {
        s.value for s in app.subheader
    }
    app.selectbox(key="compare_b").set_value(app.selectbox(key="compare_b").options[-1]).run()
    assert not app.exception


@pytest.mark.parametrize("sql, reason", REFUSED)
def test_sql_console_refuses_writes_and_files(monkeypatch, lake, sql, reason):
    app = open_page(monkeypatch, lake, "app_pages/sql_console.py")
    app.text_area[0].set_value(sql).run()
    assert not app.exception
    assert app.error and app.error[0].value.startswith("Refused")
    assert reason in app.error[0].value


def test_sql_console_answers_a_select(monkeypatch, lake):
    app = open_page(monkeypatch, lake, "app_pages/sql_console.py")
    app.text_area[0].set_value("SELECT players, count(*) AS games FROM games GROUP BY 1").run()
    assert not app.exception and not app.error
    assert app.dataframe[0].value["games"].sum() > 0


def test_sql_console_says_when_it_truncated(monkeypatch, lake):
    app = open_page(monkeypatch, lake, "app_pages/sql_console.py")
    app.text_area[0].set_value("SELECT * FROM range(100001)").run()
    assert not app.exception and not app.error
    assert app.dataframe[0].value.shape[0] == 100_000
    assert any("… truncated" in c.value for c in app.caption)


def test_sql_console_shows_each_views_columns_types_and_meanings(monkeypatch, lake):
    app = open_page(monkeypatch, lake, "app_pages/sql_console.py")
    assert {"games", "moves", "castles", "tile_impacts", "cells"} <= set(
        app.selectbox(key="sql_schema_view").options
    )
    app.selectbox(key="sql_schema_view").set_value("moves").run()
    assert not app.exception
    columns = app.dataframe[-1].value
    assert list(columns.columns) == ["column", "type", "meaning"]
    legal = columns[columns["column"] == "legal_actions"]
    assert legal["type"].iloc[0] == "SMALLINT" and "legal actions" in legal["meaning"].iloc[0]
    assert any(c.value.startswith("`moves`: one row per turn") for c in app.caption)


def test_sql_console_downloads_list_columns_as_json_text(monkeypatch, lake):
    app = open_page(monkeypatch, lake, "app_pages/sql_console.py")
    app.text_area[0].set_value("SELECT [1, 2] AS pair, deals FROM games LIMIT 2").run()
    assert not app.exception and not app.error
    assert app.dataframe[0].value.shape[0] == 2
    assert len(app.get("download_button")) == 1
