"""Simulating games into the lake: deterministic per seed, on every core, a batch at a time.

Game `i` of a run depends only on (seed, i): its player count, its agents and its random stream.
Workers play a batch and write it to a staging folder; the parent commits finished batches in
order of completion, so an interrupted run keeps every finished batch and no partial one.
"""

from __future__ import annotations

import ctypes
import gc
import multiprocessing
import os
import signal
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cached_property
from pathlib import Path

from tqdm import tqdm

from data.lake import Lake
from data.rows import PlayedGame, build_tables
from engine.agents import UnknownAgentError, make_agent
from engine.agents import play_game as play_agents
from engine.cli_support import BadInput
from engine.kernel.batch import policy_games, warm_up
from engine.kernel.policies import POLICIES
from engine.rules import RuleSet
from engine.state import Game
from engine.tokens import parse_int

RANDOM = "random"
DEFAULT_BATCH = 8000
SEED_STRIDE = 1_000_003  # game i of a run on seed s plays on seed s × SEED_STRIDE + i
MAX_SEED = 10**12  # so that a game's seed fits the lake's 64-bit `seed` column


@dataclass(frozen=True)
class Plan:
    """What a run plays: how many games, of which player counts, agents and rules."""

    games: int
    players: tuple[int, ...] = (2, 3, 4)
    agents: tuple[str, ...] = (RANDOM,)
    rules: RuleSet = RuleSet()
    seed: int = 0
    batch_size: int = DEFAULT_BATCH

    def seating(self, index: int) -> tuple[int, tuple[str, ...], bool]:
        """Player count, the agent of every seat for game `index`, and whether all are random."""
        return self._seatings[index % len(self._seatings)]

    @cached_property
    def _seatings(self) -> list[tuple[int, tuple[str, ...], bool]]:
        """The seatings in turn: the player counts cycle, and the agents rotate a seat every
        time the player counts come round, so they repeat after this many games."""
        seatings = []
        for index in range(len(self.players) * len(self.agents)):
            players = self.players[index % len(self.players)]
            rotate = index // len(self.players)
            agents = tuple(self.agents[(rotate + s) % len(self.agents)] for s in range(players))
            seatings.append((players, agents, set(agents) == {RANDOM}))
        return seatings


def play_game(plan: Plan, index: int) -> PlayedGame:
    """Play game `index` of the plan."""
    return play_games(plan, index, index + 1)[0]


def _game_seed(plan: Plan, index: int) -> int:
    return plan.seed * SEED_STRIDE + index


def play_games(plan: Plan, start: int, stop: int) -> list[PlayedGame]:
    """Play games [start, stop) of the plan; those whose seats are all compiled policies
    (random, greedy, heuristic) are played by the kernel, all of a seating at once."""
    games: dict[int, PlayedGame] = {}
    compiled: dict[tuple[int, tuple[str, ...]], list[int]] = {}  # seating -> game indexes
    for index in range(start, stop):
        players, agents, _ = plan.seating(index)
        if all(name in POLICIES for name in agents):
            compiled.setdefault((players, agents), []).append(index)
            continue
        seed = _game_seed(plan, index)
        seated = [make_agent(name, f"{seed}:{seat}") for seat, name in enumerate(agents)]
        state = play_agents(Game(players, plan.rules), seated, seed)
        games[index] = PlayedGame(
            players, plan.rules, state.history, state.epoch_gains, agents, agents, seed
        )
    for (players, agents), indexes in compiled.items():
        seeds = [_game_seed(plan, index) for index in indexes]
        played = policy_games(players, plan.rules, seeds, agents)
        for k, (index, seed) in enumerate(zip(indexes, seeds, strict=True)):
            gains = played.epoch_gains(k, players)
            games[index] = PlayedGame(
                players, plan.rules, played.history(k), gains, agents, agents, seed
            )
    return [games[index] for index in range(start, stop)]


def check_agents(agents: Sequence[str]) -> None:
    """Refuse unknown agent names before any game is played."""
    for name in agents:
        try:
            make_agent(name, 0)
        except UnknownAgentError as error:
            raise BadInput(f"--agents: {error}") from None


@dataclass
class Stored:
    """What a write did: games added to the lake, and games left out as already in it."""

    added: int = 0
    duplicates: int = 0


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


def play_batch(lake_root: str, run: str, plan: Plan, start: int, stop: int) -> tuple[str, int]:
    """Play games [start, stop), stage the ones not known to be stored as one batch; return
    the staging folder ("" for none) and how many games were played. The collector is paused
    meanwhile: every game is kept until the batch is written, so collecting would only walk
    them again and again (about 1.5% of the time)."""
    paused = gc.isenabled()
    gc.disable()
    try:
        staging = _stage_games(lake_root, run, plan, start, stop)
    finally:  # the games are gone by now: the collector has nothing of theirs to walk
        if paused:
            gc.enable()
    return staging, stop - start


