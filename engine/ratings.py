"""Bradley–Terry ratings of players from game outcomes, on the Elo scale, with 95% intervals.

Each pair of seats of two different players in a game is one comparison (better placed wins, a
tie counts a half). The fit is the posterior mode under a Gaussian prior on each strength (so
a perfect record stays finite); each group of players linked by games is centred on 1500. Its
covariance is the sandwich H⁻¹ (J + P) H⁻¹ (H the information, J the variance of the games'
scores, P the prior's precision), as the pairs of one game are not independent. The fit
depends only on how many games ended in each outcome, never on their order.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from engine.stats import Z95

ELO_BASE = 1500.0
ELO_SCALE = 400.0 / math.log(10)
PRIOR_SD = 3.0  # each strength's prior standard deviation, in logits (about 520 rating points)
NEWTON_STEPS = 100
CONVERGED = 1e-10
MAX_STEP = 2.0  # logits per Newton step, so that a near-perfect record converges smoothly

Player = tuple[bool, str]  # (a person?, name): agents by agent name, people by their own
Placings = tuple[tuple[Player, float], ...]  # (player, rank) per seat, best first


@dataclass(frozen=True)
class Rating:
    """One player's rating, its 95% half width, the games behind it and its group's number."""

    player: Player
    rating: float
    half_width: float
    games: int
    group: int


def fit_ratings(counts: Mapping[Placings, int]) -> list[Rating]:
    """Every player's rating from how many games ended in each outcome, in sorted player order
    (groups numbered by their first player)."""
    keys = sorted({key for outcome in counts for key, _ in outcome})
    if not keys:
        return []
    index = {key: i for i, key in enumerate(keys)}
    ordered = sorted(counts.items())  # the same sums in the same order: the same figures
    weights = np.array([games for _, games in ordered], dtype=float)
    first, second, score, game = _pairs([outcome for outcome, _ in ordered], index)
    strength, covariance = _posterior(len(keys), weights, first, second, score, game)
    groups = _groups(len(keys), first, second)
    same = (groups[:, None] == groups[None, :]).astype(float)
    centring = np.eye(len(keys)) - same / same.sum(axis=1, keepdims=True)
    covariance = centring @ covariance @ centring.T  # only differences within a group are measured
    played = np.zeros(len(keys))
    for outcome, games in ordered:
        for key in {key for key, _ in outcome}:
            played[index[key]] += games
    half_width = Z95 * ELO_SCALE * np.sqrt(np.diag(covariance))
    rating = ELO_BASE + ELO_SCALE * strength
    return [
        Rating(key, float(rating[i]), float(half_width[i]), int(played[i]), int(groups[i]))
        for i, key in enumerate(keys)
    ]


def _pairs(
    outcomes_: list[Placings], index: Mapping[Player, int]
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every pair of seats of two different players, per outcome: the better-placed player,
    the other, the first's score (1 ahead, ½ tied) and the outcome's number."""
    rows = []
    for number, outcome in enumerate(outcomes_):
        for i, (ahead, ahead_rank) in enumerate(outcome):
            for behind, behind_rank in outcome[i + 1 :]:
                if ahead != behind:
                    tied = ahead_rank == behind_rank
                    rows.append((index[ahead], index[behind], 0.5 if tied else 1.0, number))
    first, second, score, game = (np.array(column) for column in zip(*rows, strict=True))
    return first.astype(int), second.astype(int), score.astype(float), game.astype(int)


def _posterior(
    players: int,
    weights: np.ndarray,
    first: np.ndarray,
    second: np.ndarray,
    score: np.ndarray,
    game: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """The strengths' posterior mode (Newton's method) and their sandwich covariance."""
    prior = np.eye(players) / PRIOR_SD**2
    strength = np.zeros(players)
    for _ in range(NEWTON_STEPS):
        win = 1 / (1 + np.exp(strength[second] - strength[first]))
        residual = weights[game] * (score - win)
        gradient = _spread(players, first, second, residual) - prior @ strength
        information = _information(players, first, second, weights[game] * win * (1 - win))
        step = np.linalg.solve(information + prior, gradient)
        step *= min(1.0, MAX_STEP / max(np.abs(step).max(), MAX_STEP))
        strength += step
        if np.abs(step).max() < CONVERGED:
            break
    win = 1 / (1 + np.exp(strength[second] - strength[first]))
    per_game = np.zeros((len(weights), players))  # one game's score for each outcome
    np.add.at(per_game, (game, first), score - win)
    np.add.at(per_game, (game, second), win - score)
    spread = per_game.T @ (weights[:, None] * per_game)
    bread = np.linalg.inv(
        _information(players, first, second, weights[game] * win * (1 - win)) + prior
    )
    return strength, bread @ (spread + prior) @ bread


def _groups(players: int, first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """Each player's group: the players linked to it by games (a root player's number)."""
    group = list(range(players))

    def root(i: int) -> int:
        while group[i] != i:
            group[i] = group[group[i]]
            i = group[i]
        return i

    for a, b in zip(first.tolist(), second.tolist(), strict=True):
        group[root(a)] = root(b)
    return np.array([root(i) for i in range(players)])


def _spread(players: int, first: np.ndarray, second: np.ndarray, value: np.ndarray) -> np.ndarray:
    """Each pair's value added to its first player and taken from its second."""
    return np.bincount(first, value, players) - np.bincount(second, value, players)


def _information(
    players: int, first: np.ndarray, second: np.ndarray, weight: np.ndarray
) -> np.ndarray:
    """The pairs' Fisher information: the graph Laplacian of the pairs weighted by p·(1 − p)."""
    matrix = np.zeros((players, players))
    np.add.at(matrix, (first, first), weight)
    np.add.at(matrix, (second, second), weight)
    np.add.at(matrix, (first, second), -weight)
    np.add.at(matrix, (second, first), -weight)
    return matrix
