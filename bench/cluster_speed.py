"""Speed figures of the Dask executor for `kingdoms bench`: games/s of `strong` self-play shards
on a LocalCluster of 1 and 2 workers, and what a shard costs beyond its games (scheduling on the
cluster, the client's commit), the commit measured on a fresh lake, one of many batches and for
a full shard; with the machine's load average, as the scaling means little on busy cores."""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from pathlib import Path

from data.cluster import DaskExecutor, dask_executor
from data.lake import Lake
from data.shards import mark_committed
from data.simulate import DEFAULT_BATCH, SOURCE, Plan, plan_games, simulate
from data.store import commit, stage_games
from engine.kernel.batch import warm_up

ROUNDS = 3  # medians of this many runs
STRONG_SHARDS = 6  # shards of one 2-player `strong` game (about 2 s each)
TINY_TASKS = 200  # no-op tasks timed for the scheduling cost
COMMITS = 200  # one-game batches committed one after the other into one lake


def _warm_workers(executor: DaskExecutor) -> None:
    """Compile (or load) the kernel and the search on every worker before anything is timed."""
    executor.client.run(warm_up)
    executor.client.run(plan_games, Plan(1, players=(2,), agents=("mcts-20",)), 0, 1)


def _strong_rate(executor: DaskExecutor, workers: int, root: Path) -> tuple[float, float]:
    """Games per second of `strong` self-play shards into a fresh lake (median of ROUNDS), and
    the share of a core each worker got meanwhile (its CPU time over the wall time)."""
    plan = Plan(STRONG_SHARDS, players=(2,), agents=("strong",), seed=17, batch_size=1)
    times, shares = [], []
    for _ in range(ROUNDS):
        with tempfile.TemporaryDirectory(dir=root) as folder:
            cpu = sum(executor.client.run(time.process_time).values())
            start = time.perf_counter()
            simulate(Lake(folder), plan, workers, progress=False, executor=executor)
            times.append(time.perf_counter() - start)
            cpu = sum(executor.client.run(time.process_time).values()) - cpu
            shares.append(cpu / (times[-1] * workers))
    return plan.games / statistics.median(times), statistics.median(shares)


def _schedule_ms(executor: DaskExecutor) -> float:
    """Milliseconds per task of a stream of no-op tasks through the executor (median)."""
    times = []
    for _ in range(ROUNDS):
        start = time.perf_counter()
        for _ in executor.map_unordered(_nothing, range(TINY_TASKS)):
            pass
        times.append((time.perf_counter() - start) / TINY_TASKS)
    return 1000 * statistics.median(times)


def _nothing(job: int) -> int:
    return job


def _commit_ms(root: Path) -> tuple[float, float]:
    """Milliseconds the client spends on one shard's commit (listing it and marking it), median
    over the first and over the last tenth of COMMITS one-game batches into one lake."""
    games = plan_games(Plan(COMMITS, players=(3,), seed=23), 0, COMMITS)
    times = []
    with tempfile.TemporaryDirectory(dir=root) as folder:
        lake = Lake(folder)
        with lake.staging_run() as run:
            for index in range(COMMITS):
                staging = stage_games(lake, games[index : index + 1], run)
                start = time.perf_counter()
                batch = commit(lake, staging, SOURCE)
                mark_committed(lake, "bench", (index, index + 1), batch.batch_id if batch else 0)
                times.append(time.perf_counter() - start)
    tenth = COMMITS // 10
    return 1000 * statistics.median(times[:tenth]), 1000 * statistics.median(times[-tenth:])


def _cluster_rates(root: Path) -> tuple[dict[int, tuple[float, float]], float]:
    """Strong games/s and each worker's core share on 1 and 2 workers; scheduling cost on 2."""
    rates = {}
    for workers in (1, 2):
        with dask_executor("local", workers) as executor:
            _warm_workers(executor)
            rates[workers] = _strong_rate(executor, workers, root)
            schedule_ms = _schedule_ms(executor)
    return rates, schedule_ms


def _full_shard_commit_ms(root: Path) -> float:
    """Milliseconds of the client's commit of one shard of DEFAULT_BATCH random games (median
    of ROUNDS, each into a fresh lake)."""
    games = plan_games(Plan(DEFAULT_BATCH, seed=29), 0, DEFAULT_BATCH)
    times = []
    for _ in range(ROUNDS):
        with tempfile.TemporaryDirectory(dir=root) as folder:
            lake = Lake(folder)
            with lake.staging_run() as run:
                staging = stage_games(lake, games, run)
                start = time.perf_counter()
                commit(lake, staging, SOURCE)
                mark_committed(lake, "bench", (0, DEFAULT_BATCH), 1)
                times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


def cluster_figures(root: Path) -> dict[str, float]:
    rates, schedule_ms = _cluster_rates(root)
    first_commit_ms, late_commit_ms = _commit_ms(root)
    full_commit_ms = _full_shard_commit_ms(root)
    return {
        "cluster_load_average": round(os.getloadavg()[0], 2),  # other work shares the cores
        "cluster_strong_1w_games_s": round(rates[1][0], 3),
        "cluster_strong_2w_games_s": round(rates[2][0], 3),
        "cluster_scaling_1_to_2": round(rates[2][0] / rates[1][0], 2),
        "cluster_1w_core_share": round(rates[1][1], 2),
        "cluster_2w_core_share": round(rates[2][1], 2),
        # games per CPU-second on 2 workers over 1, times 2: the scaling had each had a core
        "cluster_scaling_per_core": round(
            2 * (rates[2][0] / (2 * rates[2][1])) / (rates[1][0] / rates[1][1]), 2
        ),
        "cluster_schedule_ms": round(schedule_ms, 2),
        "cluster_commit_ms": round(first_commit_ms, 2),
        f"cluster_commit_ms_at_{COMMITS}": round(late_commit_ms, 2),
        f"cluster_commit_{DEFAULT_BATCH}_games_ms": round(full_commit_ms, 2),
        "cluster_shard_overhead_ms": round(schedule_ms + first_commit_ms, 2),
    }
