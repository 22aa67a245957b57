"""A damaged lake (a Parquet file truncated, emptied, deleted or another table's; an id index
emptied; the manifest broken, lost or older than the batches on disk) is named in one line, exit
2 and the lake left as it was, by `query`, `lake compact` and a writer; listed by `lake check`;
and shown as one message by the app."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from streamlit.testing.v1 import AppTest

from data.cli import main
from data.lake import GAME_INDEX, INDEX_TREE, MANIFEST, Lake
from data.schema import all_tables
from tests.dashboard.conftest import APP
from tests.lakes import scratch_lake


@pytest.fixture(scope="module")
def healthy(tmp_path_factory: pytest.TempPathFactory) -> Lake:
    return scratch_lake(tmp_path_factory.mktemp("healthy"))


def _part(root: Path, table: str, source: str = "simulated") -> Path:
    return next((root / table / f"source={source}").glob("batch_id=*/part-0.parquet"))


def _truncate(table: str) -> Callable[[Path], Path]:
    def damage(root: Path) -> Path:
        path = _part(root, table)
        path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
        return path

    return damage


def _empty(table: str) -> Callable[[Path], Path]:
    def damage(root: Path) -> Path:
        path = _part(root, table)
        path.write_bytes(b"")
        return path

    return damage


def _delete(table: str) -> Callable[[Path], Path]:
    def damage(root: Path) -> Path:
        path = _part(root, table, "recorded")
        path.unlink()
        return path

    return damage


def _other_table(table: str, other: str) -> Callable[[Path], Path]:
    """A table's file replaced by a copy of another table's file of the same batch: whole
    Parquet, the wrong columns."""

    def damage(root: Path) -> Path:
        path = _part(root, table)
        shutil.copy(root / other / path.relative_to(root / table), path)
        return path

    return damage


def _retyped(root: Path) -> Path:
    """A games file rewritten with its `players` column 16-bit: whole Parquet, a wrong type."""
    path = _part(root, "games")
    table = pq.read_table(path, partitioning=None)
    players = table.schema.get_field_index("players")
    field = table.schema.field(players).with_type(pa.int16())
    pq.write_table(table.set_column(players, field, table["players"].cast(pa.int16())), path)
    return path


def _empty_index(root: Path) -> Path:
    path = next((root / INDEX_TREE / "source=simulated").glob(f"batch_id=*/{GAME_INDEX}"))
    path.write_bytes(b"")
    return path


def _manifest_lost(root: Path) -> Path:
    (root / MANIFEST).unlink()
    return root / MANIFEST


def _manifest_rolled_back(root: Path) -> Path:
    """The manifest as it was before the last batch (the recorded one) was committed: the
    batch's folders are on disk, unlisted."""
    path = root / MANIFEST
    manifest = json.loads(path.read_text())
    last = manifest["batches"].pop()
    manifest["next_batch"] = last["batch_id"]
    path.write_text(json.dumps(manifest))
    return root / "games" / f"source={last['source']}" / f"batch_id={last['batch_id']}"


def _manifest(edit: Callable[[dict], object] | str) -> Callable[[Path], Path]:
    """The manifest replaced by a text, or by an edited copy of itself."""

    def damage(root: Path) -> Path:
        path = root / MANIFEST
        if isinstance(edit, str):
            path.write_text(edit)
        else:
            manifest = json.loads(path.read_text())
            path.write_text(json.dumps(edit(manifest)))
        return path

    return damage


def _set(field: str, value: object, batch: int | None = None) -> Callable[[dict], dict]:
    def edit(manifest: dict) -> dict:
        (manifest if batch is None else manifest["batches"][batch])[field] = value
        return manifest

    return edit


def _drop_field(field: str) -> Callable[[dict], dict]:
    def edit(manifest: dict) -> dict:
        del manifest["batches"][0][field]
        return manifest

    return edit


DAMAGE = {
    "moves truncated": (_truncate("moves"), "truncated"),
    "games truncated": (_truncate("games"), "truncated"),
    "seats emptied": (_empty("seats"), "empty"),
    "aggregate emptied": (_empty("agg_cells"), "empty"),
    "moves deleted": (_delete("moves"), "missing"),
    "games deleted": (_delete("games"), "missing"),
    "manifest emptied": (_manifest(""), "empty"),
    "manifest garbage": (_manifest("{not json"), "not JSON"),
    "manifest a list": (_manifest("[]"), "JSON list"),
    "manifest cut short": (_manifest('{"schema_version": 6, "batches": ['), "not JSON"),
    "version a string": (_manifest(_set("schema_version", "6")), "schema_version"),
    "version unknown": (_manifest(_set("schema_version", 99)), "schema version 99"),
    "batches not a list": (_manifest(_set("batches", {})), "not a list"),
    "batch entry a number": (_manifest(_set("batches", [3])), "batches[0]"),
    "batch entry short": (_manifest(_drop_field("created")), "batches[0]"),
    "batch id a string": (_manifest(_set("batch_id", "1", batch=0)), "batch_id"),
    "source outside": (_manifest(_set("source", "../..", batch=0)), "source"),
    "games negative": (_manifest(_set("games", -1, batch=0)), "games"),
    "batch listed twice": (_manifest(lambda m: {**m, "batches": m["batches"] * 2}), "twice"),
    "next batch missing": (_manifest(_set("next_batch", None)), "next_batch"),
    "next batch past 64 bits": (_manifest(_set("next_batch", 10**30)), "next_batch"),
    "manifest nested deeply": (_manifest("[" * 100_000 + "]" * 100_000), "nests too deeply"),
    "manifest of a huge number": (_manifest('{"schema_version": 1' + "0" * 5000 + "}"), "digits"),
    "manifest lost": (_manifest_lost, "missing, yet the lake holds 2 batches"),
    "manifest rolled back": (_manifest_rolled_back, "does not list"),
    "games is the moves file": (_other_table("games", "moves"), "the moves table's columns"),
    "seats is an aggregate": (_other_table("seats", "agg_seats"), "columns"),
    "games retyped": (_retyped, "column players is int16 not null, the games table's is int8"),
    "index emptied": (_empty_index, "id index"),
}


