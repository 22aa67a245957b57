"""The greedy agent: the action that most improves (own gold − best opponent's) right now.

Gold is counted on the board as it stands (as if the epoch ended now) plus the gold already
banked. A draw is worth the expectation, over the tiles this seat has not seen, of the best
placement of each; once the tile is seen it is placed greedily. The compiled policy
(engine/kernel/policies.py) does the valuing; this packs the observation for it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from engine.agents.view import SeatView
from engine.kernel import policies
from engine.kernel.stream import new_stream
from engine.state import Observation


class Position(SeatView):
    """What the seat to move knows, as the compiled policies read it."""

    def values(
        self,
        legal_actions: Sequence[int] | np.ndarray,
        heuristic: bool,
        draw_value: float | None = None,
    ) -> np.ndarray:
        """The value of every legal action (a given `draw_value` spares a draw's expectation)."""
        legal = np.array(legal_actions, dtype=np.int64)
        values = np.zeros(len(legal), dtype=np.float64)
        draw = np.nan if draw_value is None else float(draw_value)
        weight = 1.0 if heuristic else 0.0
        policies.action_values(
            self.state, self.rules, self.unseen, legal, len(legal), weight, draw, values
        )
        return values

    def choose(self, legal_actions: Sequence[int], heuristic: bool, stream: np.ndarray) -> int:
        """The best valued action, ties broken from the stream."""
        legal = np.array(legal_actions, dtype=np.int64)
        values = self.values(legal, heuristic)
        return int(policies.pick_best(legal, values, len(legal), stream))


class GreedyAgent:
    """Maximises the immediate margin; ties are broken at random (seeded)."""

    def __init__(self, seed: int | str, name: str = "greedy") -> None:
        self.name = name
        self.stream = new_stream(seed)

    def choose(self, observation: Observation, legal_actions: Sequence[int]) -> int:
        return Position.from_observation(observation).choose(legal_actions, False, self.stream)
