"""Agents by name (`random`, `greedy`, `heuristic`, `apprentice`, `strong`, `mcts-400`), as used
everywhere.

Names are checked without building an agent, so a record or a command line is validated
without making one.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from engine.agents.protocol import Agent

AGENT_NAMES = ("random", "greedy", "heuristic", "apprentice", "strong")
# Raised whenever an agent given the same seed would play another game (a change to a policy,
# the search or its budget, or the rules the kernel plays): a corpus of games made by another
# version is refused (data/corpus.py), as its games would no longer replay from their seeds.
AGENTS_VERSION = 1
_MCTS = re.compile(r"mcts-([1-9][0-9]*)")
# The most iterations a move `mcts-N` (the kernel's search) may take: about ten seconds a move
# on one core (each iteration plays its leaf out), and some 80 MB of tree.
MAX_MCTS_ITERATIONS = 100_000


class UnknownAgentError(ValueError):
    """A name that names no agent."""


def search_budget(name: str) -> int | None:
    """The iterations a move of `mcts-N`, None for a named agent; refuses an unknown name."""
    if name in AGENT_NAMES:
        return None
    budget = _MCTS.fullmatch(name)
    if not budget:
        raise UnknownAgentError(
            f"unknown agent '{name}' (choose from {', '.join(AGENT_NAMES)}, mcts-N)"
        )
    iterations = int(budget.group(1))
    if iterations > MAX_MCTS_ITERATIONS:
        raise UnknownAgentError(
            f"agent '{name}': at most {MAX_MCTS_ITERATIONS:,} iterations a move "
            f"(mcts-{MAX_MCTS_ITERATIONS}, about ten seconds a move)"
        )
    return iterations


def make_agent(name: str, seed: int | str) -> Agent:
    """The agent a name describes, seeded."""
    iterations = search_budget(name)
    from engine.agents.apprentice import ApprenticeAgent
    from engine.agents.greedy import GreedyAgent
    from engine.agents.heuristic import HeuristicAgent
    from engine.agents.random_agent import RandomAgent
    from engine.agents.strong import STRONG_ITERATIONS, StrongAgent

    if iterations is not None:
        return StrongAgent(iterations, seed)
    if name == "strong":
        return StrongAgent(STRONG_ITERATIONS, seed, name)
    if name == "greedy":
        return GreedyAgent(seed)
    if name == "heuristic":
        return HeuristicAgent(seed)
    if name == "apprentice":
        return ApprenticeAgent(seed)
    return RandomAgent(seed)


def warm_up(names: Iterable[str]) -> None:
    """Compile (or load from the cache) the kernel and, when a name is a search, the search too,
    so that processes forked afterwards do not each compile it."""
    from engine.agents.driver import play_game
    from engine.kernel.batch import warm_up as warm_up_kernel
    from engine.rules import RuleSet
    from engine.state import Game

    warm_up_kernel()
    if any(name == "strong" or search_budget(name) is not None for name in names):
        searchers = [make_agent("mcts-1", seat) for seat in range(2)]
        play_game(Game(2, RuleSet()), searchers, 0)
