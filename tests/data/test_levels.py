"""A game's play level is its weakest seat's agent; a person at the table makes it recorded; the
pages open on the strongest level whose figures are precise enough."""

from __future__ import annotations

import math

import duckdb
import pytest

from data.levels import (
    CELL_WITHIN,
    SEAT_WITHIN,
    Precision,
    default_level,
    game_levels_sql,
)


@pytest.mark.parametrize(
    ("agents", "level"),
    [
        (["strong", "strong"], "strong"),
        (["strong", "heuristic", "greedy"], "greedy"),
        (["heuristic", "strong", "random", "greedy"], "random"),
        (["heuristic", "heuristic", "strong"], "heuristic"),
        (["mcts-2000", "strong"], "strong"),  # the strong preset's budget
        (["mcts-100", "strong"], "heuristic"),  # below the preset: not counted as strong
        (["strong", None], "recorded"),  # a person at the table
        ([None, None], "recorded"),
    ],
)
def test_a_tables_level_is_its_weakest_seat(agents: list[str | None], level: str) -> None:
    con = duckdb.connect()
    con.execute("CREATE TABLE seats (game_id BIGINT, agent VARCHAR)")
    con.executemany("INSERT INTO seats VALUES (7, ?)", [[agent] for agent in agents])
    assert con.sql(game_levels_sql("seats")).fetchall() == [(7, level)]


PRECISE = Precision(seat=SEAT_WITHIN, cell=CELL_WITHIN)  # at the limits: precise enough
WIDE_SEATS = Precision(seat=0.09, cell=0.5)  # shortfall 1.8
WIDE_CELLS = Precision(seat=0.01, cell=4.5)  # shortfall 3
NONE = Precision(seat=math.inf, cell=math.inf)  # no interval at all


@pytest.mark.parametrize(
    ("precision", "default"),
    [
        ({"random": PRECISE, "heuristic": PRECISE, "strong": WIDE_SEATS}, "heuristic"),
        ({"random": PRECISE, "heuristic": WIDE_CELLS, "strong": PRECISE}, "strong"),
        ({"random": PRECISE, "greedy": WIDE_SEATS, "strong": WIDE_CELLS}, "random"),
        # none precise enough: the nearest, the stronger on a tie
        ({"random": WIDE_CELLS, "greedy": WIDE_SEATS, "strong": NONE}, "greedy"),
        ({"greedy": WIDE_SEATS, "heuristic": WIDE_SEATS}, "heuristic"),
        ({"random": WIDE_CELLS, "recorded": PRECISE}, "random"),  # people only when alone
        ({"recorded": NONE}, "recorded"),
        ({}, None),
    ],
)
def test_the_default_level_is_the_strongest_precise_enough(
    precision: dict[str, Precision], default: str | None
) -> None:
    assert default_level(precision) == default


def test_a_level_is_precise_when_both_half_widths_are_within_their_limits() -> None:
    assert PRECISE.precise and PRECISE.shortfall == 1
    assert not Precision(SEAT_WITHIN + 1e-9, 0).precise
    assert not Precision(0, CELL_WITHIN + 1e-9).precise
    assert WIDE_CELLS.shortfall == pytest.approx(3)
