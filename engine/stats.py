"""The 95% intervals every figure carries: Wilson for a proportion (its ends within [0, 1]),
mean ± z·SE for a mean, mean ± t·SE for the mean of a few observations; `Z95`, the normal
quantile of a two-sided 95% interval, is the one the lake's SQL macros are generated with
(data/views.py).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

Z95 = 1.959964


def wilson_interval(hits: float, count: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of the proportion `hits / count` (hits may be fractional, as a
    sum of win shares); (0, 1) without observations."""
    if count == 0:
        return (0.0, 1.0)
    p = hits / count
    denominator = 1 + z * z / count
    centre = (p + z * z / (2 * count)) / denominator
    half = z * math.sqrt(p * (1 - p) / count + z * z / (4 * count * count)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def t_quantile(freedom: int, level: float = 0.95) -> float:
    """The two-sided `level` quantile of Student's t with `freedom` degrees of freedom (12.706
    at 1, 2.228 at 10), from its distribution function's closed form at whole degrees
    (Abramowitz and Stegun 26.7.3-4) by bisection."""
    if freedom < 1:
        raise ValueError("Student's t needs at least one degree of freedom")
    low, high = 0.0, 1e4
    while high - low > 1e-9:
        middle = (low + high) / 2
        low, high = (middle, high) if _t_within(middle, freedom) < level else (low, middle)
    return (low + high) / 2


def _t_within(t: float, freedom: int) -> float:
    """P(|T| <= t) for Student's t with `freedom` whole degrees of freedom."""
    theta = math.atan(t / math.sqrt(freedom))
    cos2 = math.cos(theta) ** 2
    even = freedom % 2 == 0
    term = total = 1.0
    for k in range(2 if even else 3, freedom - 1, 2):
        term *= cos2 * (k - 1) / k
        total += term
    if even:
        return math.sin(theta) * total
    if freedom == 1:
        return 2 * theta / math.pi
    return 2 / math.pi * (theta + math.sin(theta) * math.cos(theta) * total)


def mean_interval(values: Sequence[float], low: float, high: float) -> tuple[float, float] | None:
    """The 95% interval of the mean of `values`, independent observations of a figure within
    [low, high]: mean ± t·SE, cut to that range; None for fewer than two."""
    if len(values) < 2:
        return None
    mean = sum(values) / len(values)
    spread = math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1))
    half = t_quantile(len(values) - 1) * spread / math.sqrt(len(values))
    return max(low, mean - half), min(high, mean + half)


def ratio_interval(
    sums: Sequence[float], counts: Sequence[int], low: float, high: float
) -> tuple[float, float] | None:
    """The 95% interval of a mean over observations clustered in independent groups (a mean
    loss a move, the game the unit): Σ sums / Σ counts ± t·SE, SE² = G/(G − 1) · Σ (S_g −
    mean · n_g)² / N² over the G groups (the cluster-robust variance of a ratio), Student's t
    at G − 1 degrees of freedom, cut to [low, high]; None for fewer than two groups."""
    if len(sums) < 2:
        return None
    total = sum(counts)
    mean = sum(sums) / total
    groups = len(sums)
    spread = sum((s - mean * n) ** 2 for s, n in zip(sums, counts, strict=True))
    half = t_quantile(groups - 1) * math.sqrt(groups / (groups - 1) * spread) / total
    return max(low, mean - half), min(high, mean + half)
