"""The chart functions alone: frames in, Altair specs out, imprecise values marked."""

from __future__ import annotations

import csv
import io

import duckdb
import pandas as pd
import polars as pl
import pytest

from dashboard.charts import (
    board_difference,
    board_heatmap,
    captioned,
    colour_spread,
    differing,
    head_to_head_matrix,
    histogram,
    interval_chart,
    mark_imprecise,
    marked_cells,
    result_chart,
)
from dashboard.exports import export_csv, export_name


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


def test_heatmap_shows_every_cell_with_its_count_games_and_a_cell_selection():
    spec = board_heatmap(board(100).with_columns(games=pl.lit(40)), "Castle yield", "gold")
    spec = spec.to_dict()
    rows = next(iter(spec["datasets"].values()))
    assert len(rows) == 30
    assert rows[0]["count_label"] == "n=3" and rows[1]["count_label"] == "n=100"
    assert rows[1]["games_label"] == "40 games"
    assert rows[0]["column"] == "a" and rows[5]["column"] == "f"
    assert any(p.get("name") == "cell_pick" for p in spec.get("params", []))
    tooltips = {t["title"] for t in spec["layer"][0]["encoding"]["tooltip"]}
    assert {"observations", "95% interval", "against the board's mean"} <= tooltips
    assert rows[1]["interval_label"] == "0.0 to 2.0"


def test_heatmap_colours_only_cells_whose_interval_excludes_the_board_mean():
    """Values 0 … 29 with intervals ±1 about a board mean of 14.5: 14 and 15 hold it."""
    frame = board(100).with_columns(board_value=pl.lit(14.5))
    rows = next(iter(board_heatmap(frame, "Yield", "gold").to_dict()["datasets"].values()))
    sides = {row["cell"]: row["side"] for row in rows}
    assert [row["side"] for row in rows] == [-1] * 14 + [0, 0] + [1] * 14
    assert rows[0]["value_label"] == "0.0 ▼" and rows[29]["value_label"] == "29.0 ▲"
    assert rows[14]["value_label"] == "14.0" and not rows[14]["differs"]
    assert rows[29]["shade"] == 1 and rows[0]["shade"] == -1, "the widest gap reaches the end"
    assert len(sides) == 30 and differing(marked_cells(frame)) == 28
    flat = frame.with_columns(ci_low=pl.lit(-100.0), ci_high=pl.lit(100.0))
    assert differing(marked_cells(flat)) == 0 and colour_spread([marked_cells(flat)]) is None


def test_the_difference_of_two_boards_has_both_intervals():
    left = board(100).with_columns(games=pl.lit(10))
    right = left.with_columns(
        value=pl.col("value") / 2, ci_low=pl.col("value") / 2 - 2, ci_high=pl.col("value") / 2 + 2
    )
    difference = board_difference(left, right)
    assert difference["value"].to_list() == pytest.approx([i / 2 for i in range(30)])
    halves = (difference["ci_high"] - difference["ci_low"]) / 2
    assert halves.to_list() == pytest.approx([5**0.5] * 30)
    assert difference["games"].to_list() == [20] * 30
    assert differing(marked_cells(difference)) == sum(1 for i in range(30) if i / 2 > 5**0.5)


def test_greying_follows_the_intervals_width_not_the_count():
    frame = pl.DataFrame(
        {
            "value": [0.50, 0.50, 0.50, 0.50],
            "ci_low": [0.46, 0.44, 0.45, None],
            "ci_high": [0.54, 0.52, 0.56, None],
            "games": [10, 5000, 5000, 5000],  # the count plays no part
        }
    )
    marked = mark_imprecise(frame, 0.05)
    # ±0.04; 0.06 below; 0.06 above; no interval at all
    assert marked["few"].to_list() == [False, True, True, True]
    assert marked["reliability"][0] == "precise"
    assert marked["reliability"][1] == "imprecise (interval wider than ±0.05)"


