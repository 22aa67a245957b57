"""Game records (`.kgn`): one model, one reader, one writer, and the replay that checks them.

Reading is strict and every error carries the line and column (`RecordError.located(file)`
gives `file:line:col: message`). `replay_record` plays the moves through the engine, so a
record is accepted only if every move is legal and any `Result` tag matches.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path

from engine import pieces
from engine.geometry import Geometry, geometry
from engine.moves import DRAW, START, IllegalMoveError, Move, MoveSyntaxError
from engine.rules import RulesError, RuleSet, parse_variants
from engine.state import DEAL, FIRST, OVER, Game, State
from engine.turns import Deal, Turn, walk

_TAG = re.compile(r'\[([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\]')
_RESULT_PART = re.compile(r"([A-D])\s+(-?\d+)")
_SEAT_TAGS = tuple(pieces.SEAT_LETTERS)


class RecordError(ValueError):
    """A record that cannot be read or replayed, with the 1-based line and column."""

    def __init__(self, message: str, line: int, column: int = 1) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column

    def located(self, filename: str) -> str:
        return f"{filename}:{self.line}:{self.column}: {self.message}"

    def __str__(self) -> str:
        return f"{self.line}:{self.column}: {self.message}"


@dataclass
class RecordedMove:
    seat: int
    move: Move
    comment: str = ""
    line: int = 0
    column: int = 1  # where the seat letter stands
    action_column: int = 3


@dataclass
class EpochRecord:
    number: int
    starts: list[int | None] = field(default_factory=list)  # per seat; None: not seen
    moves: list[RecordedMove] = field(default_factory=list)
    line: int = 0
    start_line: int = 0


@dataclass
class Record:
    tags: dict[str, str]
    epochs: list[EpochRecord]
    tag_lines: dict[str, int] = field(default_factory=dict)

    @property
    def players(self) -> int:
        return sum(1 for letter in _SEAT_TAGS if letter in self.tags)

    @property
    def rules(self) -> RuleSet:
        return RuleSet(
            edition=self.tags["Edition"], variants=parse_variants(self.tags.get("Variant"))
        )

    @property
    def game(self) -> Game:
        return Game(self.players, self.rules)

    @property
    def unseen_starts(self) -> list[tuple[int, int]]:
        """(epoch, seat) of every starting tile recorded as `?` and never placed: nobody saw
        it, and the replay deals a stand-in for it."""
        return [
            (epoch.number, seat)
            for epoch in self.epochs
            for seat, tile in enumerate(epoch.starts)
            if tile is None
            and not any(m.seat == seat and m.move.kind == START for m in epoch.moves)
        ]


# ---------------------------------------------------------------------- reading


def _strip_braces(text: str) -> str:
    """Blank out `{ … }` comments, keeping line and column positions."""
    out = list(text)
    line, column, depth_start = 1, 1, None
    for index, char in enumerate(text):
        if depth_start is None and char == "{":
            depth_start = (line, column)
        if depth_start is not None and char != "\n":
            out[index] = " "
        if depth_start is not None and char == "}":
            depth_start = None
        line, column = (line + 1, 1) if char == "\n" else (line, column + 1)
    if depth_start is not None:
        raise RecordError("comment '{' is never closed", *depth_start)
    return "".join(out)


def parse_record(text: str) -> Record:
    """Read a record's tags and moves; checks the syntax, not the rules (see replay_record)."""
    tags: dict[str, str] = {}
    tag_lines: dict[str, int] = {}
    epochs: list[EpochRecord] = []
    for number, raw in enumerate(_strip_braces(text).splitlines(), start=1):
        content, _, comment = raw.partition(";")
        stripped = content.strip()
        if not stripped:
            continue
        column = len(content) - len(content.lstrip()) + 1
        if stripped.startswith("["):
            if epochs:
                raise RecordError("tags must come before the first epoch", number, column)
            match = _TAG.fullmatch(stripped)
            if not match:
                raise RecordError('a tag is written [Name "value"]', number, column)
            name, value = match.group(1), match.group(2).replace('\\"', '"')
            if name in tags:
                raise RecordError(f"tag {name} appears twice", number, column)
            tags[name], tag_lines[name] = value, number
        elif stripped.split()[0] == "epoch":
            if not epochs:
                _check_tags(tags, tag_lines, number)
            epochs.append(_parse_epoch_line(stripped, number, column, len(epochs) + 1))
        elif not epochs:
            raise RecordError("expected a tag or 'epoch 1'", number, column)
        elif stripped.split()[0] == "start":
            _parse_start(epochs[-1], stripped, number, column, _players(tags))
        else:
            epochs[-1].moves.append(
                _parse_move(
                    stripped, number, column, comment.strip(), _players(tags), _board_of(tags)
                )
            )
    if not epochs:
        _check_tags(tags, tag_lines, len(text.splitlines()) + 1)
        raise RecordError(
            "the record has no moves ('epoch 1' missing)", len(text.splitlines()) or 1
        )
    return Record(tags, epochs, tag_lines)


