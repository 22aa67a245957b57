"""The design measures of a rule set (docs/metrics.md, "Design measures"): from played games
read by the search's fitted leaf (engine/design.py), decisiveness, drama, lead changes,
clarity, decision moves and the luck share; from games of the search against itself at half
its budget, skill depth. One row per measure, with its 95% interval and the games behind it;
the game is the unit of every interval."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
import polars as pl

from data.played import PlayedGames, action_type
from engine.agents import play_game
from engine.agents.strong import StrongAgent
from engine.design import CLEAR_GOLD, SENSIBLE_GOLD, trace_games
from engine.outcome import Outcome
from engine.rules import RuleSet
from engine.state import Game
from engine.stats import mean_interval, wilson_interval

SCHEMA = {
    "measure": pl.String,
    "value": pl.Float64,
    "low": pl.Float64,
    "high": pl.Float64,
    "games": pl.Int64,
    "definition": pl.String,
}
TIE = 1e-9  # expected win shares this close are level: nobody leads
LEAF = "by the search's fitted leaf"
DEFINITIONS = {
    "decisiveness": "share of the turns played before the winner's expected win share stays "
    f"above the highest any other seat ever reached ({LEAF}; games with one winner)",
    "drama": "mean over the turns of how far the winner's expected win share lay below the "
    f"best other seat's (0 while it led; {LEAF}; games with one winner)",
    "drama (worst)": "the farthest the winner's expected win share lay below the best other "
    f"seat's in a game ({LEAF}; games with one winner)",
    "lead changes": "times a game's expected leader (the one seat with the highest expected win "
    f"share, the winner at the end) changes ({LEAF})",
    "clarity": "share of the choices among two legal actions or more whose best, in the "
    f"heuristic's gold, stands more than {CLEAR_GOLD:g} gold above every other",
    "decision moves": "share of the plies where a seat acts with more than one action valued "
    f"within {SENSIBLE_GOLD:g} gold of the best by the heuristic",
    "luck share": "the draws' share of the results' spread: Σ luck² / Σ (luck² + (result − "
    "1/N − luck)²) over seats, luck = the shares with each drawn tile minus their mean over "
    f"the tiles that could have come ({LEAF})",
}
SKILL_BUDGETS = (8, 16, 32, 64, 128)  # the larger budget of each rung, against half of it
SKILL_DEFINITION = (
    "the win share of the search at {budget} iterations a move against {half} (seats "
    "taken in turn; fair share {fair:.2f})"
)
SKILL_SUMMARY = (
    "the win share of the search against itself at half its budget, over every rung of "
    "{budgets} iterations (fair share {fair:.2f}; above it, more search still pays)"
)


def design_measures(rules: RuleSet, players: int, actions: Sequence[bytes]) -> pl.DataFrame:
    """The measures of finished games played under `rules` by `players`, each game's action
    list as bytes (the lake's `actions` column, `action_type(rules)` each); ReplayError for a
    list the rules refuse."""
    lists = [np.frombuffer(game, dtype=action_type(rules)) for game in actions]
    offsets = np.r_[0, np.cumsum([len(game) for game in lists])].astype(np.int64)
    packed = np.concatenate([np.zeros(0, action_type(rules)), *lists])
    return _measures(rules, players, packed, offsets)


def played_design_measures(games: PlayedGames) -> pl.DataFrame:
    """`design_measures` of a batch of games of one setup (player count and rules)."""
    if len(games.setups.distinct) != 1:
        raise ValueError("design measures take games of one player count and rule set")
    players, rules = games.setups.distinct[0]
    return _measures(rules, players, games.actions, games.offsets)


def _measures(
    rules: RuleSet, players: int, actions: np.ndarray, offsets: np.ndarray
) -> pl.DataFrame:
    """The measures of game g's actions `actions[offsets[g]:offsets[g + 1]]`."""
    traces = trace_games(players, rules, actions, offsets)
    count = len(offsets) - 1
    games = [traces.game(g) for g in range(count)]
    won = [points for points in games if winner(points) is not None]
    drama_per_game = [drama(points) for points in won]
    results = np.array([points[-1] for points in games]).reshape(len(games), players)
    spread = (results - 1 / players - traces.luck) ** 2
    luck = (traces.luck**2).sum(axis=1)
    rows = [
        _mean_row("decisiveness", [decisiveness(points) for points in won], 1.0),
        _mean_row("drama", [mean for mean, _ in drama_per_game], 1.0),
        _mean_row("drama (worst)", [worst for _, worst in drama_per_game], 1.0),
        _mean_row("lead changes", [lead_changes(points) for points in games], math.inf),
        _share_row("clarity", traces.clear, traces.choices),
        _share_row("decision moves", traces.open, traces.acted),
        _share_row("luck share", luck, luck + spread.sum(axis=1), len(games) * players),
    ]
    return pl.DataFrame(rows, schema=SCHEMA, orient="row")


def winner(points: np.ndarray) -> int | None:
    """The seat that won the game alone (its final win share the highest), None for a shared
    win."""
    final = points[-1]
    best = int(np.argmax(final))
    return best if np.sum(final >= final[best] - TIE) == 1 else None


def _best_other(points: np.ndarray, seat: int) -> np.ndarray:
    """At each point, the highest expected win share of any seat but `seat`."""
    return np.delete(points, seat, axis=1).max(axis=1)


def decisiveness(points: np.ndarray) -> float:
    """The share of the turns played before the winner's expected win share stays above the
    highest any other seat ever reached (a game won alone, with at least one turn)."""
    seat = winner(points)
    if seat is None or len(points) < 2:
        raise ValueError("decisiveness needs a game of one turn or more, won alone")
    threshold = _best_other(points, seat).max()
    below = np.flatnonzero(points[:, seat] <= threshold)
    decided = below[-1] + 1 if len(below) else 0
    return decided / (len(points) - 1)


def drama(points: np.ndarray) -> tuple[float, float]:
    """How far the winner's expected win share lay below the best other seat's, over the
    turns (the points before the end): the mean, and the worst."""
    seat = winner(points)
    if seat is None or len(points) < 2:
        raise ValueError("drama needs a game of one turn or more, won alone")
    behind = np.maximum(_best_other(points, seat) - points[:, seat], 0.0)[:-1]
    return float(behind.mean()), float(behind.max())


def lead_changes(points: np.ndarray) -> int:
    """Times the expected leader (the one seat with the highest expected win share; none
    while seats are level at the top) changes from one leader to another."""
    changes, leader = 0, None
    for shares in points:
        top = int(np.argmax(shares))
        if np.sum(shares >= shares[top] - TIE) > 1:
            continue
        changes += leader is not None and top != leader
        leader = top
    return changes


def _mean_row(measure: str, values: Sequence[float], most: float) -> tuple:
    """A per-game figure's mean over games, mean ± t·SE cut to [0, most]."""
    mean = float(np.mean(values)) if len(values) else None
    low, high = mean_interval(values, 0.0, most) or (None, None)
    return measure, mean, low, high, len(values), DEFINITIONS[measure]


def _share_row(
    measure: str, hits: np.ndarray, counts: np.ndarray, most: float | None = None
) -> tuple:
    """`pooled_share` of per-game sums as a row."""
    share, low, high = pooled_share(hits, counts, most)
    return measure, share, low, high, len(counts), DEFINITIONS[measure]


def pooled_share(
    hits: np.ndarray, counts: np.ndarray, most: float | None = None
) -> tuple[float | None, float | None, float | None]:
    """Σ hits / Σ counts (per-game sums, 0 ≤ hits ≤ counts) and its 95% interval: Wilson over
    the effective number of observations p(1 − p) / SE² (rounded down), SE the ratio's
    cluster-robust standard error with the game as the unit, at most `most` (by default
    Σ counts)."""
    hits, counts = np.asarray(hits, dtype=np.float64), np.asarray(counts, dtype=np.float64)
    total = counts.sum()
    if total <= 0:
        return None, None, None
    share = float(hits.sum() / total)
    if len(counts) < 2:
        return share, None, None
    groups = len(counts)
    error2 = groups / (groups - 1) * float(((hits - share * counts) ** 2).sum()) / total**2
    most = total if most is None else most
    effective = int(min(most, share * (1 - share) / error2) if error2 > 0 else most)
    low, high = wilson_interval(share * effective, effective)
    return share, low, high


def skill_depth(
    rules: RuleSet,
    players: int,
    games_per_rung: int,
    seed: int,
    budgets: Sequence[int] = SKILL_BUDGETS,
    progress: Callable[[int, int], None] | None = None,
) -> pl.DataFrame:
    """Ludii's skill trace: per rung, the search at each budget b against b // 2 (one seat at
    b, the larger budget taking each seat in turn), the larger budget's win share over
    `games_per_rung` games; then one summary row over every rung. `progress(done, total)`
    after every game."""
    if games_per_rung < 1 or any(budget < 2 for budget in budgets) or not budgets:
        raise ValueError("skill depth needs a game a rung and budgets of 2 iterations or more")
    game = Game(players, rules)
    fair = 1 / players
    total = games_per_rung * len(budgets)
    rows, pooled = [], 0.0
    for rung, budget in enumerate(budgets):
        won = 0.0
        for number in range(games_per_rung):
            key = f"{seed}:{budget}:{number}"
            strong = number % players
            agents = [
                StrongAgent(budget if seat == strong else budget // 2, f"{key}:{seat}")
                for seat in range(players)
            ]
            final = play_game(game, agents, key)
            won += Outcome.of(final.returns()).win_shares[strong]
            if progress is not None:
                progress(rung * games_per_rung + number + 1, total)
        pooled += won
        definition = SKILL_DEFINITION.format(budget=budget, half=budget // 2, fair=fair)
        rows.append(_wilson_row(f"skill depth {budget}", won, games_per_rung, definition))
    ladder = ", ".join(f"{budget} v {budget // 2}" for budget in budgets)
    summary = SKILL_SUMMARY.format(budgets=ladder, fair=fair)
    rows.append(_wilson_row("skill depth", pooled, total, summary))
    return pl.DataFrame(rows, schema=SCHEMA, orient="row")


def _wilson_row(measure: str, won: float, games: int, definition: str) -> tuple:
    low, high = wilson_interval(won, games)
    return measure, won / games, low, high, games, definition
