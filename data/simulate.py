"""Simulating games into the lake: deterministic per seed, batches played by workers, each
staged by its worker and committed by the parent as it finishes (an interrupt keeps those)."""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from tqdm import tqdm

from data.lake import Lake
from data.memory import collector_paused, keep_freed_memory
from data.rows import PlayedGame
from data.store import Stored, commit, new_games, stage_games
from engine.agents import UnknownAgentError, make_agent, search_budget, warm_up
from engine.agents import play_game as play_agents
from engine.kernel.batch import policy_games
from engine.kernel.policies import POLICIES
from engine.rules import RuleSet
from engine.state import Game
from engine.tokens import parse_int

RANDOM = "random"
SOURCE = "simulated"
DEFAULT_BATCH = 8000
SEED_STRIDE = 1_000_003  # game i of a run on seed s plays on seed s × SEED_STRIDE + i
MAX_SEED = 10**12  # so that a game's seed fits the lake's 64-bit `seed` column


class PlanError(ValueError):
    """A plan that cannot be played: the message names the option at fault."""


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


def plan_game(plan: Plan, index: int) -> PlayedGame:
    """Play game `index` of the plan."""
    return plan_games(plan, index, index + 1)[0]


def _game_seed(plan: Plan, index: int) -> int:
    return plan.seed * SEED_STRIDE + index


def plan_games(plan: Plan, start: int, stop: int) -> list[PlayedGame]:
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


def play_batch(lake_root: str, run: str, plan: Plan, start: int, stop: int) -> tuple[str, int]:
    """Play games [start, stop) and stage those not known to be stored as one batch; return
    the staging folder ("" for none) and how many games were played."""
    with collector_paused():
        fresh = new_games(plan_games(plan, start, stop), _EXISTING)
        staging = str(stage_games(Lake(lake_root), fresh, run)) if fresh else ""
    return staging, stop - start


def _star(args: tuple) -> tuple[str, int]:
    return play_batch(*args)


def workers_count(text: str | int) -> int:
    if text == "auto":
        return os.cpu_count() or 1
    count = parse_int(str(text), 0, 1024)
    if count is None:
        raise PlanError(f"--workers: '{text}' is not a number of workers or 'auto'")
    if count < 1:
        raise PlanError(f"--workers: must be at least 1, not {count}")
    return count


def check_seed(seed: int) -> None:
    """Refuse a seed whose games' seeds (seed × SEED_STRIDE + index) would not fit the lake."""
    if not -MAX_SEED <= seed <= MAX_SEED:
        raise PlanError(f"--seed: {seed} is out of range (at most {MAX_SEED:,} either way)")


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
                warm_up(plan.agents)  # compile once here, not once in every forked worker
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


def _commit_all(lake: Lake, results: Iterable[tuple[str, int]], bar: tqdm, stored: Stored) -> None:
    for staging, played in results:
        with _interrupt_deferred():  # a batch committed is a batch counted
            batch = commit(lake, Path(staging), SOURCE) if staging else None
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
