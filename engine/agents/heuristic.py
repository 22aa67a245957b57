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

from engine.agents.greedy import Position
from engine.kernel.stream import new_stream
from engine.state import Observation


class HeuristicAgent:
    """A hand-written strategy built on the greedy margin."""

    def __init__(self, seed: int | str, name: str = "heuristic") -> None:
        self.name = name
        self.stream = new_stream(seed)

    def choose(self, observation: Observation, legal_actions: Sequence[int]) -> int:
        return Position.from_observation(observation).choose(legal_actions, True, self.stream)
