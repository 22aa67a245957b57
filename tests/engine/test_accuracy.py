"""Accuracy on hand-made losses and win shares: each answer worked out in its docstring (the
exponentials with Python's `decimal` at 30 digits, apart from the module)."""

from __future__ import annotations

import math

import pytest

from engine.accuracy import accuracy, move_accuracy, move_weights, window_size


@pytest.mark.parametrize(
    ("loss", "expected"),
    [
        (0.0, 100.0),  # 103.1668 − 3.1669 + 1 = 100.9999, clamped to 100
        (0.001, 100.0),  # d = 0.1: 103.1668 · e^−0.004354 − 2.1669 = 100.5517, clamped
        (0.01, 96.6044019),  # d = 1: 103.1668 · 0.9573943 − 2.1669
        (0.10, 64.5826193),  # d = 10: 103.1668 · e^−0.4354 = 103.1668 · 0.6470058 − 2.1669
        (0.5, 9.5302719),  # d = 50: 103.1668 · e^−2.177 = 103.1668 · 0.1133812 − 2.1669
        (1.0, 0.0),  # d = 100: 103.1668 · 0.0128553 − 2.1669 = −0.8407, clamped to 0
    ],
)
def test_move_accuracy(loss: float, expected: float) -> None:
    assert move_accuracy(loss) == pytest.approx(expected, abs=1e-6)


@pytest.mark.parametrize(
    ("moves", "size"),
    [(1, 2), (9, 2), (29, 2), (30, 3), (55, 5), (80, 8), (95, 8), (400, 8)],
)
def test_window_is_a_tenth_of_the_moves_between_2_and_8(moves: int, size: int) -> None:
    """clamp(moves // 10, 2, 8): 95 // 10 = 9 is cut to 8, 9 // 10 = 0 raised to 2."""
    assert window_size(moves) == size


def test_weights_are_the_movers_deviation_over_the_window_clamped() -> None:
    """Four moves, window 2 (the position before a move and after it). Seat A's share after
    k moves: 50, 60, 30, 35, 35 points (B's the rest of 100).
    Move 1 (A): 50, 60 -> SD 5. Move 2 (B): 40, 70 -> SD 15, clamped to 12.
    Move 3 (A): 30, 35 -> SD 2.5. Move 4 (B): 65, 65 -> SD 0, raised to 0.5."""
    shares = [0.50, 0.60, 0.30, 0.35, 0.35]
    positions = [(a, 1 - a) for a in shares]
    weights = move_weights([0, 1, 0, 1], positions)
    assert weights == pytest.approx([5.0, 12.0, 2.5, 0.5])


def test_early_moves_take_the_first_window_and_the_last_ends_at_the_end() -> None:
    """30 moves, window 3, A and B alternating; every share 50 points but A's 53 after move 1
    and 56 after move 30.
    Moves 1 and 2 have no 3 positions behind them: both take positions 0-2, A's 50, 53, 50
    (mean 51, SD √((1 + 4 + 1)/3) = √2 = 1.41421), B's 50, 47, 50 (the same); a window cut
    short at the start would give move 1 SD(50, 53) = 1.5.
    Move 3 (A): positions 1-3, 53, 50, 50 -> √2. Move 4: positions 2-4, flat -> 0.5.
    Move 29 (A): positions 27-29, flat -> 0.5. Move 30 (B): positions 28-30, 50, 50, 44
    (mean 48, SD √((4 + 4 + 16)/3) = √8 = 2.82843)."""
    shares = [0.5] * 31
    shares[1], shares[30] = 0.53, 0.56
    positions = [(a, 1 - a) for a in shares]
    movers = [move % 2 for move in range(30)]
    weights = move_weights(movers, positions)
    root2 = math.sqrt(2)
    assert weights[:4] == pytest.approx([root2, root2, root2, 0.5])
    assert weights[4:29] == pytest.approx([0.5] * 25)
    assert weights[29] == pytest.approx(math.sqrt(8))


def test_a_game_of_n_moves_needs_n_plus_1_positions() -> None:
    with pytest.raises(ValueError, match="n \\+ 1 positions"):
        move_weights([0, 1], [(0.5, 0.5), (0.5, 0.5)])


def test_accuracy_is_the_mean_of_the_weighted_and_harmonic_means() -> None:
    """Accuracies 100 and 50, weights 1 and 3: weighted (100 + 150) / 4 = 62.5; harmonic
    2 / (1/100 + 1/50) = 66.6667; their mean 64.58333."""
    assert accuracy([100.0, 50.0], [1.0, 3.0]) == pytest.approx(64.583333, abs=1e-5)


def test_a_zero_accuracy_counts_as_1_in_the_harmonic_mean() -> None:
    """Accuracies 100 and 0, equal weights: weighted 50; harmonic 2 / (1/100 + 1/1) = 1.980198
    (a 0 would make it 0, as lichess's floor at 1 avoids); their mean 25.990099."""
    assert accuracy([100.0, 0.0], [0.5, 0.5]) == pytest.approx(25.990099, abs=1e-5)


def test_no_move_has_no_accuracy() -> None:
    assert accuracy([], []) is None
