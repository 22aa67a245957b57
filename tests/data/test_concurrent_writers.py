"""Writers racing on one lake store every game once: real processes started together, and a
staged batch committed after part of it was stored by another writer."""

from __future__ import annotations

import re
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from data.aggregates import aggregate_tables
from data.lake import Lake
from data.lake_check import check_lake
from data.reader import connect, execute
from data.rows import build_tables
from data.schema import TABLES
from data.simulate import SOURCE, Plan, plan_games
from data.store import commit, stage_games, store_games
from tests.lakes import RECORDS

ROOT = Path(__file__).resolve().parents[2]
ADDED = re.compile(r"(?:added|imported) (\d+) games.*?(\d+) already in the lake")


def _kingdoms(*args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "data.cli", *args],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )


def _run_together(*commands: list[str]) -> list[tuple[int, int]]:
    """Start every command at once; each must succeed; (added, already there) of each."""
    processes = [_kingdoms(*command) for command in commands]
    counts = []
    for process in processes:
        _, err = process.communicate(timeout=300)
        assert process.returncode == 0, err
        added, known = ADDED.search(err).groups()
        counts.append((int(added), int(known)))
    return counts


def assert_each_game_once(lake: Lake, games: int) -> None:
    """`games` distinct games, each stored once in every table and counted once by the
    aggregates; and the check finds nothing wrong with the lake."""
    con = connect(lake)

    def one(sql: str) -> object:
        return execute(con, sql).row(0)[0]

    assert one("SELECT count(*) FROM games") == games
    assert one("SELECT count(DISTINCT game_id) FROM games") == games
    for table in TABLES:
        assert one(f"SELECT count(DISTINCT game_id) FROM {table}") == games, table
        orphans = (
            f"SELECT count(*) FROM (SELECT game_id FROM {table} EXCEPT SELECT game_id FROM games)"
        )
        assert one(orphans) == 0, table
    assert one("SELECT count(*) FROM seats") == one("SELECT sum(players) FROM games")
    assert one("SELECT count(*) FROM moves") == one("SELECT sum(plies) FROM games")
    assert one("SELECT sum(n) FROM agg_games") == games
    assert one("SELECT sum(sum_plies) FROM agg_games") == one("SELECT sum(plies) FROM games")
    assert sum(b.games for b in lake.batches()) == games
    assert check_lake(lake).healthy


@pytest.mark.slow
def test_two_simulations_at_once_store_each_game_once(tmp_path):
    lake_dir = str(tmp_path / "lake")
    common = ["simulate", "--games", "120", "--seed", "11", "--workers", "1", "--lake", lake_dir]
    # batches of different sizes: the second writer's batches overlap the first's in part
    counts = _run_together([*common, "--batch-size", "30"], [*common, "--batch-size", "50"])
    assert [added + known for added, known in counts] == [120, 120]
    assert sum(added for added, _ in counts) == 120
    assert_each_game_once(Lake(lake_dir), 120)


def test_two_imports_at_once_store_each_game_once(tmp_path):
    lake_dir = str(tmp_path / "lake")
    records = [str(path) for path in sorted(RECORDS.glob("*.kgn"))]
    counts = _run_together(
        ["import", *records, "--lake", lake_dir], ["import", *records, "--lake", lake_dir]
    )
    assert [added + known for added, known in counts] == [len(records)] * 2
    assert sum(added for added, _ in counts) == len(records)
    assert_each_game_once(Lake(lake_dir), len(records))


def _with_aggregates(tables):
    return {**tables, **aggregate_tables(tables)}


def test_commit_leaves_out_games_stored_since_staging(tmp_path):
    """A batch staged before another writer stored part of it keeps only the new games, its
    aggregates worked out again: the same rows as a batch of the new games alone."""
    plan, created = Plan(12, seed=5), datetime(2026, 1, 2, tzinfo=UTC)
    games = plan_games(plan, 0, 12)
    raced, alone = Lake(tmp_path / "raced"), Lake(tmp_path / "alone")
    with raced.staging_run() as run:
        staging = raced.stage(_with_aggregates(build_tables(games, created)), run)
        assert store_games(raced, games[:5], SOURCE).added == 5  # the other writer wins the lock
        batch = commit(raced, staging, SOURCE)
    assert batch is not None and batch.games == 7
    with alone.staging_run() as run:
        commit(alone, alone.stage(_with_aggregates(build_tables(games[5:], created)), run), SOURCE)
    assert_each_game_once(raced, 12)
    raced_con, alone_con = connect(raced), connect(alone)
    for table in ("games", "_moves", "agg_games", "agg_seats", "agg_cells", "agg_tile_kinds"):
        sql = f"SELECT * EXCLUDE (batch_id, source) FROM {table} WHERE batch_id = $b ORDER BY ALL"
        mine = execute(raced_con, sql, {"b": batch.batch_id})
        assert mine.equals(execute(alone_con, sql, {"b": 1})), table


def test_commit_of_games_all_stored_adds_no_batch(tmp_path):
    plan = Plan(4, seed=6)
    games = plan_games(plan, 0, 4)
    lake = Lake(tmp_path)
    with lake.staging_run() as run:
        staging = stage_games(lake, games, run)
        assert store_games(lake, games, SOURCE).added == 4
        assert commit(lake, staging, SOURCE) is None
    assert len(lake.batches()) == 1
    assert store_games(lake, games, SOURCE).duplicates == 4
