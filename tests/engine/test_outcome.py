"""Outcomes from final gold, with the known answers of the metrics spec (outcome of a seat)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.outcome import Outcome, seat_outcomes

# (final gold, ranks, win shares, utilities, margins), worked out by hand from the spec:
# win_share = 1/k for each of k seats tied for most gold; tied seats share the mean of their
# places; utility u = 1 − 2·(rank − 1)/(N − 1); margin = gold − the best other seat's gold.
KNOWN = [
    # no tie: the winner takes all
    ((30, 20), (1, 2), (1, 0), (1, -1), (10, -10)),
    # two tied for most gold: places 1–2 give rank 3/2, utility 1 − 2·(1/2)/2 = 1/2
    (
        (50, 50, 40),
        (Fraction(3, 2),) * 2 + (3,),
        (Fraction(1, 2),) * 2 + (0,),
        (Fraction(1, 2),) * 2 + (-1,),
        (0, 0, -10),
    ),
    # three tied for most gold of four: places 1–3 give rank 2, utility 1 − 2/3 = 1/3
    (
        (82, 90, 90, 90),
        (4, 2, 2, 2),
        (0,) + (Fraction(1, 3),) * 3,
        (-1,) + (Fraction(1, 3),) * 3,
        (-8, 0, 0, 0),
    ),
    # a tie below the winner shares places 2–3 (rank 5/2, utility 0) and no win
    (
        (60, 40, 40, 10),
        (1, Fraction(5, 2), Fraction(5, 2), 4),
        (1, 0, 0, 0),
        (1, 0, 0, -1),
        (20, -20, -20, -50),
    ),
    # everyone tied: every seat has rank (1 + N)/2, utility 0 and win share 1/N
    ((7, 7, 7), (2, 2, 2), (Fraction(1, 3),) * 3, (0, 0, 0), (0, 0, 0)),
]


def _floats(values) -> tuple[float, ...]:
    """The float64 nearest each exact value: what the outcome must hold."""
    return tuple(float(Fraction(v)) for v in values)


@pytest.mark.parametrize(("gold", "ranks", "shares", "utilities", "margins"), KNOWN)
def test_known_outcomes(gold, ranks, shares, utilities, margins) -> None:
    outcome = Outcome.of(gold)
    assert outcome.gold == gold
    assert outcome.ranks == _floats(ranks)
    assert outcome.win_shares == _floats(shares)
    table = seat_outcomes(np.array([gold]))
    assert tuple(table.rank[0]) == _floats(ranks)
    assert tuple(table.win_share[0]) == _floats(shares)
    assert tuple(table.utility[0]) == _floats(utilities)
    assert tuple(table.margin[0]) == margins


def test_many_games_of_different_sizes_match_each_game_alone() -> None:
    """Games of 2, 3 and 4 seats in one padded array give each game's own outcome."""
    padded = np.zeros((len(KNOWN), 4), dtype=np.int64)
    for row, (gold, *_) in enumerate(KNOWN):
        padded[row, : len(gold)] = gold
    players = np.array([len(gold) for gold, *_ in KNOWN])
    table = seat_outcomes(padded, players)
    for row, (gold, ranks, shares, utilities, margins) in enumerate(KNOWN):
        seats = len(gold)
        assert tuple(table.rank[row, :seats]) == _floats(ranks)
        assert tuple(table.win_share[row, :seats]) == _floats(shares)
        assert tuple(table.utility[row, :seats]) == _floats(utilities)
        assert tuple(table.margin[row, :seats]) == margins
        assert table.seated[row].tolist() == [True] * seats + [False] * (4 - seats)
        assert not table.win_share[row, seats:].any()


@given(st.lists(st.integers(0, 200), min_size=2, max_size=4))
def test_win_shares_sum_to_one_and_ranks_to_the_places(gold: list[int]) -> None:
    """Whatever the ties, the win is shared out whole and the places 1…N are all given."""
    outcome = Outcome.of(gold)
    assert sum(Fraction(s) for s in outcome.win_shares) == pytest.approx(1, abs=1e-15)
    assert sum(outcome.ranks) == len(gold) * (len(gold) + 1) / 2
    best = max(gold)
    assert [s > 0 for s in outcome.win_shares] == [g == best for g in gold]
