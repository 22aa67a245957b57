"""Every page through Streamlit's AppTest on the seeded lake and on an empty one."""

from __future__ import annotations

import json
import math
import re

import pytest
from streamlit.dataframe_util import convert_arrow_bytes_to_pandas_df
from streamlit.testing.v1 import AppTest

from data.balance import balance_by_players
from data.ratings import ratings
from data.reader import connect, execute
from tests.dashboard.conftest import open_page

PAGES = {
    "app_pages/overview.py": "Kingdoms Analytics",
    "app_pages/heatmaps.py": "Board heatmaps",
    "app_pages/tile_impact.py": "Tile impact",
    "app_pages/balance.py": "Balance",
    "app_pages/sql_console.py": "SQL console",
}
REFUSED = [
    ("COPY games TO '/tmp/stolen.csv'", "not COPY"),
    ("ATTACH '/tmp/other.duckdb' AS other", "not ATTACH"),
    ("INSTALL httpfs", "only a plain query"),
    ("SELECT * FROM read_csv('/etc/passwd')", "LocalFileSystem has been disabled"),
    ("WITH x AS (COPY (SELECT 1) TO '/tmp/stolen.csv') SELECT * FROM x", "Permission Error"),
]


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
        "NULL, NULL, NULL, NULL, NULL, NULL, $agent, $player, NULL)",
        {"agent": query.get("agent"), "player": query.get("player")},
    )["games"][0]
    assert seated > 0 and metric(app, "Matching the filters") == f"{seated:,}"
    assert charts(app)


def test_heatmap_counts_follow_the_filters(monkeypatch, lake):
    app = open_page(monkeypatch, lake, "app_pages/heatmaps.py")
    before = [m.value for m in app.markdown if " games · " in m.value]
    app.selectbox(key="filter_players").set_value("4").run()
    after = [m.value for m in app.markdown if " games · " in m.value]
    assert not app.exception
    assert before != after and "4 players" in after[0]


def test_heatmaps_compare_two_boards_and_list_examples(monkeypatch, lake):
    app = open_page(
        monkeypatch, lake, "app_pages/heatmaps.py", compare="player count", left="2", right="4"
    )
    assert not app.exception
    assert len(charts(app)) == 3, "the two boards and their difference"
    boards = [m.value for m in app.markdown if " games · " in m.value]
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
    assert {"placements", "net_swing", "net swing precision"} <= set(table.columns)
    assert set(table["split"]) == {"1", "2", "3", "4", "5"}
    assert len(app.get("download_button")) == 2


def test_tile_impact_crosses_starting_tile_with_timing(monkeypatch, lake):
    app = open_page(
        monkeypatch, lake, "app_pages/tile_impact.py", split="placed_by", cross="timing"
    )
    assert not app.exception
    table = app.dataframe[0].value
    assert set(table["split"]) == {"drawn", "start"}
    assert set(table["cross_split"]) == {"1", "2", "3", "4", "5"}
    app.selectbox(key="tile_cross").set_value("agent (the placer's)").run()
    assert app.query_params["cross"] == "agent"
    assert {"random", "greedy"} <= set(app.dataframe[0].value["cross_split"])


def test_tile_impact_download_names_its_filters_and_sample(monkeypatch, lake):
    app = open_page(monkeypatch, lake, "app_pages/tile_impact.py", players="2", level="All")
    placements = app.dataframe[0].value["placements"].sum()
    names = [button.help for button in app.get("download_button")]
    expected = f"tile_impact_all_all__every-play-level-2-players__n{placements}.csv"
    assert names[0].startswith(f"Saves {expected}")
    title = vega_specs(app)[0]["title"]
    games = execute(connect(lake), "SELECT count(*) AS n FROM games WHERE players = 2")["n"][0]
    assert title["subtitle"] == (
        f"every play level · 2 players · {placements:,} tile placements · {games:,} games"
    )


def test_tile_impact_says_the_games_behind_each_figure(monkeypatch, lake):
    """The chart's figures and the table's rows are the same placements and games."""
    app = open_page(monkeypatch, lake, "app_pages/tile_impact.py", split="epoch")
    table = app.dataframe[0].value
    drawn = chart_rows(app, "Impact on placer")
    assert sorted((r["tile"], r["epoch"], r["games"]) for r in drawn) == sorted(
        zip(table["tile"], table["split"], table["games"], strict=True)
    )
    assert (table["games"] <= table["placements"]).all() and table["games"].min() >= 1