def _board_of(tags: dict[str, str]) -> Geometry:
    rules = RuleSet(edition=tags["Edition"])
    return geometry(rules.rows, rules.columns)


def _players(tags: dict[str, str]) -> int:
    return sum(1 for letter in _SEAT_TAGS if letter in tags)


def _check_tags(tags: dict[str, str], tag_lines: dict[str, int], line: int) -> None:
    if "Edition" not in tags:
        raise RecordError('missing the required tag [Edition "…"]', line)
    seats = [letter for letter in _SEAT_TAGS if letter in tags]
    if seats != list(_SEAT_TAGS[: len(seats)]) or len(seats) < 2:
        raise RecordError('the seats must be tagged [A "…"], [B "…"], … (2 to 4 players)', line)
    try:
        RuleSet(edition=tags["Edition"], variants=parse_variants(tags.get("Variant")))
    except RulesError as error:
        name = "Variant" if "variant" in str(error) else "Edition"
        raise RecordError(str(error), tag_lines.get(name, line)) from None


def _parse_epoch_line(text: str, line: int, column: int, expected: int) -> EpochRecord:
    parts = text.split()
    if len(parts) != 2 or not parts[1].isdigit():
        raise RecordError("an epoch line is 'epoch N'", line, column)
    if int(parts[1]) != expected:
        raise RecordError(f"expected 'epoch {expected}'", line, column + text.index(parts[1]))
    return EpochRecord(number=expected, line=line)


def _parse_start(epoch: EpochRecord, text: str, line: int, column: int, players: int) -> None:
    if epoch.start_line or epoch.moves:
        raise RecordError("'start' must come once, right after 'epoch'", line, column)
    starts: list[int | None] = [None] * players
    seen: set[int] = set()
    offset = 0
    for part in text.split()[1:]:
        offset = text.index(part, offset + 1)
        where = column + offset
        seat_text, equals, tile_text = part.partition("=")
        if not equals or seat_text not in _SEAT_TAGS[:players]:
            raise RecordError(
                f"'{part}' is not a seat's starting tile (e.g. A=+3 or B=?)", line, where
            )
        seat = _SEAT_TAGS.index(seat_text)
        if seat in seen:
            raise RecordError(f"seat {seat_text} is listed twice", line, where)
        seen.add(seat)
        if tile_text != "?":
            try:
                starts[seat] = pieces.parse_tile(tile_text)
            except pieces.PieceError as error:
                raise RecordError(str(error), line, where + 2) from None
    if len(seen) != players:
        raise RecordError(f"'start' must list all {players} seats", line, column)
    epoch.starts = starts
    epoch.start_line = line


def _parse_move(
    text: str, line: int, column: int, comment: str, players: int, geo: Geometry
) -> RecordedMove:
    seat_text, _, rest = text.partition(" ")
    if seat_text not in _SEAT_TAGS[:players]:
        raise RecordError(f"'{seat_text}' is not a seat of this game", line, column)
    action_column = column + len(text) - len(rest.lstrip())
    try:
        move = Move.from_str(rest, geo)
    except MoveSyntaxError as error:
        raise RecordError(str(error), line, action_column + error.column - 1) from None
    return RecordedMove(_SEAT_TAGS.index(seat_text), move, comment, line, column, action_column)


# ---------------------------------------------------------------------- replaying


def replay_record(record: Record, require_finished: bool = True) -> State:
    """Play the record through the engine; the returned state's history is the whole game."""
    game = record.game
    state = game.new_initial_state()
    last_line = 1
    for epoch in record.epochs:
        if state.phase == OVER:
            raise RecordError("the game is already over", epoch.line)
        if state.epoch != epoch.number:
            raise RecordError(f"epoch {state.epoch} is not finished", epoch.line)
        _deal(state, epoch, record)
        for recorded in epoch.moves:
            last_line = recorded.line
            if state.phase == OVER or state.epoch != epoch.number:
                raise RecordError(f"epoch {epoch.number} is already over", recorded.line)
            if state.phase == FIRST:
                state.apply_action(recorded.seat)
            if recorded.seat != state.seat:
                raise RecordError(
                    f"seat {_SEAT_TAGS[recorded.seat]} cannot move now, "
                    f"it is {_SEAT_TAGS[state.seat]}'s turn",
                    recorded.line,
                    recorded.column,
                )
            try:
                state.apply_move(recorded.move)
            except IllegalMoveError as error:
                raise RecordError(str(error), recorded.line, recorded.action_column) from None
    if require_finished and state.phase != OVER:
        raise RecordError("the record ends before the game is over", last_line)
    _check_result(record, state)
    return state


