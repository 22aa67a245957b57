"""A seat's view as the kernel's arrays: what the compiled policies read for the seat to move."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Self

import numpy as np

from engine.kernel import layout
from engine.kernel.tables import KernelState, kernel_rules
from engine.state import Observation


class SeatView:
    """The seat to move's view as a kernel state array (its own starting tile only; `unseen`:
    the tiles it has not seen, per code) and the game's kernel rules array."""

    def __init__(
        self,
        rules: np.ndarray,
        board: Sequence[int],
        gold: Sequence[int],
        castles: Sequence[Sequence[int]],
        epoch: int,
        phase: int,
        seat: int,
        own_start: int,
        pending_tile: int,
        supply_size: int,
        unseen: Sequence[int],
    ) -> None:
        self.rules = rules
        self.players = len(gold)
        self.state = np.zeros(int(rules[layout.STATE_SIZE]), dtype=np.int64)
        parts = KernelState.of(self.state, rules)
        parts.scalars[layout.EPOCH] = epoch
        parts.scalars[layout.PHASE] = phase
        parts.scalars[layout.TO_MOVE] = seat
        parts.scalars[layout.PENDING] = pending_tile
        parts.scalars[layout.EMPTY] = sum(1 for piece in board if not piece)
        parts.scalars[layout.SUPPLY_SIZE] = supply_size
        parts.board[:] = board
        parts.gold[: self.players] = gold
        parts.castles[: self.players] = castles
        parts.held[seat] = own_start
        parts.supply[:] = unseen  # in no-luck (no starting tiles) the face-up supply itself
        self.unseen = np.array(unseen, dtype=np.int64)

    @classmethod
    def from_observation(cls, observation: Observation) -> Self:
        game = observation.public.game
        seat = observation.current_player
        hidden = sum(h for other, h in enumerate(observation.holds_start) if other != seat)
        return cls(
            kernel_rules(game.players, game.rules),
            observation.board,
            observation.gold,
            observation.castles,
            observation.epoch,
            layout.PLACE if observation.pending_tile else layout.TURN,
            seat,
            observation.own_start,
            observation.pending_tile,
            sum(observation.unseen) - hidden,
            observation.unseen,
        )
