"""The replay viewer's charts: gold over the game and the evaluation graph, both marking the
current ply. Pure functions from frames to Altair charts, testable without Streamlit."""

from __future__ import annotations

from collections.abc import Sequence

import altair as alt
import polars as pl

from dashboard.board_chart import seat_colours

JUMP = "jump"  # the evaluation graph's click selection: {"jump": [{"ply": k}]}
QUALITY_COLOURS = {
    "best": "#2e7d32",
    "excellent": "#66bb6a",
    "good": "#9e9e9e",
    "inaccuracy": "#f9a825",
    "mistake": "#ef6c00",
    "blunder": "#c62828",
}


def _seat_scale(players: int) -> alt.Scale:
    letters = "ABCD"[:players]
    return alt.Scale(domain=list(letters), range=seat_colours(players))


def _markers(ply: int, epoch_starts: Sequence[int]) -> list[alt.Chart]:
    """A solid rule at the current ply and faint dashed rules where epochs begin."""
    epochs = pl.DataFrame({"ply": [p - 0.5 for p in epoch_starts[1:]]}, schema={"ply": pl.Float64})
    current = pl.DataFrame({"ply": [ply]})
    return [
        alt.Chart(epochs).mark_rule(color="#999999", strokeDash=[4, 4]).encode(x="ply:Q"),
        alt.Chart(current).mark_rule(color="#111111", strokeWidth=2).encode(x="ply:Q"),
    ]


def gold_chart(gold: pl.DataFrame, ply: int, epoch_starts: Sequence[int]) -> alt.LayerChart:
    """Gold of every seat after every ply (frame: ply, seat, player, gold), the current ply
    marked and its values as points."""
    players = gold["seat"].n_unique()
    colour = alt.Color("seat:N", scale=_seat_scale(players), title="seat")
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
        alt.Chart(gold.filter(pl.col("ply") == ply))
        .mark_point(filled=True, size=90)
        .encode(x="ply:Q", y="gold:Q", color=colour, tooltip=["ply", "seat", "player", "gold"])
    )
    return alt.layer(*_markers(ply, epoch_starts), lines, now).properties(height=220)


def evaluation_frame(review: pl.DataFrame, seats: Sequence[str]) -> pl.DataFrame:
    """The evaluation graph's rows from a review: one per ply and seat, the seat's expected
    win_share before that ply's move, with the move's quality on the mover's row."""
    rows: dict[str, list] = {"ply": [], "seat": [], "win_share": [], "move": [], "quality": []}
    for entry in review.iter_rows(named=True):
        for seat, share in zip(seats, entry["expected"], strict=False):
            mover = seat == entry["seat"]
            rows["ply"].append(entry["ply"])
            rows["seat"].append(seat)
            rows["win_share"].append(share)
            rows["move"].append(f"{entry['seat']} {entry['move']}")
            rows["quality"].append(entry["quality"] if mover else None)
    return pl.DataFrame(
        rows,
        schema={
            "ply": pl.Int64,
            "seat": pl.String,
            "win_share": pl.Float64,
            "move": pl.String,
            "quality": pl.String,
        },
    )


def evaluation_chart(
    evaluation: pl.DataFrame, ply: int, epoch_starts: Sequence[int]
) -> alt.LayerChart:
    """Expected win_share of every seat over the game; a click on a point selects its ply
    (selection `jump`), and the mover's mistakes and blunders stand out."""
    players = evaluation["seat"].n_unique()
    colour = alt.Color("seat:N", scale=_seat_scale(players), title="seat")
    jump = alt.selection_point(name=JUMP, fields=["ply"], on="click", nearest=True)
    tooltip = ["ply", "seat", "move", alt.Tooltip("win_share:Q", format=".2f"), "quality"]
    x = alt.X("ply:Q", title="ply")
    y = alt.Y("win_share:Q", title="expected win share", scale=alt.Scale(domain=[0, 1]))
    lines = alt.Chart(evaluation).mark_line().encode(x=x, y=y, color=colour)
    points = (
        alt.Chart(evaluation)
        .mark_point(filled=True, size=40, opacity=0.6)
        .encode(x=x, y=y, color=colour, tooltip=tooltip)
        .add_params(jump)
    )
    bad = (
        alt.Chart(evaluation.filter(pl.col("quality").is_in(["mistake", "blunder"])))
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
    return alt.layer(*_markers(ply, epoch_starts), lines, points, bad).properties(height=220)


def selected_ply(event: object) -> int | None:
    """The ply a click on the evaluation graph chose, from `st.altair_chart`'s return value."""
    selection = getattr(event, "selection", None) or (
        event.get("selection") if isinstance(event, dict) else None
    )
    points = (selection or {}).get(JUMP) or []
    if not points or "ply" not in points[0]:
        return None
    return int(points[0]["ply"])
