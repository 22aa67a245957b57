"""`kingdoms review --all --agents-sample N`: the first N simulated games of each agent reviewed
into the cache, once, and `kingdoms insights` placing a player's accuracy among the agents'."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

from data.accuracy import seat_accuracy
from data.cli import main
from data.importer import import_records
from data.lake import Lake
from data.ratings import ratings
from data.reader import connect, execute
from data.reviews import has_review, load_review
from data.simulate import Plan, simulate
from data.strength import Rung, place
from engine.agents import make_agent, play_game
from engine.record import record_from_state, write_record
from engine.state import Game
from tests.lakes import scratch_lake

BUDGET, SEED, SAMPLE = 2, 1, 2  # a tiny review budget: the placement, not its precision


@pytest.fixture(scope="module")
def lake(tmp_path_factory: pytest.TempPathFactory) -> Lake:
    """Random games, the records, and greedy playing random in a few 2-player games."""
    lake = scratch_lake(tmp_path_factory.mktemp("agents-lake"))
    simulate(lake, Plan(4, players=(2,), agents=("greedy", "random"), seed=12), progress=False)
    return lake


def _agent_games(lake: Lake, agent: str) -> list[int]:
    """The agent's simulated games by id, read here without the command's query."""
    return execute(
        connect(lake),
        "SELECT DISTINCT game_id FROM seats JOIN games USING (game_id) "
        "WHERE source = 'simulated' AND agent = $a ORDER BY game_id",
        {"a": agent},
    )["game_id"].to_list()


def _review(lake: Lake, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, str]:
    argv = ["review", "--all", "--budget", str(BUDGET), "--seed", str(SEED), "--workers", "1"]
    code = main([*argv, "--lake", str(lake.root), *extra])
    return code, capsys.readouterr().err


def test_each_agents_sample_is_reviewed_once_and_placed_against(
    lake: Lake, capsys: pytest.CaptureFixture[str]
) -> None:
    code, said = _review(lake, capsys, "--agents-sample", str(SAMPLE))
    assert code == 0 and "simulated games of the agents" in said
    sampled = {agent: _agent_games(lake, agent)[:SAMPLE] for agent in ("random", "greedy")}
    assert all(len(ids) == SAMPLE for ids in sampled.values())
    for ids in sampled.values():
        assert all(has_review(lake, game_id, BUDGET, SEED) for game_id in ids)
    chosen = set(sampled["random"]) | set(sampled["greedy"])
    beyond = set(_agent_games(lake, "random")) - chosen
    assert beyond and not any(has_review(lake, game_id, BUDGET, SEED) for game_id in beyond)
    reviewed = len(chosen)
    assert f"reviewed {reviewed} simulated games of the agents" in said

    _, again = _review(lake, capsys, "--agents-sample", str(SAMPLE))
    assert "reviewed 0 simulated games of the agents" in again
    assert f"{reviewed} were reviewed already" in again.splitlines()[-1]

    argv = ["insights", "Ann", "--json", "--budget", str(BUDGET), "--lake", str(lake.root)]
    assert main(argv) == 0
    found = json.loads(capsys.readouterr().out)
    ladder = {rung["agent"]: rung for rung in found["strength"]["accuracy_ladder"]}
    for agent in sampled:  # every reviewed game the agent sat in, of its sample or another's
        ids = sorted(chosen & set(_agent_games(lake, agent)))
        assert ladder[agent]["games"] == len(ids) >= SAMPLE
        assert ladder[agent]["mean"] == pytest.approx(_mean_accuracy(lake, agent, ids))
    assert all(ladder[agent]["games"] == 0 for agent in ("heuristic", "apprentice", "strong"))
    placed = found["strength"]["by_accuracy"]
    assert placed["mean"] == pytest.approx(found["accuracy"])
    below = [a for a in ("random", "greedy") if ladder[a]["mean"] <= found["accuracy"]]
    above = [a for a in ("random", "greedy") if ladder[a]["mean"] > found["accuracy"]]
    expected = (
        f"between {below[-1]} and {above[0]}"
        if below and above
        else f"above {below[-1]}"
        if below
        else f"below {above[0]}"
    )
    assert placed["placement"] == expected
    assert found["strength"]["by_results"] is None  # Ann never sat with an agent


def _mean_accuracy(lake: Lake, agent: str, ids: list[int]) -> float:
    """The agent's mean game accuracy over the games, its seats' accuracy from each review."""
    seats = execute(connect(lake), "SELECT game_id, seat FROM seats WHERE agent = $a", {"a": agent})
    values = []
    for game_id in ids:
        held = seats.filter(pl.col("game_id") == game_id)["seat"].to_list()
        table = seat_accuracy(load_review(lake, game_id, BUDGET, SEED))  # type: ignore[arg-type]
        scores = table.filter(pl.col("seat").is_in(held) & pl.col("epoch").is_null())["accuracy"]
        values.append(sum(scores) / len(scores))
    return sum(values) / len(values)


def test_without_agent_reviews_insights_say_how_to_make_them(
    lake: Lake, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["insights", "Ann", "--budget", str(BUDGET + 1), "--lake", str(lake.root)]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "no agent game reviewed yet at budget 3" in out
    assert "`kingdoms review --all --agents-sample 20 --budget 3 --seed 1`" in out


@pytest.mark.parametrize(
    ("extra", "message"),
    [(("--agents-sample", "0"), "at least 1 game"), (("--agents-sample", "x"), "--agents-sample")],
)
def test_a_bad_sample_is_one_line_and_exit_2(
    lake: Lake, capsys: pytest.CaptureFixture[str], extra: tuple[str, ...], message: str
) -> None:
    code, said = _review(lake, capsys, *extra)
    assert code == 2 and said.count("\n") == 1 and message in said


def test_a_sample_needs_all(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "game.kgn"
    record.write_text("")
    assert main(["review", str(record), "--agents-sample", "2"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--agents-sample: only with --all" in err


def test_a_player_who_played_agents_is_placed_by_results_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lake = Lake(tmp_path / "lake")
    simulate(lake, Plan(6, players=(2,), agents=("greedy", "random"), seed=13), progress=False)
    records = []
    for seed in range(6):  # Cy's moves are the random agent's, against greedy at seat B
        state = play_game(Game(2), [make_agent("random", seed), make_agent("greedy", 1)], seed)
        path = tmp_path / f"cy-{seed}.kgn"
        path.write_text(write_record(record_from_state(state, {"A": "Cy", "AgentB": "greedy"})))
        records.append(path)
    assert import_records(lake, records).errors == []
    argv = ["insights", "Cy", "--json", "--budget", str(BUDGET), "--lake", str(lake.root)]
    assert main(argv) == 0
    found = json.loads(capsys.readouterr().out)["strength"]
    rated = ratings(connect(lake), {})
    own = rated.filter((pl.col("player") == "Cy") & (pl.col("kind") == "person")).row(0, named=True)
    agents = {
        row["player"]: row["rating"]
        for row in rated.filter(pl.col("kind") == "agent").iter_rows(named=True)
    }
    assert {rung["agent"] for rung in found["rating_ladder"]} == set(agents) == {"greedy", "random"}
    assert found["by_results"]["mean"] == pytest.approx(own["rating"])
    assert found["by_results"]["interval"] == pytest.approx([own["rating_low"], own["rating_high"]])
    ladder = [Rung(name, 1, rating, None) for name, rating in agents.items()]
    assert found["by_results"]["placement"] == place(own["rating"], ladder).text()
    assert found["by_accuracy"] is None  # no game of Cy reviewed
