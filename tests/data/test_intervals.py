"""The lake's interval macros give the engine's intervals (engine/stats.py), ends in [0, 1]."""

from __future__ import annotations

import math

import pytest

from data.lake import Lake
from data.reader import connect, execute
from engine.stats import Z95, wilson_interval


@pytest.fixture(scope="module")
def empty(tmp_path_factory):
    return connect(Lake(tmp_path_factory.mktemp("empty")))


@pytest.mark.parametrize(("hits", "n"), [(0, 1), (0, 10), (1, 10), (5, 10), (10, 10), (2.5, 7)])
def test_wilson_macro_matches_the_engine(empty, hits: float, n: int) -> None:
    frame = execute(empty, f"SELECT wilson({hits}, {n}, -1) AS low, wilson({hits}, {n}, 1) AS high")
    low, high = frame.row(0)
    assert (low, high) == pytest.approx(wilson_interval(hits, n), abs=1e-12)
    assert 0.0 <= low <= high <= 1.0


def test_wilson_macro_is_null_without_observations(empty) -> None:
    frame = execute(empty, "SELECT wilson(0, NULL, -1) AS a, wilson(0, 0, 1) AS b")
    assert frame.row(0) == (None, None)


def test_half_width_of_one_two_three_is_z_over_root_three(empty) -> None:
    """1, 2, 3: mean 2, sample standard deviation 1, so SE = 1/√3."""
    frame = execute(empty, "SELECT half_width(3, 6, 14) AS half, z95() AS z")
    half, z = frame.row(0)
    assert z == Z95
    assert half == pytest.approx(Z95 / math.sqrt(3), rel=1e-12)
