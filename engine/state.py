"""The game and its states, in OpenSpiel's shape: a face over the compiled kernel's arrays.

A state answers `current_player()` (a seat, CHANCE or TERMINAL), `legal_actions()` (sorted
ints), `chance_outcomes()`, `apply_action()`, `clone()`, `is_terminal()` and `returns()`.
Chance nodes deal the starting tiles, pick the first player of epoch 1 and reveal drawn
tiles, so a whole game is its list of actions. Every rule is the kernel's (engine/kernel/play.py):
a state is one kernel state array, and its fields are read from that array's parts.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from engine import pieces
from engine.actions import CASTLE_BLOCKS, ActionCodes, Block, action_codes
from engine.geometry import Geometry, geometry
from engine.kernel import play, policies, tables
from engine.kernel.layout import (  # the phases of play, re-exported for the state's callers
    DEAL,
    DRAWN,
    EMPTY,
    EPOCH,
    FIRST,
    LAST_PLACED,
    NEXT_FIRST,
    ORDER_FIRST,
    OVER,
    PENDING,
    PHASE,
    PLACE,
    SUPPLY_SIZE,
    TO_MOVE,
    TURN,
)
from engine.kernel.tables import KernelState
from engine.moves import IllegalMoveError, Move
from engine.notation import board_string
from engine.rules import RuleSet, check_players

CHANCE = -1
TERMINAL = -4


@dataclass(frozen=True)
class Game:
    """The parameters of a game: player count and rule set."""

    players: int = 3
    rules: RuleSet = field(default_factory=RuleSet)

    def __post_init__(self) -> None:
        check_players(self.players)

    @cached_property
    def geometry(self) -> Geometry:
        return geometry(self.rules.rows, self.rules.columns)

    @cached_property
    def codes(self) -> ActionCodes:
        return action_codes(self.rules.cells)

    @cached_property
    def kernel_rules(self) -> np.ndarray:
        """The kernel's rules array of this game (engine/kernel/tables.py)."""
        return tables.kernel_rules(self.players, self.rules)

    def new_initial_state(self) -> State:
        return State(self)


@dataclass(frozen=True)
class Observation:
    """What one seat knows: everything public, plus its own starting tile only.

    `unseen` counts, per tile code, the tiles this seat has not seen (the supply and the other
    seats' starting tiles together).
    """

    seat: int
    epoch: int
    current_player: int
    board: tuple[int, ...]
    gold: tuple[int, ...]
    castles: tuple[tuple[int, ...], ...]  # per seat, castles left of rank 1..4
    holds_start: tuple[bool, ...]  # per seat, whether it still holds a starting tile
    own_start: int  # this seat's starting tile (0 when none)
    unseen: tuple[int, ...]
    pending_tile: int
    turn_order: tuple[int, ...]
    public: State = field(compare=False, repr=False)


