"""`kingdoms lake compact`: small batches merged with every row kept, atomic under a kill, and
a second run changing nothing; writers suggest it past a number of small batches."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import data.compact
import data.lake
from data.cli import main
from data.compact import MERGED_GAMES, SMALL_BATCH, merge_groups
from data.lake import MANIFEST, Batch, Lake
from data.lake_check import check_lake
from data.reader import connect, execute
from data.schema import RULE_SETS, all_tables
from data.simulate import Plan, simulate
from tests.lakes import RECORDS, scratch_lake


def _table_hashes(lake: Lake) -> dict[str, tuple[int, int]]:
    """Each table's row count and order-free hash of its rows, read from the listed files
    without their partition columns (so that batch ids do not count); the rule sets each once
    (a batch keeps each of its rule sets once)."""
    con = duckdb.connect()
    hashes = {}
    for name in all_tables():
        rows = pa.concat_tables([pq.read_table(p, partitioning=None) for p in lake.files(name)])
        con.register("rows", rows)
        distinct = "DISTINCT" if name == RULE_SETS else ""
        sql = f"SELECT count(*), sum(hash(rows)::HUGEINT) FROM (SELECT {distinct} * FROM rows) rows"
        hashes[name] = con.execute(sql).fetchall()[0]
    return hashes


@pytest.fixture(scope="module")
def small(tmp_path_factory) -> Path:
    """A lake of a six-game batch, twenty one-game batches and the records (one batch)."""
    lake = scratch_lake(tmp_path_factory.mktemp("small"))
    simulate(lake, Plan(20, players=(2, 3, 4), seed=12, batch_size=1), progress=False)
    return lake.root


@pytest.fixture
def copy(small, tmp_path) -> Lake:
    return Lake(shutil.copytree(small, tmp_path / "lake"))


def test_compaction_keeps_every_row_and_a_second_run_changes_nothing(copy, capsys):
    before, batches = _table_hashes(copy), copy.batches()
    games = execute(connect(copy), "SELECT count(*) AS n FROM games")["n"][0]
    assert main(["lake", "compact", "--lake", str(copy.root)]) == 0
    assert "merged 21 small batches into 1" in capsys.readouterr().err
    after = copy.batches()
    assert [b.source for b in after] == ["recorded", "simulated"]  # one batch a source
    assert sum(b.games for b in after) == sum(b.games for b in batches)
    assert _table_hashes(copy) == before
    assert check_lake(copy).healthy
    con = connect(copy)
    assert execute(con, "SELECT count(*) AS n FROM games")["n"][0] == games
    game_id = execute(con, "SELECT game_id FROM games WHERE source = 'simulated' LIMIT 1")[0, 0]
    assert execute(con, "game_record", {"game_id": game_id})["game_id"].to_list() == [game_id]
    manifest = (copy.root / MANIFEST).read_text()
    assert main(["lake", "compact", "--lake", str(copy.root)]) == 0
    assert "merged 0 small batches into 0" in capsys.readouterr().err
    assert (copy.root / MANIFEST).read_text() == manifest


def test_a_connection_made_before_compaction_still_reads_its_batches(copy):
    before = connect(copy)
    count = "SELECT count(*) AS n, count(DISTINCT game_id) AS ids FROM games"
    counted = execute(before, count).row(0)
    assert main(["lake", "compact", "--lake", str(copy.root)]) == 0
    assert execute(before, count).row(0) == counted  # the old files stay a while
    assert execute(connect(copy), count).row(0) == counted  # each game once, never twice


def test_retired_files_are_removed_by_a_later_write_once_their_time_is_up(copy, monkeypatch):
    old = copy.batches()[0]  # the six-game batch: merged
    assert main(["lake", "compact", "--lake", str(copy.root)]) == 0
    assert copy.part("moves", old).exists()
    monkeypatch.setattr(data.lake, "RETIRED_FOR", 0)
    simulated = ["simulate", "--games", "1", "--seed", "5", "--workers", "1"]
    assert main([*simulated, "--lake", str(copy.root)]) == 0
    assert not copy.part("moves", old).exists()
    assert "retired" not in json.loads((copy.root / MANIFEST).read_text())


# The compaction in a child process that kills itself (SIGKILL) at one point of the work.
KILLED_AT = """
import os, signal, sys
import data.lake
from data.compact import compact
from data.lake import Lake
point, calls = sys.argv[2], [0]
def dying(original, after):
    def call(*args, **kwargs):
        calls[0] += 1
        if calls[0] > after:
            os.kill(os.getpid(), signal.SIGKILL)
        return original(*args, **kwargs)
    return call
