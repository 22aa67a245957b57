"""The engine's speed figures for `kingdoms bench`: random games and board scoring, each on the
compiled kernel and on the readable engine (its pure-Python reference) in the same run; greedy
and heuristic games on the kernel (bench/agent_speed.py times the same agents driven one move
at a time through engine.State); and the kernel's compile time from a cold cache."""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from engine import pieces
from engine.agents.driver import play_game
from engine.agents.random_agent import RandomAgent
from engine.kernel import CACHE_ROOT_VARIABLE
from engine.kernel.batch import policy_games, random_games, score_boards, warm_up
from engine.rules import RuleSet
from engine.scoring import score_breakdown
from engine.state import Game

REPEATS = 5


def _median_rate(count: int, task, repeats: int = REPEATS) -> float:
    """Items per second of `task()` (which handles `count` items): the median over repeats."""
    rates = []
    for _ in range(repeats):
        started = time.perf_counter()
        task()
        rates.append(count / (time.perf_counter() - started))
    return statistics.median(rates)


def random_games_per_s(players: int = 3, games: int = 20_000) -> float:
    """Random games a second on the kernel, one core, scoring included."""
    rules = RuleSet()
    warm_up()
    seeds = iter(range(10**9))
    return _median_rate(
        games, lambda: random_games(players, rules, [next(seeds) for _ in range(games)])
    )


def policy_games_per_s(policy: str, players: int = 3, games: int = 2_000) -> float:
    """Games a second on the kernel with every seat playing the compiled policy, one core."""
    rules = RuleSet()
    warm_up()
    seeds = iter(range(10**9))
    return _median_rate(
        games,
        lambda: policy_games(
            players, rules, [next(seeds) for _ in range(games)], (policy,) * players
        ),
    )


def random_games_python_per_s(players: int = 3, games: int = 100) -> float:
    """The same on the readable engine: random agents through engine.State."""
    game = Game(players)
    seeds = iter(range(10**9))

    def play() -> None:
        for _ in range(games):
            seed = next(seeds)
            play_game(game, [RandomAgent(f"{seed}:{s}") for s in range(players)], seed)

    return _median_rate(games, play)


def _full_boards(count: int, players: int = 3) -> np.ndarray:
    """Full epoch-end boards: every tile of the set, and castles of every seat in the rest."""
    rules = RuleSet()
    rng = random.Random(11)
    castles = [
        pieces.castle(seat, rank)
        for seat in range(players)
        for rank, number in enumerate(rules.castles(players), start=1)
        for _ in range(number)
    ]
    boards = []
    for _ in range(count):
        rng.shuffle(castles)
        board = list(rules.tiles) + castles[: rules.cells - len(rules.tiles)]
        rng.shuffle(board)
        boards.append(board)
    return np.array(boards, dtype=np.int64)


def score_board_us(boards: int = 20_000) -> float:
    """Microseconds for the kernel's whole breakdown of one full board (gold, segment bases,
    effective ranks, every tile's impact), scoring a batch of boards."""
    batch = _full_boards(boards)
    score_boards(batch[:10])
    return 1e6 / _median_rate(boards, lambda: score_boards(batch))


def score_board_python_us(boards: int = 500) -> float:
    """The same breakdown by the readable scoring, one board at a time."""
    batch = _full_boards(boards).tolist()
    geometry = Game(3).geometry
    return 1e6 / _median_rate(boards, lambda: [score_breakdown(b, 3, geometry) for b in batch])


def kernel_compile_s(root: Path) -> float:
    """Seconds a fresh process takes to compile every kernel entry point into an empty cache."""
    with tempfile.TemporaryDirectory(dir=root) as folder:
        started = time.perf_counter()
        subprocess.run(
            [sys.executable, "-c", "from engine.kernel.batch import warm_up; warm_up()"],
            env={**os.environ, CACHE_ROOT_VARIABLE: folder},
            check=True,
        )
        return time.perf_counter() - started


def engine_figures(root: Path) -> dict[str, float]:
    return {
        "random_games_per_s": round(random_games_per_s(), 1),
        "random_games_python_per_s": round(random_games_python_per_s(), 1),
        "greedy_games_per_s": round(policy_games_per_s("greedy"), 1),
        "heuristic_games_per_s": round(policy_games_per_s("heuristic"), 1),
        "apprentice_games_per_s": round(policy_games_per_s("apprentice", games=600), 1),
        "score_board_us": round(score_board_us(), 3),
        "score_board_python_us": round(score_board_python_us(), 1),
        "kernel_compile_s": round(kernel_compile_s(root), 1),
    }
