"""The lake at scale for `kingdoms bench --only scale`: connection and warm query latencies on a
100-million-move lake, and on 100,000 games beside 1,000 one-game batches before and after
`kingdoms lake compact`."""

from __future__ import annotations

import shutil
import statistics
import time
from pathlib import Path

from bench.lake_speed import warm_ms
from data.compact import compact
from data.lake import MANIFEST, Lake, LakeVersionError
from data.reader import connect, execute, query_names, query_parameters
from data.simulate import Plan, simulate
from engine.cli_support import workers_count

SCALE_GAMES = 1_120_000  # about 100.8 million moves with player counts 2, 3, 4 cycled
SCALE_BATCH = 20_000
BESIDE_GAMES, SMALL_BATCHES = 100_000, 1_000
CONNECTS = 9  # connections opened for the median
# The queries of the issue's table, each a figure; the others' slowest is one more.
NAMED = ("game_record", "game_moves", "cell_examples", "game_search")


def _games(lake: Lake) -> int:
    try:
        return sum(b.games for b in lake.batches())
    except LakeVersionError:  # written by an older engine: built again
        return 0


def _built(path: Path, plans: list[Plan]) -> tuple[Lake, float]:
    """The lake at `path`, built from `plans` unless it holds their games; the seconds the
    build took (0 when it was there)."""
    lake = Lake(path)
    if _games(lake) == sum(plan.games for plan in plans):
        return lake, 0.0
    shutil.rmtree(path, ignore_errors=True)
    lake, start = Lake(path), time.perf_counter()
    for plan in plans:
        workers = workers_count("auto") if plan.batch_size > 1 else 1
        simulate(lake, plan, workers=workers)
    return lake, time.perf_counter() - start


def _connect_ms(lake: Lake) -> float:
    times = []
    for _ in range(CONNECTS):
        start = time.perf_counter()
        connect(Lake(lake.root)).close()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def lake_table(lake: Lake, prefix: str) -> dict[str, float]:
    """The issue's table for one lake: connect, the named lookups and searches, the slowest
    other named query (a game of the newest batch is fetched: a one-game batch if any)."""
    con = connect(lake)
    figures = {
        f"{prefix}_batches": float(len(lake.batches())),
        f"{prefix}_moves": float(execute(con, "SELECT count(*) AS n FROM moves")["n"][0]),
        f"{prefix}_connect_ms": _connect_ms(lake),
    }
    newest = "SELECT game_id FROM games ORDER BY batch_id DESC, game_id LIMIT 1"
    game_id = execute(con, newest)["game_id"][0]
    others = []
    for name in query_names():
        params: dict[str, object] = {"cell": "c3"} if name == "cell_examples" else {}
        if "game_id" in query_parameters(name):
            params["game_id"] = game_id
        ms = warm_ms(lambda n=name, p=params: execute(con, n, p))
        if name in NAMED:
            figures[f"{prefix}_{name}_ms"] = ms
        else:
            others.append(ms)
    figures[f"{prefix}_slowest_other_query_ms"] = max(others)
    return figures


def scale_figures(root: Path) -> dict[str, float]:
    """The table on the lake at `root` when it is one; else on the 100 M-move lake and the
    small-batch lakes kept under `root` (built the first time, the build's seconds a figure)."""
    if (root / MANIFEST).exists():
        return lake_table(Lake(root), "scale")
    plan = Plan(SCALE_GAMES, seed=2027, batch_size=SCALE_BATCH)
    big, built_s = _built(root / "scale", [plan])
    figures = {"scale_build_s": built_s, **lake_table(big, "scale")}
    beside = Plan(BESIDE_GAMES, seed=31, batch_size=SCALE_BATCH)
    small_plan = Plan(SMALL_BATCHES, seed=32, batch_size=1)
    small, built_s = _built(root / "small-batches", [beside, small_plan])
    figures |= {"small_build_s": built_s, **lake_table(small, "small")}
    copy = root / "small-batches-compacted"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(small.root, copy)
    start = time.perf_counter()
    compact(Lake(copy))
    figures["compact_s"] = time.perf_counter() - start
    return figures | lake_table(Lake(copy), "compacted")
