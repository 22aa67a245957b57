"""The chart functions alone: frames in, Altair specs out, few-game values marked."""

from __future__ import annotations

import polars as pl

from dashboard.charts import (
    FEW_GAMES,
    board_heatmap,
    histogram,
    interval_chart,
    mark_few,
    result_chart,
)


def board(observations: int) -> pl.DataFrame:
    cells = [(f"{'abcdef'[c % 6]}{c // 6 + 1}", c // 6 + 1, c % 6 + 1) for c in range(30)]
    return pl.DataFrame(
        {
            "cell": [c[0] for c in cells],
            "cell_row": [c[1] for c in cells],
            "cell_column": [c[2] for c in cells],
            "value": [float(i) for i in range(30)],
            "observations": [observations if i else 3 for i in range(30)],
            "ci_low": [i - 1.0 for i in range(30)],
            "ci_high": [i + 1.0 for i in range(30)],
        }
    )


def test_few_games_are_marked_below_the_threshold():
    marked = mark_few(pl.DataFrame({"n": [FEW_GAMES - 1, FEW_GAMES, None]}), "n")
    assert marked["few"].to_list() == [True, False, True]
    assert marked["reliability"].to_list() == ["few games", "ok", "few games"]


def test_heatmap_shows_every_cell_with_its_count_and_a_cell_selection():
    spec = board_heatmap(board(100), "Castle yield", "gold").to_dict()
    rows = next(iter(spec["datasets"].values()))
    assert len(rows) == 30
    assert rows[0]["count_label"] == "few games" and rows[1]["count_label"] == "n=100"
    assert rows[0]["column"] == "a" and rows[5]["column"] == "f"
    assert any(p.get("name") == "cell_pick" for p in spec.get("params", []))
    tooltips = {t["title"] for t in spec["layer"][0]["encoding"]["tooltip"]}
    assert {"observations", "95% low", "95% high", "sample"} <= tooltips


def test_interval_chart_draws_bars_points_and_the_reference():
    frame = pl.DataFrame(
        {
            "group": ["2 players · mover 1", "2 players · mover 2"],
            "value": [0.55, 0.45],
            "ci_low": [0.5, 0.4],
            "ci_high": [0.6, 0.5],
            "seats": [200, 10],
            "fair_share": [0.5, 0.5],
        }
    )
    spec = interval_chart(frame, "group", "Seats", "win share", "seats", reference="fair_share")
    assert [layer["mark"]["type"] for layer in spec.to_dict()["layer"]] == [
        "rule",
        "circle",
        "tick",
    ]


def test_histogram_and_result_chart():
    bins = pl.DataFrame({"players": [2, 2], "bin_start": [0, 10], "count": [3, 4]})
    assert histogram(bins, "Final gold", "gold", 10).to_dict()["mark"]["type"] == "line"
    assert result_chart(pl.DataFrame({"agent": ["a", "b"], "seats": [1, 2]})) is not None
    assert result_chart(pl.DataFrame({"agent": ["a"]})) is None
    assert result_chart(pl.DataFrame({"agent": [], "seats": []})) is None


def test_charts_of_one_shape_keep_their_own_rows():
    many, few = board_heatmap(board(100), "Yield", "gold"), board_heatmap(board(5), "Yield", "gold")
    rows = [next(iter(chart.to_dict()["datasets"].values())) for chart in (many, few)]
    assert rows[0][1]["observations"] == 100 and rows[1][1]["observations"] == 5
