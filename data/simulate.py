"""Simulating games into the lake: deterministic per seed, shards (game ranges) played by
workers, each staged by its worker and committed by the client as it arrives (an interrupt keeps
those, and a rerun plays only the shards not committed)."""

from __future__ import annotations

import ctypes
import os
import signal
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import closing, contextmanager
from dataclasses import dataclass, fields
from functools import cached_property
from pathlib import Path

import numpy as np
from tqdm import tqdm

from data.lake import Lake
from data.memory import collector_paused, keep_freed_memory
from data.played import PlayedGame, PlayedGames
from data.shards import Shard, committed_shards, mark_committed, plan_key
from data.store import Stored, commit, stage_games
from engine.agents import UnknownAgentError, make_agent, search_budget
from engine.agents import play_game as play_agents
from engine.executors import Executor, LocalExecutor
from engine.kernel.batch import policy_games
from engine.kernel.policies import POLICIES
from engine.rules import PLAYER_COUNTS, RuleSet
from engine.state import Game

RANDOM = "random"
SOURCE = "simulated"
DEFAULT_BATCH = 8000
# A batch is played and staged in one process's memory: about 21 KB a 4-player random game,
# so the largest is about a gigabyte.
MAX_BATCH_SIZE = 50_000
# A run's shards are listed before the first is played, and each becomes a batch of the lake.
MAX_BATCHES = 200_000
SEED_STRIDE = 1_000_003  # game i of a run on seed s plays on seed s × SEED_STRIDE + i
MAX_SEED = 10**12  # so that a game's seed fits the lake's 64-bit `seed` column


class PlanError(ValueError):
    """A plan that cannot be played: the message names the option at fault."""


@dataclass(frozen=True)
class Plan:
    """What a run plays: how many games, of which player counts, agents and rules."""

    games: int
    players: tuple[int, ...] = PLAYER_COUNTS
    agents: tuple[str, ...] = (RANDOM,)
    rules: RuleSet = RuleSet()
    seed: int = 0
    batch_size: int = DEFAULT_BATCH

    @cached_property
    def seatings(self) -> list[tuple[int, tuple[str, ...]]]:
        """The player count and the agent of every seat, game after game in a cycle: the
        player counts cycle, and the agents rotate a seat every time the player counts come
        round, so they repeat after this many games."""
        seatings = []
        for index in range(len(self.players) * len(self.agents)):
            players = self.players[index % len(self.players)]
            rotate = index // len(self.players)
            agents = tuple(self.agents[(rotate + s) % len(self.agents)] for s in range(players))
            seatings.append((players, agents))
        return seatings


def plan_games(plan: Plan, start: int, stop: int) -> PlayedGames:
    """Play games [start, stop) of the plan, in order; those whose seats are all compiled
    policies (random, greedy, heuristic) are played by the kernel, all of a seating at once."""
    parts, indexes = [], []
    cycle = len(plan.seatings)
    for first, (players, agents) in enumerate(plan.seatings):
        seating = np.arange(start + (first - start) % cycle, stop, cycle)
        if not len(seating):
            continue
        seeds = plan.seed * SEED_STRIDE + seating
        if all(name in POLICIES for name in agents):
            played = policy_games(players, plan.rules, seeds, agents)
            parts.append(PlayedGames.played(players, plan.rules, played, seeds, agents))
        else:
            searched = [_searched(plan, players, agents, seed) for seed in seeds.tolist()]
            parts.append(PlayedGames.of(searched))
        indexes.append(seating)
    order = np.argsort(np.concatenate([np.zeros(0, np.int64), *indexes]))
    return PlayedGames.joined(parts)[order]


def _searched(plan: Plan, players: int, agents: tuple[str, ...], seed: int) -> PlayedGame:
    """One game played by the engine's agents (search among them), seeded by `seed`."""
    seated = [make_agent(name, f"{seed}:{seat}") for seat, name in enumerate(agents)]
    state = play_agents(Game(players, plan.rules), seated, seed)
    return PlayedGame(players, plan.rules, state.history, agents, agents, seed)


def check_agents(agents: Sequence[str]) -> None:
    """Refuse unknown agent names before any game is played."""
    for name in agents:
        try:
            search_budget(name)
        except UnknownAgentError as error:
            raise PlanError(f"--agents: {error}") from None


_EXISTING: frozenset[int] = frozenset()


def _init_worker(existing: frozenset[int], parent: int | None = None) -> None:
    """Set up a process that plays batches. A forked one ignores Ctrl-C (the terminal sends it
    to the whole group; the parent alone stops the run) and dies with its parent."""
    global _EXISTING
    _EXISTING = existing
    if parent is not None:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        _die_with_parent(parent)


def _die_with_parent(parent: int) -> None:
    """Have the system end this process when its parent dies (Linux's PR_SET_PDEATHSIG), so an
    orphan never writes to the pipe of a parent that is gone."""
    try:
        ctypes.CDLL("libc.so.6").prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # the parent died before the request was made
        os._exit(1)


_PR_SET_PDEATHSIG = 1  # prctl option, from linux/prctl.h


def play_batch(lake_root: str, run: str, plan: Plan, start: int, stop: int) -> ShardResult:
    """Play games [start, stop) and stage those not known to be stored (a Dask worker knows
    none: the commit leaves them out) as one batch in the lake at `lake_root`."""
    with collector_paused():
        fresh = plan_games(plan, start, stop).unknown(_EXISTING)
        staging = str(stage_games(Lake(lake_root), fresh, run)) if len(fresh) else ""
    return ShardResult(start, stop, staging)


