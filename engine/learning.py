"""Fitting the apprentice's model to the decisions of a teacher, with numpy.

A decision is a list of candidates (their features, engine/kernel/apprentice.py) and the one the
teacher chose; the model scores each candidate (a linear part plus a one-layer tanh network) and
is fitted to the softmax of its scores over the candidates (a conditional logit, trained with
Adam on batches of whole decisions), against the teacher's choice or its probabilities.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.kernel.apprentice import FEATURES, VALUES, row_length

BATCH = 512  # decisions a training step
LEARNING_RATE = 0.01
L2 = 1e-4  # weight decay of the network's weights
START_SHARPNESS = 3.0  # the starting model: the heuristic's values, this sharp (per gold)


@dataclass(frozen=True)
class Decisions:
    """Candidates' features stacked, decision d's at rows candidates[d]:candidates[d + 1], and
    the row each decision chose."""

    features: np.ndarray  # (rows, FEATURES) float32
    candidates: np.ndarray  # (decisions + 1,) int64
    chosen: np.ndarray  # (decisions,) int64 rows
    targets: np.ndarray | None = None  # (rows,) the teacher's probabilities (its visit shares)

    def __len__(self) -> int:
        return len(self.chosen)

    def part(self, start: int, stop: int) -> Decisions:
        """Decisions [start, stop) as a set of their own."""
        first, last = self.candidates[start], self.candidates[stop]
        return Decisions(
            self.features[first:last],
            self.candidates[start : stop + 1] - first,
            self.chosen[start:stop] - first,
            None if self.targets is None else self.targets[first:last],
        )

    @staticmethod
    def joined(parts: list[Decisions]) -> Decisions:
        """The parts' decisions, one after the other."""
        shifts = np.cumsum([0] + [len(part.features) for part in parts])
        pairs = list(zip(parts, shifts[:-1], strict=True))
        return Decisions(
            np.concatenate([np.zeros((0, FEATURES), np.float32)] + [p.features for p in parts]),
            np.concatenate([[0]] + [p.candidates[1:] + shift for p, shift in pairs]).astype(
                np.int64
            ),
            np.concatenate([np.zeros(0, np.int64)] + [p.chosen + shift for p, shift in pairs]),
        )


def starting_model(hidden: int, seed: int) -> np.ndarray:
    """A model row that plays the heuristic's choice (softly), its network small and random."""
    row = np.zeros(row_length(hidden))
    row[VALUES] = START_SHARPNESS * 10
    weights = np.random.default_rng(seed).normal(0.0, 0.3, (hidden, FEATURES))
    row[FEATURES + hidden : FEATURES + hidden + hidden * FEATURES] = weights.ravel()
    return row


def _unpack(row: np.ndarray, hidden: int) -> tuple[np.ndarray, ...]:
    linear = row[:FEATURES]
    bias = row[FEATURES : FEATURES + hidden]
    weights = row[FEATURES + hidden : FEATURES + hidden + hidden * FEATURES].reshape(
        hidden, FEATURES
    )
    out = row[FEATURES + hidden + hidden * FEATURES :]
    return linear, bias, weights, out


def scores(row: np.ndarray, hidden: int, features: np.ndarray) -> np.ndarray:
    """The model's score of every candidate (as the kernel's `score` computes it)."""
    linear, bias, weights, out = _unpack(row, hidden)
    return features @ linear + np.tanh(features @ weights.T + bias) @ out


def _softmax(values: np.ndarray, decisions: Decisions) -> np.ndarray:
    """Each candidate's probability within its decision."""
    starts = decisions.candidates[:-1]
    tops = np.maximum.reduceat(values, starts)
    sizes = np.diff(decisions.candidates)
    shifted = np.exp(values - np.repeat(tops, sizes))
    return shifted / np.repeat(np.add.reduceat(shifted, starts), sizes)


def log_loss(row: np.ndarray, hidden: int, decisions: Decisions) -> float:
    """The mean negative log-probability of the chosen candidates."""
    chances = _softmax(scores(row, hidden, decisions.features), decisions)
    return float(-np.mean(np.log(np.maximum(chances[decisions.chosen], 1e-300))))


def agreement(row: np.ndarray, hidden: int, decisions: Decisions) -> float:
    """The share of decisions whose best scored candidate is the chosen one (a tie among k
    best counts 1/k, as picking one of them at random would)."""
    values = scores(row, hidden, decisions.features)
    starts = decisions.candidates[:-1]
    tops = np.maximum.reduceat(values, starts)
    best = values >= np.repeat(tops, np.diff(decisions.candidates))
    ties = np.add.reduceat(best, starts)
    return float(np.mean(best[decisions.chosen] / ties))


def _gradient(row: np.ndarray, hidden: int, decisions: Decisions) -> np.ndarray:
    linear, bias, weights, out = _unpack(row, hidden)
    x = decisions.features
    layer = np.tanh(x @ weights.T + bias)
    values = x @ linear + layer @ out
    push = _softmax(values, decisions)
    if decisions.targets is None:
        push[decisions.chosen] -= 1.0
    else:
        push -= decisions.targets
    push /= len(decisions)
    inner = (push[:, None] * out) * (1.0 - layer * layer)
    gradient = np.concatenate(
        [
            x.T @ push,
            inner.sum(axis=0),
            (inner.T @ x + L2 * weights).ravel(),
            layer.T @ push + L2 * out,
        ]
    )
    return gradient


def fit_path(
    decisions: Decisions, hidden: int, passes: int, seed: int, checkpoints: int
) -> list[np.ndarray]:
    """The rows a fit passes through, by Adam `passes` times over the decisions in batches of
    whole decisions taken in a seeded random order: the starting model, then one after every
    `checkpoints`-th part of its steps, the last the fitted row."""
    rng = np.random.default_rng(seed)
    row = starting_model(hidden, seed)
    first = np.zeros_like(row)
    second = np.zeros_like(row)
    starts = np.arange(0, len(decisions), BATCH)
    order = np.concatenate([rng.permutation(starts) for _ in range(passes)])
    marks = {int(len(order) * k / checkpoints) for k in range(1, checkpoints + 1)}
    path = [row.copy()]
    for step, start in enumerate(order, start=1):
        batch = decisions.part(start, min(start + BATCH, len(decisions)))
        gradient = _gradient(row, hidden, batch)
        first = 0.9 * first + 0.1 * gradient
        second = 0.999 * second + 0.001 * gradient * gradient
        corrected = first / (1 - 0.9**step)
        spread = np.sqrt(second / (1 - 0.999**step)) + 1e-8
        row -= LEARNING_RATE * corrected / spread
        if step in marks:
            path.append(row.copy())
    return path
