"""Two rule sets compared: games played into the lake once and reused, each side's figures the
lake's own, each difference B − A with its interval and the verdict its rule gives."""

from __future__ import annotations

import math
from pathlib import Path

import polars as pl
import pytest

from data.balance import balance_by_players
from data.compare import (
    NO_INTERVAL,
    REAL,
    SKILL_BUDGETS,
    UNCLEAR,
    Comparison,
    compare,
    differences_of,
    parameter_differences,
    shipped_name,
    shipped_rules,
    side_seed,
    table_level,
)
from data.lake import Lake
from data.reader import connect, execute
from data.simulate import Plan, PlanError, plan_games
from engine.rules import PLAYER_COUNTS, RuleSet, rule_set, rules_from_text, rules_hash
from engine.stats import wilson_interval

GAMES = 60  # per rule set, 20 at each of 2, 3 and 4 players
SKILL_GAMES = 2  # a rung of skill depth's ladder, at each player count
TRIPLE_MINE = 'name = "Triple mine"\nbase = "kingdoms-2011"\n[gold_mine]\nfactor = 3\n'


@pytest.fixture(scope="module")
def rule_sets() -> tuple[RuleSet, RuleSet]:
    return rule_set("kingdoms-2011"), rules_from_text(TRIPLE_MINE)


@pytest.fixture(scope="module")
def compared(
    tmp_path_factory: pytest.TempPathFactory, rule_sets: tuple[RuleSet, RuleSet]
) -> tuple[Lake, Comparison, list[tuple[int, int]]]:
    lake = Lake(tmp_path_factory.mktemp("compare"))
    lake.require_writable()
    heard: list[tuple[int, int]] = []
    comparison = compare(
        *rule_sets,
        lake,
        games=GAMES,
        workers=1,
        skill_games=SKILL_GAMES,
        progress=lambda done, total: heard.append((done, total)),
    )
    return lake, comparison, heard


def _lake_filters(rules: RuleSet) -> dict[str, object]:
    """The filters a reader of the lake keeps one side's heuristic games with."""
    return {"rules": rules_hash(rules), "level": "heuristic", "source": "simulated"}


def _figure(comparison: Comparison, players: int, figure: str) -> dict:
    rows = comparison.figures.filter((pl.col("players") == players) & (pl.col("figure") == figure))
    assert rows.height == 1, figure
    return rows.row(0, named=True)


@pytest.mark.parametrize("side", ["a", "b"])
def test_each_side_seat_shares_are_the_lakes(compared, rule_sets, side) -> None:
    lake, comparison, _ = compared
    rules = rule_sets[0] if side == "a" else rule_sets[1]
    seats = execute(connect(lake), "seat_advantage", {**_lake_filters(rules), "by": "position"})
    assert seats.height == 2 + 3 + 4
    for row in seats.iter_rows(named=True):
        shown = _figure(comparison, row["players"], f"win share of mover {row['position']}")
        assert shown[f"value_{side}"] == pytest.approx(row["mean_win_share"])
        assert shown[f"low_{side}"] == pytest.approx(row["ci_low"])
        assert shown[f"high_{side}"] == pytest.approx(row["ci_high"])
        assert shown[f"games_{side}"] == row["seats"] == GAMES // 3


@pytest.mark.parametrize("side", ["a", "b"])
def test_each_side_balance_and_margin_are_the_lakes(compared, rule_sets, side) -> None:
    lake, comparison, _ = compared
    rules = rule_sets[0] if side == "a" else rule_sets[1]
    con = connect(lake)
    balance = balance_by_players(execute(con, "balance_outcomes", _lake_filters(rules)))
    summary = execute(con, "balance_summary", _lake_filters(rules))
    for row in balance.iter_rows(named=True):
        shown = _figure(comparison, row["players"], "balance")
        assert (shown[f"value_{side}"], shown[f"low_{side}"], shown[f"high_{side}"]) == (
            pytest.approx(row["balance"]),
            pytest.approx(row["balance_low"]),
            pytest.approx(row["balance_high"]),
        )
    for row in summary.iter_rows(named=True):
        shown = _figure(comparison, row["players"], "mean winning margin")
        assert shown[f"value_{side}"] == pytest.approx(row["mean_victory_margin"])
        half_width = shown[f"high_{side}"] - shown[f"value_{side}"]
        assert half_width == pytest.approx(row["victory_margin_half_width"])


def test_a_mean_difference_has_the_specs_interval(compared) -> None:
    """docs: √(SE₁² + SE₂²) for a difference (the spec's metrics), i.e. the half widths combined."""
    _, comparison, _ = compared
    for players in (2, 3, 4):
        row = _figure(comparison, players, "mean winning margin")
        assert row["difference"] == pytest.approx(row["value_b"] - row["value_a"])
        half_widths = (row["high_a"] - row["value_a"], row["high_b"] - row["value_b"])
        expected = math.hypot(*half_widths)
        assert row["difference_high"] - row["difference"] == pytest.approx(expected)
        assert row["difference"] - row["difference_low"] == pytest.approx(expected)


