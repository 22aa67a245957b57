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
        return MctsAgent(int(budget.group(1)), seed)
    raise UnknownAgentError(
        f"unknown agent '{name}' (choose from {', '.join(AGENT_NAMES)}, mcts-N)"
    )
