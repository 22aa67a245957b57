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
import uuid
from collections.abc import Sequence
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
from engine.playout import random_games
from engine.rules import RuleSet
from engine.state import Game

RANDOM = "random"
DEFAULT_BATCH = 8000


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
    return plan.seed * 1_000_003 + index


def play_games(plan: Plan, start: int, stop: int) -> list[PlayedGame]:
    """Play games [start, stop) of the plan; those of random agents only are played by the
    compiled kernel, all of a player count at once."""
    games: dict[int, PlayedGame] = {}
    all_random: dict[int, list[int]] = {}  # player count -> game indexes
    for index in range(start, stop):
        players, agents, random_only = plan.seating(index)
        if random_only:
            all_random.setdefault(players, []).append(index)
            continue
        seed = _game_seed(plan, index)
        seated = [make_agent(name, f"{seed}:{seat}") for seat, name in enumerate(agents)]
        state = play_agents(Game(players, plan.rules), seated, seed)
        games[index] = PlayedGame(
            players, plan.rules, state.history, state.epoch_gains, agents, agents, seed
        )
    for players, indexes in all_random.items():
        seeds = [_game_seed(plan, index) for index in indexes]
        played = random_games(Game(players, plan.rules), seeds)
        agents = plan.seating(indexes[0])[1]
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


_EXISTING: frozenset[int] = frozenset()


def _init_worker(existing: frozenset[int]) -> None:
    global _EXISTING
    _EXISTING = existing


def play_batch(lake_root: str, run: str, plan: Plan, start: int, stop: int) -> tuple[str, int, int]:
    """Play games [start, stop), stage them as one batch; return (staging, games, skipped).
    The collector is paused meanwhile: every game is kept until the batch is written, so
    collecting would only walk them again and again (about 1.5% of the time)."""
    paused = gc.isenabled()
    gc.disable()
    try:
        staging, fresh = _stage_games(lake_root, run, plan, start, stop)
    finally:  # the games are gone by now: the collector has nothing of theirs to walk
        if paused:
            gc.enable()
    return staging, fresh, stop - start


def _stage_games(lake_root: str, run: str, plan: Plan, start: int, stop: int) -> tuple[str, int]:
    """Play games [start, stop) and stage the new ones: the staging folder ("" for none) and
    how many were new."""
    games = play_games(plan, start, stop)
    fresh = [g for g in games if g.game_id not in _EXISTING]
    if not fresh:
        return "", 0
    staging = Lake(lake_root).stage_tables(build_tables(fresh, datetime.now(UTC)), run)
    return str(staging), len(fresh)


def _star(args: tuple) -> tuple[str, int, int]:
    return play_batch(*args)


def workers_count(text: str | int) -> int:
    if text == "auto":
        return os.cpu_count() or 1
    try:
        count = int(text)
    except ValueError:
        raise BadInput(f"--workers: '{text}' is not a number or 'auto'") from None
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


def simulate(lake: Lake, plan: Plan, workers: int = 1, progress: bool = True) -> int:
    """Play the plan into the lake; returns the number of games added."""
    from data.reader import existing_ids

    check_agents(plan.agents)
    keep_freed_memory()
    existing = existing_ids(lake)
    size = plan.batch_size
    if workers > 1:  # keep every worker busy and the progress bar moving
        size = max(1, min(size, -(-plan.games // (workers * 4))))
    run = uuid.uuid4().hex
    jobs = [
        (str(lake.root), run, plan, start, min(start + size, plan.games))
        for start in range(0, plan.games, size)
    ]
    added = 0
    bar = tqdm(total=plan.games, unit="game", disable=not progress, smoothing=0.1)
    staged: list[str] = []
    try:
        if workers == 1:
            _init_worker(existing)
            results = map(_star, jobs)
            added = _commit_all(lake, results, bar, staged)
        else:
            context = multiprocessing.get_context("fork")
            with context.Pool(workers, initializer=_init_worker, initargs=(existing,)) as pool:
                added = _commit_all(lake, pool.imap_unordered(_star, jobs), bar, staged)
    finally:
        bar.close()
        lake.end_run(run)
    return added


def store_games(lake: Lake, games: Sequence[PlayedGame]) -> int:
    """Add already played games to the lake as one simulated batch (those not already in it)."""
    from data.reader import existing_ids

    existing = existing_ids(lake)
    fresh = [g for g in games if g.game_id not in existing]
    if not fresh:
        return 0
    run = uuid.uuid4().hex
    try:
        staging = lake.stage_tables(build_tables(fresh, datetime.now(UTC)), run)
        lake.commit(staging, "simulated", len(fresh))
    finally:
        lake.end_run(run)
    return len(fresh)


def _commit_all(lake: Lake, results, bar: tqdm, staged: list[str]) -> int:
    added = 0
    for staging, games, played in results:
        if staging:
            lake.commit(Path(staging), "simulated", games)
            added += games
        bar.update(played)
    return added