@dataclass(frozen=True)
class ShardResult:
    """A played shard: its games [start, stop) and their staging folder ("" for none new)."""

    start: int
    stop: int
    staging: str

    @property
    def played(self) -> int:
        return self.stop - self.start


def _star(args: tuple) -> ShardResult:
    return play_batch(*args)


def check_seed(seed: int) -> None:
    """Refuse a seed whose games' seeds (seed × SEED_STRIDE + index) would not fit the lake."""
    if not -MAX_SEED <= seed <= MAX_SEED:
        raise PlanError(f"--seed: {seed} is out of range (at most {MAX_SEED:,} either way)")


def shards(plan: Plan, workers: int) -> list[Shard]:
    """The plan's games cut into shards of `shard_size` games; the same arguments give the
    same shards."""
    size = shard_size(plan, workers)
    return [(start, min(start + size, plan.games)) for start in range(0, plan.games, size)]


def shard_size(plan: Plan, workers: int) -> int:
    """The plan's batch size, smaller when several workers share the games (each busy, the
    progress bar moving)."""
    if workers > 1:
        return max(1, min(plan.batch_size, -(-plan.games // (workers * 4))))
    return plan.batch_size


def check_batches(plan: Plan, workers: int) -> None:
    """Refuse a plan cut into more than MAX_BATCHES shards, before any is listed."""
    size = shard_size(plan, workers)
    count = -(-plan.games // size)
    if count <= MAX_BATCHES:
        return
    if size < plan.batch_size:
        raise PlanError(
            f"--workers: {workers:,} workers cut {plan.games:,} games into {count:,} batches, "
            f"more than the {MAX_BATCHES:,} a run may have"
        )
    raise PlanError(
        f"--batch-size: {plan.games:,} games in batches of {size:,} are {count:,} batches, "
        f"more than the {MAX_BATCHES:,} a run may have (a batch size of at least "
        f"{-(-plan.games // MAX_BATCHES):,} for these games)"
    )


def shard_key(plan: Plan) -> str:
    """The name the plan's committed shards are kept under (data/shards.py)."""
    rules = {f.name: getattr(plan.rules, f.name) for f in fields(plan.rules)}
    rules["variants"] = sorted(plan.rules.variants)
    return plan_key(
        {"players": plan.players, "agents": plan.agents, "rules": rules, "seed": plan.seed}
    )


def simulate(
    lake: Lake,
    plan: Plan,
    workers: int = 1,
    progress: bool = True,
    executor: Executor | None = None,
    on_progress: Callable[[int], None] | None = None,
) -> Stored:
    """Play the plan's shards missing from the lake (on `executor`, else in `workers` local
    processes), committing each as it arrives; `on_progress(done)` hears of the plan's games
    done (found stored or committed). Ctrl-C stops it keeping every committed shard: it ends in
    a KeyboardInterrupt that says how many games those added."""
    check_agents(plan.agents)
    check_seed(plan.seed)
    check_batches(plan, workers)
    keep_freed_memory()
    existing = lake.stored_ids()  # not staged again; each commit checks under the lock
    key = shard_key(plan)
    committed = committed_shards(lake, key)
    missing = [shard for shard in shards(plan, workers) if shard not in committed]
    stored = Stored(duplicates=plan.games - sum(stop - start for start, stop in missing))
    bar = tqdm(
        total=plan.games,
        initial=stored.duplicates,
        unit="game",
        disable=not progress,
        smoothing=0.1,
    )
    if on_progress:
        on_progress(stored.duplicates)
    if executor is None:
        initargs = (existing, os.getpid()) if workers > 1 else (existing,)
        executor = LocalExecutor(workers, _init_worker, initargs, agents=plan.agents)
    try:
        with lake.staging_run() as run:
            jobs = [(str(lake.root), run, plan, start, stop) for start, stop in missing]
            # closed (its workers stopped) before the staging area goes: a worker still
            # staging would otherwise leave a folder behind in it
            with closing(executor.map_unordered(_star, jobs)) as results:
                _commit_all(lake, key, results, bar, stored, on_progress)
    except KeyboardInterrupt:
        raise KeyboardInterrupt(
            f"kept the {stored.added:,} games of the batches finished in {lake.root}"
        ) from None
    finally:
        bar.close()
    return stored


def _commit_all(
    lake: Lake,
    key: str,
    results: Iterable[ShardResult],
    bar: tqdm,
    stored: Stored,
    on_progress: Callable[[int], None] | None,
) -> None:
    """Commit each shard as it arrives, the only writer of the manifest; a shard is marked
    committed after its batch is listed, so a rerun may replay it but never list it twice."""
    for shard in results:
        with _interrupt_deferred():  # a batch committed is a batch counted
            batch = commit(lake, Path(shard.staging), SOURCE) if shard.staging else None
            added = batch.games if batch else 0
            mark_committed(lake, key, (shard.start, shard.stop), batch.batch_id if batch else 0)
            stored.added += added
            stored.duplicates += shard.played - added
        bar.update(shard.played)
        if on_progress:
            on_progress(stored.added + stored.duplicates)


@contextmanager
def _interrupt_deferred() -> Iterator[None]:
    """Hold a Ctrl-C that comes during the block until the block is done, then raise it
    (only the main thread receives signals; elsewhere the block just runs)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    interrupted: list[object] = []
    previous = signal.signal(signal.SIGINT, lambda *caught: interrupted.append(caught))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if interrupted:
        raise KeyboardInterrupt
