"""Recording a real game move by move, every move checked by the engine (no Streamlit here).

A recording is a `.kgn` record in the making: tags, the first seat, and per epoch the starting
tiles (known or `?`) and the moves. Every change is tried on a copy that is replayed from the
start; an illegal one is refused with the rules' reason and the recording stays as it was.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

from dashboard.timeline import Timeline
from engine import pieces
from engine.moves import CASTLE, DRAW, PASS, START, IllegalMoveError, Move, MoveSyntaxError
from engine.record import (
    EpochRecord,
    Record,
    RecordedMove,
    RecordError,
    parse_record,
    replay_record,
    result_text,
    rules_tags,
    write_record,
)
from engine.rules import RulesError, RuleSet, check_players, is_shipped
from engine.scoring import Breakdown
from engine.state import FIRST, OVER, State

SEATS = pieces.SEAT_LETTERS


class RecordingError(ValueError):
    """A change the rules refuse; the message is the engine's reason."""


@dataclass(frozen=True)
class Choice:
    """One action the seat to move may take, as the recorder picks it (before the cell)."""

    kind: str  # castle, draw, start, pass
    rank: int = 0
    tile: int = 0

    def label(self, names: dict[str, str]) -> str:
        if self.kind == CASTLE:
            return f"{names['castle']} of rank {self.rank}"
        if self.kind == DRAW:
            return f"drawn tile {pieces.piece_token(self.tile)}"
        if self.kind == START:
            return f"starting tile {pieces.piece_token(self.tile)}"
        return "pass"

    def move(self, cell: int | None) -> Move:
        if self.kind == PASS:
            return Move(PASS)
        return Move(self.kind, cell, rank=self.rank, tile=self.tile)


@dataclass(frozen=True)
class EpochEnd:
    """An epoch just finished: its number, its full board and how it scored."""

    epoch: int
    board: tuple[int, ...]
    breakdown: Breakdown


