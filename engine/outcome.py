"""The end of a game as data: each seat's rank, win share, utility and margin from the final gold
(rules: tied players share the win; metrics spec: outcome of a seat)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # numpy is imported by seat_outcomes only: one game's outcome starts fast
    import numpy as np

# Each rule once, in terms of how many seats have more gold than the seat (`above`) and how many
# have as much (`tied`, the seat included); the same expressions serve numbers and numpy arrays.


def _rank(above, tied):
    """1 = most gold; tied seats share the mean of their places."""
    return 1 + above + (tied - 1) / 2


def _win_share(above, tied):
    """1/k for each of k seats tied for most gold, else 0."""
    return (above == 0) / tied


def _utility(rank, players):
    """u = 1 − 2·(rank − 1)/(N − 1), as one division of whole numbers (2·rank is whole), so each
    value is the float64 nearest the exact fraction."""
    return (players + 1 - 2 * rank) / (players - 1)


@dataclass(frozen=True)
class Outcome:
    """One finished game's ranks and win shares from its final gold, seat by seat
    (seat_outcomes gives many games' at once, with utility and margin)."""

    gold: tuple[int, ...]

    @classmethod
    def of(cls, gold: Sequence[int]) -> Outcome:
        return cls(tuple(int(g) for g in gold))

    @cached_property
    def _above(self) -> tuple[int, ...]:
        return tuple(sum(other > mine for other in self.gold) for mine in self.gold)

    @cached_property
    def _tied(self) -> tuple[int, ...]:
        return tuple(self.gold.count(mine) for mine in self.gold)

    @cached_property
    def ranks(self) -> tuple[float, ...]:
        return tuple(map(_rank, self._above, self._tied))

    @cached_property
    def win_shares(self) -> tuple[float, ...]:
        return tuple(map(_win_share, self._above, self._tied))


@dataclass(frozen=True)
class SeatOutcomes:
    """The outcomes of many games as (games, seats) arrays; seats a game does not have hold 0."""

    seated: np.ndarray  # bool: the seat plays in that game
    rank: np.ndarray  # float64
    win_share: np.ndarray  # float64
    utility: np.ndarray  # float64
    margin: np.ndarray  # int64


def seat_outcomes(gold: np.ndarray, players: np.ndarray | None = None) -> SeatOutcomes:
    """The outcomes of every game of `gold` (games × seats final gold; game g seats its first
    `players[g]` columns, every column when `players` is None): rank, win share, utility and
    margin (the seat's gold less the best other seat's)."""
    import numpy as np

    gold = np.asarray(gold, dtype=np.int64)
    games, seats = gold.shape
    count = np.full(games, seats) if players is None else np.asarray(players, dtype=np.int64)
    seated = np.arange(seats) < count[:, None]
    mine, theirs = gold[:, :, None], gold[:, None, :]
    others = seated[:, None, :]  # (game, seat, other): the other seat plays
    above = ((theirs > mine) & others).sum(axis=2)
    tied = np.maximum(((theirs == mine) & others).sum(axis=2), 1)  # a seat lacking ties itself
    rank = _rank(above, tied)
    not_self = ~np.eye(seats, dtype=bool)
    best_other = np.where(others & not_self, theirs, np.iinfo(np.int64).min).max(axis=2)
    return SeatOutcomes(
        seated,
        np.where(seated, rank, 0.0),
        np.where(seated, _win_share(above, tied), 0.0),
        np.where(seated, _utility(rank, count[:, None]), 0.0),
        np.where(seated, gold - best_other, 0),
    )
