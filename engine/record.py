"""Game records (`.kgn`): one model, one reader, one writer, and the replay that checks them.

Reading is strict (every interpreted tag's value is checked, and a record's size and line
length are bounded) and every error carries the line and column (`RecordError.located(file)`
gives `file:line:col: message`). `replay_record` plays the moves through the engine, so a
record is accepted only if every move is legal and any `Result` tag matches.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Collection, Iterator
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from engine import pieces
from engine.agents import search_budget
from engine.files import special_file_kind
from engine.geometry import Geometry, geometry
from engine.moves import DRAW, START, IllegalMoveError, Move, MoveSyntaxError
from engine.rules import DEFAULT_EDITION, RulesError, RuleSet, is_shipped, parse_variants
from engine.state import DEAL, FIRST, OVER, Game, State
from engine.tokens import is_digits, parse_int, words
from engine.turns import Deal, Turn, walk

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
    tag_positions: dict[str, tuple[int, int]] = field(default_factory=dict)  # value's line, column
    given_rules: RuleSet | None = None  # the rules to play it by, in place of its tags'

    @property
    def players(self) -> int:
        return sum(1 for letter in _SEAT_TAGS if letter in self.tags)

    @property
    def names(self) -> list[str]:
        """Each seat's player, as the seat tags name them."""
        return [self.tags[letter] for letter in _SEAT_TAGS[: self.players]]

    @property
    def agents(self) -> list[str | None]:
        """Each seat's agent (`AgentA` …), None for a seat without one."""
        return [self.tags.get(f"Agent{letter}") for letter in _SEAT_TAGS[: self.players]]

    @property
    def seed(self) -> int | None:
        """The `Seed` tag's value (the reader has checked it), None without one."""
        return _seed(self.tags["Seed"]) if "Seed" in self.tags else None

    @property
    def result(self) -> list[int] | None:
        """Each seat's final gold as the `Result` tag gives it, None without one."""
        return _result_gold(self.tags["Result"], self.players) if "Result" in self.tags else None

    @property
    def rules(self) -> RuleSet:
        if self.given_rules is not None:
            return self.given_rules
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

MAX_RECORD_BYTES = 1_000_000  # a full 4-player record is about 1,300 bytes
MAX_LINE_CHARACTERS = 10_000  # a record's lines are short: a tag, a move, a comment
SEED_RANGE = (-(2**63), 2**63 - 1)  # a seed as a game stores it: a signed 64-bit integer
_GOLD_RANGE = (-999_999, 999_999)  # far beyond any game's gold

_SEGMENT = re.compile(r'[^"{;]+|"[^"\\]*(?:\\.[^"\\]*)*"?|.')  # text, a quoted value, or one mark
_TAG = re.compile(r'\[([A-Za-z][A-Za-z0-9_]*)[ \t]+"([^"\\]*(?:\\.[^"\\]*)*)"\]')
_CONTROL = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029]")
_ESCAPE = re.compile(r"\\(.)")
_RESULT_PART = re.compile(r"([A-D])[ \t]+(-?[0-9]+)")
_DATE = re.compile(r"([0-9]{4}|\?{4})\.([0-9]{2}|\?{2})\.([0-9]{2}|\?{2})")


@dataclass(frozen=True)
class _Line:
    """One line of a record with its comments blanked out (columns stay those of the text)."""

    number: int
    content: str
    comment: str  # the text after ';'


def _scan(text: str) -> Iterator[_Line]:
    """The record's lines, split at `\\n` (or `\\r\\n`) only, after a leading byte-order mark.

    `{ … }` comments may span lines and `;` comments end their line, except inside a tag's
    quoted value, which is kept as written."""
    brace: tuple[int, int] | None = None
    for number, raw in enumerate(text.removeprefix("\ufeff").split("\n"), start=1):
        line = raw.removesuffix("\r")
        if len(line) > MAX_LINE_CHARACTERS:
            raise RecordError(
                f"line longer than {MAX_LINE_CHARACTERS:,} characters, the most a record allows",
                number,
                MAX_LINE_CHARACTERS + 1,
            )
        content: list[str] = []
        comment = ""
        position = 0
        while position < len(line):
            if brace:  # blank the comment up to its closing brace, or the whole line
                end = line.find("}", position)
                stop = len(line) if end < 0 else end + 1
                content.append(" " * (stop - position))
                position = stop
                if end >= 0:
                    brace = None
                continue
            match = _SEGMENT.match(line, position)
            assert match is not None  # every character starts one of the pattern's choices
            segment = match.group()
            if segment == "{":
                brace = (number, position + 1)
            elif segment == ";":
                comment = line[position + 1 :]
                break
            else:
                content.append(segment)
                position += len(segment)
        yield _Line(number, _without_controls("".join(content), number), comment)
    if brace:
        raise RecordError("comment '{' is never closed", *brace)


