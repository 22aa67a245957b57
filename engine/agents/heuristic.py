"""The heuristic agent: greedy judgement plus the habits of a thoughtful human player.

- a castle is valued on what its lines are likely to be worth when the epoch ends (the gold
  there now plus the expected value of the tiles still to come), minus a risk charge that
  grows with the square of its rank, so high ranks go into reliable rich lines and rank-1
  castles into risky ones;
- a castle of rank 2–4 leaves the game once placed, so before the last epoch it must beat
  what the same rank is expected to earn later;
- the starting tile is held while the board is open, for the moment it pays most;
- hazards and the dragon go where opponents have invested (the greedy margin sees that).

The compiled policy (engine/kernel/policies.py) does the valuing.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from engine.agents.greedy import Position
from engine.kernel import layout, policies
from engine.kernel.stream import new_stream
from engine.state import Observation


class HeuristicAgent:
    """A hand-written strategy built on the greedy margin."""

    def __init__(self, seed: int | str, name: str = "heuristic") -> None:
        self.name = name
        self.stream = new_stream(seed)

    def choose(self, observation: Observation, legal_actions: Sequence[int]) -> int:
        return Position.from_observation(observation).choose(legal_actions, True, self.stream)


def heuristic_values(
    position: Position, legal_actions: Sequence[int], draw_value: float | None = None
) -> list[float]:
    """The greedy margin of every legal action, corrected by the habits above."""
    return position.values(legal_actions, True, draw_value).tolist()


def projected_gold(position: Position) -> list[float]:
    """Each seat's gold if the epoch ended now, plus the outlook of the castles it has placed."""
    out = np.zeros(int(position.rules[layout.MAX_SEATS]), dtype=np.float64)
    policies.projected_gold(position.state, position.rules, position.unseen, out)
    return out[: position.players].tolist()
