"""The replay viewer's charts: gold over the game and the evaluation graph, both marking the
current ply. Pure functions from frames to Altair charts, testable without Streamlit.

What changes from ply to ply is each chart's top-level rows; the rest is the game's. Altair
takes ~20 ms to build and validate a chart, so the page turns a game's charts into Vega-Lite
specs once (`spec_without_rows`) and each step only passes the new rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import altair as alt
import polars as pl

from dashboard.board_chart import seat_colours
from dashboard.review import LARGEST_LOSS, LEAD_CHANGE
from engine import pieces

JUMP = "jump"
# The key moments' marks (dashboard/review.py `key_moments`): a ring or a square on the line.
MOMENT_SHAPES = {
    LARGEST_LOSS: "circle",
    LEAD_CHANGE: "square",
}  # the evaluation graph's click selection: {"jump": [{"ply": k}]}
QUALITY_COLOURS = {
    "best": "#2e7d32",
    "excellent": "#66bb6a",
    "good": "#9e9e9e",
    "inaccuracy": "#f9a825",
    "mistake": "#ef6c00",
    "blunder": "#c62828",
}


def _player_scale(players: Sequence[str]) -> alt.Scale:
    """Each seat's colour for the line named after its player (`players` in seat order)."""
    return alt.Scale(domain=list(players), range=seat_colours(len(players)))


def spec_without_rows(chart: alt.LayerChart) -> dict[str, Any]:
    """The chart's Vega-Lite spec without its top-level rows, for `st.vega_lite_chart(rows,
    spec)`; drawn without Altair's default theme, as `st.altair_chart` draws it."""
    with alt.theme.enable("none"):
        spec = chart.to_dict()
    rows = spec.pop("data")["name"]
    # A layer's own data with the same values has the same name (a game without a move).
    if all(layer.get("data", {}).get("name") != rows for layer in spec["layer"]):
        del spec["datasets"][rows]
    return spec


def _markers(epoch_starts: Sequence[int]) -> list[alt.Chart]:
    """Faint dashed rules where epochs begin, and a solid rule at the current ply: the ply of
    the chart's top-level rows."""
    epochs = pl.DataFrame({"ply": [p - 0.5 for p in epoch_starts[1:]]}, schema={"ply": pl.Float64})
    return [
        alt.Chart(epochs).mark_rule(color="#999999", strokeDash=[4, 4]).encode(x="ply:Q"),
        alt.Chart()
        .mark_rule(color="#111111", strokeWidth=2)
        .encode(x=alt.X("max(ply):Q", title="ply")),
    ]


def current_ply(ply: int) -> pl.DataFrame:
    """The evaluation graph's top-level rows at a ply."""
    return pl.DataFrame({"ply": [ply]})


def gold_at(gold: pl.DataFrame, ply: int) -> pl.DataFrame:
    """The gold chart's top-level rows at a ply: every seat's gold then."""
    return gold.filter(pl.col("ply") == ply)


def gold_chart(gold: pl.DataFrame, ply: int, epoch_starts: Sequence[int]) -> alt.LayerChart:
    """Gold of every seat after every ply (frame: ply, seat, player, gold; the players in seat
    order), a line per player, the current ply marked and its values as points."""
    players = gold.unique("seat", maintain_order=True).sort("seat")["player"].to_list()
    colour = alt.Color("player:N", scale=_player_scale(players), title="player")
    x = alt.X("ply:Q", title="ply", scale=alt.Scale(domain=[0, max(1, gold["ply"].max() or 1)]))
    lines = (
        alt.Chart(gold)
        .mark_line(interpolate="step-after")
        .encode(
            x=x,
            y=alt.Y("gold:Q", title="gold"),
            color=colour,
            tooltip=["ply", "seat", "player", "gold"],
        )
    )
    now = (
        alt.Chart()
        .mark_point(filled=True, size=90)
        .encode(x="ply:Q", y="gold:Q", color=colour, tooltip=["ply", "seat", "player", "gold"])
    )
    return alt.layer(*_markers(epoch_starts), lines, now, data=gold_at(gold, ply)).properties(
        height=220
    )


