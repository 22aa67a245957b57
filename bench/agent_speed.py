"""Speed figures of the agents and the evaluator for `kingdoms bench` (medians of repeats)."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import SimpleNamespace

from engine.agents import make_agent
from engine.agents.driver import play_game
from engine.agents.greedy import GreedyAgent
from engine.agents.heuristic import HeuristicAgent
from engine.agents.strong import STRONG_ITERATIONS, Searcher, StrongAgent
from engine.evaluate import evaluate, move_reviews
from engine.kernel import search
from engine.state import TURN, Game, Observation, State

REPEATS = 3
SEARCH_ITERATIONS = 20_000  # the compiled search's timed budget


def _median_seconds(task: Callable[[], object], repeats: int = REPEATS) -> float:
    timings = []
    for _ in range(repeats):
        start = time.perf_counter()
        task()
        timings.append(time.perf_counter() - start)
    return statistics.median(timings)


def _games_per_second(agent_class: type, games: int) -> float:
    """3-player games per second on one core, every seat played by the agent, one move at a
    time through engine.State (the kernel's batch games: engine/benchmarks.py)."""
    game = Game(3)

    def play() -> None:
        for seed in range(games):
            play_game(game, [agent_class(f"{seed}:{seat}") for seat in range(3)], seed)

    return games / _median_seconds(play)


def mid_game_position(seed: int = 5) -> State:
    """A 3-player position in the middle of epoch 2, reached by heuristic play."""
    game = Game(3)
    rng = random.Random(seed)
    agents = [HeuristicAgent(seat) for seat in range(3)]
    state = game.new_initial_state()
    while not (state.epoch == 2 and state.empty <= game.rules.cells // 2 and state.phase == TURN):
        if state.is_chance_node():
            state.play_chance(rng)
            continue
        seat = state.current_player()
        legal = state.legal_actions()
        state.apply_action(agents[seat].choose(state.observation(seat), legal))
    return state


def agent_figures(root: Path) -> dict[str, float]:
    """greedy and heuristic agents' games/s through engine.State, the seconds to review a
    3-player game, and the search's figures."""
    position = mid_game_position()
    finished = play_game(Game(3), [HeuristicAgent(seat) for seat in range(3)], seed=9)
    evaluate(position, played=position.legal_actions()[0])  # compiled (or loaded) before timing
    review_time = _median_seconds(
        lambda: move_reviews(finished.game, finished.history, seed=1), repeats=1
    )
    return {
        "greedy_agent_games_per_s": round(_games_per_second(GreedyAgent, 10), 1),
        "heuristic_agent_games_per_s": round(_games_per_second(HeuristicAgent, 10), 1),
        "review_game_s": round(review_time, 2),
        "review_class_agreement": review_agreement(),
        **search_figures(position),
    }


def review_agreement(games: int = 5) -> float:
    """The share of moves whose class two seeds of the evaluator agree on, over 3-player games
    of mixed tables (strong, heuristic, greedy) at the default budget."""
    agreed = moves = 0
    for number in range(games):
        seated = [
            make_agent(name, f"{number}:{seat}")
            for seat, name in enumerate(("heuristic", "greedy", "strong"))
        ]
        game = play_game(Game(3), seated, seed=number + 10)
        first, second = (move_reviews(game.game, game.history, seed=seed) for seed in (1, 2))
        agreed += sum(a.quality == b.quality for a, b in zip(first, second, strict=True))
        moves += len(first)
    return round(agreed / moves, 3)


def _iterations_per_s(observation: Observation, settings: Sequence[float]) -> int:
    searcher = Searcher(SEARCH_ITERATIONS, settings)
    searcher.search(observation, 0)  # compiled (or loaded from the cache) before timing
    return round(SEARCH_ITERATIONS / _median_seconds(lambda: searcher.search(observation, 1)))


def search_figures(position: State) -> dict[str, float]:
    """The compiled search's iterations a second from the position (with and without its
    leaves' playouts), and the median time of a `strong` move over a 3-player game against
    two heuristic seats."""
    observation = position.observation(position.current_player())
    static = list(search.DEFAULT_SETTINGS)
    static[search.PLAYOUT] = 0  # the same search, its leaves valued without a playout
    strong = StrongAgent(STRONG_ITERATIONS, 1, "strong")
    move_times = []

    def timed_choose(seen: Observation, legal: Sequence[int]) -> int:
        start = time.perf_counter()
        action = strong.choose(seen, legal)
        move_times.append(time.perf_counter() - start)
        return action

    timed = SimpleNamespace(name=strong.name, choose=timed_choose)
    play_game(Game(3), [timed, HeuristicAgent(2), HeuristicAgent(3)], seed=9)
    return {
        "mcts_iterations_per_s": _iterations_per_s(observation, search.DEFAULT_SETTINGS),
        "mcts_static_iterations_per_s": _iterations_per_s(observation, static),
        "strong_move_ms": round(1000 * statistics.median(move_times), 1),
    }
