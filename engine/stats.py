"""The 95% intervals every figure carries: Wilson for a proportion (its ends within [0, 1]),
mean ± z·SE for a mean; `Z95`, the normal quantile of a two-sided 95% interval, is the one
the lake's SQL macros are generated with (data/views.py).
"""

from __future__ import annotations

import math

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
