"""Accuracy of a player's moves: lichess's definitions (lila's AccuracyPercent) on win share.

A move's accuracy follows its one loss (engine/evaluate.py `MoveReview.loss`); a set of moves'
accuracy is the mean of their volatility-weighted mean and their harmonic mean, each move
weighted by how much its mover's expected win share moved in the window of the game around it.
docs/metrics.md ("Accuracy") states the definitions and the choices where lichess's is followed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

# move accuracy = clamp(SCALE · e^(−DECAY · d) − OFFSET + BONUS, 0, 100), d = 100 × loss
SCALE = 103.1668
DECAY = 0.04354
OFFSET = 3.1669
BONUS = 1.0  # lichess's allowance for an imperfect analysis
# The window: a tenth of the game's moves, within these bounds; a weight's bounds (points).
SMALLEST_WINDOW, LARGEST_WINDOW = 2, 8
LIGHTEST, HEAVIEST = 0.5, 12.0
HARMONIC_FLOOR = 1.0  # an accuracy counts at least this in the harmonic mean, as lichess's


def move_accuracy(loss: float) -> float:
    """A move's accuracy, 0 to 100, from its loss of expected win share."""
    raw = SCALE * math.exp(-DECAY * 100.0 * loss) - OFFSET + BONUS
    return min(100.0, max(0.0, raw))


def window_size(moves: int) -> int:
    """How many positions the volatility window holds in a game of `moves` moves."""
    return min(LARGEST_WINDOW, max(SMALLEST_WINDOW, moves // 10))


def move_weights(movers: Sequence[int], positions: Sequence[Sequence[float]]) -> list[float]:
    """Each move's weight: the standard deviation (population, in points) of its mover's
    expected win share over the window of positions ending just after it (the game's first
    positions for a move too early to have one), clamped to [LIGHTEST, HEAVIEST].

    `positions[k]` holds every seat's expected win share after k moves (k = 0 to moves)."""
    if len(positions) != len(movers) + 1:
        raise ValueError("a game of n moves has n + 1 positions")
    size = window_size(len(movers))
    weights = []
    for index, seat in enumerate(movers):
        start = max(0, index + 2 - size)
        shares = [100.0 * position[seat] for position in positions[start : start + size]]
        mean = sum(shares) / len(shares)
        deviation = math.sqrt(sum((share - mean) ** 2 for share in shares) / len(shares))
        weights.append(min(HEAVIEST, max(LIGHTEST, deviation)))
    return weights


def accuracy(accuracies: Sequence[float], weights: Sequence[float]) -> float | None:
    """The accuracy of a set of moves: the mean of their weighted mean and their harmonic
    mean (each accuracy at least HARMONIC_FLOOR there); None for no move."""
    if not accuracies:
        return None
    weighted = sum(a * w for a, w in zip(accuracies, weights, strict=True)) / sum(weights)
    harmonic = len(accuracies) / sum(1.0 / max(HARMONIC_FLOOR, a) for a in accuracies)
    return (weighted + harmonic) / 2