def test_interval_chart_marks_figures_whose_interval_excludes_the_reference():
    frame = pl.DataFrame(
        {
            "group": ["2 players · mover 1", "2 players · mover 2", "2 players · mover 3"],
            "value": [0.56, 0.47, 0.40],
            "ci_low": [0.52, 0.43, 0.20],
            "ci_high": [0.60, 0.51, 0.60],
            "seats": [900, 900, 10],
            "fair_share": [0.5, 0.5, 0.5],
        }
    )
    reference = ("fair_share", "the fair share 1/N")
    spec = interval_chart(frame, "group", "Seats", "win share", "seats", 0.05, reference=reference)
    layers = spec.to_dict()["layer"]
    assert [layer["mark"]["type"] for layer in layers] == ["rule", "tick", "point"]
    rows = rows_of(spec)
    assert [r["verdict"] for r in rows] == [
        "differs from the fair share 1/N",
        "the fair share 1/N within its interval",
        "the fair share 1/N within its interval",
    ]
    assert [r["few"] for r in rows] == [False, False, True]
    shape = layers[2]["encoding"]["shape"]
    assert shape["scale"]["range"] == ["diamond", "circle"], "the legend names each mark"
    assert layers[0]["encoding"]["x"]["scale"] == {"zero": False}, "the axis spans the data"


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


def rows_of(chart) -> list[dict]:
    return next(iter(chart.to_dict()["datasets"].values()))


def test_a_cell_without_observations_reads_no_games_never_null():
    empty = board(100).with_columns(
        value=pl.when(pl.col("cell") == "a1").then(None).otherwise(pl.col("value")),
        ci_low=pl.when(pl.col("cell") == "a1").then(None).otherwise(pl.col("ci_low")),
        ci_high=pl.when(pl.col("cell") == "a1").then(None).otherwise(pl.col("ci_high")),
        observations=pl.when(pl.col("cell") == "a1").then(0).otherwise(pl.col("observations")),
    )
    spec = board_heatmap(empty, "Castle yield", "gold").to_dict()
    a1 = next(row for row in next(iter(spec["datasets"].values())) if row["cell"] == "a1")
    assert a1["value_label"] == "no games" and a1["interval_label"] == "no games"
    assert a1["count_label"] == "n=0"
    texts = [layer["encoding"]["text"]["field"] for layer in spec["layer"][2:]]
    assert texts == ["value_label", "count_label", "games_label"], "labels, not the values"


def test_captioned_chart_carries_filters_and_sample_under_its_title():
    chart = captioned(board_heatmap(board(100), "Yield", "gold"), "2 players · 1,234 observations")
    title = chart.to_dict()["title"]
    assert title["text"] == "Yield" and title["subtitle"] == "2 players · 1,234 observations"


def test_head_to_head_matrix_shows_score_interval_and_games():
    frame = pl.DataFrame(
        {
            "agent": ["greedy", "random"],
            "opponent": ["random", "greedy"],
            "games": [40, 400],
            "score": [0.75, 0.25],
            "ci_low": [0.6, 0.21],
            "ci_high": [0.86, 0.29],
        }
    )
    rows = rows_of(head_to_head_matrix(frame, "Head to head"))
    assert [r["score_label"] for r in rows] == ["75%", "25%"]
    assert rows[0]["interval_label"] == "60% to 86%" and rows[0]["count_label"] == "n=40"
    assert [r["few"] for r in rows] == [True, False], "greyed by the interval's width"


def test_exports_name_their_filters_and_sample():
    assert export_name("tile_impact", "2 players · agent greedy", 12) == (
        "tile_impact__2-players-agent-greedy__n12.csv"
    )


def test_a_download_is_a_plain_table_every_reader_opens_without_options():
    """The old file began with a comment line whose thousands comma made pandas read a 17 × 2
    table of nonsense; now the context is in columns, the same on every row."""
    frame = pl.DataFrame({"tile": ["+1", "-2", "MT"], "placements": [102360, 4, 7]})
    description, sample = "strong play · 2 players · agent greedy", "102,371 tile placements"
    text = export_csv(frame, "Tile impact", description, 102371, sample)
    expected = frame.with_columns(
        table=pl.lit("Tile impact"),
        filters=pl.lit(description),
        sample_size=pl.lit(102371, pl.Int64),
        sample=pl.lit(sample),
    )
    read = {
        "polars": pl.read_csv(io.StringIO(text)),
        "duckdb": duckdb.read_csv(io.StringIO(text)).pl(),
        "pandas": pl.from_pandas(pd.read_csv(io.StringIO(text))),
    }
    for reader, table in read.items():
        assert table.columns == expected.columns, reader
        assert table.cast(expected.schema).equals(expected), reader
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == expected.columns and len(rows) == 4
    assert {len(row) for row in rows} == {6}
