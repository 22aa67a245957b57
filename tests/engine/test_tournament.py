"""Tournaments: schedules with rotating seats, ratings, and a run end to end."""

from __future__ import annotations

import argparse
import json

import pytest

from engine.cli_support import BadInput
from engine.commands import tournament as tournament_command
from engine.rules import RuleSet
from engine.tournament import (
    GameResult,
    TableGame,
    ratings,
    run_tournament,
    schedule,
    standings,
    tables,
)


def test_tables_and_seat_rotation() -> None:
    assert tables(["a", "b", "c"], 2) == [("a", "b"), ("a", "c"), ("b", "c")]
    assert tables(["a", "b", "c"], 3) == [("a", "b", "c")]
    assert ("a", "a", "b") in tables(["a", "b"], 3)
    games = schedule(["a", "b", "c"], 3, 3, seed=1)
    assert [g.agents for g in games] == [("a", "b", "c"), ("b", "c", "a"), ("c", "a", "b")]
    assert len({g.seed for g in games}) == 3
    with pytest.raises(ValueError):
        tables(["a", "a"], 2)


def _result(agents: tuple[str, ...], gold: tuple[int, ...], index: int = 0) -> GameResult:
    return GameResult(TableGame(index, agents, agents, str(index)), gold, ())


def test_ratings_order_agents_by_results() -> None:
    results = [_result(("strong", "weak"), (100, 50))] * 8 + [_result(("strong", "weak"), (40, 50))]
    rated = ratings(results)
    assert rated["strong"].rating - rated["strong"].half_width > 1500
    assert rated["weak"].rating + rated["weak"].half_width < 1500
    even = ratings([_result(("x", "y"), (10, 5)), _result(("x", "y"), (5, 10))])
    assert even["x"].rating == pytest.approx(even["y"].rating)


def test_ties_share_the_win() -> None:
    table = standings([_result(("a", "b", "c"), (60, 60, 10))])
    assert table["a"].win_share == table["b"].win_share == 0.5
    assert table["c"].win_share == 0


def test_tournament_is_reproducible_across_workers() -> None:
    scheduled = schedule(["random", "greedy"], 2, 4, seed=5)
    alone = run_tournament(scheduled, RuleSet(), workers=1)
    together = run_tournament(scheduled, RuleSet(), workers=2)
    assert [r.gold for r in alone] == [r.gold for r in together]


def _args(**overrides: object) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    tournament_command.add_arguments(parser)
    args = parser.parse_args(["--agents", "random,greedy,heuristic", "--games", "2"])
    for key, value in overrides.items():
        setattr(args, key, value)
    return args


def test_short_tournament_runs_end_to_end(capsys: pytest.CaptureFixture[str]) -> None:
    assert tournament_command.run(_args(json=True, workers=1)) == 0
    report = json.loads(capsys.readouterr().out)
    assert set(report["agents"]) == {"random", "greedy", "heuristic"}
    for entry in report["agents"].values():
        assert entry["games"] == 4
        low, high = entry["ci95"]
        assert 0 <= low <= entry["win_share"] <= high <= 1
        assert entry["rating_half_width"] > 0
    assert len(report["pairings"]) == 3


def test_human_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert tournament_command.run(_args(players=3, workers=1)) == 0
    out = capsys.readouterr().out
    assert "win_share" in out and "heuristic" in out


def test_bad_agent_name_is_bad_input() -> None:
    with pytest.raises(BadInput, match="unknown agent 'alpha'"):
        tournament_command.run(_args(agents="random,alpha"))
