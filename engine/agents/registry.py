"""Agents by name (`random`, `greedy`, `heuristic`, `strong`, `mcts-400`), as used everywhere."""

from __future__ import annotations

import re

from engine.agents.greedy import GreedyAgent
from engine.agents.heuristic import HeuristicAgent
from engine.agents.protocol import Agent
from engine.agents.random_agent import RandomAgent
from engine.agents.strong import STRONG_ITERATIONS, StrongAgent

AGENT_NAMES = ("random", "greedy", "heuristic", "strong")
_MCTS = re.compile(r"mcts-([1-9][0-9]*)")
# The most iterations a move `mcts-N` (the kernel's search) may take: about ten seconds a move
# on one core, and some 160 MB of tree.
MAX_MCTS_ITERATIONS = 200_000


class UnknownAgentError(ValueError):
    """A name that names no agent."""


def make_agent(name: str, seed: int | str) -> Agent:
    """The agent a name describes, seeded."""
    if name == "random":
        return RandomAgent(seed)
    if name == "greedy":
        return GreedyAgent(seed)
    if name == "heuristic":
        return HeuristicAgent(seed)
    if name == "strong":
        return StrongAgent(STRONG_ITERATIONS, seed, name)
    budget = _MCTS.fullmatch(name)
    if budget:
        iterations = int(budget.group(1))
        if iterations > MAX_MCTS_ITERATIONS:
            raise UnknownAgentError(
                f"agent '{name}': at most {MAX_MCTS_ITERATIONS:,} iterations a move "
                f"(mcts-{MAX_MCTS_ITERATIONS}, about ten seconds a move)"
            )
        return StrongAgent(iterations, seed)
    raise UnknownAgentError(
        f"unknown agent '{name}' (choose from {', '.join(AGENT_NAMES)}, mcts-N)"
    )
