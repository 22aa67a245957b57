"""The design measures: each game's figures on hand-made traces, the measures of real kernel
games with their intervals, and skill depth on a tiny ladder."""

from __future__ import annotations

import numpy as np
import pytest

from data.design import (
    DEFINITIONS,
    decisiveness,
    design_measures,
    drama,
    lead_changes,
    played_design_measures,
    pooled_share,
    skill_depth,
)
from data.played import PlayedGames
from engine.kernel.batch import policy_games
from engine.rules import RuleSet, rule_set, rules_from_text

# 2 players, 4 turns. Seat 0 wins; the most seat 1 ever reached is 0.70 (point 2), and seat 0
# is above that from point 3 to the end: 3 of the 4 turns were played before, decisiveness
# 0.75. Seat 0 lay behind only at point 2, by 0.70 − 0.30 = 0.40: over the 4 turns' points
# (0, 0, 0.40, 0) drama is 0.10 on average, 0.40 at worst. The lead: level at point 0, then
# seat 0, seat 1, seat 0, seat 0: two changes.
COMEBACK = np.array([[0.5, 0.5], [0.6, 0.4], [0.3, 0.7], [0.8, 0.2], [1.0, 0.0]])
# 3 players, 3 turns: seat 0 leads from the first turn on. The others' highest is the even
# start's 1/3 (later 0.30 and 0.25 at most), which seat 0 (level there) is not above: 1 of 3
# turns played before, decisiveness 1/3; never behind, drama 0; one leader throughout, no change.
RUNAWAY = np.array([[1 / 3, 1 / 3, 1 / 3], [0.5, 0.3, 0.2], [0.6, 0.25, 0.15], [1.0, 0.0, 0.0]])
# Seats 0 and 1 share the win: no single winner to read decisiveness or drama from; the lead
# goes seat 0, seat 1, seat 0, then nobody (level at the end): two changes.
SHARED = np.array([[0.5, 0.3, 0.2], [0.3, 0.6, 0.1], [0.5, 0.4, 0.1], [0.5, 0.5, 0.0]])


@pytest.mark.parametrize(
    ("points", "decisive", "mean", "worst", "changes"),
    [(COMEBACK, 0.75, 0.10, 0.40, 2), (RUNAWAY, 1 / 3, 0.0, 0.0, 0)],
)
def test_a_game_read_from_its_trace(points, decisive, mean, worst, changes):
    assert decisiveness(points) == pytest.approx(decisive)
    assert drama(points) == pytest.approx((mean, worst))
    assert lead_changes(points) == changes


def test_a_shared_win_has_no_winner_to_read():
    assert lead_changes(SHARED) == 2
    with pytest.raises(ValueError, match="won alone"):
        decisiveness(SHARED)
    with pytest.raises(ValueError, match="won alone"):
        drama(SHARED)


def test_a_pooled_share_and_its_interval():
    # 4 hits of 6 over two games; the interval holds the share and stays within [0, 1]
    share, low, high = pooled_share(np.array([1, 3]), np.array([2, 4]))
    assert share is not None and low is not None and high is not None
    assert share == pytest.approx(4 / 6)
    assert 0 <= low < share < high <= 1
    assert pooled_share(np.array([0, 0]), np.array([5, 5]))[:2] == (0.0, 0.0)
    assert pooled_share(np.array([1]), np.array([2])) == (0.5, None, None)  # one game
    assert pooled_share(np.array([0]), np.array([0])) == (None, None, None)


def _actions(players: int, rules: RuleSet, count: int) -> list[bytes]:
    games = policy_games(players, rules, range(count), ("heuristic",) * players)
    return [games.history(g).tobytes() for g in range(count)]


@pytest.fixture(scope="module")
def measures() -> dict[str, dict]:
    """The measures of 40 heuristic games, standard and no-luck, by measure."""
    frames = {
        name: design_measures(rules, 2, _actions(2, rules, 40))
        for name, rules in (
            ("standard", RuleSet()),
            ("no-luck", rule_set("kingdoms-2011", "no-luck")),
        )
    }
    return {
        name: {row["measure"]: row for row in frame.to_dicts()} for name, frame in frames.items()
    }


def test_every_measure_with_its_interval_and_games(measures):
    for rows in measures.values():
        assert list(rows) == list(DEFINITIONS)
        for measure, row in rows.items():
            most = np.inf if measure == "lead changes" else 1.0
            assert 0 <= row["low"] <= row["value"] <= row["high"] <= most
            assert 0 < row["games"] <= 40
            assert row["definition"] == DEFINITIONS[measure]
        assert rows["lead changes"]["games"] == rows["clarity"]["games"] == 40


def test_luck_is_a_share_of_the_result_only_where_tiles_are_drawn(measures):
    assert measures["no-luck"]["luck share"]["value"] == 0.0  # every tile is chosen
    assert measures["standard"]["luck share"]["low"] > measures["no-luck"]["luck share"]["high"]


# 64 cells: 418 action ids, so its games' actions are kept two bytes each
LARGE_BOARD = (
    'base = "kingdoms-2011"\nrows = 8\ncolumns = 8\n'
    '[tiles]\n"+1" = 6\n"+2" = 6\n"+3" = 6\n"+4" = 6\n"+5" = 6\n"+6" = 6\n'
)


@pytest.mark.parametrize("rules", [RuleSet(), rules_from_text(LARGE_BOARD)], ids=["5 x 6", "8 x 8"])
def test_a_batch_of_played_games_gives_the_same_measures(rules):
    kernel = policy_games(3, rules, range(10), ("heuristic",) * 3)
    played = PlayedGames.played(3, rules, kernel, np.arange(10), ("heuristic",) * 3)
    actions = [kernel.history(g).tobytes() for g in range(10)]
    assert played_design_measures(played).equals(design_measures(rules, 3, actions))


def test_skill_depth_on_a_tiny_ladder():
    calls = []
    frame = skill_depth(
        RuleSet(), 2, 2, seed=5, budgets=(2, 4), progress=lambda *a: calls.append(a)
    )
    assert frame["measure"].to_list() == ["skill depth 2", "skill depth 4", "skill depth"]
    assert frame["games"].to_list() == [2, 2, 4]
    for row in frame.to_dicts():
        assert 0 <= row["low"] <= row["value"] <= row["high"] <= 1
    # the summary is every rung's games pooled
    assert frame["value"][2] == pytest.approx(frame["value"][:2].mean())
    assert calls == [(done, 4) for done in range(1, 5)]
    with pytest.raises(ValueError, match="a game a rung"):
        skill_depth(RuleSet(), 2, 0, seed=5)