def _without_controls(content: str, line: int) -> str:
    """The line's content, refused if it holds a control character or a line separator
    other than a tab (comments may hold anything)."""
    found = _CONTROL.search(content)
    if found:
        raise RecordError(
            f"unexpected character U+{ord(found.group()):04X}", line, found.start() + 1
        )
    return content


def parse_record(text: str, rules: RuleSet | None = None) -> Record:
    """Read a record's tags and moves; checks the syntax and the tags' values, not the rules
    (see replay_record). With `rules`, the record is played by them rather than its tags'."""
    tags: dict[str, str] = {}
    positions: dict[str, tuple[int, int]] = {}
    epochs: list[EpochRecord] = []
    players, board, last_line = 0, geometry(), 1
    for line in _scan(text):
        parts = words(line.content)
        if not parts:
            continue
        number = last_line = line.number
        column, first = parts[0]
        if first.startswith("["):
            if epochs:
                raise RecordError("tags must come before the first epoch", number, column)
            _read_tag(line, column, tags, positions)
        elif first == "epoch":
            if not epochs:
                players, board = _check_tags(tags, positions, number, rules)
            epochs.append(_parse_epoch_line(parts, number, len(epochs) + 1))
        elif not epochs:
            raise RecordError("expected a tag or 'epoch 1'", number, column)
        elif first == "start":
            _parse_start(epochs[-1], parts, number, players)
        else:
            epochs[-1].moves.append(_parse_move(line, parts, line.comment.strip(), players, board))
    if not epochs:
        _check_tags(tags, positions, last_line, rules)
        raise RecordError("the record has no moves ('epoch 1' missing)", last_line)
    return Record(tags, epochs, positions, rules)


def _read_tag(
    line: _Line, column: int, tags: dict[str, str], positions: dict[str, tuple[int, int]]
) -> None:
    match = _TAG.match(line.content, column - 1)
    if not match or line.content[match.end() :].strip(" \t"):
        raise RecordError('a tag is written [Name "value"]', line.number, column)
    name, place = match.group(1), (line.number, match.start(2) + 1)
    if name in tags:
        raise RecordError(f"tag {name} appears twice", line.number, column)
    tags[name], positions[name] = _unescape(match.group(2), place), place


def _unescape(raw: str, place: tuple[int, int]) -> str:
    """A tag's value as written between the quotes: `\\"` is a quote, `\\\\` a backslash."""

    def escaped(match: re.Match[str]) -> str:
        if match.group(1) not in '"\\':
            message = "in a tag value a backslash escapes only '\"' or '\\'"
            raise RecordError(message, place[0], place[1] + match.start())
        return match.group(1)

    return _ESCAPE.sub(escaped, raw)


def _check_tags(
    tags: dict[str, str], positions: dict[str, tuple[int, int]], line: int, given: RuleSet | None
) -> tuple[int, Geometry]:
    """Check the required tags and every interpreted tag's value; the player count and the
    board they give."""
    seats = [letter for letter in _SEAT_TAGS if letter in tags]
    if seats != list(_SEAT_TAGS[: len(seats)]) or len(seats) < 2:
        raise RecordError('the seats must be tagged [A "…"], [B "…"], … (2 to 4 players)', line)
    if "Edition" not in tags:
        raise RecordError('missing the required tag [Edition "…"]', line)
    for name, value in tags.items():
        problem = _tag_problem(name, value, len(seats))
        if problem:
            raise RecordError(problem, *positions.get(name, (line, 1)))
    if "Rules" in tags and given is None:
        message = (
            f"the record follows the rule set '{tags['Rules']}': give its rule-set file "
            "(--rules on the command line)"
        )
        raise RecordError(message, *positions.get("Rules", (line, 1)))
    rules = given or RuleSet(edition=tags["Edition"])
    return len(seats), geometry(rules.rows, rules.columns)