@pytest.mark.parametrize("metric", ["Occupancy: castle", "Fill timing (0 = first turn, 1 = last)"])
def test_an_occupancy_or_fill_board_says_its_games_and_the_cells_agree(monkeypatch, lake, metric):
    app = open_page(monkeypatch, lake, "app_pages/heatmaps.py", metric=metric, level="random")
    assert not app.exception
    (board,) = boards_drawn(app)
    header = next(m.value for m in app.markdown if " games · " in m.value)
    games = int(re.search(r"([\d,]+) games", header).group(1).replace(",", ""))
    assert (
        games
        == execute(
            connect(lake),
            "SELECT count(*) AS n FROM games g "
            "JOIN game_levels USING (game_id) WHERE level = 'random'",
        )["n"][0]
    )
    assert all(0 < cell["games"] <= games for cell in board)
    assert all(0 <= cell["ci_low"] <= cell["value"] <= cell["ci_high"] <= 1 for cell in board)


def test_improvement_when_placed_says_it_is_an_association(monkeypatch, lake):
    app = open_page(monkeypatch, lake, "app_pages/tile_impact.py")
    caveat = "\n".join(str(i.value) for i in app.info)
    assert "association, not a cause" in caveat and "A −1 can show a positive improvement" in caveat


@pytest.mark.parametrize("sql, reason", REFUSED)
def test_sql_console_refuses_writes_and_files(monkeypatch, lake, sql, reason):
    app = open_page(monkeypatch, lake, "app_pages/sql_console.py")
    app.text_area[0].set_value(sql).run()
    assert not app.exception
    assert app.error and app.error[0].value.startswith("Refused")
    assert reason in app.code[0].value


def test_sql_console_answers_a_select(monkeypatch, lake):
    app = open_page(monkeypatch, lake, "app_pages/sql_console.py")
    app.text_area[0].set_value("SELECT players, count(*) AS games FROM games GROUP BY 1").run()
    assert not app.exception and not app.error
    assert app.dataframe[0].value["games"].sum() > 0


def vega_specs(app: AppTest) -> list[dict]:
    return [json.loads(chart.proto.spec) for chart in charts(app)]


def chart_rows(app: AppTest, title: str) -> list[dict]:
    """The rows drawn by the chart of that title (Streamlit sends them beside the spec)."""
    chart = next(
        c for c in charts(app) if json.loads(c.proto.spec)["title"]["text"].startswith(title)
    )
    frame = convert_arrow_bytes_to_pandas_df(chart.proto.datasets[0].data.data)
    return frame.to_dict("records")


def boards_drawn(app: AppTest) -> list[list[dict]]:
    """The rows of every board drawn, in page order."""
    return [
        convert_arrow_bytes_to_pandas_df(c.proto.datasets[0].data.data).to_dict("records")
        for c in charts(app)
    ]


def _differs(row: dict) -> bool:
    return row["ci_low"] > row["reference"] or row["ci_high"] < row["reference"]


def test_compared_heatmaps_share_one_colour_scale_and_draw_their_difference(monkeypatch, lake):
    app = open_page(
        monkeypatch, lake, "app_pages/heatmaps.py", compare="player count", left="2", right="4"
    )
    left, right, difference = boards_drawn(app)
    reaches = {
        round((row["value"] - row["reference"]) / row["shade"], 9)
        for row in left + right
        if row["differs"] and abs(row["shade"]) < 1
    }
    assert len(reaches) <= 1, "one distance from the mean is one colour on both boards"
    for a, b, d in zip(left, right, difference, strict=True):
        assert a["cell"] == b["cell"] == d["cell"]
        if a["value"] is None or b["value"] is None:
            continue
        assert d["value"] == pytest.approx(a["value"] - b["value"])
        halves = [(r["ci_high"] - r["ci_low"]) / 2 for r in (a, b)]
        assert (d["ci_high"] - d["ci_low"]) / 2 == pytest.approx(math.hypot(*halves))
        assert d["reference"] == 0 and d["differs"] == _differs(d)
    assert "Difference: 2 − 4" in [h.value for h in app.subheader]


