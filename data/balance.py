"""Balance by player count: 1 − the widest gap |W_a − W_b| between two turn positions' mean win
shares, with its 95% interval from a seeded bootstrap over games (docs/metrics.md, "Balance").

A game's outcome is one of a few lists of win shares (who won, who tied), so a resample of the
games is a multinomial draw of those outcomes' counts: the bootstrap costs about a millisecond,
whatever the number of games.
"""

from __future__ import annotations

import numpy as np
import polars as pl

RESAMPLES = 4000
SEED = 35  # fixed: the same games always give the same interval
COLUMNS = {
    "players": pl.Int64,
    "games": pl.Int64,
    "balance": pl.Float64,
    "balance_low": pl.Float64,
    "balance_high": pl.Float64,
}


def bootstrap_balance(outcomes: np.ndarray, games: np.ndarray) -> tuple[float, float, float]:
    """Balance of games ending in `outcomes` (outcome × position win shares) `games` times each,
    and its 95% interval: ± the 95th percentile, over RESAMPLES resamples of the games, of the
    largest change of any two positions' gap, cut to [0, 1]. Every gap lies within that margin
    at once in 95% of resamples, so the widest gap (and the balance) does too."""
    total = games.sum()
    means = games @ outcomes / total
    value = 1.0 - float(np.ptp(means))
    drawn = np.random.default_rng(SEED).multinomial(int(total), games / total, size=RESAMPLES)
    moved = drawn @ outcomes / total - means
    margin = float(np.quantile(np.ptp(moved, axis=1), 0.95))
    return value, max(0.0, value - margin), min(1.0, value + margin)


def balance_by_players(outcomes: pl.DataFrame) -> pl.DataFrame:
    """Per player count: games, balance and its interval, from `balance_outcomes` rows (players,
    win_shares, games); no interval from a single game."""
    rows = []
    for (players,), part in outcomes.partition_by("players", as_dict=True).items():
        shares = np.array(part["win_shares"].to_list(), dtype=np.float64)
        games = part["games"].to_numpy().astype(np.float64)
        value, low, high = bootstrap_balance(shares, games)
        alone = games.sum() < 2
        rows.append(
            (players, int(games.sum()), value, None if alone else low, None if alone else high)
        )
    return pl.DataFrame(rows, schema=COLUMNS, orient="row").sort("players")