def _tag_problem(name: str, value: str, players: int) -> str | None:
    """What is wrong with an interpreted tag's value, or None; other tags are kept as text."""
    if name in _SEAT_TAGS:
        return None if value.strip() else f"seat {name} needs a player's name"
    if name.startswith("Agent") and name[5:] in _SEAT_TAGS:
        return _agent_problem(name[5:], value, players)
    check = _TAG_CHECKS.get(name)
    return check(value, players) if check else None


def _game_problem(value: str, players: int) -> str | None:
    return None if value == "Kingdoms" else f"Game must be \"Kingdoms\", not '{value}'"


def _rules_problem(edition: str, variants: list[str]) -> str | None:
    try:
        RuleSet(edition=edition, variants=frozenset(variants))
    except RulesError as error:
        return str(error)
    return None


def _edition_problem(value: str, players: int) -> str | None:
    return _rules_problem(value, [])


def _variant_problem(value: str, players: int) -> str | None:
    names = [part.strip() for part in value.split(",")] if value else []
    if len(set(names)) != len(names):
        return f"a variant is named twice in '{value}'"
    return _rules_problem(DEFAULT_EDITION, names)


def _date_problem(value: str, players: int) -> str | None:
    match = _DATE.fullmatch(value)
    if not match:
        return f"a Date is written YYYY.MM.DD, ?? for a part not known (not '{value}')"
    year, month, day = (None if "?" in part else int(part) for part in match.groups())
    try:
        date(2000 if year is None else year, month or 1, day or 1)
    except ValueError:
        return f"'{value}' is not a date"
    return None


def _seed(value: str) -> int | None:
    return parse_int(value, *SEED_RANGE)


def _seed_problem(value: str, players: int) -> str | None:
    if _seed(value) is None:
        low, high = SEED_RANGE
        return f"Seed must be a whole number from {low} to {high} in ASCII digits, not '{value}'"
    return None


def _result_gold(value: str, players: int) -> list[int] | None:
    """Each seat's final gold as a `Result` tag gives it (`A 112, B 98`: every seat once, in
    any order), or None when the value is not that."""
    gold: dict[int, int] = {}
    for part in value.split(","):
        match = _RESULT_PART.fullmatch(part.strip())
        if not match or match.group(1) not in _SEAT_TAGS[:players]:
            return None
        seat, amount = _SEAT_TAGS.index(match.group(1)), parse_int(match.group(2), *_GOLD_RANGE)
        if seat in gold or amount is None:
            return None
        gold[seat] = amount
    return [gold[seat] for seat in range(players)] if len(gold) == players else None


def _result_problem(value: str, players: int) -> str | None:
    if _result_gold(value, players) is None:
        example = result_text([112, 98, 75, 60][:players])
        return f"a Result gives every seat's gold once, e.g. \"{example}\" (not '{value}')"
    return None


def _agent_problem(letter: str, value: str, players: int) -> str | None:
    if _SEAT_TAGS.index(letter) >= players:
        return f"Agent{letter}: no seat {letter} in a {players}-player game"
    try:
        search_budget(value)
    except ValueError as error:
        return str(error)
    return None


_TAG_CHECKS = {
    "Game": _game_problem,
    "Edition": _edition_problem,
    "Variant": _variant_problem,
    "Date": _date_problem,
    "Seed": _seed_problem,
    "Result": _result_problem,
}


def _parse_epoch_line(parts: list[tuple[int, str]], line: int, expected: int) -> EpochRecord:
    if len(parts) != 2 or not is_digits(parts[1][1]):
        raise RecordError("an epoch line is 'epoch N'", line, parts[0][0])
    if parse_int(parts[1][1], expected, expected) is None:
        raise RecordError(f"expected 'epoch {expected}'", line, parts[1][0])
    return EpochRecord(number=expected, line=line)


