"""The random agent: the kernel's random policy (engine/kernel/random_play.py) on its view."""

from __future__ import annotations

from collections.abc import Sequence

from engine.agents.view import SeatView
from engine.kernel.random_play import random_action
from engine.kernel.stream import new_stream
from engine.state import Observation


class RandomAgent:
    """Uniform over starting tile / draw / castle first, then the castle rank, then the cell;
    its choices come from the kernel's stream seeded with `seed`."""

    def __init__(self, seed: int | str, name: str = "random") -> None:
        self.name = name
        self.stream = new_stream(seed)

    def choose(self, observation: Observation, legal_actions: Sequence[int]) -> int:
        view = SeatView.from_observation(observation)
        return int(random_action(view.state, view.rules, self.stream))
