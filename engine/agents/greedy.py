"""The greedy agent: the action that most improves (own gold − best opponent's) right now.

Gold is counted on the board as it stands (as if the epoch ended now) plus the gold already
banked. A draw is worth the expectation, over the tiles this seat has not seen, of the best
placement of each; once the tile is seen it is placed greedily.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.actions import CASTLE_BLOCKS, Block, action_codes
from engine.agents.placement import PlacementGains
from engine.geometry import Geometry
from engine.scoring import score_gold
from engine.state import Observation, State

_TOLERANCE = 1e-9


class Position:
    """What a seat knows, prepared for comparing placements: gains per cell and gold totals."""

    def __init__(
        self,
        board: Sequence[int],
        gold: Sequence[int],
        seat: int,
        epoch: int,
        castles: Sequence[Sequence[int]],
        unseen: Sequence[int],
        own_start: int,
        pending_tile: int,
        geometry: Geometry,
    ) -> None:
        self.board = board
        self.seat = seat
        self.epoch = epoch
        self.castles = castles
        self.unseen = unseen
        self.own_start = own_start
        self.pending_tile = pending_tile
        self.players = len(gold)
        self.cells = len(board)
        self.gains = PlacementGains(board, self.players, geometry)
        now = score_gold(board, self.players, geometry)
        self.totals = [banked + epoch_gold for banked, epoch_gold in zip(gold, now, strict=True)]
        self.opponents = [s for s in range(self.players) if s != seat]

    @classmethod
    def from_observation(cls, observation: Observation) -> Position:
        return cls(
            observation.board,
            observation.gold,
            observation.current_player,
            observation.epoch,
            observation.castles,
            observation.unseen,
            observation.own_start,
            observation.pending_tile,
            observation.public.geometry,
        )

    @classmethod
    def from_state(cls, state: State) -> Position:
        """The position as the seat to move sees it in a full (e.g. sampled) state."""
        seat = state.seat
        unseen = state.supply[:]
        for other, tile in enumerate(state.start_tiles):
            if tile and other != seat:
                unseen[tile] += 1
        return cls(
            state.board,
            state.gold,
            seat,
            state.epoch,
            state.castles,
            unseen,
            state.start_tiles[seat],
            state.pending_tile,
            state.geometry,
        )

    def margin(self, changes: Sequence[int]) -> float:
        """Own total minus the best opponent's, after per-seat gold changes."""
        totals = self.totals
        best_other = max(totals[o] + changes[o] for o in self.opponents)
        return totals[self.seat] + changes[self.seat] - best_other

    def castle_margin(self, cell: int, rank: int) -> float:
        totals = self.totals
        best_other = max(totals[o] for o in self.opponents)
        return totals[self.seat] + self.gains.castle_gain(cell, rank) - best_other

    def best_tile_margin(self, tile: int) -> tuple[float, int]:
        """The best margin reachable by placing this tile, and the cell that reaches it."""
        gains = self.gains
        best, best_cell = float("-inf"), -1
        for cell in gains.empties:
            value = self.margin(gains.tile_gains(cell, tile))
            if value > best:
                best, best_cell = value, cell
        return best, best_cell

    def draw_margin(self) -> float:
        """Expected margin of drawing: each unseen tile, placed as well as it can be."""
        unseen = self.unseen
        total = sum(unseen)
        return (
            sum(
                count * self.best_tile_margin(tile)[0] for tile, count in enumerate(unseen) if count
            )
            / total
        )


class GreedyAgent:
    """Maximises the immediate margin; ties are broken at random (seeded)."""

    def __init__(self, seed: int | str, name: str = "greedy") -> None:
        self.name = name
        self.rng = random.Random(seed)

    def choose(self, observation: Observation, legal_actions: Sequence[int]) -> int:
        position = Position.from_observation(observation)
        values = action_values(position, legal_actions)
        return pick_best(legal_actions, values, self.rng)


def action_values(
    position: Position, legal_actions: Sequence[int], draw_value: float | None = None
) -> list[float]:
    """The greedy margin of every legal action (a given `draw_value` spares the expectation)."""
    decode = action_codes(position.cells).decode
    values = []
    for action in legal_actions:
        block, cell = decode(action)
        if block in CASTLE_BLOCKS:
            values.append(position.castle_margin(cell, block - Block.CASTLE_1 + 1))
        elif block == Block.START:
            values.append(position.margin(position.gains.tile_gains(cell, position.own_start)))
        elif block == Block.PLACE:
            values.append(position.margin(position.gains.tile_gains(cell, position.pending_tile)))
        elif block == Block.DRAW:
            if draw_value is None:
                draw_value = position.draw_margin()
            values.append(draw_value)
        elif block == Block.PASS:
            values.append(0.0)
        else:
            values.append(position.best_tile_margin(cell)[0])
    return values


def pick_best(actions: Sequence[int], values: Sequence[float], rng: random.Random) -> int:
    """The action of highest value, a seeded random one among equals."""
    top = max(values)
    best = [a for a, v in zip(actions, values, strict=True) if v >= top - _TOLERANCE]
    return best[int(rng.random() * len(best))] if len(best) > 1 else best[0]
