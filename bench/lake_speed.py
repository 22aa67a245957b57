"""Speed figures of the lake for `kingdoms bench`: simulation against bare playouts, Parquet
writing, warm query latencies on a lake of at least 10 million moves, fetch by id, size."""

from __future__ import annotations

import shutil
import statistics
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from data.lake import Lake, LakeVersionError, write_table
from data.reader import connect, execute, query_names, query_parameters
from data.schema import all_tables
from data.simulate import DEFAULT_BATCH, Plan, plan_games, simulate
from engine.cli_support import workers_count
from engine.kernel.batch import random_games
from engine.rules import rule_set

BENCH_LAKE = "bench"  # the benchmark lake's folder under the path the figures are given
ROUNDS = 9  # medians of this many runs: a single round moves by up to ±10% with the load
BENCH_GAMES = 145_000  # about 10.4 million moves with player counts 2, 3, 4 cycled


def _bare_rate(games: int) -> float:
    """Games per second of the kernel's random games (player counts 2, 3, 4 in turn, as
    `simulate` plays them), nothing stored."""
    rules = rule_set()
    start = time.perf_counter()
    for players in (2, 3, 4):
        random_games(players, rules, range(players - 2, games, 3))
    return games / (time.perf_counter() - start)


def _simulate_rate(games: int, root: Path) -> float:
    """Games per second of `simulate` into a fresh lake, one process, random agents."""
    with tempfile.TemporaryDirectory(dir=root) as folder:
        start = time.perf_counter()
        simulate(Lake(folder), Plan(games, seed=11), workers=1, progress=False)
        return games / (time.perf_counter() - start)


def _write_rate(root: Path) -> float:
    """Rows per second of writing one batch's stored tables to zstd Parquet."""
    from data.rows import build_tables

    plan = Plan(DEFAULT_BATCH, seed=12)
    tables = build_tables(plan_games(plan, 0, plan.games), datetime.now(UTC))
    rows = sum(t.num_rows for t in tables.values())
    with tempfile.TemporaryDirectory(dir=root) as folder:
        start = time.perf_counter()
        for name, table in tables.items():
            write_table(table, Path(folder) / f"{name}.parquet")
        return rows / (time.perf_counter() - start)


def bench_lake(path: Path) -> Lake:
    """The benchmark lake, built (random agents, 2–4 players) unless it already has 10M moves."""
    lake = Lake(path)
    try:
        games = sum(b.games for b in lake.batches())
    except LakeVersionError:  # written by an older engine: build it again
        games = 0
    if games < BENCH_GAMES:
        shutil.rmtree(path, ignore_errors=True)
        lake = Lake(path)
        simulate(lake, Plan(BENCH_GAMES, seed=2026, batch_size=5000), workers_count("auto"))
    return lake


def warm_ms(run, repeats: int = 15) -> float:
    """The median milliseconds of `repeats` calls after one that warms the caches (with five,
    medians on the loaded 2-core machine moved by half from one run to the next)."""
    run()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def data_figures(root: Path) -> dict[str, float]:
    """Every lake figure, keyed by name (rates per second, times in ms, sizes in bytes)."""
    # Bare and simulated rates alternate, so both halves of each ratio see the same machine.
    # A round simulates one batch of the default size, after one such batch has loaded the
    # compiled kernels and grown the heap: once a run, which no round should count.
    _simulate_rate(DEFAULT_BATCH, root)
    rounds = [
        (_bare_rate(DEFAULT_BATCH), _simulate_rate(DEFAULT_BATCH, root)) for _ in range(ROUNDS)
    ]
    figures = {
        "playout_bare_games_per_s": statistics.median(bare for bare, _ in rounds),
        "simulate_games_per_s": statistics.median(simulated for _, simulated in rounds),
        "simulate_vs_bare_ratio": statistics.median(simulated / bare for bare, simulated in rounds),
        "parquet_rows_per_s": statistics.median(_write_rate(root) for _ in range(ROUNDS)),
    }
    lake = bench_lake(root / BENCH_LAKE)
    con = connect(lake)
    moves = execute(con, "SELECT count(*) AS n FROM moves")["n"][0]
    files = [f for table in all_tables() for f in lake.files(table)]
    files += [lake.index_path(batch.source, batch.batch_id) for batch in lake.batches()]
    size = sum(f.stat().st_size for f in files)
    figures["bench_lake_moves"] = float(moves)
    figures["bytes_per_move"] = size / moves
    game_id = execute(con, "SELECT game_id FROM games LIMIT 1 OFFSET 777")["game_id"][0]
    for name in query_names():
        params = {"game_id": game_id} if "game_id" in query_parameters(name) else {}
        if name == "cell_examples":
            params = {"cell": "c3"}
        figures[f"query_{name}_ms"] = warm_ms(lambda n=name, p=params: execute(con, n, p))
    figures["fetch_game_by_id_ms"] = warm_ms(
        lambda: execute(con, "game_record", {"game_id": game_id})
    )
    return figures