class State:
    """One position of a game: a kernel state array, and the actions that led to it."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.history: list[int] = []
        self.kernel_state = play.new_state(game.kernel_rules)

    @property
    def parts(self) -> KernelState:
        """The kernel state's parts, as views that write through."""
        return KernelState.of(self.kernel_state, self.game.kernel_rules)

    # ------------------------------------------------------------------ the game's parameters

    @property
    def geometry(self) -> Geometry:
        return self.game.geometry

    @property
    def codes(self) -> ActionCodes:
        return self.game.codes

    @property
    def players(self) -> int:
        return self.game.players

    @property
    def cells(self) -> int:
        return self.game.rules.cells

    @property
    def no_luck(self) -> bool:
        return self.game.rules.no_luck

    # ------------------------------------------------------------------ the position

    @property
    def phase(self) -> int:
        return int(self.kernel_state[PHASE])

    @property
    def seat(self) -> int:
        """The seat to move (or, while dealing, to be dealt its starting tile)."""
        return int(self.kernel_state[TO_MOVE])

    @property
    def epoch(self) -> int:
        return int(self.kernel_state[EPOCH])

    @property
    def empty(self) -> int:
        """Empty cells on the board."""
        return int(self.kernel_state[EMPTY])

    @property
    def supply_size(self) -> int:
        return int(self.kernel_state[SUPPLY_SIZE])

    @property
    def pending_tile(self) -> int:
        """The tile drawn (or chosen) and not placed yet, 0 for none."""
        return int(self.kernel_state[PENDING])

    @property
    def last_castle_placed(self) -> bool:
        """Whether some seat has placed its last castle."""
        return bool(self.kernel_state[LAST_PLACED])

    @property
    def next_first(self) -> int | None:
        """Who moves first once the deal is done; None while chance picks it."""
        first = int(self.kernel_state[NEXT_FIRST])
        return None if first < 0 else first

    @property
    def turn_order(self) -> list[int]:
        first, players = int(self.kernel_state[ORDER_FIRST]), self.players
        return [(first + k) % players for k in range(players)]

    @property
    def board(self) -> list[int]:
        return self.parts.board.tolist()

    @property
    def gold(self) -> list[int]:
        return self.parts.gold[: self.players].tolist()

    @property
    def epoch_gains(self) -> list[list[int]]:
        """Gold gained per seat in every epoch begun so far."""
        return self.parts.gains[: self.epoch, : self.players].tolist()

    @property
    def castles(self) -> list[list[int]]:
        """Per seat, castles left of rank 1..4."""
        return self.parts.castles[: self.players].tolist()

    @property
    def castles_left(self) -> list[int]:
        return self.parts.castles[: self.players].sum(axis=1).tolist()

    @property
    def start_tiles(self) -> list[int]:
        """Per seat, its starting tile (0 for none)."""
        return self.parts.held[: self.players].tolist()

    @property
    def supply(self) -> list[int]:
        """Copies of each tile code left to draw (index = tile code)."""
        return self.parts.supply.tolist()

    # ------------------------------------------------------------------ queries

    def current_player(self) -> int:
        phase = self.phase
        if phase in (TURN, PLACE):
            return self.seat
        if phase == OVER:
            return TERMINAL
        return CHANCE

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def is_chance_node(self) -> bool:
        return self.phase in (DEAL, FIRST, DRAWN)

    def returns(self) -> list[int]:
        """Final gold per seat (the gold so far while the game is running)."""
        return self.gold

    def legal_actions(self) -> list[int]:
        """The seat to move's actions, sorted (a chance node's outcomes; none at the end)."""
        return play.legal_action_list(self.kernel_state, self.game.kernel_rules)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if not self.is_chance_node():
            raise ValueError("not a chance node")
        return play.chance_outcome_list(self.kernel_state, self.game.kernel_rules)

    def can_act(self, seat: int) -> bool:
        """Whether the seat has anything to do but pass."""
        return bool(play.can_act(self.kernel_state, self.game.kernel_rules, seat))

    def observation(self, seat: int) -> Observation:
        """The seat's view; `public` is the state with the other seats' starting tiles put
        back among the tiles it has not seen."""
        public = self.clone(with_history=False)
        parts = public.parts
        policies.unseen_by(self.kernel_state, self.game.kernel_rules, seat, parts.supply)
        held = parts.held[: self.players]
        own_start = int(held[seat])
        holds_start = tuple(bool(tile) for tile in held)
        held[:] = 0
        held[seat] = own_start
        parts.scalars[SUPPLY_SIZE] = parts.supply.sum()
        return Observation(
            seat=seat,
            epoch=self.epoch,
            current_player=self.current_player(),
            board=tuple(self.board),
            gold=tuple(self.gold),
            castles=tuple(tuple(c) for c in self.castles),
            holds_start=holds_start,
            own_start=own_start,
            unseen=tuple(public.supply),
            pending_tile=self.pending_tile,
            turn_order=tuple(self.turn_order),
            public=public,
        )

    def clone(self, with_history: bool = True) -> State:
        """An independent copy; without history for searches that never replay it."""
        other = State.__new__(State)
        other.game = self.game
        other.history = self.history[:] if with_history else []
        other.kernel_state = self.kernel_state.copy()
        return other

    # ------------------------------------------------------------------ actions

    def apply_action(self, action: int) -> None:
        """Apply one action; raises IllegalMoveError if it is not legal here."""
        legal = 0 <= action < play.action_count(self.game.kernel_rules) and play.apply_action(
            self.kernel_state, self.game.kernel_rules, action
        )
        if not legal:
            raise IllegalMoveError(self._refusal(action))
        self.history.append(action)

    def _refusal(self, action: int) -> str:
        """Why the kernel refused an action here, in the words of the rules."""
        phase = self.phase
        if phase == OVER:
            return "the game is over"
        if phase == FIRST:
            return f"no seat {action} to move first"
        if phase in (DEAL, DRAWN):
            tile = pieces.piece_token(action) if pieces.is_tile(action) else action
            return f"no {tile} tile left in the supply"
        try:
            block, cell = self.codes.decode(action)
        except ValueError:
            return f"action {action} is not legal now"
        letter = pieces.SEAT_LETTERS[self.seat]
        if phase == PLACE and block != Block.PLACE:
            return f"action {action} does not place the drawn tile"
        if block in CASTLE_BLOCKS and not self.castles[self.seat][block - Block.CASTLE_1]:
            return f"seat {letter} has no rank-{block - Block.CASTLE_1 + 1} castle left"
        if block == Block.START and not self.start_tiles[self.seat]:
            return f"seat {letter} holds no starting tile"
        places = block in CASTLE_BLOCKS or block == (Block.PLACE if phase == PLACE else Block.START)
        if places and self.board[cell]:
            return f"{self.geometry.cell_name(cell)} is not empty"
        if block == Block.DRAW and not self.no_luck and not self.supply_size:
            return "the supply is empty"
        if block == Block.PASS:
            return "pass is only allowed when no other action is possible"
        if block == Block.CHOOSE and self.no_luck and pieces.is_tile(cell):
            return f"no {pieces.piece_token(cell)} tile left in the supply"
        return f"action {action} is not legal now"

    # ------------------------------------------------------------------ moves (whole turns)

    def move_actions(self, move: Move) -> list[int]:
        """The actions that make up one turn's move, for the seat to move."""
        codes = self.codes
        if move.kind == "pass":
            return [codes.pass_]
        assert move.cell is not None
        if move.kind == "castle":
            return [codes.castle(move.rank, move.cell)]
        if move.kind == "start":
            return [codes.start(move.cell)]
        first = codes.choose(move.tile) if self.no_luck else codes.draw
        if self.no_luck:
            return [first, codes.place_drawn(move.cell)]
        return [first, move.tile, codes.place_drawn(move.cell)]

    def apply_move(self, move: Move) -> None:
        """Apply a whole turn, with the rules' reason if it is illegal (the state is unchanged)."""
        if self.phase != TURN:
            raise IllegalMoveError("no turn is in progress")
        seat = self.seat
        held = self.start_tiles[seat]
        if move.kind == "start" and held != move.tile:
            raise IllegalMoveError(
                f"seat {pieces.SEAT_LETTERS[seat]}'s starting tile is "
                f"{pieces.piece_token(held) if held else 'already placed'}, not "
                f"{pieces.piece_token(move.tile)}"
            )
        if move.kind == "draw" and not self.supply[move.tile]:
            raise IllegalMoveError(f"no {pieces.piece_token(move.tile)} tile left in the supply")
        trial = self.clone()
        for action in self.move_actions(move):
            trial.apply_action(action)
        self.kernel_state, self.history = trial.kernel_state, trial.history

    # ------------------------------------------------------------------ convenience

    def play_chance(self, rng: random.Random) -> None:
        """Resolve one chance node by sampling it."""
        outcomes = self.chance_outcomes()
        action = outcomes[-1][0]
        pick = rng.random()
        for candidate, probability in outcomes:
            pick -= probability
            if pick < 0:
                action = candidate
                break
        self.apply_action(action)

    def __str__(self) -> str:
        return board_string(self.board, self.geometry)
