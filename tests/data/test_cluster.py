"""Simulations and tournaments on a real Dask LocalCluster of two worker processes: the same
games and standings as the local executor, whole shards only, and a lost worker or client
costing nothing but time."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import polars as pl
import pytest

from data.cli import main
from data.cluster import ClusterError, DaskExecutor, check_address, dask_executor
from data.lake import STAGING, Lake
from data.schema import all_tables
from data.simulate import Plan, simulate
from engine.tournament import run_tournament, schedule, standings

# Mixed player counts and a searching agent (not the kernel's policies): both play paths.
PLAN = Plan(24, players=(2, 3, 4), agents=("random", "mcts-20"), seed=5, batch_size=4)
WORKERS = 2


@pytest.fixture(scope="module")
def executor() -> Iterator[DaskExecutor]:
    with dask_executor("local", WORKERS) as opened:
        yield opened


def lake_rows(lake: Lake) -> dict[str, pl.DataFrame]:
    """Every committed table of the lake, rows sorted, without the time each batch was made."""
    rows = {}
    for table in all_tables():
        frame = pl.concat([pl.read_parquet(path) for path in lake.files(table)])
        frame = frame.select(
            name for name, kind in frame.schema.items() if not isinstance(kind, pl.Datetime)
        )
        rows[table] = frame.sort(frame.columns)
    return rows


def test_cluster_plays_the_same_rows_as_local_processes(tmp_path, executor):
    local, cluster = Lake(tmp_path / "local"), Lake(tmp_path / "cluster")
    assert simulate(local, PLAN, WORKERS, progress=False).added == PLAN.games
    assert simulate(cluster, PLAN, WORKERS, progress=False, executor=executor).added == PLAN.games
    local_rows, cluster_rows = lake_rows(local), lake_rows(cluster)
    for table in all_tables():
        assert cluster_rows[table].equals(local_rows[table]), table


def test_rerun_on_the_cluster_plays_no_shard_again(tmp_path, executor):
    lake = Lake(tmp_path / "lake")
    simulate(lake, PLAN, WORKERS, progress=False, executor=executor)
    batches = lake.batches()
    again = simulate(lake, PLAN, WORKERS, progress=False, executor=executor)
    assert (again.added, again.duplicates) == (0, PLAN.games)
    assert lake.batches() == batches


def test_tournament_on_the_cluster_gives_the_local_standings(executor):
    scheduled = schedule(["random", "greedy", "mcts-20"], 2, 4, seed=3)
    local = run_tournament(scheduled, PLAN.rules, workers=1)
    cluster = run_tournament(scheduled, PLAN.rules, executor=executor)
    assert cluster == local
    assert standings(cluster) == standings(local)


@pytest.mark.parametrize("address", ["localhost:8786", "tcp://host", "http://host:8786", ""])
def test_a_bad_scheduler_address_is_refused_in_one_line(address, tmp_path, capfd):
    with pytest.raises(ClusterError, match="nor a scheduler address"):
        check_address(address)
    lake = tmp_path / "lake"
    assert main(["simulate", "--games", "2", "--cluster", address, "--lake", str(lake)]) == 2
    err = capfd.readouterr().err
    assert err.count("\n") == 1 and "--cluster" in err and "nor a scheduler address" in err
    assert not lake.exists()


def test_the_default_lake_is_not_built_on_a_cluster(tmp_path, capfd):
    lake = tmp_path / "lake"
    assert main(["simulate", "--default-lake", "--cluster", "local", "--lake", str(lake)]) == 2
    assert "--cluster: a preset lake is built here" in capfd.readouterr().err
    assert not (lake / "lake.json").exists()


def test_a_killed_worker_costs_time_not_games(tmp_path, executor):
    plan = Plan(48, players=(2,), agents=("mcts-20",), seed=9, batch_size=2)
    lake = Lake(tmp_path / "lake")
    run = threading.Thread(target=simulate, args=(lake, plan, WORKERS, False, executor))
    run.start()
    _wait_for(lambda: len(lake.batches()) >= 1)
    victim = next(iter(executor.client.run(os.getpid).values()))
    os.kill(victim, signal.SIGKILL)
    run.join()
    games = pl.concat([pl.read_parquet(path) for path in lake.files("games")])
    assert games.height == plan.games
    assert games["game_id"].n_unique() == plan.games
    assert victim not in executor.client.run(os.getpid).values()  # the kill took effect


@pytest.mark.slow  # three runs of the command, each its own Python and its own cluster
def test_a_client_killed_mid_run_resumes_to_the_uninterrupted_lake(tmp_path):
    command = [
        *(sys.executable, "-m", "data.cli", "simulate", "--games", "60", "--players", "2,3"),
        *("--agents", "mcts-20", "--seed", "4", "--batch-size", "3", "--workers", "2"),
    ]
    killed, whole = Lake(tmp_path / "killed"), Lake(tmp_path / "whole")
    cluster_run = [*command, "--cluster", "local", "--lake", str(killed.root)]
    child = subprocess.Popen(cluster_run, start_new_session=True, stderr=subprocess.DEVNULL)
    _wait_for(lambda: killed.root.joinpath("lake.json").exists())
    os.killpg(child.pid, signal.SIGKILL)  # the client and the LocalCluster it started
    child.wait()
    # killed inside a commit, its batch is on disk unlisted: damage until repaired
    assert main(["lake", "check", "--repair", "--lake", str(killed.root)]) == 0
    assert 0 < sum(batch.games for batch in killed.batches()) < 60
    subprocess.run(cluster_run, check=True, capture_output=True)
    subprocess.run([*command, "--lake", str(whole.root)], check=True, capture_output=True)
    killed_rows, whole_rows = lake_rows(killed), lake_rows(whole)
    for table in all_tables():
        assert killed_rows[table].equals(whole_rows[table]), table
    assert list(killed.root.joinpath(STAGING).iterdir()) == []  # the dead run's area swept
    listed = {batch.batch_id for batch in killed.batches()}
    for table in all_tables():
        on_disk = {int(p.parent.name.split("=")[1]) for p in _glob(killed.root, table)}
        assert on_disk == listed, table  # no orphan file left by the kill


def test_readers_globbing_the_tables_see_whole_shards_only(tmp_path, executor):
    """DuckDB and Polars over a glob of the Parquet tree (as the README shows them) during a
    run: every batch they see has all of its rows, and nothing staged shows."""
    import duckdb

    plan = Plan(40, players=(2, 3), agents=("random", "mcts-20"), seed=6, batch_size=2)
    lake = Lake(tmp_path / "lake")
    run = threading.Thread(target=simulate, args=(lake, plan, WORKERS, False, executor))
    seen: list[dict[int, int]] = []
    run.start()
    while run.is_alive():
        time.sleep(0.05)
        if not _glob(lake.root, "games"):
            continue
        seen.append(_batch_counts(duckdb.sql(DUCKDB_GAMES.format(root=lake.root)).pl()))
        seen.append(_batch_counts(pl.scan_parquet(lake.root / "games", **POLARS).collect()))
    run.join()
    final = {batch.batch_id: batch.games for batch in lake.batches()}
    assert len(seen) > 2 and sum(final.values()) == plan.games
    for counts in seen:
        assert counts == {batch: final[batch] for batch in counts}


DUCKDB_GAMES = (
    "SELECT batch_id FROM read_parquet('{root}/games/*/*/*.parquet', hive_partitioning = true)"
)
POLARS = {"hive_partitioning": True}


def _batch_counts(frame: pl.DataFrame) -> dict[int, int]:
    counts = frame.group_by("batch_id").len()
    return {int(batch): count for batch, count in counts.iter_rows()}


def _glob(root: Path, table: str) -> list[Path]:
    return sorted((root / table).glob("*/*/*.parquet"))


def _wait_for(condition, timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the run did not get that far"
        time.sleep(0.02)