def test_verdicts_follow_the_rule_and_shares_stay_in_range(compared) -> None:
    _, comparison, _ = compared
    for row in comparison.figures.iter_rows(named=True):
        if row["low_a"] is None or row["low_b"] is None:
            assert row["verdict"] == NO_INTERVAL
            continue
        excludes_zero = row["difference_low"] > 0 or row["difference_high"] < 0
        assert row["verdict"] == (REAL if excludes_zero else UNCLEAR)
        assert row["difference_low"] <= row["difference"] <= row["difference_high"]
        if row["unit"] == "share":
            assert row["difference_low"] >= -1 and row["difference_high"] <= 1


def test_a_rerun_simulates_nothing_new(compared, rule_sets) -> None:
    lake, first, heard = compared
    assert first.simulated == 2 * GAMES
    # each side's games played, then measured, then its skill-depth games at each player count
    steps = 4 * GAMES + 2 * SKILL_GAMES * len(SKILL_BUDGETS) * len(PLAYER_COUNTS)
    assert heard[-1] == (steps, steps)
    assert [done for done, _ in heard] == sorted(done for done, _ in heard)
    batches = lake.batches()
    again = compare(*rule_sets, lake, games=GAMES, workers=1, skill_games=SKILL_GAMES)
    assert again.simulated == 0
    assert lake.batches() == batches
    assert again.figures.equals(first.figures)


def test_the_design_measures_read_the_games_the_lake_holds(compared, rule_sets) -> None:
    lake, comparison, _ = compared
    plans = [
        Plan(GAMES, PLAYER_COUNTS, ("heuristic",), rules, side_seed(rules, 0))
        for rules in rule_sets
    ]
    replayed = {game for plan in plans for game in plan_games(plan, 0, GAMES).ids.tolist()}
    assert replayed == lake.stored_ids()
    for players in (2, 3, 4):
        row = _figure(comparison, players, "design: luck share")
        assert row["games_a"] == row["games_b"] == GAMES // 3
        assert 0 <= row["low_a"] <= row["value_a"] <= row["high_a"] <= 1


def test_the_differing_parameters_are_listed(compared) -> None:
    _, comparison, _ = compared
    assert comparison.differences == (("gold_mine.factor", "2", "3"),)


def test_parameter_differences_in_the_texts_order() -> None:
    base = rule_set("kingdoms-2011")
    changed = rules_from_text('base = "kingdoms-2011"\nstart_gold = 40\n[tiles]\nGM = 0\n')
    assert parameter_differences(base, changed) == (
        ("start_gold", str(base.start_gold), "40"),
        ("tiles.GM", "1", "0"),
    )
    assert parameter_differences(base, base) == ()


def test_a_number_of_lead_changes_one_side_never_saw_is_none_of_its_games() -> None:
    def side(shares: dict[str, float]) -> pl.DataFrame:
        return pl.DataFrame(
            {
                "order": range(len(shares) + 1),
                "players": [2] * (len(shares) + 1),
                "figure": ["balance", *shares],
                "value": [0.9, *shares.values()],
                "low": [0.8, *(share - 0.1 for share in shares.values())],
                "high": [1.0, *(share + 0.1 for share in shares.values())],
                "games": [40] * (len(shares) + 1),
                "unit": ["share"] * (len(shares) + 1),
            }
        )

    a = side({"games with 0 lead changes": 1.0})
    b = side({"games with 0 lead changes": 0.5, "games with 1 lead change": 0.5})
    row = (
        differences_of(a, b)
        .filter(pl.col("figure") == "games with 1 lead change")
        .row(0, named=True)
    )
    assert (row["value_a"], row["games_a"]) == (0.0, 40)
    assert (row["low_a"], row["high_a"]) == pytest.approx(wilson_interval(0, 40))


def test_each_rule_set_plays_on_its_own_seed(rule_sets) -> None:
    a, b = rule_sets
    assert side_seed(a, 0) != side_seed(b, 0)
    assert side_seed(a, 0) == side_seed(rule_set("kingdoms-2011"), 0)


@pytest.mark.parametrize(
    ("agents", "level"),
    [(("heuristic",), "heuristic"), (("strong", "greedy", "heuristic"), "greedy")],
)
def test_the_play_level_is_the_weakest_agents(agents, level) -> None:
    assert table_level(agents) == level


@pytest.mark.parametrize("agents", [("mcts-40",), ("nobody",), ()])
def test_agents_without_a_level_are_refused(agents) -> None:
    with pytest.raises(PlanError, match="--agents"):
        table_level(agents)


@pytest.mark.parametrize("name", ["kingdoms-2011", "kingdoms-2002+no-luck+last-castle"])
def test_shipped_names_round_trip(name) -> None:
    rules = shipped_rules(name)
    assert rules is not None and shipped_name(rules) == name


def test_a_file_name_is_no_shipped_name(tmp_path: Path) -> None:
    assert shipped_rules(str(tmp_path / "mine.toml")) is None
    assert shipped_name(rules_from_text(TRIPLE_MINE)) is None


def test_skill_depth_is_measured_on_games_of_its_own(compared) -> None:
    _, comparison, _ = compared
    depth = comparison.figures.filter(pl.col("figure") == "design: skill depth")
    assert depth["players"].to_list() == list(PLAYER_COUNTS)
    for row in depth.iter_rows(named=True):
        assert row["games_a"] == row["games_b"] == SKILL_GAMES * len(SKILL_BUDGETS)
        for side in ("a", "b"):
            assert 0 <= row[f"low_{side}"] <= row[f"value_{side}"] <= row[f"high_{side}"] <= 1
