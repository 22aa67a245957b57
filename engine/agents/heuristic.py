"""The heuristic agent: greedy judgement plus the habits of a thoughtful human player.

- a castle is valued on what its lines are likely to be worth when the epoch ends (the gold
  there now plus the expected value of the tiles still to come), minus a risk charge that
  grows with the square of its rank, so high ranks go into reliable rich lines and rank-1
  castles into risky ones;
- a castle of rank 2–4 leaves the game once placed, so before the last epoch it must beat
  what the same rank is expected to earn later;
- the starting tile is held while the board is open, for the moment it pays most;
- hazards and the dragon go where opponents have invested (the greedy margin sees that).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine import pieces
from engine.actions import CASTLE_BLOCKS, Block, action_codes
from engine.agents.greedy import Position, action_values, pick_best
from engine.state import Observation

RISK_PER_EMPTY = 0.35  # gold per empty cell per rank² (hazards steered at strong castles)
LATER_VALUE_PER_RANK = {1: 4.0, 2: 2.0}  # by epoch: what a held rank unit earns later
HOLD_PER_EMPTY = 0.25  # the starting tile's option value per empty cell left


class HeuristicAgent:
    """A hand-written strategy built on the greedy margin."""

    def __init__(self, seed: int | str, name: str = "heuristic") -> None:
        self.name = name
        self.rng = random.Random(seed)

    def choose(self, observation: Observation, legal_actions: Sequence[int]) -> int:
        position = Position.from_observation(observation)
        values = heuristic_values(position, legal_actions)
        return pick_best(legal_actions, values, self.rng)


def heuristic_values(
    position: Position, legal_actions: Sequence[int], draw_value: float | None = None
) -> list[float]:
    """The greedy margin of every legal action, corrected by the habits above."""
    values = action_values(position, legal_actions, draw_value)
    decode = action_codes(position.cells).decode
    expected_tile = expected_fill(position)
    hold_value = HOLD_PER_EMPTY * (len(position.gains.empties) - 2 * position.players)
    for index, action in enumerate(legal_actions):
        block, cell = decode(action)
        if block in CASTLE_BLOCKS:
            rank = block - Block.CASTLE_1 + 1
            values[index] += castle_outlook(position, cell, rank, expected_tile)
        elif block == Block.START:
            values[index] -= hold_value
    return values


def expected_fill(position: Position) -> float:
    """The expected value a still-empty cell will add to its segments' base."""
    unseen = position.unseen
    count = sum(unseen)
    if not count:
        return 0.0
    mean_value = sum(pieces.TILE_VALUE[t] * n for t, n in enumerate(unseen) if n) / count
    empties = len(position.gains.empties)
    castles_to_come = sum(sum(c) for c in position.castles)
    tile_share = min(1.0, max(0.0, (empties - castles_to_come / 2) / empties)) if empties else 0.0
    return mean_value * tile_share


def castle_outlook(
    position: Position, cell: int, rank: int, expected_tile: float, placed: bool = False
) -> float:
    """What the greedy margin misses about a castle: its lines' future, risk and rank cost."""
    effective = rank + (cell in position.gains.bonus)
    row, column = position.gains.segments_of(cell)
    others_open = 0 if placed else 1
    open_cells = (row.empty - others_open) + (column.empty - others_open)
    future = 0.0
    for segment in (row, column):
        fill = expected_tile * (segment.empty - others_open)
        if segment.dragon:
            fill = min(fill, 0.0)
        future += fill * (2 if segment.mine else 1)
    outlook = effective * future - RISK_PER_EMPTY * effective * effective * open_cells
    if rank >= 2 and not placed:
        outlook -= rank * LATER_VALUE_PER_RANK.get(position.epoch, 0.0)
    return outlook


def projected_gold(position: Position) -> list[float]:
    """Each seat's gold if the epoch ended now, plus the outlook of the castles it has placed."""
    projected: list[float] = list(position.totals)
    expected_tile = expected_fill(position)
    for cell, piece in enumerate(position.board):
        if pieces.is_castle(piece):
            projected[pieces.castle_seat(piece)] += castle_outlook(
                position, cell, pieces.castle_rank(piece), expected_tile, placed=True
            )
    return projected
