"""A lake never deletes what it did not write: a lost or rolled-back manifest, or a folder
already where a commit would go, refuses writes and reads until `lake check --repair` lists the
batches on disk again, setting aside (never deleting) those that fail its check."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest

from data.cli import main
from data.compact import compact
from data.lake import MANIFEST, SET_ASIDE, Batch, Lake, LakeError
from data.reader import connect, execute
from data.schema import all_tables
from data.simulate import Plan, plan_games, simulate
from data.store import store_games
from tests.lakes import scratch_lake

SIMULATE = ["simulate", "--games", "3", "--seed", "3", "--workers", "1"]


@pytest.fixture(scope="module")
def grown(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A scratch lake, its manifest as it was then kept as `lake.json.old`, then two more
    batches (so a restored copy is older than the lake)."""
    lake = scratch_lake(tmp_path_factory.mktemp("grown"))
    shutil.copy(lake.root / MANIFEST, lake.root.parent / "lake.json.old")
    simulate(lake, Plan(8, seed=21, batch_size=4), progress=False)
    return lake.root


@pytest.fixture
def copy(grown: Path, tmp_path: Path) -> Lake:
    shutil.copy(grown.parent / "lake.json.old", tmp_path / "lake.json.old")
    return Lake(shutil.copytree(grown, tmp_path / "lake"))