def _parse_start(epoch: EpochRecord, parts: list[tuple[int, str]], line: int, players: int) -> None:
    column = parts[0][0]
    if epoch.start_line or epoch.moves:
        raise RecordError("'start' must come once, right after 'epoch'", line, column)
    starts: list[int | None] = [None] * players
    seen: set[int] = set()
    for where, part in parts[1:]:
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
    line: _Line, parts: list[tuple[int, str]], comment: str, players: int, geo: Geometry
) -> RecordedMove:
    column, seat_text = parts[0]
    if seat_text not in _SEAT_TAGS[:players]:
        raise RecordError(f"'{seat_text}' is not a seat of this game", line.number, column)
    action_column = parts[1][0] if len(parts) > 1 else column + len(seat_text) + 1
    try:
        move = Move.from_str(line.content[action_column - 1 :], geo)
    except MoveSyntaxError as error:
        raise RecordError(str(error), line.number, action_column + error.column - 1) from None
    seat = _SEAT_TAGS.index(seat_text)
    return RecordedMove(seat, move, comment, line.number, column, action_column)


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
    claimed = record.result
    if claimed is None or state.phase != OVER:
        return
    place = record.tag_positions.get("Result", (1, 1))
    for seat, gold in enumerate(state.gold):
        if claimed[seat] != gold:
            raise RecordError(
                f"Result says {_SEAT_TAGS[seat]} {claimed[seat]} but the moves give {gold}", *place
            )


def read_record_file(path: str | Path, rules: RuleSet | None = None) -> tuple[Record, State]:
    """Read and replay one `.kgn` file (by `rules` rather than its tags' when given); errors are
    RecordError (use `.located(path)`)."""
    record = parse_record(read_record_text(path), rules)
    return record, replay_record(record)


def read_record_text(path: str | Path) -> str:
    """A record file's text, read no further than MAX_RECORD_BYTES; anything but a regular
    file is refused before it is opened. Errors are RecordError, or OSError from the system."""
    kind = special_file_kind(path)
    if kind:
        raise RecordError(f"not a regular file but {kind}", 1)
    # not blocking: a regular file swapped for a pipe meanwhile reads as empty, never waits
    with os.fdopen(os.open(path, os.O_RDONLY | os.O_NONBLOCK), "rb") as file:
        return record_text(file.read(MAX_RECORD_BYTES + 1))


def record_text(data: bytes) -> str:
    """A record's text from its bytes (at most MAX_RECORD_BYTES, UTF-8); errors are RecordError."""
    if len(data) > MAX_RECORD_BYTES:
        raise RecordError(f"larger than {MAX_RECORD_BYTES:,} bytes, the most a record may be", 1)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line_start = data.rfind(b"\n", 0, error.start) + 1
        column = len(data[line_start : error.start].decode("utf-8")) + 1
        line = data.count(b"\n", 0, error.start) + 1
        raise RecordError(f"not UTF-8 text ({error.reason})", line, column) from None


# ---------------------------------------------------------------------- writing


def result_text(gold: list[int]) -> str:
    return ", ".join(f"{_SEAT_TAGS[seat]} {amount}" for seat, amount in enumerate(gold))


def rules_tags(rules: RuleSet) -> dict[str, str]:
    """The tags a record of a game by `rules` opens with: Game, Edition, Variant and, for a
    rule-set file's rules, Rules (their name)."""
    tags = {"Game": "Kingdoms", "Edition": rules.edition}
    if rules.variants:
        tags["Variant"] = rules.variant_text()
    if not is_shipped(rules):
        tags["Rules"] = rules.name
    return tags


def record_from_state(
    state: State, tags: dict[str, str], unseen_starts: Collection[tuple[int, int]] = ()
) -> Record:
    """The record of a state's game (its history), every tile known but the starting tiles
    of `unseen_starts` ((epoch, seat), written `?`); `tags` are added to Edition, Variant,
    Result and whatever names the caller gives (players, agents, seed)."""
    game = state.game
    all_tags = rules_tags(game.rules) | tags
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
    return Record(all_tags, epochs, given_rules=None if is_shipped(game.rules) else game.rules)


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
    first = ["Game", "Edition", "Variant", "Rules", "Date", "Site", "Event", *_SEAT_TAGS]
    names = [n for n in first if n in record.tags] + [n for n in record.tags if n not in first]
    return [(name, _escape(record.tags[name])) for name in names]


def _escape(value: str) -> str:
    """A tag's value between quotes, as `_unescape` reads it back."""
    return value.replace("\\", "\\\\").replace('"', '\\"')
