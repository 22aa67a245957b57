"""The engine's speed figures for `kingdoms bench`: bare random playouts and board scoring."""

from __future__ import annotations

import random
import statistics
import time

from engine import pieces
from engine.playout import random_playout
from engine.scoring import score_gold
from engine.state import Game


def random_games_per_s(players: int = 3, seconds: float = 1.0, repeats: int = 5) -> float:
    """Full random-playout games per second on one core (scoring included, no recording);
    the median over repeats."""
    game = Game(players)
    rng = random.Random(7)
    rates = []
    for _ in range(repeats):
        games = 0
        started = time.perf_counter()
        while time.perf_counter() - started < seconds:
            for _ in range(100):
                random_playout(game.new_initial_state(), rng)
            games += 100
        rates.append(games / (time.perf_counter() - started))
    return statistics.median(rates)


def score_board_us(repeats: int = 5, number: int = 20_000) -> float:
    """Microseconds to score one full board (the median over repeats of many boards)."""
    game = Game(3)
    rng = random.Random(11)
    boards = [_full_board(game, rng) for _ in range(50)]
    geometry = game.geometry
    timings = []
    for _ in range(repeats):
        started = time.perf_counter()
        for i in range(number):
            score_gold(boards[i % len(boards)], 3, geometry)
        timings.append((time.perf_counter() - started) / number * 1e6)
    return statistics.median(timings)


def _full_board(game: Game, rng: random.Random) -> list[int]:
    """A full epoch-end board: every tile of the set, and castles of every seat in the rest."""
    board = list(game.rules.tiles)
    castles = [
        pieces.castle(seat, rank)
        for seat in range(game.players)
        for rank, count in enumerate(game.rules.castles(game.players), start=1)
        for _ in range(count)
    ]
    rng.shuffle(castles)
    board += castles[: game.rules.cells - len(board)]
    rng.shuffle(board)
    return board


def engine_figures() -> dict[str, float]:
    return {
        "random_games_per_s": round(random_games_per_s(), 1),
        "score_board_us": round(score_board_us(), 2),
    }
