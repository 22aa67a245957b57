"""Arguments the data commands refuse: exit 2, one line on stderr naming what is wrong, and
nothing written (no lake created by a reader, no file touched by a refused writer)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from data.cli import main
from data.lake import Lake
from engine.agents.registry import MAX_MCTS_ITERATIONS
from tests.engine.boards import board
from tests.lakes import RECORDS, scratch_lake

RECORD = str(sorted(RECORDS.glob("*.kgn"))[0])
TOO_DEEP = f"mcts-{MAX_MCTS_ITERATIONS + 1}"
MORE_THAN_CORES = str((os.cpu_count() or 1) + 1)
EMPTY_BOARD = board()
# Distinct agents enough for C(2,000, 4), about 6.6e11 tables of four: too many to list
MANY_AGENTS = ",".join(f"mcts-{n}" for n in range(1, 2001))

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
        ["tournament", "--agents", "random,greedy", "--games", "1", "--lake", "FILE"],
        "not a folder",
    ),
    "simulate an unknown preset": (["simulate", "--preset", "huge", "--lake", "LAKE"], "--preset"),
    "import into a file": (["import", RECORD, "--lake", "FILE"], "not a folder"),
    "import under /proc": (["import", RECORD, "--lake", "/proc/nope"], "cannot write"),
    "query a missing lake": (["query", "SELECT 1", "--lake", "MISSING"], "no lake there"),
    "query a file": (["query", "SELECT 1", "--lake", "FILE"], "not a folder"),
    "export from a missing lake": (["export", "1", "--lake", "MISSING"], "no lake there"),
    "check a missing lake": (["lake", "check", "--lake", "MISSING"], "no lake there"),
    # sizes: each bounded before any work, the message naming the option and its bound
    "simulate a billion one-game batches": (
        ["simulate", "--games", str(10**9), "--batch-size", "1", "--lake", "LAKE"],
        "more than the 200,000 a run may have",
    ),
    "simulate a batch too large for memory": (
        ["simulate", "--games", "10", "--batch-size", str(10**6), "--lake", "LAKE"],
        "--batch-size: must be from 1 to 50,000",
    ),
    "simulate on more workers than cores": (
        ["simulate", "--games", "2", "--workers", MORE_THAN_CORES, "--lake", "LAKE"],
        "--workers: 'auto' or a number of processes from 1 to",
    ),
    "simulate on 1,024 workers": (
        ["simulate", "--games", "2", "--workers", "1024", "--lake", "LAKE"],
        "(the cores of this machine), not '1024'",
    ),
    "simulate five players": (
        ["simulate", "--games", "2", "--players", "2,5", "--lake", "LAKE"],
        "--players: player count must be 2 to 4, not 5",
    ),
    "tournament of ten million games": (
        ["tournament", "--agents", "random,greedy", "--games", str(10**7), "--lake", "LAKE"],
        "--games: at most 500,000 games in a tournament",
    ),
    "tournament of too many tables": (
        ["tournament", "--agents", MANY_AGENTS, "--players", "4", "--games", "1"],
        "--games: at most 500,000 games in a tournament",
    ),
    "tournament on 1,024 workers": (
        ["tournament", "--agents", "random,greedy", "--games", "1", "--workers", "1024"],
        "(the cores of this machine), not '1024'",
    ),
    "tournament of five players": (
        ["tournament", "--agents", "random,greedy", "--players", "5"],
        "--players: player count must be 2 to 4, not 5",
    ),
    "review with a budget of a trillion": (
        ["review", "--budget", str(10**12), RECORD],
        f"--budget: from 1 to {MAX_MCTS_ITERATIONS:,} iterations",
    ),
    "review one past the search's bound": (
        ["review", "--budget", str(MAX_MCTS_ITERATIONS + 1), RECORD],
        f"--budget: from 1 to {MAX_MCTS_ITERATIONS:,} iterations",
    ),
    "review --all on 1,024 workers": (
        ["review", "--all", "--workers", "1024", "--lake", "LAKE"],
        "(the cores of this machine), not '1024'",
    ),
    "score no players": (["score", "--players", "0", EMPTY_BOARD], "not 0"),
    "score five players": (["score", "--players", "5", EMPTY_BOARD], "--players: player count"),
    "ratings of one player": (["ratings", "--players", "1", "--lake", "LAKE"], "not 1"),
    "ratings of an Arabic-Indic three": (
        ["ratings", "--players", "\u0663", "--lake", "LAKE"],
        "is not a whole number",
    ),
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


# ------------------------------------------------- damage the commands' catch-all turns to one line


def _damage_inside(path: Path) -> None:
    """Overwrite the first half of a Parquet file after its magic: its pages, and with a small
    file some of its footer."""
    data = bytearray(path.read_bytes())
    data[8 : len(data) // 2] = b"\xff" * (len(data) // 2 - 8)
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("command", [["export", "GAME"], ["ratings"]])
def test_a_damaged_file_inside_is_one_line(tmp_path, capsys, command):
    """Refused as the lake opens, or as a query fails (its QueryError once left uncaught)."""
    lake = scratch_lake(tmp_path / "lake")
    game = str(min(lake.stored_ids()))
    for path in lake.root.rglob("*.parquet"):
        _damage_inside(path)
    arguments = [game if a == "GAME" else a for a in command]
    assert main([*arguments, "--lake", str(lake.root)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert err.startswith(str(lake.root)), err  # the file or the lake, named


def test_a_shard_marker_nested_too_deeply_is_one_line(tmp_path, capsys):
    arguments = ["simulate", "--games", "4", "--workers", "1", "--lake", str(tmp_path / "lake")]
    assert main(arguments) == 0
    for marker in (tmp_path / "lake").rglob("_shards/*/*.json"):
        marker.write_text("[" * 100_000 + "]" * 100_000)
    capsys.readouterr()
    assert main(arguments) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "maximum recursion depth exceeded" in err, err


@pytest.mark.parametrize("bug", [ValueError("a bug"), RecursionError(), KeyError("lake")])
def test_a_bug_still_shows_its_traceback(monkeypatch, bug):
    """The catch-all takes only the errors it lists: anything else is a bug to be seen."""
    from data.commands import export

    def broken(args):
        raise bug

    monkeypatch.setattr(export, "run", broken)
    with pytest.raises(type(bug)):
        main(["export", "1"])
