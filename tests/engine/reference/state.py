"""The readable reference of the game's states, a test oracle: the rules written out plainly,
which the kernel (engine/kernel/play.py) and its face (engine/state.py) are held to move by move.

A state answers `current_player()` (a seat, CHANCE or TERMINAL), `legal_actions()` (sorted
ints), `chance_outcomes()`, `apply_action()`, `clone()`, `is_terminal()` and `returns()`.
Chance nodes deal the starting tiles, pick the first player of epoch 1 and reveal drawn
tiles, so a whole game is its list of actions.
"""

from __future__ import annotations

import random

from engine import pieces
from engine.actions import CASTLE_BLOCKS, Block
from engine.moves import IllegalMoveError, Move
from engine.notation import board_string
from engine.state import Game, Observation
from tests.engine.reference.scoring import add_line_gold, score_gold, wizard_bonus_cells

CHANCE = -1
TERMINAL = -4

# Phases of play.
DEAL = 0  # chance: the starting tile of seat `deal_seat`
FIRST = 1  # chance: the first player of epoch 1
TURN = 2  # the seat to move picks castle, draw, starting tile or pass
DRAWN = 3  # chance: the tile just drawn
PLACE = 4  # the seat to move places the tile it drew (or chose, in no-luck)
OVER = 5

_TILE_CODES = range(1, pieces.CASTLE_BASE)


def full_supply(game: Game) -> list[int]:
    """Copies of each tile code in a full supply (index = tile code)."""
    supply = [0] * pieces.CASTLE_BASE
    for tile in game.rules.tiles:
        supply[tile] += 1
    return supply


