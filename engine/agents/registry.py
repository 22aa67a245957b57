"""Agents by name (`random`, `greedy`, `heuristic`, `mcts-400`), as used everywhere."""

from __future__ import annotations

import re

from engine.agents.greedy import GreedyAgent
from engine.agents.heuristic import HeuristicAgent
from engine.agents.mcts import MctsAgent
from engine.agents.protocol import Agent
from engine.agents.random_agent import RandomAgent

AGENT_NAMES = ("random", "greedy", "heuristic")
_MCTS = re.compile(r"mcts-([1-9][0-9]*)")
# The most iterations a move `mcts-N` may search: about ten seconds a move on one core.
MAX_MCTS_ITERATIONS = 100_000


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
    budget = _MCTS.fullmatch(name)
    if budget:
        iterations = int(budget.group(1))
        if iterations > MAX_MCTS_ITERATIONS:
            raise UnknownAgentError(
                f"agent '{name}': at most {MAX_MCTS_ITERATIONS:,} iterations a move "
                f"(mcts-{MAX_MCTS_ITERATIONS}, about ten seconds a move)"
            )
        return MctsAgent(iterations, seed)
    raise UnknownAgentError(
        f"unknown agent '{name}' (choose from {', '.join(AGENT_NAMES)}, mcts-N)"
    )