def _damaged(healthy: Lake, tmp_path: Path, case: str) -> tuple[Path, Path, str]:
    """A copy of the healthy lake with one damage: its folder, the damaged file, a word the
    message must hold."""
    root = tmp_path / "lake"
    shutil.copytree(healthy.root, root)
    damage, word = DAMAGE[case]
    return root, damage(root), word


def _hashes(root: Path) -> dict[str, str]:
    """Every file of the lake by its path below the root, and a hash of its bytes."""
    return {
        str(path.relative_to(root)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


# A command that reads (query), one that merges (compact), one that writes (simulate)
REFUSING = {
    "query": ["query", "SELECT count(*) FROM games"],
    "compact": ["lake", "compact"],
    "simulate": ["simulate", "--games", "2", "--seed", "5", "--workers", "1"],
}


@pytest.mark.parametrize("command", REFUSING)
@pytest.mark.parametrize("case", DAMAGE)
def test_a_command_names_the_damaged_file_and_leaves_the_lake(
    healthy, tmp_path, capsys, case, command
):
    root, damaged, word = _damaged(healthy, tmp_path, case)
    before = _hashes(root)
    assert main([*REFUSING[command], "--lake", str(root)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(damaged) in err and word in err, err
    assert _hashes(root) == before


@pytest.mark.parametrize("case", DAMAGE)
def test_lake_check_lists_the_damaged_file(healthy, tmp_path, capsys, case):
    root, damaged, word = _damaged(healthy, tmp_path, case)
    before = _hashes(root)
    assert main(["lake", "check", "--json", "--lake", str(root)]) == 2
    report = json.loads(capsys.readouterr().out)
    assert not report["healthy"]
    assert [d["file"] for d in report["damage"]] == [str(damaged)]
    assert word in report["damage"][0]["problem"]
    assert _hashes(root) == before


def _halve_rows(root: Path) -> Path:
    """A moves file rewritten with half its rows: whole Parquet, but games are missing moves."""
    path = _part(root, "moves")
    table = pq.read_table(path)
    pq.write_table(table.slice(0, table.num_rows // 2), path)
    return path


def _swap_tables(root: Path) -> Path:
    """The seats file where the moves file should be: whole Parquet, other columns."""
    path = _part(root, "moves")
    shutil.copy(_part(root, "seats"), path)
    return path


def _shuffle_index(root: Path) -> Path:
    """A batch's id index listing its games out of order: a lookup would miss some."""
    path = next((root / INDEX_TREE / "source=simulated").glob(f"batch_id=*/{GAME_INDEX}"))
    np.save(path, np.load(path)[::-1].copy())
    return path


@pytest.mark.parametrize(
    "damage, word",
    [
        (_halve_rows, "its games call for"),
        (_swap_tables, "columns"),
        (_shuffle_index, "id index does not list"),
    ],
)
def test_lake_check_reads_past_the_footer(healthy, tmp_path, capsys, damage, word):
    root = tmp_path / "lake"
    shutil.copytree(healthy.root, root)
    damaged = damage(root)
    assert main(["lake", "check", "--lake", str(root)]) == 2
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"{damaged}: ") and word in lines[0]
    assert lines[-1] == f"{root}: damaged (1 problem); {_contents(healthy)}"


def _contents(lake: Lake) -> str:
    batches = lake.batches()
    games, files = sum(b.games for b in batches), len(batches) * (len(all_tables()) + 1)
    return f"{len(batches)} batches, {games} games, {files} files"


def test_lake_check_passes_a_healthy_lake(healthy, capsys):
    assert main(["lake", "check", "--lake", str(healthy.root)]) == 0
    assert capsys.readouterr().out == f"{healthy.root}: healthy; {_contents(healthy)}\n"


APP_CASES = [
    "moves truncated",
    "games deleted",
    "manifest garbage",
    "manifest lost",
    "manifest rolled back",
    "games is the moves file",
]


@pytest.mark.parametrize("case", APP_CASES)
def test_app_shows_one_message_for_a_damaged_lake(healthy, tmp_path, monkeypatch, case):
    root, damaged, _ = _damaged(healthy, tmp_path, case)
    monkeypatch.setenv("KINGDOMS_LAKE", str(root))
    app = AppTest.from_file(APP, default_timeout=60).switch_page("app_pages/overview.py").run()
    assert not app.exception
    shown = re.sub(r"\\(.)", r"\1", app.error[0].value)  # as read, Markdown escapes undone
    assert len(app.error) == 1 and shown.startswith("The lake cannot be read: ")
    assert str(damaged) in shown
