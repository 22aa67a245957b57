"""`kingdoms review`: a record file judged move by move, and `--all` filling the lake's review
cache for the replay viewer with the recorded games only, once."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from streamlit.testing.v1 import AppTest

from data.cli import main
from data.commands import review as review_command
from data.importer import import_records
from data.lake import Lake
from data.reader import connect, execute
from data.review_rows import DEFAULT_SEED
from data.reviews import load_review
from data.simulate import Plan, simulate
from engine.agents import make_agent, play_game
from engine.cli_support import BadInput
from engine.evaluate import DEFAULT_BUDGET
from engine.record import record_from_state, write_record
from engine.state import Game
from tests.lakes import APP_PAGES, RECORDS


def _review_args(path: Path, **overrides: object) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    review_command.add_arguments(parser)
    args = parser.parse_args([str(path), "--budget", "5"])
    for key, value in overrides.items():
        setattr(args, key, value)
    return args


def test_review_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = play_game(Game(2), [make_agent("greedy", 1), make_agent("random", 2)], seed=4)
    path = tmp_path / "game.kgn"
    tags = {"Edition": "kingdoms-2011", "A": "Ann", "B": "Bob"}
    path.write_text(write_record(record_from_state(state, tags)))
    assert review_command.run(_review_args(path, json=True)) == 0
    moves = json.loads(capsys.readouterr().out)["moves"]
    assert len(moves) == 90 and moves[0]["seat"] in ("A", "B")
    assert all(move["gold_loss"] >= 0 for move in moves)
    assert review_command.run(_review_args(path)) == 0
    assert "epoch 3" in capsys.readouterr().out


def test_review_of_a_bad_record_is_bad_input(tmp_path: Path) -> None:
    path = tmp_path / "bad.kgn"
    path.write_text("not a record\n")
    with pytest.raises(BadInput, match=r"bad\.kgn:1:1:"):
        review_command.run(_review_args(path))


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["review"], "name a FILE.kgn to review, or --all"),
        (["review", "game.kgn", "--all"], "name a FILE.kgn to review, or --all"),
        (["review", "--all", "--lake", "{missing}"], "no lake there"),
        (["review", "--all", "--workers", "0", "--lake", "{lake}"], "--workers"),
        (["review", "game.kgn", "--player", "Ann"], "--player: only with --all"),
    ],
)
def test_review_bad_arguments_are_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    folders = {"missing": str(tmp_path / "missing"), "lake": str(tmp_path)}
    assert main([word.format(**folders) for word in argv]) == 2
    error = capsys.readouterr().err.strip()
    assert message in error and "\n" not in error
    assert not (tmp_path / "missing").exists()


@pytest.mark.slow
def test_review_all_fills_the_viewers_cache_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lake = Lake(tmp_path / "lake")
    simulate(lake, Plan(2, players=(2,), seed=11, batch_size=2), progress=False)
    assert import_records(lake, sorted(RECORDS.glob("*.kgn"))[:2]).errors == []
    con = connect(lake)
    games = execute(con, "SELECT game_id, source FROM games ORDER BY game_id")
    recorded = games.filter(source="recorded")["game_id"].to_list()
    simulated = games.filter(source="simulated")["game_id"].to_list()
    assert len(recorded) == 2 and len(simulated) == 2

    assert main(["review", "--lake", str(lake.root), "--all", "--workers", "2"]) == 0
    assert "reviewed 2 recorded games" in capsys.readouterr().err
    for game_id in recorded:
        review = load_review(lake, game_id, DEFAULT_BUDGET, DEFAULT_SEED)
        plies = execute(con, "SELECT count(*) AS n FROM moves WHERE game_id = $g", {"g": game_id})
        assert review is not None and review.height == plies["n"][0]
    assert all(load_review(lake, g, DEFAULT_BUDGET, DEFAULT_SEED) is None for g in simulated)

    stored = sorted((lake.root / "reviews").rglob("*.parquet"))
    stamps = [path.stat().st_mtime_ns for path in stored]
    assert main(["review", "--lake", str(lake.root), "--all"]) == 0
    assert "reviewed 0 recorded games" in capsys.readouterr().err
    assert sorted((lake.root / "reviews").rglob("*.parquet")) == stored
    assert [path.stat().st_mtime_ns for path in stored] == stamps

    monkeypatch.setenv("KINGDOMS_LAKE", str(lake.root))
    app = AppTest.from_file(str(APP_PAGES / "replay.py"), default_timeout=60)
    app.query_params["game"] = str(recorded[0])
    app.run()
    assert not app.exception
    assert not [button for button in app.button if button.key == "replay_review"]
    assert app.selectbox(key="replay_jump") is not None


@pytest.mark.slow
def test_review_all_on_a_local_dask_cluster_writes_the_local_rows(tmp_path: Path) -> None:
    """The same arguments and seed give the same reviews whichever executor runs them."""
    records = sorted(RECORDS.glob("*.kgn"))[:2]
    written = {}
    for where, extra in (("local", ["--workers", "1"]), ("dask", ["--cluster", "local"])):
        lake = Lake(tmp_path / where)
        assert import_records(lake, records).errors == []
        argv = ["review", "--all", "--budget", "20", "--lake", str(lake.root), *extra]
        assert main([*argv, "--workers", "2"] if where == "dask" else argv) == 0
        written[where] = {
            path.relative_to(lake.root): pq.read_table(path)
            for path in (lake.root / "reviews").rglob("*.parquet")
        }
    assert len(written["local"]) == 2 and written["dask"].keys() == written["local"].keys()
    assert all(written["dask"][path].equals(table) for path, table in written["local"].items())
