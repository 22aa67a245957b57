"""Agents that play Kingdoms, all behind one protocol and named by strings (`mcts-400`)."""

from engine.agents.driver import play_game
from engine.agents.protocol import Agent
from engine.agents.registry import (
    AGENT_NAMES,
    AGENTS_VERSION,
    UnknownAgentError,
    make_agent,
    search_budget,
    warm_up,
)

__all__ = [
    "AGENT_NAMES",
    "AGENTS_VERSION",
    "Agent",
    "UnknownAgentError",
    "make_agent",
    "play_game",
    "search_budget",
    "warm_up",
]