class State:
    """One position of a game, its fields plain lists."""

    def __init__(self, game: Game) -> None:
        rules = game.rules
        self.game = game
        self.geometry = game.geometry
        self.no_luck = rules.no_luck
        self.score_as_you_go = rules.score_as_you_go
        self.players = game.players
        self.cells = rules.cells
        self.codes = game.codes
        self.board = [pieces.EMPTY] * self.cells
        self.empty = self.cells
        self.epoch = 1
        self.gold = [rules.start_gold] * self.players
        self.epoch_gains: list[list[int]] = []
        self.castles = [list(rules.castles(self.players)) for _ in range(self.players)]
        self.castles_left = [sum(c) for c in self.castles]
        self.start_tiles = [0] * self.players
        self.supply = [0] * pieces.CASTLE_BASE
        self.supply_size = 0
        self.turn_order = list(range(self.players))
        self.seat = 0
        self.pending_tile = 0
        self.last_castle_placed = False
        self.history: list[int] = []
        self.phase = TURN
        self._begin_epoch(first_seat=None)

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
        return list(self.gold)

    def legal_actions(self) -> list[int]:
        phase = self.phase
        if phase == TURN:
            return self._turn_actions()
        if phase == PLACE:
            place = self.codes.place_drawn
            return [place(c) for c in range(self.cells) if not self.board[c]]
        if phase == OVER:
            return []
        return [action for action, _ in self.chance_outcomes()]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.phase == FIRST:
            return [(seat, 1.0 / self.players) for seat in range(self.players)]
        if self.phase in (DEAL, DRAWN):
            size = self.supply_size
            return [(t, self.supply[t] / size) for t in _TILE_CODES if self.supply[t]]
        raise ValueError("not a chance node")

    def _turn_actions(self) -> list[int]:
        seat = self.seat
        codes = self.codes
        empties = [c for c in range(self.cells) if not self.board[c]]
        actions: list[int] = []
        for rank, count in enumerate(self.castles[seat], start=1):
            if count:
                actions.extend(codes.castle(rank, c) for c in empties)
        if self.start_tiles[seat]:
            actions.extend(codes.start(c) for c in empties)
        if self.supply_size:
            if self.no_luck:
                actions.extend(codes.choose(t) for t in _TILE_CODES if self.supply[t])
            else:
                actions.append(codes.draw)
        return actions or [codes.pass_]

    def can_act(self, seat: int) -> bool:
        """Whether the seat has anything to do but pass."""
        return self.empty > 0 and bool(
            self.castles_left[seat] or self.start_tiles[seat] or self.supply_size
        )

    def observation(self, seat: int) -> Observation:
        public = self.clone(with_history=False)
        for other, tile in enumerate(self.start_tiles):
            if tile and other != seat:
                public.supply[tile] += 1
                public.supply_size += 1
                public.start_tiles[other] = 0
        return Observation(
            seat=seat,
            epoch=self.epoch,
            current_player=self.current_player(),
            board=tuple(self.board),
            gold=tuple(self.gold),
            castles=tuple(tuple(c) for c in self.castles),
            holds_start=tuple(bool(t) for t in self.start_tiles),
            own_start=self.start_tiles[seat],
            unseen=tuple(public.supply),
            pending_tile=self.pending_tile,
            turn_order=tuple(self.turn_order),
            public=public,
        )

    def clone(self, with_history: bool = True) -> State:
        """An independent copy; without history for searches that never replay it."""
        other = State.__new__(State)
        other.__dict__.update(self.__dict__)
        other.board = self.board[:]
        other.gold = self.gold[:]
        other.epoch_gains = [g[:] for g in self.epoch_gains]
        other.castles = [c[:] for c in self.castles]
        other.castles_left = self.castles_left[:]
        other.start_tiles = self.start_tiles[:]
        other.supply = self.supply[:]
        other.turn_order = self.turn_order[:]
        other.history = self.history[:] if with_history else []
        return other

    # ------------------------------------------------------------------ actions

    def apply_action(self, action: int) -> None:
        """Apply one action; raises IllegalMoveError if it is not legal here."""
        phase = self.phase
        if phase == TURN:
            self._apply_turn_action(action)
        elif phase == PLACE:
            block, cell = self._decode(action)
            if block != Block.PLACE:
                raise IllegalMoveError(f"action {action} does not place the drawn tile")
            self._check_empty(cell)
            self.history.append(action)
            tile = self.pending_tile
            self.pending_tile = 0
            self.place(cell, tile)
            self.end_turn()
        elif phase == FIRST:
            if not 0 <= action < self.players:
                raise IllegalMoveError(f"no seat {action} to move first")
            self.history.append(action)
            self.seat = action
            self.turn_order = [(action + i) % self.players for i in range(self.players)]
            self.phase = TURN
            self._skip_if_stuck()
        elif phase in (DEAL, DRAWN):
            if not 0 < action < pieces.CASTLE_BASE or not self.supply[action]:
                raise IllegalMoveError(
                    f"no {pieces.piece_token(action) if pieces.is_tile(action) else action} "
                    "tile left in the supply"
                )
            self.history.append(action)
            self.supply[action] -= 1
            self.supply_size -= 1
            if phase == DRAWN:
                self.pending_tile = action
                self.phase = PLACE
            else:
                self.start_tiles[self.seat] = action
                self._deal_next()
        else:
            raise IllegalMoveError("the game is over")

    def _decode(self, action: int) -> tuple[Block, int]:
        try:
            return self.codes.decode(action)
        except ValueError:
            raise IllegalMoveError(f"action {action} is not legal now") from None

    def _apply_turn_action(self, action: int) -> None:
        seat = self.seat
        block, cell = self._decode(action)
        if block in CASTLE_BLOCKS:
            kind = block - Block.CASTLE_1
            if not self.castles[seat][kind]:
                raise IllegalMoveError(
                    f"seat {pieces.SEAT_LETTERS[seat]} has no rank-{kind + 1} castle left"
                )
            self._check_empty(cell)
            self.history.append(action)
            self.castles[seat][kind] -= 1
            self.castles_left[seat] -= 1
            if not self.castles_left[seat]:
                self.last_castle_placed = True
            self.place(cell, pieces.CASTLE_BASE + 4 * seat + kind)
            self.end_turn()
        elif block == Block.START:
            tile = self.start_tiles[seat]
            if not tile:
                raise IllegalMoveError(f"seat {pieces.SEAT_LETTERS[seat]} holds no starting tile")
            self._check_empty(cell)
            self.history.append(action)
            self.start_tiles[seat] = 0
            self.place(cell, tile)
            self.end_turn()
        elif block == Block.DRAW and not self.no_luck:
            if not self.supply_size:
                raise IllegalMoveError("the supply is empty")
            self.history.append(action)
            self.phase = DRAWN
        elif block == Block.PASS:
            if self.can_act(seat):
                raise IllegalMoveError("pass is only allowed when no other action is possible")
            self.history.append(action)
            self.end_turn()
        elif block == Block.CHOOSE and self.no_luck and pieces.is_tile(cell):
            tile = cell
            if not self.supply[tile]:
                raise IllegalMoveError(f"no {pieces.piece_token(tile)} tile left in the supply")
            self.history.append(action)
            self.supply[tile] -= 1
            self.supply_size -= 1
            self.pending_tile = tile
            self.phase = PLACE
        else:
            raise IllegalMoveError(f"action {action} is not legal now")

    def _check_empty(self, cell: int) -> None:
        if self.board[cell]:
            name = self.geometry.cell_name(cell)
            raise IllegalMoveError(f"{name} is not empty")

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
        if move.kind == "start" and self.start_tiles[seat] != move.tile:
            held = self.start_tiles[seat]
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
        self.__dict__.update(trial.__dict__)

    # ------------------------------------------------------------------ rule primitives

    def place(self, cell: int, piece: int) -> None:
        """Put a piece on an empty cell (and score the lines it fills, in score-as-you-go)."""
        self.board[cell] = piece
        self.empty -= 1
        if self.score_as_you_go:
            geo = self.geometry
            board = self.board
            for index in geo.lines_through(cell):
                line = geo.lines[index]
                if all(board[c] for c in line):
                    gains = [0] * self.players
                    add_line_gold(board, line, gains, wizard_bonus_cells(board, geo))
                    for seat, amount in enumerate(gains):
                        self.epoch_gains[-1][seat] += amount
                        self.gold[seat] += amount

    def end_turn(self) -> None:
        """Pass the turn clockwise, or end the epoch when nobody can act any more."""
        if self.empty == 0 or not (
            self.supply_size or any(self.castles_left) or any(self.start_tiles)
        ):
            self._end_epoch()
            return
        self.seat = (self.seat + 1) % self.players
        self.phase = TURN

    def _skip_if_stuck(self) -> None:
        """An epoch in which nobody can act ends at once (possible only in last-castle)."""
        if not any(self.can_act(seat) for seat in range(self.players)):
            self._end_epoch()

    def _end_epoch(self) -> None:
        rules = self.game.rules
        if not rules.score_as_you_go:
            gains = score_gold(self.board, self.players, self.geometry)
            for seat, amount in enumerate(gains):
                self.gold[seat] += amount
            self.epoch_gains[-1] = gains
        if rules.last_castle:
            game_over = self.last_castle_placed
        else:
            for code in self.board:
                if code >= pieces.CASTLE_BASE and (code - pieces.CASTLE_BASE) & 3 == 0:
                    seat = (code - pieces.CASTLE_BASE) >> 2
                    self.castles[seat][0] += 1
                    self.castles_left[seat] += 1
            game_over = self.epoch == rules.epochs
        if game_over:
            self.phase = OVER
            return
        self.epoch += 1
        self.board = [pieces.EMPTY] * self.cells
        self.empty = self.cells
        self._begin_epoch(first_seat=self._richest_first())

    def _richest_first(self) -> int:
        """Most gold moves first; a tie goes to the earliest in the last epoch's turn order."""
        best = max(self.gold)
        return next(seat for seat in self.turn_order if self.gold[seat] == best)

    def _begin_epoch(self, first_seat: int | None) -> None:
        self.epoch_gains.append([0] * self.players)
        self.supply = full_supply(self.game)
        self.supply_size = len(self.game.rules.tiles)
        self.start_tiles = [0] * self.players
        self.next_first = first_seat
        if first_seat is not None:
            self.turn_order = [(first_seat + i) % self.players for i in range(self.players)]
        if self.game.rules.starting_tiles:
            self.seat = 0
            self.phase = DEAL
        else:
            self._after_deal()

    def _deal_next(self) -> None:
        if self.seat + 1 < self.players:
            self.seat += 1
        else:
            self._after_deal()

    def _after_deal(self) -> None:
        if self.next_first is None:
            self.phase = FIRST
        else:
            self.seat = self.next_first
            self.phase = TURN
            self._skip_if_stuck()

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
