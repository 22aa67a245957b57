"""The 95% intervals: Wilson's against its closed forms at the ends and the middle; Student's t
against the printed tables."""

from __future__ import annotations

import math

import pytest

from engine.stats import Z95, mean_interval, ratio_interval, t_quantile, wilson_interval

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


@pytest.mark.parametrize(
    ("freedom", "quantile"),
    [(1, 12.706), (2, 4.303), (3, 3.182), (5, 2.571), (10, 2.228), (30, 2.042), (120, 1.980)],
)
def test_t_quantile_matches_the_printed_tables(freedom: int, quantile: float) -> None:
    """Student's t, two-sided 95%, as every statistics table prints it (to 3 decimals)."""
    assert t_quantile(freedom) == pytest.approx(quantile, abs=5e-4)


def test_a_mean_interval_stays_within_its_range() -> None:
    """Two games, 10 and 90: mean 50, SD 56.569, SE 40, t(1) = 12.706: ±508, cut to [0, 100];
    three games 60, 70, 80: SE 5.7735, t(2) = 4.303: 70 ± 24.84."""
    assert mean_interval([10.0, 90.0], 0.0, 100.0) == (0.0, 100.0)
    low, high = mean_interval([60.0, 70.0, 80.0], 0.0, 100.0)
    assert (low, high) == pytest.approx((45.157, 94.843), abs=2e-3)
    assert mean_interval([50.0], 0.0, 100.0) is None


def test_a_ratio_of_single_observations_has_the_t_interval_of_their_mean() -> None:
    # one observation a group: the cluster-robust SE is the usual s / √n (G/(G−1) · Σ(x − m)²
    # / G² = s² / G), so the interval is mean_interval's
    values = [0.1, 0.4, 0.0, 0.25, 0.05]
    assert ratio_interval(values, [1] * 5, 0.0, 1.0) == pytest.approx(
        mean_interval(values, 0.0, 1.0)
    )
    assert ratio_interval([0.3], [4], 0.0, 1.0) is None
    low, high = ratio_interval([0.0, 0.0, 2.0], [1, 1, 2], 0.0, 1.0)
    assert low == 0.0 and 0.5 < high <= 1.0  # cut to the range a mean loss can take
