"""Training the apprentice end to end on a tiny run: games played into a real lake, their
decisions described, models fitted and measured, the weights written, loaded and played."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from data.apprentice import train
from data.cli import main
from data.lake import Lake
from engine.kernel.apprentice import load_weights, row_length
from engine.kernel.batch import policy_games
from engine.rules import RuleSet


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Six heuristic games (cheap, unlike the strong search's) as the teacher's."""
    root = tmp_path_factory.mktemp("apprentice")
    lake, out = root / "lake", root / "weights.json"
    arguments = [
        "--lake",
        str(lake),
        "--out",
        str(out),
        "--teacher",
        "heuristic",
        "--games",
        "6",
        "--no-corpus",
        "--hidden",
        "0,2",
        "--passes",
        "1",
        "--measure-games",
        "20",
        "--workers",
        "1",
    ]
    assert main(["apprentice", "train", *arguments]) == 0
    return lake, out


def test_a_tiny_run_goes_end_to_end(trained: tuple[Path, Path]) -> None:
    lake, out = trained
    assert len(Lake(lake).stored_ids()) == 6
    weights = load_weights(out)
    assert weights.hidden in (0, 2)
    assert weights.model.shape == (3, row_length(weights.hidden))
    made = weights.made
    assert made["teacher"] == "heuristic" and made["games"] == {"2": 2, "3": 2, "4": 2}
    assert [figures["hidden"] for figures in made["measured"]] == [0, 2]
    played = policy_games(2, RuleSet(), range(3), ["apprentice", "greedy"], weights.model)
    assert len(played.offsets) == 4


def test_a_rerun_plays_no_game_again(trained: tuple[Path, Path], tmp_path: Path) -> None:
    lake, _ = trained
    before = Lake(lake).batches()
    train(
        Lake(lake),
        tmp_path / "again.json",
        games=6,
        seed=1,
        teacher="heuristic",
        hidden_sizes=(0,),
        passes=1,
        measure_games=10,
        say=lambda _: None,
        progress=False,
    )
    assert Lake(lake).batches() == before


def test_info_says_how_the_weights_were_made(trained: tuple[Path, Path], capsys) -> None:
    _, out = trained
    assert main(["apprentice", "info", str(out), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["teacher"] == "heuristic" and summary["decisions"]["2"] > 0


def test_a_bad_weights_file_is_one_line_and_exit_2(tmp_path: Path, capsys) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "kingdoms-apprentice", "version": 0}')
    assert main(["apprentice", "info", str(bad)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"{bad}: made for version 0") and "\n" not in err


def test_an_unknown_teacher_is_refused_before_the_lake_is_made(tmp_path: Path, capsys) -> None:
    lake = tmp_path / "lake"
    assert main(["apprentice", "train", "--teacher", "nobody", "--lake", str(lake)]) == 2
    assert "unknown agent 'nobody'" in capsys.readouterr().err
    assert not lake.exists()
