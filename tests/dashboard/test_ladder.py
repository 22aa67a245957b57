"""The Balance page's agent ladder: ratings group by group, captions naming only the filters
the figures follow."""

from __future__ import annotations

import json

from tests.dashboard.conftest import open_page

PAGE = "app_pages/balance.py"


def test_the_ladder_ranks_each_group_apart_and_names_only_the_filters_it_follows(monkeypatch, lake):
    """The seeded lake's agents never meet its people: two groups at least, each ranked from
    1; a player filter, which the ratings do not follow, is not in their caption."""
    app = open_page(monkeypatch, lake, PAGE, player="Ann", section="Agent ladder")
    assert not app.exception
    specs = [chart.proto.spec for chart in app.get("vega_lite_chart")]
    rated = next(spec for spec in specs if "players rated" in spec)
    caption = json.loads(rated)["title"]["subtitle"]
    assert "Ann" not in caption and "player" not in caption.replace("players rated", "")
    headings = [m.value for m in app.markdown if m.value.startswith("**Group ")]
    assert len(headings) >= 2 and headings[0].startswith(f"**Group 1 of {len(headings)}**")
    ranks = [
        frame.value["rank"].tolist() for frame in app.dataframe if "rating" in frame.value.columns
    ]
    assert len(ranks) == len(headings)
    assert all(rank == list(range(1, len(rank) + 1)) for rank in ranks)
    assert any("Not filtered by player Ann" in c.value for c in app.caption)
