"""The random agent: uniform over the kinds of action, then over ranks, then over cells."""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.actions import CASTLE_BLOCKS, Block, action_codes
from engine.state import Observation


class RandomAgent:
    """Uniform over castle / draw / starting tile first, then the castle rank, then the cell."""

    def __init__(self, seed: int | str, name: str = "random") -> None:
        self.name = name
        self.rng = random.Random(seed)

    def choose(self, observation: Observation, legal_actions: Sequence[int]) -> int:
        decode = action_codes(len(observation.board)).decode
        castles: dict[int, list[int]] = {}
        starts: list[int] = []
        draws: list[int] = []
        for action in legal_actions:
            block, _ = decode(action)
            if block in CASTLE_BLOCKS:
                castles.setdefault(block, []).append(action)
            elif block == Block.START:
                starts.append(action)
            else:
                draws.append(action)  # draw, placing a drawn tile, choosing a face-up tile
        groups: list[list[int]] = [g for g in (starts, draws) if g]
        if castles:
            groups.append([])
        group = groups[int(self.rng.random() * len(groups))]
        if not group:
            by_rank = [castles[rank] for rank in sorted(castles)]
            group = by_rank[int(self.rng.random() * len(by_rank))]
        return group[int(self.rng.random() * len(group))]
