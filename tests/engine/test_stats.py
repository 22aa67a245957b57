"""The 95% intervals: Wilson's against its closed forms at the ends and the middle."""

from __future__ import annotations

import math

import pytest

from engine.stats import Z95, wilson_interval

Z2 = Z95 * Z95


def test_z_is_the_two_sided_95_percent_normal_quantile() -> None:
    """Φ(z) = 0.975, with Φ from the error function, to the six decimals the constant has."""
    assert 0.5 * (1 + math.erf(Z95 / math.sqrt(2))) == pytest.approx(0.975, abs=1e-7)
    assert math.isclose(Z2 / 2, 1.920729, abs_tol=1e-6)


@pytest.mark.parametrize("n", [1, 10, 37, 1000])
def test_no_hits_gives_zero_to_z_squared_over_n_plus_z_squared(n: int) -> None:
    """At p = 0 Wilson's centre equals its half width, so the interval is [0, z²/(n + z²)]."""
    low, high = wilson_interval(0, n)
    assert 0.0 <= low == pytest.approx(0.0, abs=1e-15)
    assert high == pytest.approx(Z2 / (n + Z2), rel=1e-12)


@pytest.mark.parametrize("n", [1, 10, 37, 1000])
def test_all_hits_gives_n_over_n_plus_z_squared_to_one(n: int) -> None:
    low, high = wilson_interval(n, n)
    assert low == pytest.approx(n / (n + Z2), rel=1e-12)
    assert 1.0 >= high == pytest.approx(1.0, abs=1e-15)


@pytest.mark.parametrize("n", [2, 10, 40, 1000])
def test_half_the_hits_is_centred_with_half_width_z_over_twice_root_n_plus_z_squared(
    n: int,
) -> None:
    """At p = ½: centre ½ and half width z·√(¼n + ¼z²)/(n + z²) = z / (2√(n + z²))."""
    low, high = wilson_interval(n / 2, n)
    half = Z95 / (2 * math.sqrt(n + Z2))
    assert (low, high) == pytest.approx((0.5 - half, 0.5 + half), rel=1e-12)


def test_no_observations_give_the_whole_range() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)
