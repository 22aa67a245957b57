"""A stored review's accuracy per seat, for the game and per epoch, on a hand-made review."""

from __future__ import annotations

import polars as pl
import pytest

from data.accuracy import positions, seat_accuracy


def _review() -> pl.DataFrame:
    """Four moves of two seats; A's expected win share before each 0.50, 0.60, 0.30, 0.35,
    and B's last move (0.65, no loss) leaves it at 0.35."""
    return pl.DataFrame(
        {
            "ply": [1, 2, 3, 4],
            "seat": ["A", "B", "A", "B"],
            "move": ["C1 a1", "C1 b1", "d+1 c1", "pass"],
            "expected": [[0.5, 0.5], [0.6, 0.4], [0.3, 0.7], [0.35, 0.65]],
            "played_value": [0.5, 0.39, 0.2, 0.65],
            "loss": [0.0, 0.01, 0.10, 0.0],
            "quality": ["best", "excellent", "inaccuracy", "best"],
        }
    )


def test_positions_end_with_the_last_movers_played_value() -> None:
    """After the last move its mover (B) holds its played value, A the rest."""
    review = _review().with_columns(played_value=pl.Series([0.5, 0.39, 0.2, 0.6]))
    assert positions(review)[-1] == pytest.approx((0.4, 0.6))
    found = [share for position in positions(_review()) for share in position]
    assert found == pytest.approx([0.5, 0.5, 0.6, 0.4, 0.3, 0.7, 0.35, 0.65, 0.35, 0.65])


def test_each_seats_accuracy_for_the_game_and_per_epoch() -> None:
    """Window 2, so the weights are 5, 12, 2.5, 0.5 (tests/engine/test_accuracy.py's game).
    A: accuracies 100 (loss 0) and 64.5826 (loss 0.10), weights 5 and 2.5: weighted 88.19421,
    harmonic 78.48049, accuracy 83.33735; epoch 1 (its first move) 100, epoch 2 64.58262.
    B: 96.60440 (loss 0.01) and 100, weights 12 and 0.5: weighted 96.74023, harmonic 98.27288,
    accuracy 97.50655; epoch 1 96.60440, epoch 2 100."""
    table = seat_accuracy(_review(), [1, 1, 2, 2])
    rows = {(r["seat"], r["epoch"]): r for r in table.iter_rows(named=True)}
    assert rows[("A", None)]["accuracy"] == pytest.approx(83.33735, abs=1e-4)
    assert rows[("B", None)]["accuracy"] == pytest.approx(97.50655, abs=1e-4)
    assert rows[("A", 1)]["accuracy"] == pytest.approx(100.0)
    assert rows[("A", 2)]["accuracy"] == pytest.approx(64.58262, abs=1e-4)
    assert rows[("B", 1)]["accuracy"] == pytest.approx(96.60440, abs=1e-4)
    assert rows[("B", 2)]["accuracy"] == pytest.approx(100.0)
    assert rows[("A", None)]["moves"] == 2 and rows[("A", 2)]["moves"] == 1
    assert [rows[("A", None)][c] for c in ("inaccuracies", "mistakes", "blunders")] == [1, 0, 0]
    assert [rows[("B", None)][c] for c in ("inaccuracies", "mistakes", "blunders")] == [0, 0, 0]


def test_without_epochs_only_the_games_rows() -> None:
    table = seat_accuracy(_review())
    assert table["epoch"].to_list() == [None, None]
    assert seat_accuracy(_review().head(0)).is_empty()