def _hashes(root: Path) -> dict[str, str]:
    return {
        str(path.relative_to(root)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


def _game_ids(lake: Lake) -> list[int]:
    frame = execute(connect(lake), "SELECT game_id FROM games ORDER BY game_id")
    return frame["game_id"].to_list()


def _listed_batches(batches: list[Batch]) -> list[tuple[int, str, int]]:
    return [(b.batch_id, b.source, b.games) for b in batches]


def _listed(lake: Lake) -> list[tuple[int, str, int]]:
    """The batches the manifest lists (their creation times aside)."""
    return _listed_batches(lake.batches())


def _run(capsys, *args: str) -> tuple[int, list[str], list[str]]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out.splitlines(), err.splitlines()


def _damaged_until_repaired(lake: Lake, capsys, named: Path, word: str) -> None:
    """Every command refuses the lake naming `named`, its files untouched, until the repair."""
    before = _hashes(lake.root)
    for command in (SIMULATE, ["query", "SELECT count(*) FROM games"], ["lake", "compact"]):
        status, _, err = _run(capsys, *command, "--lake", str(lake.root))
        assert status == 2 and len(err) == 1, err
        assert err[0].startswith(f"{named}: ") and word in err[0] and "--repair" in err[0]
    status, out, _ = _run(capsys, "lake", "check", "--lake", str(lake.root))
    assert status == 2 and out[0].startswith(f"{named}: ") and word in out[0]
    assert _hashes(lake.root) == before
    status, out, _ = _run(capsys, "lake", "check", "--repair", "--lake", str(lake.root))
    assert status == 0 and out[-1].startswith(f"{lake.root}: repaired; ")
    assert _run(capsys, "lake", "check", "--lake", str(lake.root))[0] == 0


def test_a_write_into_a_lake_without_its_manifest_keeps_every_game(copy, capsys):
    games, batches = _game_ids(copy), copy.batches()
    files = _hashes(copy.root)
    (copy.root / MANIFEST).unlink()
    _damaged_until_repaired(copy, capsys, copy.root / MANIFEST, "missing, yet the lake holds 4")
    assert _listed(copy) == _listed_batches(batches)
    assert _game_ids(copy) == games
    kept = {path: digest for path, digest in _hashes(copy.root).items() if path != MANIFEST}
    assert kept.items() <= files.items()  # every file as it was
    assert main([*SIMULATE, "--lake", str(copy.root)]) == 0  # a write works again
    assert set(games) < set(_game_ids(copy))
    assert copy.batches()[-1].batch_id == batches[-1].batch_id + 1


def test_a_manifest_restored_from_an_older_copy_loses_no_newer_batch(copy, capsys):
    games, batches = _game_ids(copy), copy.batches()
    shutil.copy(copy.root.parent / "lake.json.old", copy.root / MANIFEST)
    newer = copy.root / "games" / "source=simulated" / f"batch_id={batches[-2].batch_id}"
    _damaged_until_repaired(copy, capsys, newer, "does not list")
    assert _listed(copy) == _listed_batches(batches)
    assert _game_ids(copy) == games


def test_a_folder_already_in_place_refuses_a_commit_and_is_kept(copy, capsys):
    next_batch = json.loads((copy.root / MANIFEST).read_text())["next_batch"]
    foreign = copy.root / "moves" / "source=simulated" / f"batch_id={next_batch}"
    foreign.mkdir(parents=True)
    (foreign / "notes.txt").write_text("not the lake's")
    before = _hashes(copy.root)
    status, _, err = _run(capsys, *SIMULATE, "--lake", str(copy.root))
    assert status == 2 and len(err) == 1 and err[0].startswith(f"{foreign}: "), err
    assert _hashes(copy.root) == before


def test_a_commit_never_replaces_a_folder_that_appears_after_its_check(copy, monkeypatch):
    """A folder a listing missed (another machine's writer, say) is found at the move."""
    next_batch = json.loads((copy.root / MANIFEST).read_text())["next_batch"]
    listed = copy.batch_folders()
    monkeypatch.setattr(Lake, "batch_folders", lambda lake: listed)
    foreign = copy.root / "games" / "source=simulated" / f"batch_id={next_batch}"
    foreign.mkdir(parents=True)
    (foreign / "part-0.parquet").write_bytes(b"someone else's")
    with pytest.raises(LakeError, match="already there") as refused:
        store_games(copy, plan_games(Plan(1, seed=31), 0, 1), "simulated")
    assert refused.value.file == foreign
    assert (foreign / "part-0.parquet").read_bytes() == b"someone else's"


def test_batch_ids_are_taken_above_every_id_on_disk(copy, monkeypatch):
    """Even with a manifest whose next id is below a folder on disk (were it not refused)."""
    highest = max(batch_id for _, batch_id in copy.batch_folders())
    manifest = json.loads((copy.root / MANIFEST).read_text())
    monkeypatch.setattr(Lake, "checked_manifest", lambda lake, writing=False: manifest)
    manifest["next_batch"] = 2
    batch = store_games(copy, plan_games(Plan(1, seed=32), 0, 1), "simulated")
    assert batch.added == 1
    assert json.loads((copy.root / MANIFEST).read_text())["next_batch"] == highest + 2


def test_the_repair_sets_a_damaged_batch_aside_and_lists_the_rest(copy, capsys):
    games, batches = _game_ids(copy), copy.batches()
    last = batches[-1]
    left_out = copy.game_index(last).tolist()
    moves = copy.part("moves", last)
    moves.write_bytes(moves.read_bytes()[:100])  # truncated
    pattern = f"*/source={last.source}/batch_id={last.batch_id}/*"
    files = {path: path.read_bytes() for path in copy.root.glob(pattern)}
    assert len(files) == len(all_tables()) + 1
    (copy.root / MANIFEST).unlink()
    status, out, _ = _run(capsys, "lake", "check", "--repair", "--lake", str(copy.root))
    assert status == 0
    set_aside = [line for line in out if "set aside in" in line]
    assert len(set_aside) == 1 and "truncated" in set_aside[0], out
    assert set_aside[0].startswith(f"{copy.batch_folder(last.source, last.batch_id)}: ")
    assert _listed(copy) == _listed_batches(batches[:-1])
    assert _game_ids(copy) == sorted(set(games) - set(left_out))
    (into,) = (copy.root / SET_ASIDE).iterdir()
    for path, content in files.items():  # moved, never deleted
        assert not path.exists()
        assert (into / path.relative_to(copy.root)).read_bytes() == content
    assert main(["lake", "check", "--lake", str(copy.root)]) == 0


def test_a_repair_after_a_compaction_keeps_each_game_once(copy, capsys):
    """The manifest lost while a compaction's old batches are still on disk: the merged batch
    is kept, the old ones (holding the same games) set aside."""
    games = _game_ids(copy)
    assert compact(copy).merged > 1
    (copy.root / MANIFEST).unlink()
    status, out, _ = _run(capsys, "lake", "check", "--repair", "--lake", str(copy.root))
    assert status == 0 and any("holds games that batch" in line for line in out), out
    assert _game_ids(copy) == games  # each game once


def test_the_repair_leaves_a_healthy_lake_as_it_is(copy, capsys):
    before = _hashes(copy.root)
    status, out, _ = _run(capsys, "lake", "check", "--repair", "--lake", str(copy.root))
    assert status == 0 and out == [f"{copy.root}: healthy; {out[0].split('; ', 1)[1]}"]
    assert _hashes(copy.root) == before


def test_a_reader_during_a_commit_is_not_refused(copy):
    """Between a commit's move and its manifest write (the writer lock held), the moved batch
    is not damage; once the lock is free, an unlisted batch is."""
    next_batch = json.loads((copy.root / MANIFEST).read_text())["next_batch"]
    last = copy.batches()[-1]
    for tree in ("games", "seats", "moves", "epoch_scores", "_game_ids"):
        source = copy.root / tree / f"source={last.source}"
        shutil.copytree(source / f"batch_id={last.batch_id}", source / f"batch_id={next_batch}")
    with copy.locked():
        connect(copy)
    with pytest.raises(LakeError, match="does not list"):
        connect(copy)
