"""`python -m bench.leaf_fit`: how well the search's leaf predicts who wins heuristic self-play,
and the spread and outlook weights that would fit it best (engine/kernel/search.py)."""

from __future__ import annotations

import argparse
from typing import NamedTuple

import numpy as np

from engine.kernel import play, search
from engine.kernel.batch import policy_games
from engine.kernel.layout import (
    EPOCH,
    EPOCHS,
    PHASE,
    RANKS,
    TILE_CODES,
    TO_MOVE,
    TURN,
    castles_at,
    gold_at,
)
from engine.kernel.policies import policy_scratch, projected_gold, unseen_by
from engine.kernel.tables import kernel_rules
from engine.rules import RuleSet

SEED = 1_000_000  # first game's seed, away from the tournaments' seeds
SPREADS = np.arange(2.0, 10.01, 0.2)
WEIGHTS = np.arange(0.0, 1.51, 0.05)


class Positions(NamedTuple):
    """Every turn of a batch of games, as the leaf sees it, and who won in the end."""

    board_gold: np.ndarray  # (positions, seats) gold plus the board's pay now
    outlook: np.ndarray  # (positions, seats) the heuristic's outlook of placed castles
    held_ranks: np.ndarray  # (positions, seats) sum of the ranks of castles of rank 2-4 held
    cells_left: np.ndarray  # (positions,) cells to fill before the game ends
    epochs_after: np.ndarray  # (positions,) epochs to come after this one
    reserve_share: np.ndarray  # (positions,) the share of the held-castle reserve still counted
    leaf: np.ndarray  # (positions, seats) the leaf's win shares as configured
    won: np.ndarray  # (positions, seats) the game's final win_share


def collect(players: int, games: int) -> Positions:
    """Every turn of `games` heuristic self-play games."""
    rule_set = RuleSet()
    rules = kernel_rules(players, rule_set)
    played = policy_games(players, rule_set, range(SEED, SEED + games), ("heuristic",) * players)
    rows: list[tuple] = []
    reward = np.zeros(players)
    unseen = np.zeros(rules[TILE_CODES], dtype=np.int64)
    projected = np.zeros(players)
    scratch = policy_scratch(rules)
    for game in range(games):
        state = play.new_state(rules)
        turns = []
        for action in played.history(game):
            if state[PHASE] == TURN:
                unseen_by(state, rules, state[TO_MOVE], unseen)
                projected_gold(state, rules, unseen, projected, 1.0, scratch)
                board = scratch.totals.copy()  # gold with what the board pays now
                held = [
                    sum((r + 1) * state[castles_at(rules, seat, r)] for r in range(1, RANKS))
                    for seat in range(players)
                ]
                search.leaf_win_shares(state, rules, reward, unseen, scratch)
                turns.append(
                    (
                        board,
                        projected - board,
                        held,
                        search.cells_left(state, rules),
                        rules[EPOCHS] - state[EPOCH],
                        search.reserve_share(state, rules),
                        reward.copy(),
                    )
                )
            play.apply_action(state, rules, int(action))
        final = np.array([state[gold_at(rules, seat)] for seat in range(players)])
        won = (final == final.max()) / (final == final.max()).sum()
        rows.extend((*turn, won) for turn in turns)
    columns = [np.array(column, dtype=np.float64) for column in zip(*rows, strict=True)]
    return Positions(*columns)


def win_shares(positions: Positions, spread_per_cell: float, weights: np.ndarray) -> np.ndarray:
    """The leaf's logistic with the given spread and outlook weights (by epochs after)."""
    weight = weights[np.minimum(positions.epochs_after, len(weights) - 1).astype(int)]
    reserve = search.RESERVE_PER_RANK * positions.reserve_share
    strength = (
        positions.board_gold
        + weight[:, None] * positions.outlook
        + reserve[:, None] * positions.held_ranks
    )
    spread = spread_per_cell * np.sqrt(np.maximum(positions.cells_left, 1))
    z = (strength - strength.max(axis=1, keepdims=True)) / spread[:, None]
    shares = np.exp(z)
    return shares / shares.sum(axis=1, keepdims=True)


def log_loss(shares: np.ndarray, won: np.ndarray) -> float:
    return float(-np.mean(np.sum(won * np.log(np.clip(shares, 1e-12, 1)), axis=1)))


def report(players: int, games: int) -> None:
    positions = collect(players, games)
    spread = search.SPREAD_PER_CELL[players - 2]
    weights = np.array(search.OUTLOOK_WEIGHT)
    refit = win_shares(positions, spread, weights)
    if not np.allclose(refit, positions.leaf, atol=1e-9):
        raise SystemExit("the fit's logistic no longer matches engine/kernel/search.py's leaf")

    def loss(spread_per_cell: float, outlook_weights: np.ndarray) -> float:
        return log_loss(win_shares(positions, spread_per_cell, outlook_weights), positions.won)

    best_spread = min(SPREADS, key=lambda k: loss(k, weights))
    best_weights = weights.copy()
    for after in range(len(weights)):  # one weight at a time, the others as found so far
        trials = [np.where(np.arange(len(weights)) == after, w, best_weights) for w in WEIGHTS]
        best_weights = min(trials, key=lambda trial: loss(spread, trial))
    print(
        f"{players} players, {len(positions.won):,} positions of {games:,} games: "
        f"log loss {log_loss(positions.leaf, positions.won):.4f} "
        f"(a coin: {np.log(players):.4f}); spread per cell {spread} (best {best_spread:.1f}), "
        f"outlook weights {_listed(weights)} (best {_listed(best_weights)})"
    )


def _listed(values: np.ndarray) -> str:
    return ", ".join(f"{value:.2f}" for value in values)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1000, help="games per player count")
    parser.add_argument("--players", type=int, nargs="+", choices=(2, 3, 4), default=[2, 3, 4])
    args = parser.parse_args()
    for players in args.players:
        report(players, args.games)


if __name__ == "__main__":
    main()