def _deal(state: State, epoch: EpochRecord, record: Record) -> None:
    """Deal the epoch's starting tiles; a tile nobody saw is revealed by its placement, or,
    if never placed, stands for one of the tiles the epoch never showed (it scores nothing)."""
    if state.phase != DEAL:
        if epoch.start_line:
            raise RecordError("this variant has no starting tiles", epoch.start_line)
        return
    if not epoch.start_line:
        raise RecordError(f"epoch {epoch.number} needs a 'start' line", epoch.line)
    starts = list(epoch.starts)
    for recorded in epoch.moves:
        if recorded.move.kind == START and starts[recorded.seat] is None:
            starts[recorded.seat] = recorded.move.tile
    unseen = Counter(record.rules.tiles)
    unseen.subtract(tile for tile in starts if tile is not None)
    unseen.subtract(r.move.tile for r in epoch.moves if r.move.kind == DRAW)
    spare = sorted(unseen.elements()) or sorted(record.rules.tiles)
    for seat, tile in enumerate(starts):
        if tile is None:
            tile = starts[seat] = spare.pop(0) if spare else record.rules.tiles[0]
        try:
            state.apply_action(tile)
        except IllegalMoveError as error:
            raise RecordError(str(error), epoch.start_line) from None


def _check_result(record: Record, state: State) -> None:
    if "Result" not in record.tags or state.phase != OVER:
        return
    claimed = {
        _SEAT_TAGS.index(letter): int(gold)
        for letter, gold in _RESULT_PART.findall(record.tags["Result"])
    }
    line = record.tag_lines.get("Result", 1)
    for seat, gold in enumerate(state.gold):
        if seat in claimed and claimed[seat] != gold:
            raise RecordError(
                f"Result says {_SEAT_TAGS[seat]} {claimed[seat]} but the moves give {gold}", line
            )


def read_record_file(path: str | Path) -> tuple[Record, State]:
    """Read and replay one `.kgn` file; errors are RecordError (use `.located(path)`)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise RecordError(f"not UTF-8 text ({error.reason})", 1) from None
    record = parse_record(text)
    return record, replay_record(record)


# ---------------------------------------------------------------------- writing


def result_text(gold: list[int]) -> str:
    return ", ".join(f"{_SEAT_TAGS[seat]} {amount}" for seat, amount in enumerate(gold))


def record_from_state(
    state: State, tags: dict[str, str], unseen_starts: Collection[tuple[int, int]] = ()
) -> Record:
    """The record of a state's game (its history), every tile known but the starting tiles
    of `unseen_starts` ((epoch, seat), written `?`); `tags` are added to Edition, Variant,
    Result and whatever names the caller gives (players, agents, seed)."""
    game = state.game
    all_tags = {"Game": "Kingdoms", "Edition": game.rules.edition}
    if game.rules.variants:
        all_tags["Variant"] = game.rules.variant_text()
    all_tags.update(tags)
    for seat in range(game.players):
        all_tags.setdefault(_SEAT_TAGS[seat], f"Player {_SEAT_TAGS[seat]}")
    if state.phase == OVER:
        all_tags["Result"] = result_text(state.gold)
    epochs: list[EpochRecord] = []
    for item in walk(game, state.history):
        while len(epochs) < item.epoch:
            epochs.append(EpochRecord(number=len(epochs) + 1))
        epoch = epochs[item.epoch - 1]
        if isinstance(item, Deal):
            epoch.starts.append(None if (item.epoch, item.seat) in unseen_starts else item.tile)
            epoch.start_line = 1
        elif isinstance(item, Turn):
            epoch.moves.append(RecordedMove(item.seat, item.move))
    return Record(all_tags, epochs)


def write_record(record: Record) -> str:
    """The record as `.kgn` text."""
    geometry = record.game.geometry
    lines = [f'[{name} "{value}"]' for name, value in _ordered_tags(record)]
    for epoch in record.epochs:
        lines += ["", f"epoch {epoch.number}"]
        if epoch.start_line:
            starts = " ".join(
                f"{_SEAT_TAGS[seat]}={pieces.piece_token(tile) if tile else '?'}"
                for seat, tile in enumerate(epoch.starts)
            )
            lines.append(f"start {starts}")
        for recorded in epoch.moves:
            line = f"{_SEAT_TAGS[recorded.seat]} {recorded.move.to_str(geometry)}"
            lines.append(f"{line:<14} ; {recorded.comment}" if recorded.comment else line)
    return "\n".join(lines) + "\n"


def _ordered_tags(record: Record) -> list[tuple[str, str]]:
    first = ["Game", "Edition", "Variant", "Date", "Site", "Event", *_SEAT_TAGS]
    names = [n for n in first if n in record.tags] + [n for n in record.tags if n not in first]
    return [(name, record.tags[name].replace('"', '\\"')) for name in names]
