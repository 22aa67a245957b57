"""Training the apprentice end to end on a tiny run: games played into a real lake, their
decisions described, models fitted and measured, the weights written, loaded and played."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from data.apprentice import strongest_on_path, train, win_share
from data.cli import main
from data.lake import Lake
from engine.kernel.apprentice import load_weights, row_length
from engine.kernel.batch import policy_games
from engine.learning import starting_model
from engine.rules import RuleSet


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Six greedy games (cheap, unlike the strong search's; not the heuristic, whose games the
    apprentice's 2-player row, its choice, would repeat) as the teacher's, and three of
    the apprentice's labelled by a small search (the next round's)."""
    root = tmp_path_factory.mktemp("apprentice")
    lake, out = root / "lake", root / "weights.json"
    arguments = [
        "--lake",
        str(lake),
        "--out",
        str(out),
        "--teacher",
        "greedy",
        "--games",
        "6",
        "--no-corpus",
        "--learner-games",
        "3",
        "--label-iterations",
        "20",
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
    assert len(Lake(lake).stored_ids()) == 9
    weights = load_weights(out)
    assert weights.hidden in (0, 2)
    assert weights.model.shape == (3, row_length(weights.hidden))
    made = weights.made
    assert made["teacher"] == "greedy" and made["games"] == {"2": 2, "3": 2, "4": 2}
    assert made["learner_games"] == {"2": 1, "3": 1, "4": 1} and made["label_iterations"] == 20
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
        teacher="greedy",
        hidden_sizes=(0,),
        passes=1,
        measure_games=10,
        say=lambda _: None,
        progress=False,
    )
    assert Lake(lake).batches() == before


@pytest.mark.parametrize("players", [2, 3])
def test_the_checkpoint_kept_is_the_one_that_plays_best(players: int) -> None:
    """A row that plays the heuristic's choice and one that plays its worst: the first is
    kept, wherever it lies on the path, and it beats the second by a wide margin."""
    heuristic = starting_model(0, seed=1)
    worst = -heuristic
    model = np.stack([heuristic] * 3)
    for path, expected in (([heuristic, worst], 0), ([worst, worst, heuristic], 2)):
        at, row = strongest_on_path(model, players, path, 60, seed=3)
        assert at == expected and np.array_equal(row, heuristic)
    model[players - 2] = worst
    share = win_share(model, "heuristic", 60, 3, players)[0]
    assert share < 0.5 / (players - 1)


def test_info_says_how_the_weights_were_made(trained: tuple[Path, Path], capsys) -> None:
    _, out = trained
    assert main(["apprentice", "info", str(out), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["teacher"] == "greedy" and summary["decisions"]["2"] > 0


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
