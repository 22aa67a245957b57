"""The apprentice agent: the shipped model learned from the strong search, scoring every legal
action from the seat's view in the kernel (engine/kernel/apprentice.py) and playing the best."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from engine.agents.view import SeatView
from engine.kernel import apprentice, policies
from engine.kernel.stream import new_stream
from engine.state import Observation


class ApprenticeAgent:
    """Plays the action its model scores best; ties are broken at random (seeded)."""

    def __init__(self, seed: int | str, name: str = "apprentice", model: np.ndarray | None = None):
        self.name = name
        self.model = apprentice.shipped_model() if model is None else model
        self.stream = new_stream(seed)

    def choose(self, observation: Observation, legal_actions: Sequence[int]) -> int:
        view = SeatView.from_observation(observation)
        legal = np.array(legal_actions, dtype=np.int64)
        if len(legal) == 1:
            return int(legal[0])
        mind = apprentice.new_mind(view.rules, self.model)
        values = np.zeros(mind.scores.shape[0], dtype=np.float64)
        apprentice.apprentice_scores(
            view.state,
            view.rules,
            view.unseen.copy(),
            legal,
            len(legal),
            values,
            policies.policy_scratch(view.rules),
            mind,
        )
        return int(policies.pick_best(legal, mind.scores, len(legal), self.stream))