@pytest.mark.parametrize("mirror", ["pooled", "apart"])
def test_heatmap_pools_mirror_cells_and_says_so(monkeypatch, lake, mirror):
    app = open_page(monkeypatch, lake, "app_pages/heatmaps.py", mirror=mirror)
    assert not app.exception
    values = {row["cell"]: row["value"] for row in boards_drawn(app)[0]}
    mirrored = [values[a] == values[b] for a, b in (("a1", "f5"), ("b2", "e4"), ("c3", "d3"))]
    assert all(mirrored) == (mirror == "pooled")
    assert ("mirror images" in texts(app)) == (mirror == "pooled")


@pytest.mark.parametrize(
    "metric_name, mirror, flat",
    [("Castle yield (gold per castle)", "pooled", True), ("Occupancy: castle", "apart", False)],
)
def test_heatmap_says_when_no_cell_differs_from_the_mean(
    monkeypatch, lake, metric_name, mirror, flat
):
    app = open_page(
        monkeypatch, lake, "app_pages/heatmaps.py", players="2", mirror=mirror, metric=metric_name
    )
    rows = boards_drawn(app)[0]
    assert (not any(_differs(row) for row in rows)) == flat
    assert all(row["differs"] == _differs(row) for row in rows)
    said = "No cell differs from the board's mean beyond its interval: the cell barely matters"
    assert (said in texts(app)) == flat


def test_heatmap_cells_without_games_read_no_games(monkeypatch, lake):
    app = open_page(
        monkeypatch,
        lake,
        "app_pages/heatmaps.py",
        metric="Castle yield, rank 4 castles",
        player="Ann",
        epoch="1",
    )
    rows = chart_rows(app, "Castle yield")
    empty = [row for row in rows if row["observations"] == 0]
    assert empty, "Ann placed no rank-4 castle on most cells in epoch 1"
    assert all(row["value_label"] == "no games" for row in empty)
    assert not any("null" in row["value_label"] or "None" in row["value_label"] for row in rows)


@pytest.mark.parametrize(
    "metric_name, definition",
    [
        ("Castle yield (gold per castle)", "Mean gold a castle placed on the cell"),
        ("Tile swing for each opponent", "impact on each opponent"),
        ("Fill timing (0 = first turn, 1 = last)", "as a fraction of the epoch's turns"),
        ("Win association (win share vs every castle)", "minus the same mean over every castle"),
    ],
)
def test_heatmap_metric_has_its_definition_as_help(monkeypatch, lake, metric_name, definition):
    app = open_page(monkeypatch, lake, "app_pages/heatmaps.py", metric=metric_name)
    assert definition in app.selectbox(key="heatmap_metric").help
    assert definition in texts(app)


@pytest.mark.parametrize(
    "metric_name, piece_matches",
    [
        ("Castle yield, rank 4 castles", lambda piece: piece[0] in "ABCD" and piece[1] == "4"),
        ("Occupancy: dragon", lambda piece: piece == "DR"),
        ("Tile swing for the placer", lambda piece: piece[0] not in "ABCD"),
    ],
)
def test_heatmap_examples_follow_the_metric(monkeypatch, lake, metric_name, piece_matches):
    app = open_page(monkeypatch, lake, "app_pages/heatmaps.py", metric=metric_name, cell="c3")
    assert not app.exception
    pieces = app.dataframe[0].value["piece"].tolist()
    assert pieces and all(piece_matches(piece) for piece in pieces)


def test_choosing_an_example_opens_its_replay_at_the_placement(monkeypatch, lake):
    app = open_page(
        monkeypatch, lake, "app_pages/heatmaps.py", metric="Occupancy: castle", cell="d2"
    )
    chosen = app.dataframe[0].value.iloc[1]
    app.session_state["heatmap_examples"] = {"selection": {"rows": [1], "columns": [], "cells": []}}
    app.run()
    assert not app.exception
    assert app.title[0].value == "Replay"
    assert app.query_params["game"] == str(chosen["game_id"])
    assert app.query_params["ply"] == str(chosen["ply"])


def test_agent_ladder_shows_ratings_beside_a_head_to_head_matrix(monkeypatch, lake):
    app = open_page(monkeypatch, lake, "app_pages/balance.py", section="Agent ladder")
    titles = [spec.get("title", {}).get("text") for spec in vega_specs(app)]
    assert "Ratings (Bradley–Terry, every game's seat pairs)" in titles
    assert "Head to head: row agent against column agent" in titles
    assert not any("Elo-style" in title for title in titles), "the partial-win rating is gone"
    assert "not a strength" in texts(app), "the figures against the field say what they are"
    cells = chart_rows(app, "Head to head")
    assert {(c["agent"], c["opponent"]) for c in cells} == {
        ("greedy", "random"),
        ("random", "greedy"),
    }