def _stage_games(lake_root: str, run: str, plan: Plan, start: int, stop: int) -> str:
    games = play_games(plan, start, stop)
    fresh = [g for g in games if g.game_id not in _EXISTING]
    if not fresh:
        return ""
    return str(Lake(lake_root).stage_tables(build_tables(fresh, datetime.now(UTC)), run))


def _star(args: tuple) -> tuple[str, int]:
    return play_batch(*args)


def workers_count(text: str | int) -> int:
    if text == "auto":
        return os.cpu_count() or 1
    count = parse_int(str(text), 0, 1024)
    if count is None:
        raise BadInput(f"--workers: '{text}' is not a number of workers or 'auto'")
    if count < 1:
        raise BadInput(f"--workers: must be at least 1, not {count}")
    return count


def keep_freed_memory() -> None:
    """Let this process (and the workers it forks) reuse the memory it frees instead of
    handing it back to the system. Building a batch allocates and frees hundreds of
    megabyte-sized arrays; by default each comes freshly mapped from the system and pays a
    page fault per page, which made building and aggregating a batch about a tenth slower.
    (glibc only: elsewhere this does nothing.)"""
    try:
        libc = ctypes.CDLL("libc.so.6")
    except OSError:
        return
    libc.mallopt(_M_TRIM_THRESHOLD, 1 << 30)  # keep up to 1 GiB of free heap
    libc.mallopt(_M_MMAP_THRESHOLD, 1 << 28)  # blocks below 256 MiB come from the heap


_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3  # mallopt parameters, from glibc's malloc.h


def check_seed(seed: int) -> None:
    """Refuse a seed whose games' seeds (seed × SEED_STRIDE + index) would not fit the lake."""
    if not -MAX_SEED <= seed <= MAX_SEED:
        raise BadInput(f"--seed: {seed} is out of range (at most {MAX_SEED:,} either way)")


def simulate(lake: Lake, plan: Plan, workers: int = 1, progress: bool = True) -> Stored:
    """Play the plan into the lake. Ctrl-C stops it keeping every finished batch: it ends in a
    KeyboardInterrupt that says how many games those added."""
    check_agents(plan.agents)
    check_seed(plan.seed)
    keep_freed_memory()
    existing = lake.stored_ids()  # not staged again; each commit checks under the lock
    size = plan.batch_size
    if workers > 1:  # keep every worker busy and the progress bar moving
        size = max(1, min(size, -(-plan.games // (workers * 4))))
    stored = Stored()
    bar = tqdm(total=plan.games, unit="game", disable=not progress, smoothing=0.1)
    try:
        with lake.staging_run() as run:
            jobs = [
                (str(lake.root), run, plan, start, min(start + size, plan.games))
                for start in range(0, plan.games, size)
            ]
            if workers == 1:
                _init_worker(existing)
                _commit_all(lake, map(_star, jobs), bar, stored)
            else:
                warm_up()  # compile the kernel once here, not once in every forked worker
                context = multiprocessing.get_context("fork")
                initargs = (existing, os.getpid())
                with context.Pool(workers, initializer=_init_worker, initargs=initargs) as pool:
                    _commit_all(lake, pool.imap_unordered(_star, jobs), bar, stored)
    except KeyboardInterrupt:
        raise KeyboardInterrupt(
            f"kept the {stored.added:,} games of the batches finished in {lake.root}"
        ) from None
    finally:
        bar.close()
    return stored


def store_games(lake: Lake, games: Sequence[PlayedGame]) -> Stored:
    """Add already played games to the lake as one simulated batch (those not already in it)."""
    unique = list({g.game_id: g for g in games}.values())
    fresh = [g for g in unique if g.game_id not in lake.stored_ids()]
    stored = Stored(duplicates=len(games) - len(fresh))
    if fresh:
        with lake.staging_run() as run:
            staging = lake.stage_tables(build_tables(fresh, datetime.now(UTC)), run)
            batch = lake.commit(staging, "simulated")
        stored.added = batch.games if batch else 0
        stored.duplicates += len(fresh) - stored.added
    return stored


def _commit_all(lake: Lake, results: Iterable[tuple[str, int]], bar: tqdm, stored: Stored) -> None:
    for staging, played in results:
        with _interrupt_deferred():  # a batch committed is a batch counted
            batch = lake.commit(Path(staging), "simulated") if staging else None
            added = batch.games if batch else 0
            stored.added += added
            stored.duplicates += played - added
        bar.update(played)


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
