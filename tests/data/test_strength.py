"""Estimated strength: a player's figure placed on the agents' ladder, on hand-made accuracies
whose places are read off by hand."""

from __future__ import annotations

import pytest

from data.strength import Placement, Rung, accuracy_rung, estimate, place

# Hand-made mean accuracies, weakest agent first.
LADDER = [
    Rung("random", 40, 60.0, (57.0, 63.0)),
    Rung("greedy", 40, 80.0, (78.0, 82.0)),
    Rung("heuristic", 40, 88.0, (86.0, 90.0)),
    Rung("apprentice", 0, None, None),  # not reviewed yet: no rung to place against
    Rung("strong", 40, 95.0, (94.0, 96.0)),
]


@pytest.mark.parametrize(
    ("value", "below", "above"),
    [
        (85.0, "greedy", "heuristic"),  # 80 ≤ 85 < 88
        (80.0, "greedy", "heuristic"),  # level with greedy reaches it
        (50.0, None, "random"),  # under every agent
        (99.0, "strong", None),  # over every agent
        (91.0, "heuristic", "strong"),  # the apprentice, unreviewed, is left out
    ],
)
def test_a_value_is_placed_between_the_agents_around_it(
    value: float, below: str | None, above: str | None
) -> None:
    assert place(value, LADDER) == Placement(below, above)


def test_the_ladder_is_ordered_by_accuracy_not_by_level() -> None:
    # greedy reviewed above the heuristic: 85 is then between the heuristic (82) and greedy (87)
    swapped = [Rung("greedy", 9, 87.0, None), Rung("heuristic", 9, 82.0, None)]
    assert place(85.0, swapped) == Placement("heuristic", "greedy")


def test_an_estimate_places_its_mean_and_both_ends_of_its_interval() -> None:
    found = estimate(85.0, 12, (79.0, 91.0), LADDER)
    assert found is not None
    assert found.placement.text() == "between greedy and heuristic"
    assert found.low == Placement("random", "greedy")
    assert found.high == Placement("heuristic", "strong")
    assert "95% interval 79.0 to 91.0" in found.text(".1f")
    assert "from between random and greedy to between heuristic and strong" in found.text(".1f")
    single = estimate(85.0, 1, None, LADDER)
    assert single is not None and single.low is None and single.high is None
    assert "no interval from one game" in single.text(".1f")
    assert estimate(None, 0, None, LADDER) is None  # no reviewed game of the player
    assert estimate(85.0, 3, (80.0, 90.0), [Rung("random", 0, None, None)]) is None


def test_an_agents_rung_is_the_mean_of_its_games_within_0_to_100() -> None:
    # two games: SE = |98 − 90| / 2 = 4, t(1) = 12.7062 (tables): 94 ± 50.8, cut at 100
    rung = accuracy_rung("greedy", [98.0, 90.0])
    assert (rung.games, rung.mean) == (2, 94.0)
    assert rung.interval == pytest.approx((94.0 - 12.7062 * 4, 100.0), abs=1e-3)
    assert accuracy_rung("strong", []) == Rung("strong", 0, None, None)
    assert accuracy_rung("random", [70.0]).interval is None
    assert Rung("strong", 0, None, None).text(".1f", "reviewed game") == "no reviewed game yet"