def evaluation_frame(review: pl.DataFrame, players: Sequence[str]) -> pl.DataFrame:
    """The evaluation graph's rows from a review: from a seat's first turn on, one per ply and
    seat, the seat's expected win_share as its own latest turn judged it (from what it could
    see), held until its next turn; the mover's row (`mover`) carries the move's quality."""
    rows: dict[str, list] = {
        "ply": [],
        "player": [],
        "win_share": [],
        "move": [],
        "quality": [],
        "mover": [],
    }
    latest: dict[int, float] = {}
    for entry in review.iter_rows(named=True):
        seat = pieces.SEAT_LETTERS.index(entry["seat"])
        latest[seat] = entry["expected"][seat]
        for other, share in sorted(latest.items()):
            rows["ply"].append(entry["ply"])
            rows["player"].append(players[other])
            rows["win_share"].append(share)
            rows["move"].append(f"{players[seat]}: {entry['move']}")
            rows["quality"].append(entry["quality"] if other == seat else None)
            rows["mover"].append(other == seat)
    return pl.DataFrame(
        rows,
        schema={
            "ply": pl.Int64,
            "player": pl.String,
            "win_share": pl.Float64,
            "move": pl.String,
            "quality": pl.String,
            "mover": pl.Boolean,
        },
    )


def evaluation_chart(
    evaluation: pl.DataFrame,
    players: Sequence[str],
    ply: int,
    epoch_starts: Sequence[int],
    moments: pl.DataFrame,
) -> alt.LayerChart:
    """Expected win_share of every seat over the game, a step line per player (`players` in
    seat order) that moves at its own turns, marked by a point; a click on a point selects its
    ply (selection `jump`), the mover's mistakes and blunders stand out, and the key `moments`
    (dashboard/review.py `key_moments`) are ringed by their kind's shape."""
    colour = alt.Color("player:N", scale=_player_scale(players), title="player")
    jump = alt.selection_point(name=JUMP, fields=["ply"], on="click", nearest=True)
    tooltip = ["ply", "player", "move", alt.Tooltip("win_share:Q", format=".2f"), "quality"]
    x = alt.X("ply:Q", title="ply")
    y = alt.Y("win_share:Q", title="expected win share", scale=alt.Scale(domain=[0, 1]))
    moves = evaluation.filter(pl.col("mover"))
    lines = alt.Chart(evaluation).mark_line(interpolate="step-after").encode(x=x, y=y, color=colour)
    points = (
        alt.Chart(moves)
        .mark_point(filled=True, size=40, opacity=0.7)
        .encode(x=x, y=y, color=colour, tooltip=tooltip)
        .add_params(jump)
    )
    bad = (
        alt.Chart(moves.filter(pl.col("quality").is_in(["mistake", "blunder"])))
        .mark_point(shape="diamond", size=140, filled=True, stroke="#000000", strokeWidth=0.5)
        .encode(
            x=x,
            y=y,
            fill=alt.Fill(
                "quality:N",
                scale=alt.Scale(domain=list(QUALITY_COLOURS), range=list(QUALITY_COLOURS.values())),
                legend=None,
            ),
            tooltip=tooltip,
        )
    )
    key = (
        alt.Chart(moments)
        .mark_point(size=320, filled=False, strokeWidth=2, color="#111111")
        .encode(
            x=x,
            y=y,
            shape=alt.Shape(
                "moment:N",
                scale=alt.Scale(domain=list(MOMENT_SHAPES), range=list(MOMENT_SHAPES.values())),
                title="key moment",
            ),
            tooltip=["ply", alt.Tooltip("label:N", title="key moment")],
        )
    )
    return alt.layer(
        *_markers(epoch_starts), lines, points, bad, key, data=current_ply(ply)
    ).properties(height=220)


def selected_ply(event: object) -> int | None:
    """The ply a click on the evaluation graph chose, from `st.altair_chart`'s return value."""
    selection = getattr(event, "selection", None) or (
        event.get("selection") if isinstance(event, dict) else None
    )
    points = (selection or {}).get(JUMP) or []
    if not points or "ply" not in points[0]:
        return None
    return int(points[0]["ply"])
