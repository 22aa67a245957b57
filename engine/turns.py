"""A game's action list read back as what happened: starting-tile deals and turns.

Walks a fresh state through the actions, so what it yields is exactly what the engine
accepted; records, the lake and the replay viewer all read games through it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from engine import moves
from engine.actions import ActionCodes, Block
from engine.moves import Move
from engine.state import DEAL, DRAWN, FIRST, PLACE, TURN, Game, State


@dataclass(frozen=True)
class Deal:
    """A seat's starting tile for an epoch."""

    epoch: int
    seat: int
    tile: int


@dataclass(frozen=True)
class Turn:
    """One seat's turn: the move, the actions it took, and the state just before it."""

    epoch: int
    seat: int
    move: Move
    actions: tuple[int, ...]
    before: State


def walk(game: Game, actions: Iterable[int]) -> Iterator[Deal | Turn]:
    """Yield deals and turns in order; each Turn holds a copy of the state before it."""
    state = game.new_initial_state()
    codes = game.codes
    pending: list[int] = []
    before = state
    for action in actions:
        phase = state.phase
        if phase == DEAL:
            yield Deal(state.epoch, state.seat, action)
        elif phase == TURN:
            before = state.clone(with_history=False)
            pending = [action]
        elif phase != FIRST:
            pending.append(action)
        state.apply_action(action)
        if pending and state.phase not in (DRAWN, PLACE):
            held = before.start_tiles[before.seat]
            move = _move(pending, held, codes)
            yield Turn(before.epoch, before.seat, move, tuple(pending), before)
            pending = []


def _move(actions: list[int], held: int, codes: ActionCodes) -> Move:
    block, cell = codes.decode(actions[0])
    if block == Block.PASS:
        return Move(moves.PASS)
    if rank := codes.castle_rank(block):
        return Move(moves.CASTLE, cell, rank=rank)
    if block == Block.START:
        return Move(moves.START, cell, tile=held)
    _, place = codes.decode(actions[-1])
    tile = actions[1] if block == Block.DRAW else cell
    return Move(moves.DRAW, place, tile=tile)


def final_state(game: Game, actions: Iterable[int]) -> State:
    """The state after all the actions."""
    state = game.new_initial_state()
    for action in actions:
        state.apply_action(action)
    return state
