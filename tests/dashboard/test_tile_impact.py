"""The tile-impact page's charts name their split in the legend."""

from __future__ import annotations

import json

import pytest

from tests.dashboard.conftest import open_page


def _colour_fields(app) -> set[str]:
    """The fields every chart of the page colours by."""
    fields = set()
    for chart in app.get("vega_lite_chart"):
        for layer in json.loads(chart.proto.spec).get("layer", []):
            colour = layer.get("encoding", {}).get("color", {})
            fields |= {
                part["field"] for part in (colour, colour.get("condition", {})) if "field" in part
            }
    return fields


@pytest.mark.parametrize(
    ("query", "legend"),
    [
        ({"split": "epoch"}, "epoch"),
        ({"split": "placed_by", "cross": "timing"}, "placed by · timing"),
    ],
)
def test_the_legend_names_the_split(monkeypatch, lake, query, legend):
    app = open_page(monkeypatch, lake, "app_pages/tile_impact.py", **query)
    assert not app.exception
    assert legend in _colour_fields(app) and "group" not in _colour_fields(app)
