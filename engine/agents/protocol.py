"""The one thing every agent does: pick an action from what its seat can see."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from engine.state import Observation


class Agent(Protocol):
    """A player: it sees only its seat's observation and the legal actions, never the state.

    Chance (deals, draws) is resolved by whoever drives the game, not by the agent.
    """

    name: str

    def choose(self, observation: Observation, legal_actions: Sequence[int]) -> int:
        """One of `legal_actions` for the seat to move."""
        ...
