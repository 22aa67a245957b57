"""The score and replay commands: output shapes, exit codes and error lines."""

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from data.cli import main
from engine.record import record_from_state, write_record
from engine.state import Game
from tests.engine.boards import NOTATION_EXAMPLE, board
from tests.random_games import random_game

EXAMPLE = NOTATION_EXAMPLE


def test_score_json_names_every_seat_on_the_board(capsys: pytest.CaptureFixture) -> None:
    assert main(["score", "--json", EXAMPLE]) == 0
    assert json.loads(capsys.readouterr().out)["gold"] == {"A": 44, "B": 3, "C": 53}


def test_score_with_players_lists_every_seat(capsys: pytest.CaptureFixture) -> None:
    assert main(["score", "--json", "--players", "4", board("A1 +5 . . . .")]) == 0
    assert json.loads(capsys.readouterr().out)["gold"] == {"A": 5, "B": 0, "C": 0, "D": 0}


def test_score_explains_lines(capsys: pytest.CaptureFixture) -> None:
    assert main(["score", board("A1 WZ +6 . . .")]) == 0
    out = capsys.readouterr().out
    assert "row 1" in out and "A rank 2 → +12" in out and "gold: A +12" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["score", board("A1 Q7 . . . .")], "row 1, token 2: unknown piece 'Q7'"),
        (["score", "A1 . . . . ."], "expected 5 rows separated by '/', found 1"),
        (["score", board("Z1 . . . . .")], "row 1, token 1: unknown piece 'Z1'"),
        (["score", "--players", "2", board("C1 +1 . . . .")], "no seat C in a 2-player game"),
    ],
)
def test_bad_boards_exit_2_with_one_line(
    args: list[str], message: str, capsys: pytest.CaptureFixture
) -> None:
    assert main(args) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def _write_game(path: Path, seed: int = 1) -> Game:
    state = random_game(Game(3), seed)
    path.write_text(write_record(record_from_state(state, {})))
    return state


def test_replay_json(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    state = _write_game(tmp_path / "game.kgn")
    assert main(["replay", "--json", str(tmp_path / "game.kgn")]) == 0
    result = json.loads(capsys.readouterr().out)
    best = max(state.gold)
    assert result["gold"] == dict(zip("ABC", state.gold, strict=True))
    assert result["winners"] == [s for s, g in zip("ABC", state.gold, strict=True) if g == best]
    assert result["plies"] >= 90


def test_replay_bad_record_names_file_line_and_column(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    path = tmp_path / "game.kgn"
    path.write_text(
        '[Edition "kingdoms-2011"]\n[A "Ann"]\n[B "Bob"]\n\n'
        "epoch 1\nstart A=+1 B=+2\nA C4 a1\nA C3 b1\n"
    )
    assert main(["replay", str(path)]) == 2
    assert capsys.readouterr().err == f"{path}:8:1: seat A cannot move now, it is B's turn\n"


def test_replay_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(["replay", str(tmp_path / "none.kgn")]) == 2
    assert "No such file" in capsys.readouterr().err


def test_the_installed_command_gives_no_traceback() -> None:
    kingdoms = shutil.which("kingdoms") or str(Path(__file__).parents[2] / ".venv/bin/kingdoms")
    done = subprocess.run(
        [kingdoms, "score", board("A1 Q7 . . . .")], capture_output=True, text=True, check=False
    )
    assert done.returncode == 2
    assert done.stderr == "row 1, token 2: unknown piece 'Q7'\n"
    helped = subprocess.run([kingdoms, "--help"], capture_output=True, text=True, check=True)
    for command in ("score", "replay", "bench"):
        assert command in helped.stdout


def test_every_subcommand_has_help(capsys: pytest.CaptureFixture) -> None:
    from data.cli import COMMANDS

    for command in COMMANDS:
        assert main([command.NAME, "--help"]) == 0
        assert f"usage: kingdoms {command.NAME}" in capsys.readouterr().out