class Recording:
    """A game being recorded: its record so far and the position it leads to."""

    def __init__(self, record: Record, first_seat: int) -> None:
        self.record = record
        self.first_seat = first_seat
        self.state = self._replay(record, first_seat)

    # ---------------------------------------------------------------- making one

    @classmethod
    def new(
        cls,
        rules: RuleSet,
        names: list[str],
        first_seat: int,
        extra_tags: dict[str, str] | None = None,
    ) -> Recording:
        """A fresh recording of a game by `rules`; raises RecordingError for bad names or seat."""
        try:
            check_players(len(names))
        except RulesError as error:
            raise RecordingError(str(error)) from None
        if not 0 <= first_seat < len(names):
            raise RecordingError(f"no seat {first_seat} in a {len(names)}-player game")
        tags = rules_tags(rules)
        for letter, name in zip(SEATS, names, strict=False):
            clean = name.strip().replace('"', "'")
            tags[letter] = clean or f"Player {letter}"
        tags.update({k: v for k, v in (extra_tags or {}).items() if v})
        epoch = EpochRecord(1, starts=[None] * len(names) if rules.starting_tiles else [])
        epoch.start_line = 1 if rules.starting_tiles else 0
        given = None if is_shipped(rules) else rules
        return cls(Record(tags, [epoch], given_rules=given), first_seat)

    @classmethod
    def from_text(cls, text: str, first_seat: int, rules: RuleSet | None = None) -> Recording:
        """A recording read back from its draft text (played by `rules`, for a rule-set file's
        game, as `parse_record`)."""
        try:
            record = parse_record(text, rules)
        except RecordError as error:
            raise RecordingError(str(error)) from None
        return cls(record, first_seat)

    @property
    def own_rules(self) -> RuleSet | None:
        """The rules of a rule-set file's game (which its text only names), None for an edition."""
        return self.record.given_rules

    def text(self) -> str:
        """The record as `.kgn` text (with its Result once the game is over)."""
        return write_record(self.record)

    # ---------------------------------------------------------------- the position

    @property
    def rules(self) -> RuleSet:
        return self.record.rules

    @property
    def players(self) -> int:
        return self.record.players

    @property
    def names(self) -> list[str]:
        return [self.record.tags[SEATS[s]] for s in range(self.players)]

    @property
    def is_over(self) -> bool:
        return self.state.phase == OVER

    @property
    def epoch(self) -> int:
        return self.record.epochs[-1].number

    @property
    def seat_to_move(self) -> int | None:
        if self.is_over:
            return None
        return self.first_seat if self.state.phase == FIRST else self.state.seat

    @property
    def moves(self) -> list[RecordedMove]:
        return [m for epoch in self.record.epochs for m in epoch.moves]

    def starts(self) -> list[int | None]:
        """The current epoch's starting tiles as entered (None: not seen)."""
        return list(self.record.epochs[-1].starts)

    def choices(self) -> list[Choice]:
        """What the seat to move may do now: castles it holds, any tile left to draw, its
        starting tile (a `?` one may be any tile not yet seen), or pass when nothing else."""
        seat = self.seat_to_move
        if seat is None:
            return []
        state = self.state
        found = [
            Choice(CASTLE, rank=rank)
            for rank, left in enumerate(state.castles[seat], start=1)
            if left
        ]
        if state.empty and self.rules.starting_tiles and state.start_tiles[seat]:
            known = self.record.epochs[-1].starts[seat]
            found += [Choice(START, tile=t) for t in ([known] if known else self._unseen())]
        if state.empty and state.supply_size:
            found += [Choice(DRAW, tile=t) for t in self._unseen()]
        if not state.empty or not found:
            return [Choice(PASS)]
        return found

    def legal_moves(self) -> list[Move]:
        """Every move the seat to move may make now: each of its choices on each empty cell."""
        empties = [c for c, piece in enumerate(self.state.board) if not piece]
        return [
            choice.move(cell)
            for choice in self.choices()
            for cell in ([None] if choice.kind == PASS else empties)
        ]

    def read_move(self, text: str) -> Move:
        """The move `text` names in the record notation (`C1 c3`, `d+5 a2`, `s-2 e1`, `pass`),
        read by the engine's move parser; raises RecordingError with its reason."""
        try:
            return Move.from_str(text, self.state.geometry)
        except MoveSyntaxError as error:
            raise RecordingError(str(error)) from None

    def _unseen(self) -> list[int]:
        """Tile kinds that may still come out of the supply (or a `?` starting tile)."""
        state = self.state
        left = [t for t in pieces.TILE_KINDS if state.supply[t]]
        unknown = [
            s
            for s, tile in enumerate(self.record.epochs[-1].starts)
            if tile is None and state.start_tiles[s]
        ]
        held = {state.start_tiles[s] for s in unknown}
        return sorted(set(left) | held)

    # ---------------------------------------------------------------- changes

    def play(self, move: Move) -> None:
        """Add the seat to move's move, or raise RecordingError with the rules' reason."""
        seat = self.seat_to_move
        if seat is None:
            raise RecordingError("the game is over")
        if move.cell is not None and self.state.board[move.cell]:
            # The engine would say so too, but for a drawn tile only by its action number.
            raise RecordingError(f"{self.state.geometry.cell_name(move.cell)} is not empty")
        trial = copy.deepcopy(self.record)
        epoch = trial.epochs[-1]
        epoch.moves.append(RecordedMove(seat, move))
        self._adopt(trial)

    def set_starts(self, starts: list[int | None]) -> None:
        """Enter the current epoch's starting tiles (None for a tile nobody saw)."""
        if not self.rules.starting_tiles:
            raise RecordingError("this variant has no starting tiles")
        if len(starts) != self.players:
            raise RecordingError(f"give one starting tile per seat ({self.players})")
        trial = copy.deepcopy(self.record)
        trial.epochs[-1].starts = list(starts)
        self._adopt(trial)

    def undo(self) -> RecordedMove | None:
        """Take back the last move (reopening the previous epoch if need be)."""
        trial = copy.deepcopy(self.record)
        while trial.epochs and not trial.epochs[-1].moves and len(trial.epochs) > 1:
            trial.epochs.pop()
        if not trial.epochs[-1].moves:
            return None
        taken = trial.epochs[-1].moves.pop()
        trial.tags.pop("Result", None)
        self._adopt(trial)
        return taken

    def _adopt(self, trial: Record) -> None:
        state = self._replay(trial, self.first_seat)
        if state.phase == OVER:
            trial.tags["Result"] = result_text(state.gold)
        elif state.epoch > trial.epochs[-1].number:
            number = trial.epochs[-1].number + 1
            epoch = EpochRecord(
                number, starts=[None] * self.players if self.rules.starting_tiles else []
            )
            epoch.start_line = 1 if self.rules.starting_tiles else 0
            trial.epochs.append(epoch)
            state = self._replay(trial, self.first_seat)
        self.record, self.state = trial, state

    @staticmethod
    def _replay(record: Record, first_seat: int) -> State:
        """The position after the record; the first move of epoch 1 must be `first_seat`'s."""
        moves = record.epochs[0].moves if record.epochs else []
        if moves and moves[0].seat != first_seat:
            raise RecordingError(
                f"seat {SEATS[moves[0].seat]} cannot move now, it is {SEATS[first_seat]}'s turn"
            )
        try:
            return replay_record(record, require_finished=False)
        except (RecordError, IllegalMoveError) as error:
            message = error.message if isinstance(error, RecordError) else str(error)
            raise RecordingError(message) from None

    def finished_epoch(self) -> EpochEnd | None:
        """The epoch the last move ended, board and scoring (None while an epoch is going on;
        the position itself has already been cleared for the next epoch)."""
        if not self.moves or (self.record.epochs[-1].moves and not self.is_over):
            return None
        timeline = Timeline(self.state.game, self.state.history)
        end = timeline.positions[-1]
        breakdown = timeline.breakdown(end.ply)
        return None if breakdown is None else EpochEnd(end.epoch, end.board, breakdown)

    def last_epoch_gains(self) -> list[int] | None:
        """Each seat's gold from the last finished epoch (None before the first one ends)."""
        finished = (
            self.state.epoch_gains[: self.epoch - 1] if not self.is_over else self.state.epoch_gains
        )
        return list(finished[-1]) if finished else None
