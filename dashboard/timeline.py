"""A game as the viewer steps through it: one position per ply, computed once when it opens.

Ply 0 is the position before the first move; ply k is the position just after the k-th move
(the lake's `moves.ply`). The last move of an epoch shows the full board with that epoch's
scoring, although the engine has already cleared it for the next epoch.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import polars as pl

from engine import pieces
from engine.moves import CASTLE, DRAW, PASS, START, Move
from engine.scoring import Breakdown, score_breakdown
from engine.state import Game, State
from engine.turns import Turn, walk


@dataclass(frozen=True)
class ReplayPosition:
    """What the viewer shows at one ply."""

    ply: int
    epoch: int
    board: tuple[int, ...]
    gold: tuple[int, ...]
    start_tiles: tuple[int, ...]  # per seat, the starting tile still held (0: none)
    castles: tuple[tuple[int, ...], ...]  # per seat, castles left of rank 1..4
    to_move: int | None  # the seat whose turn comes next (None once the game is over)
    epoch_end: bool  # this ply's move filled the board: the epoch was scored


@dataclass(frozen=True)
class PlyMove:
    """The k-th move of the game (k from 1), as the move list shows it."""

    ply: int
    epoch: int
    turn: int  # within the epoch, from 1
    seat: int
    move: Move
    text: str  # `C4 b2`, `d+5 c3`, `s-2 a1`, `pass`
    actions: tuple[int, ...]
    before: State


class Timeline:
    """Every position of one game, from its action list."""

    def __init__(self, game: Game, actions: list[int], names: list[str] | None = None) -> None:
        self.game = game
        self.actions = list(actions)
        self.geometry = game.geometry
        self.names = names or [f"Player {letter}" for letter in pieces.SEAT_LETTERS[: game.players]]
        self.moves: list[PlyMove] = []
        self.positions: list[ReplayPosition] = []
        self._build()

    def _build(self) -> None:
        game = self.game
        turns = [item for item in walk(game, self.actions) if isinstance(item, Turn)]
        first = turns[0].before if turns else _dealt_start(game, self.actions)
        self.positions.append(_position(0, first, first.board, first.gold, False, first.seat))
        turn_in_epoch = 0
        for index, turn in enumerate(turns, start=1):
            before = turn.before
            turn_in_epoch = (
                1 if index == 1 or turns[index - 2].epoch != turn.epoch else turn_in_epoch + 1
            )
            after = before.clone()
            for action in turn.actions:
                after.apply_action(action)
            board = list(before.board)
            if turn.move.kind != PASS:
                assert turn.move.cell is not None
                board[turn.move.cell] = _piece(turn.move, turn.seat)
            epoch_end = after.epoch != before.epoch or after.is_terminal()
            following = turns[index].seat if index < len(turns) else None
            self.moves.append(
                PlyMove(
                    ply=index,
                    epoch=turn.epoch,
                    turn=turn_in_epoch,
                    seat=turn.seat,
                    move=turn.move,
                    text=turn.move.to_str(self.geometry),
                    actions=turn.actions,
                    before=before,
                )
            )
            self.positions.append(
                _position(index, after, board, after.gold, epoch_end, following, epoch=turn.epoch)
            )

    # ---------------------------------------------------------------- questions

    @property
    def plies(self) -> int:
        return len(self.moves)

    def clamp(self, ply: int) -> int:
        """A ply inside the game (out-of-range requests go to the nearest end)."""
        return max(0, min(self.plies, ply))

    def last_move(self, ply: int) -> PlyMove | None:
        """The move that led to this ply's position."""
        return self.moves[ply - 1] if ply > 0 else None

    def epoch_starts(self) -> list[int]:
        """The first ply of every epoch (where the move list and charts mark an epoch)."""
        return [
            m.ply for i, m in enumerate(self.moves) if i == 0 or self.moves[i - 1].epoch != m.epoch
        ]

    def epoch_end_plies(self) -> list[int]:
        return [p.ply for p in self.positions if p.epoch_end]

    def breakdown(self, ply: int) -> Breakdown | None:
        """The epoch's scoring explained, at the ply that ended an epoch (else None)."""
        position = self.positions[ply]
        if not position.epoch_end:
            return None
        return score_breakdown(position.board, self.game.players, self.geometry)

    @cached_property
    def players(self) -> list[str]:
        """Each seat's player as the charts name its line, `Ann (A)`: a name may sit at two
        seats (an agent playing itself)."""
        letters = pieces.SEAT_LETTERS
        return [f"{name} ({letters[seat]})" for seat, name in enumerate(self.names)]

    @cached_property
    def gold_frame(self) -> pl.DataFrame:
        """Gold of every seat after every ply: columns ply, seat, player (as `players`), gold."""
        letters = pieces.SEAT_LETTERS
        return pl.DataFrame(
            {
                "ply": [p.ply for p in self.positions for _ in p.gold],
                "seat": [letters[s] for p in self.positions for s in range(len(p.gold))],
                "player": [self.players[s] for p in self.positions for s in range(len(p.gold))],
                "gold": [g for p in self.positions for g in p.gold],
            }
        )

    @cached_property
    def move_frame(self) -> pl.DataFrame:
        """The move list: ply, epoch, turn, seat, player, move."""
        letters = pieces.SEAT_LETTERS
        return pl.DataFrame(
            {
                "ply": [m.ply for m in self.moves],
                "epoch": [m.epoch for m in self.moves],
                "turn": [m.turn for m in self.moves],
                "seat": [letters[m.seat] for m in self.moves],
                "player": [self.names[m.seat] for m in self.moves],
                "move": [m.text for m in self.moves],
            },
            schema={
                "ply": pl.Int64,
                "epoch": pl.Int64,
                "turn": pl.Int64,
                "seat": pl.String,
                "player": pl.String,
                "move": pl.String,
            },
        )


def _piece(move: Move, seat: int) -> int:
    if move.kind == CASTLE:
        return pieces.castle(seat, move.rank)
    assert move.kind in (DRAW, START)
    return move.tile


def _position(
    ply: int,
    state: State,
    board: list[int],
    gold: list[int],
    epoch_end: bool,
    to_move: int | None,
    epoch: int | None = None,
) -> ReplayPosition:
    return ReplayPosition(
        ply=ply,
        epoch=epoch or state.epoch,
        board=tuple(board),
        gold=tuple(gold),
        start_tiles=tuple(state.start_tiles),
        castles=tuple(tuple(c) for c in state.castles),
        to_move=to_move,
        epoch_end=epoch_end,
    )


def _dealt_start(game: Game, actions: list[int]) -> State:
    """The opening position of a game with no move yet (a fresh draft): deals applied."""
    state = game.new_initial_state()
    for action in actions:
        state.apply_action(action)
    return state
