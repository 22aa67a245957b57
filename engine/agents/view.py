"""A seat's view as the kernel's arrays: what the compiled policies read for the seat to move."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Self

import numpy as np

from engine import pieces
from engine.kernel import layout
from engine.kernel.play import KernelState
from engine.kernel.tables import KernelRules, kernel_rules
from engine.state import Observation

SEATS = pieces.MAX_SEATS


class SeatView:
    """The seat to move's view (its own starting tile only; `unseen`: the tiles it has not
    seen, per code) and the game's kernel rules."""

    def __init__(
        self,
        rules: KernelRules,
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
        scalars = np.zeros(layout.SCALARS, dtype=np.int64)
        scalars[layout.EPOCH] = epoch
        scalars[layout.PHASE] = phase
        scalars[layout.TO_MOVE] = seat
        scalars[layout.PENDING] = pending_tile
        scalars[layout.EMPTY] = sum(1 for piece in board if not piece)
        scalars[layout.SUPPLY_SIZE] = supply_size
        padded_gold = np.zeros(SEATS, dtype=np.int64)
        padded_gold[: self.players] = gold
        held_castles = np.zeros((SEATS, 4), dtype=np.int64)
        held_castles[: self.players] = castles
        held = np.zeros(SEATS, dtype=np.int64)
        held[seat] = own_start
        self.unseen = np.array(unseen, dtype=np.int64)
        self.state = KernelState(
            scalars,
            np.array(board, dtype=np.int64),
            padded_gold,
            held_castles,
            held,
            self.unseen,  # in no-luck (no starting tiles) the face-up supply itself
            np.zeros((rules.params[layout.MAX_EPOCHS], SEATS), dtype=np.int64),
        )

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