if point == "staging":  # the third table file of the merged batch
    data.lake.write_table = dying(data.lake.write_table, 2)
elif point == "moving":  # half of the merged batch's files renamed into place
    data.lake.os.replace = dying(os.replace, len(data.lake.all_tables()) // 2)
else:  # everything in place, the manifest not yet written
    Lake._write_manifest = dying(Lake._write_manifest, 0)
compact(Lake(sys.argv[1]))
"""


@pytest.mark.parametrize("point", ["staging", "moving", "manifest"])
def test_a_compaction_killed_part_way_keeps_the_old_batches(copy, point, capsys):
    before, batches = _table_hashes(copy), copy.batches()
    killed = subprocess.run([sys.executable, "-c", KILLED_AT, str(copy.root), point])
    assert killed.returncode == -9
    assert Lake(copy.root).batches() == batches
    assert _table_hashes(Lake(copy.root)) == before
    if point != "staging":  # the merged batch moved in, never listed: damaged until repaired
        damage = check_lake(Lake(copy.root)).damage
        assert len(damage) == 1 and "does not list" in damage[0].problem
        assert main(["lake", "check", "--repair", "--lake", str(copy.root)]) == 0
        assert "set aside in" in capsys.readouterr().out
        assert Lake(copy.root).batches() == batches
        assert _table_hashes(Lake(copy.root)) == before
    assert check_lake(Lake(copy.root)).healthy
    assert main(["lake", "compact", "--lake", str(copy.root)]) == 0
    assert len(Lake(copy.root).batches()) == 2
    assert _table_hashes(Lake(copy.root)) == before
    assert not any((copy.root / "_tmp").iterdir())  # the killed run's staging is swept


def _batch(batch_id: int, games: int, source: str = "simulated") -> Batch:
    return Batch(batch_id, source, games, "2026-12-02T00:00:00+00:00")


def test_merges_take_small_batches_of_one_source_up_to_the_merged_size():
    big, small = SMALL_BATCH, SMALL_BATCH - 1
    batches = [_batch(1, big), _batch(2, small), _batch(3, 1, "recorded"), _batch(4, 1)]
    batches += [_batch(5 + i, small) for i in range(MERGED_GAMES // small)] + [_batch(99, 1)]
    groups = [[b.batch_id for b in group] for group in merge_groups(batches)]
    full = MERGED_GAMES // small  # batches 2, 4 and those of 999 games until 20,000 games
    assert groups == [[2, 4, *range(5, 5 + full - 1)], [5 + full - 1, 99]]
    assert merge_groups([_batch(1, 1), _batch(2, big)]) == []  # one small batch: nothing to do


def test_writers_suggest_compaction_past_a_number_of_small_batches(copy, monkeypatch, capsys):
    record = str(sorted(RECORDS.glob("*.kgn"))[0])
    monkeypatch.setattr(data.compact, "SUGGEST_AFTER", 30)
    assert main(["import", record, "--lake", str(copy.root)]) == 0
    assert "lake compact" not in capsys.readouterr().err
    monkeypatch.setattr(data.compact, "SUGGEST_AFTER", 20)
    simulated = ["simulate", "--games", "1", "--seed", "5", "--workers", "1"]
    assert main([*simulated, "--lake", str(copy.root)]) == 0
    assert f"holds 23 small batches; `kingdoms lake compact --lake {copy.root}`" in (
        capsys.readouterr().err
    )