def test_agent_ladder_ratings_are_the_lakes_with_their_uncertainty(monkeypatch, lake):
    app = open_page(monkeypatch, lake, "app_pages/balance.py", players="2", section="Agent ladder")
    expected = ratings(connect(lake), {"players": 2})
    drawn = {r["player"]: r for r in chart_rows(app, "Ratings")}
    assert set(drawn) == set(expected["player"]) and {"greedy", "random", "Ann"} <= set(drawn)
    for row in expected.iter_rows(named=True):
        assert drawn[row["player"]]["value"] == pytest.approx(row["rating"])
        assert drawn[row["player"]]["ci_low"] == pytest.approx(row["rating_low"])
        assert drawn[row["player"]]["ci_high"] == pytest.approx(row["rating_high"])
    tables = [d.value for d in app.dataframe if "±" in d.value.columns]
    listed = {row["player"]: row["±"] for table in tables for _, row in table.iterrows()}
    assert sorted(listed) == sorted(expected["player"])  # every player once, group by group
    wanted = dict(zip(expected["player"], expected["half_width"], strict=True))
    assert [listed[p] for p in sorted(listed)] == pytest.approx([wanted[p] for p in sorted(listed)])


def unescaped(markdown: str) -> str:
    """Markdown's backslash escapes undone: the text a reader sees."""
    return re.sub(r"\\(.)", r"\1", markdown)


def test_balance_figures_say_which_filters_they_ignore(monkeypatch, lake):
    app = open_page(monkeypatch, lake, "app_pages/balance.py", agent="greedy", epoch="2")
    notes = [unescaped(c.value) for c in app.caption if c.value.startswith("Not filtered by")]
    assert "Not filtered by agent greedy, epoch 2: this figure ignores those filters." in notes
    assert "Not filtered by epoch 2: this figure ignores that filter." in notes  # seat advantage


def test_balance_cards_carry_their_interval(monkeypatch, lake):
    app = open_page(monkeypatch, lake, "app_pages/balance.py", players="3", level="All")
    outcomes = execute(connect(lake), "balance_outcomes", {"players": 3})
    summary = balance_by_players(outcomes).row(0, named=True)
    assert metric(app, "Balance, 3 players") == f"{summary['balance']:.3f}"
    interval = f"95% interval {summary['balance_low']:.3f} to {summary['balance_high']:.3f}"
    assert interval in texts(app)


def test_leader_after_an_epoch_is_a_figure_with_intervals(monkeypatch, lake):
    app = open_page(monkeypatch, lake, "app_pages/balance.py", section="Lead changes")
    rows = chart_rows(app, "Leader after epoch")
    assert rows and all(r["ci_low"] <= r["value"] <= r["ci_high"] for r in rows)


def test_standard_rules_are_a_variant_choice(monkeypatch, lake):
    app = open_page(
        monkeypatch,
        lake,
        "app_pages/balance.py",
        variant="standard",
        level="All",
        section="Scores and duration",
    )
    assert app.selectbox(key="filter_variant").value == "standard"
    standard = execute(connect(lake), "SELECT count(*) AS n FROM games WHERE variant = ''")["n"][0]
    assert app.dataframe[0].value["games"].sum() == standard
    assert "standard rules" in texts(app)


def test_balance_keeps_the_rule_sets_and_grouping_in_the_url(monkeypatch, lake):
    app = open_page(monkeypatch, lake, "app_pages/balance.py", group="seat", section="Rule sets")
    options = app.selectbox(key="rules_b").options
    assert "standard rules (no variant)" in options
    app.selectbox(key="rules_b").set_value(options[-1]).run()
    assert app.query_params["rules_b"] == options[-1]
    assert "2 players · seat A" in {row["group"] for row in chart_rows(app, "Mean win share")}
    app = open_page(monkeypatch, lake, "app_pages/balance.py", group="seat")
    assert app.radio(key="balance_group").value == "seat"
    app.radio(key="balance_group").set_value("position").run()
    assert app.query_params["group"] == "position"
    groups = {row["group"] for row in chart_rows(app, "Mean win share")}
    assert "2 players · mover 1" in groups, "the chart follows the grouping chosen"


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
