"""Arguments the data commands refuse: exit 2, one line on stderr naming what is wrong, and
nothing written (no lake created by a reader, no file touched by a refused writer)."""

from __future__ import annotations

from pathlib import Path

import pytest

from data.cli import main
from data.lake import Lake
from engine.agents.registry import MAX_MCTS_ITERATIONS
from tests.lakes import RECORDS, scratch_lake

RECORD = str(sorted(RECORDS.glob("*.kgn"))[0])
TOO_DEEP = f"mcts-{MAX_MCTS_ITERATIONS + 1}"

# (arguments, with LAKE, FILE and MISSING standing for a lake, a plain file and a path that
# does not exist; what the one line on stderr must say)
CASES = {
    "simulate into a file": (["simulate", "--games", "2", "--lake", "FILE"], "not a folder"),
    "simulate under /proc": (["simulate", "--games", "2", "--lake", "/proc/nope"], "cannot write"),
    "simulate a huge seed": (["simulate", "--seed", "9" * 23, "--lake", "LAKE"], "--seed"),
    "simulate a negative huge seed": (["simulate", "--seed", "-" + "9" * 14], "--seed"),
    "simulate too many games": (["simulate", "--games", str(10**10), "--lake", "LAKE"], "--games"),
    "simulate too deep a search": (
        ["simulate", "--agents", f"random,{TOO_DEEP}", "--lake", "LAKE"],
        f"at most {MAX_MCTS_ITERATIONS:,} iterations",
    ),
    "tournament too deep a search": (
        ["tournament", "--agents", f"random,{TOO_DEEP}", "--games", "1"],
        f"at most {MAX_MCTS_ITERATIONS:,} iterations",
    ),
    "tournament into a file": (
        ["tournament", "--agents", "random,random", "--games", "1", "--lake", "FILE"],
        "not a folder",
    ),
    "simulate an unknown preset": (["simulate", "--preset", "huge", "--lake", "LAKE"], "--preset"),
    "import into a file": (["import", RECORD, "--lake", "FILE"], "not a folder"),
    "import under /proc": (["import", RECORD, "--lake", "/proc/nope"], "cannot write"),
    "query a missing lake": (["query", "SELECT 1", "--lake", "MISSING"], "no lake there"),
    "query a file": (["query", "SELECT 1", "--lake", "FILE"], "not a folder"),
    "export from a missing lake": (["export", "1", "--lake", "MISSING"], "no lake there"),
    "check a missing lake": (["lake", "check", "--lake", "MISSING"], "no lake there"),
}


@pytest.fixture(scope="module")
def lake(tmp_path_factory: pytest.TempPathFactory) -> Lake:
    return scratch_lake(tmp_path_factory.mktemp("lake"))


def _contents(folder: Path) -> dict[Path, bytes]:
    return {path: path.read_bytes() for path in folder.rglob("*") if path.is_file()}


@pytest.mark.parametrize("case", CASES)
def test_bad_argument_is_one_line_and_writes_nothing(lake, tmp_path, capsys, monkeypatch, case):
    arguments, said = CASES[case]
    plain, missing = tmp_path / "notes.txt", tmp_path / "missing"
    plain.write_text("not a lake\n")
    stand_ins = {"LAKE": str(lake.root), "FILE": str(plain), "MISSING": str(missing)}
    monkeypatch.setenv("KINGDOMS_LAKE", str(lake.root))
    before = _contents(lake.root)
    assert main([stand_ins.get(a, a) for a in arguments]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and said in err, err
    assert _contents(lake.root) == before
    assert plain.read_text() == "not a lake\n" and not missing.exists()


@pytest.mark.parametrize("preset", ["default", "research"])
def test_a_preset_leaves_a_lake_with_games_as_it_is(lake, capsys, preset):
    before = _contents(lake.root)
    assert main(["simulate", "--preset", preset, "--lake", str(lake.root)]) == 0
    assert "already holds games" in capsys.readouterr().err
    assert _contents(lake.root) == before
