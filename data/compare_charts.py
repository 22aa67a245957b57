"""The comparison's charts as Vega-Lite specs (plain dicts): each seat position's win share on
both sides against the fair share, and the differences B − A against 0, with 95% intervals."""

from __future__ import annotations

import polars as pl

from data.compare import REAL, UNCLEAR

SCHEMA = "https://vega.github.io/schema/vega-lite/v5.json"
SIDE_COLOURS = {"A": "#1f77b4", "B": "#ff7f0e"}
WIDTH = 520
ROW_HEIGHT = 22
VERDICTS = [REAL, UNCLEAR]
VERDICT_SHAPES = ["diamond", "circle"]
VERDICT_COLOURS = ["#d62728", "#555555"]


def seat_chart(seats: pl.DataFrame, names: tuple[str, str]) -> dict:
    """Mean win share of each turn position on both sides with its interval, the fair share 1/N
    as a red tick; `seats` as `Comparison.seats`."""
    rows = (
        seats.with_columns(
            group=pl.format("{} players · mover {}", "players", "position"),
            label=pl.when(pl.col("side") == "A")
            .then(pl.lit(f"A: {names[0]}"))
            .otherwise(pl.lit(f"B: {names[1]}")),
        )
        .sort("players", "position", "side")
        .to_dicts()
    )
    y = {"field": "group", "type": "nominal", "title": None, "sort": None}
    x_title = "mean win share (95% interval)"
    tooltip = [
        {"field": "label", "title": "rule set"},
        {"field": "group", "title": "seat"},
        {"field": "mean_win_share", "title": "win share", "format": ".3f"},
        {"field": "ci_low", "title": "95% low", "format": ".3f"},
        {"field": "ci_high", "title": "95% high", "format": ".3f"},
        {"field": "seats", "title": "games"},
    ]
    colour = {
        "field": "label",
        "type": "nominal",
        "title": "rule set",
        "scale": {"range": list(SIDE_COLOURS.values())},
        "legend": {"orient": "bottom"},
    }
    groups = seats.select("players", "position").unique().height
    return {
        "$schema": SCHEMA,
        "title": "Mean win share by turn position against the fair share 1/N (red tick)",
        "width": WIDTH,
        "height": ROW_HEIGHT * 2 * groups,
        "data": {"values": rows},
        "encoding": {"y": y},
        "layer": [
            {
                "mark": {"type": "tick", "color": "red", "thickness": 2, "size": ROW_HEIGHT * 2},
                "encoding": {"x": {"field": "fair_share", "type": "quantitative"}},
            },
            {
                "mark": {"type": "rule"},
                "encoding": {
                    "x": {"field": "ci_low", "type": "quantitative", "title": x_title},
                    "x2": {"field": "ci_high"},
                    "yOffset": {"field": "label"},
                    "color": colour,
                },
            },
            {
                "mark": {"type": "point", "filled": True, "size": 50},
                "encoding": {
                    "x": {"field": "mean_win_share", "type": "quantitative"},
                    "yOffset": {"field": "label"},
                    "color": colour,
                    "tooltip": tooltip,
                },
            },
        ],
    }


def difference_chart(figures: pl.DataFrame, title: str, unit: str) -> dict:
    """Each figure's difference B − A with its 95% interval against 0 (a grey rule), coloured
    and shaped by its verdict. `figures` as `Comparison.figures`."""
    rows = (
        figures.filter(pl.col("difference_low").is_not_null())
        .with_columns(
            group=pl.format("{} players · {}", "players", "figure"),
        )
        .to_dicts()
    )
    y = {"field": "group", "type": "nominal", "title": None, "sort": None}
    x_title = f"B − A, {unit} (95% interval)"
    verdict = {"field": "verdict", "type": "nominal", "legend": {"orient": "bottom"}}
    return {
        "$schema": SCHEMA,
        "title": title,
        "width": WIDTH,
        "height": ROW_HEIGHT * max(1, len(rows)),
        "data": {"values": rows},
        "encoding": {"y": y},
        "layer": [
            {
                "mark": {"type": "rule", "color": "#888", "strokeDash": [4, 3]},
                "data": {"values": [{"zero": 0}]},
                "encoding": {"x": {"field": "zero", "type": "quantitative"}, "y": None},
            },
            {
                "mark": {"type": "rule"},
                "encoding": {
                    "x": {"field": "difference_low", "type": "quantitative", "title": x_title},
                    "x2": {"field": "difference_high"},
                },
            },
            {
                "mark": {"type": "point", "filled": True, "size": 80},
                "encoding": {
                    "x": {"field": "difference", "type": "quantitative"},
                    "shape": {**verdict, "scale": {"domain": VERDICTS, "range": VERDICT_SHAPES}},
                    "color": {**verdict, "scale": {"domain": VERDICTS, "range": VERDICT_COLOURS}},
                    "tooltip": [
                        {"field": "group", "title": "figure"},
                        {"field": "difference", "title": "B − A", "format": ".3f"},
                        {"field": "difference_low", "title": "95% low", "format": ".3f"},
                        {"field": "difference_high", "title": "95% high", "format": ".3f"},
                        {"field": "verdict", "title": "verdict"},
                    ],
                },
            },
        ],
    }
