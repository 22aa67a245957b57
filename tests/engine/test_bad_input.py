"""Hostile and careless input to the readers: tag values, non-ASCII digits, sizes, separators.

Each table is one finding of the attack on the product; every error must name its place
(`file:line:col` for records), exit 2 with one line on stderr and no traceback.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from contextlib import ExitStack
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from data.cli import main
from engine.record import (
    MAX_LINE_CHARACTERS,
    MAX_RECORD_BYTES,
    RecordError,
    parse_record,
    read_record_file,
    record_from_state,
    replay_record,
    write_record,
)
from engine.state import Game
from engine.tokens import is_digits, parse_int
from tests.engine.boards import board
from tests.random_games import random_game

KINGDOMS = str(Path(sys.executable).parent / "kingdoms")  # the installed command
TAGS = {"Date": "2026.11.20", "Site": "Kitchen table", "Seed": "5"}


@cache
def _game(players: int = 2, seed: int = 3) -> tuple[str, tuple[int, ...]]:
    """A finished random game's record, as the writer writes it, and its history."""
    state = random_game(Game(players), seed)
    return write_record(record_from_state(state, TAGS)), tuple(state.history)


def _with_tag(text: str, name: str, value: str) -> tuple[str, int, int]:
    """The record with the tag written `[name "value"]` as given (replacing it, else first),
    and the line and column where its value starts."""
    lines = text.split("\n")
    line = next((i for i, t in enumerate(lines) if t.startswith(f"[{name} ")), None)
    tag = f'[{name} "{value}"]'
    if line is None:
        lines.insert(0, tag)
        line = 0
    else:
        lines[line] = tag
    return "\n".join(lines), line + 1, len(f'[{name} "') + 1


def _replace_line(text: str, startswith: str, new: str) -> tuple[str, int]:
    """The record with its first line that starts with `startswith` replaced; its number."""
    lines = text.split("\n")
    index = next(i for i, t in enumerate(lines) if t.startswith(startswith))
    lines[index] = new
    return "\n".join(lines), index + 1


def _replay_fails(path: Path, capsys: pytest.CaptureFixture) -> str:
    """`kingdoms replay` of the file: it must exit 2 with one line on stderr; that line."""
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    return err.rstrip("\n")


# ---------------------------------------------------------------------- tag values

BAD_TAGS = [
    ("Seed", "--5", "Seed must be a whole number"),
    ("Seed", "²", "Seed must be a whole number"),
    ("Seed", "99999999999999999999999", "Seed must be a whole number"),
    ("Seed", "9223372036854775808", "Seed must be a whole number"),  # 2**63: one past int64
    ("Seed", "-9223372036854775809", "Seed must be a whole number"),
    ("Seed", "１２", "Seed must be a whole number"),
    ("Seed", "1.5", "Seed must be a whole number"),
    ("Seed", "+5", "Seed must be a whole number"),
    ("Seed", " 5", "Seed must be a whole number"),
    ("Seed", "", "Seed must be a whole number"),
    ("Date", "2026.13.01", "'2026.13.01' is not a date"),
    ("Date", "2026.02.30", "'2026.02.30' is not a date"),
    ("Date", "2026-11-20", "a Date is written YYYY.MM.DD"),
    ("Date", "26.11.20", "a Date is written YYYY.MM.DD"),
    ("Date", "２０２６.11.20", "a Date is written YYYY.MM.DD"),
    ("Result", "A 1, B", "a Result gives every seat's gold once"),
    ("Result", "A x, B 2", "a Result gives every seat's gold once"),
    ("Result", "A 1", "a Result gives every seat's gold once"),
    ("Result", "A 1, B 2, C 3", "a Result gives every seat's gold once"),
    ("Result", "A 1, A 2", "a Result gives every seat's gold once"),
    ("Result", "A ², B 3", "a Result gives every seat's gold once"),
    ("Result", "A 1; B 2", "a Result gives every seat's gold once"),
    ("Result", "", "a Result gives every seat's gold once"),
    ("Game", "Chess", 'Game must be "Kingdoms"'),
    ("Edition", "chess", "unknown edition 'chess'"),
    ("Variant", "fast", "unknown variant 'fast'"),
    ("Variant", "no-luck,no-luck", "a variant is named twice"),
    ("Variant", "no-luck,,last-castle", "unknown variant ''"),
    ("A", "", "seat A needs a player's name"),
    ("B", "   ", "seat B needs a player's name"),
    ("AgentA", "alphazero", "unknown agent 'alphazero'"),
    ("AgentB", "mcts-0", "unknown agent 'mcts-0'"),
    ("AgentC", "random", "AgentC: no seat C in a 2-player game"),
]


@pytest.mark.parametrize(("name", "value", "message"), BAD_TAGS)
def test_a_bad_tag_value_is_refused_at_the_value(
    name: str, value: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    text, line, column = _with_tag(_game()[0], name, value)
    path = tmp_path / "bad.kgn"
    path.write_text(text, encoding="utf-8")
    assert _replay_fails(path, capsys).startswith(f"{path}:{line}:{column}: {message}")


def test_an_unknown_escape_is_refused_at_its_backslash() -> None:
    text, line, column = _with_tag(_game()[0], "Site", "a\\qb")
    with pytest.raises(RecordError) as caught:
        parse_record(text)
    assert str(caught.value).startswith(f"{line}:{column + 1}: in a tag value a backslash")


GOOD_TAGS = [
    ("Seed", "9223372036854775807", {"seed": 2**63 - 1}),  # the int64 bounds a game stores
    ("Seed", "-9223372036854775808", {"seed": -(2**63)}),
    ("Seed", "007", {"seed": 7}),
    ("Date", "2026.??.??", {}),
    ("Date", "????.02.29", {}),
    ("Variant", "", {}),
    ("AgentA", "mcts-400", {"agents": ["mcts-400", None]}),
    ("Site", "a {b} c", {"Site": "a {b} c"}),
    ("Site", "{", {"Site": "{"}),
    ("Site", "a;b ; c", {"Site": "a;b ; c"}),
    ("Site", 'say \\"hi\\"', {"Site": 'say "hi"'}),
    ("Site", "C:\\\\games", {"Site": "C:\\games"}),
    ("Event", "２０２６ cup", {"Event": "２０２６ cup"}),  # free text: any digits
]


@pytest.mark.parametrize(("name", "value", "expected"), GOOD_TAGS)
def test_a_good_tag_value_is_read(name: str, value: str, expected: dict) -> None:
    text, _, _ = _with_tag(_game()[0], name, value)
    record = parse_record(text)
    assert list(replay_record(record).history) == list(_game()[1])
    for key, want in expected.items():
        got = record.tags[key] if key[0].isupper() else getattr(record, key)
        assert got == want


def test_a_result_in_any_order_is_read() -> None:
    text = _game()[0]
    gold = replay_record(parse_record(text)).gold
    swapped, _, _ = _with_tag(text, "Result", f"B {gold[1]}, A {gold[0]}")
    assert parse_record(swapped).result == gold


# ---------------------------------------------------------------------- ASCII digits only


@pytest.mark.parametrize(
    ("text", "valid"),
    [("0", True), ("42", True), ("²", False), ("３", False), ("٣", False), ("", False)],
)
def test_digits_are_ascii_only(text: str, valid: bool) -> None:
    assert is_digits(text) is valid


@pytest.mark.parametrize(
    ("text", "low", "high", "value"),
    [
        ("5", 1, 5, 5),
        ("6", 1, 5, None),
        ("-5", -5, 5, -5),
        ("--5", -5, 5, None),
        ("+5", -5, 5, None),
        ("1_0", 0, 99, None),
        (" 5", 0, 9, None),
        ("３", 0, 9, None),
        ("0005", 0, 9, 5),
        ("9" * 5000, 0, 9, None),  # refused before int(), which fails past 4,300 digits
    ],
)
def test_parse_int_reads_ascii_integers_in_range(
    text: str, low: int, high: int, value: int | None
) -> None:
    assert parse_int(text, low, high) == value


UNICODE_DIGIT_LINES = [
    ("epoch 1", "epoch ¹", 1, "an epoch line is 'epoch N'"),
    ("epoch 2", "epoch ２", 1, "an epoch line is 'epoch N'"),
    ("start", "start A=+² B=?", 9, "unknown piece '+²'"),
]


@pytest.mark.parametrize(("starts", "line_text", "column", "message"), UNICODE_DIGIT_LINES)
def test_unicode_digits_in_a_record_are_refused(
    starts: str,
    line_text: str,
    column: int,
    message: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture,
) -> None:
    text, line = _replace_line(_game()[0], starts, line_text)
    path = tmp_path / "bad.kgn"
    path.write_text(text, encoding="utf-8")
    assert _replay_fails(path, capsys) == f"{path}:{line}:{column}: {message}"


@pytest.mark.parametrize("digit", ["３", "٣", "³"])
def test_a_unicode_digit_in_a_cell_is_not_read_as_ascii(digit: str) -> None:
    text = _game()[0]
    lines = text.split("\n")
    index = next(i for i, t in enumerate(lines) if t[:2] in ("A ", "B "))
    seat, action, cell = lines[index].split()
    lines[index] = f"{seat} {action} {cell[0]}{digit}"
    with pytest.raises(RecordError) as caught:
        parse_record("\n".join(lines))
    column = len(f"{seat} {action} ") + 1
    assert str(caught.value) == (
        f"{index + 1}:{column}: '{cell[0]}{digit}' is not a cell of a 5x6 board"
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["score", board("A² . . . . .")], "row 1, token 1: unknown piece 'A²'"),
        (["score", board("A３ . . . . .")], "row 1, token 1: unknown piece 'A３'"),
        (["score", board("+٣ A1 . . . .")], "row 1, token 1: unknown piece '+٣'"),
        (["export", "３"], "GAME_ID: '３' is not a game id (a whole number)"),
    ],
)
def test_unicode_digits_on_the_command_line_are_refused(
    args: list[str], message: str, capsys: pytest.CaptureFixture
) -> None:
    assert main(args) == 2
    assert capsys.readouterr().err == message + "\n"


@pytest.mark.parametrize(
    "args",
    [
        ["score", "--players", "３", board("A1 . . . . .")],
        ["review", "--budget", "٣", "game.kgn"],
        ["tournament", "--agents", "random", "--games", "１"],
    ],
)
def test_unicode_digits_in_number_options_are_refused(
    args: list[str], capsys: pytest.CaptureFixture
) -> None:
    assert main(args) == 2
    assert "is not a whole number" in capsys.readouterr().err


# ---------------------------------------------------------------------- size limits


def _padded(size: int) -> str:
    """A good record padded with `{ … }` comment lines to exactly `size` bytes."""
    text = _game()[0]
    room = size - len(text.encode()) - 4  # "{\n" before, "}\n" after
    width = MAX_LINE_CHARACTERS - 1
    lines, last = divmod(room, width + 1)
    padding = ("x" * width + "\n") * lines + "x" * last
    return "{\n" + padding + "}\n" + text


def test_a_record_of_the_largest_size_is_read(tmp_path: Path) -> None:
    path = tmp_path / "large.kgn"
    path.write_text(_padded(MAX_RECORD_BYTES))
    assert path.stat().st_size == MAX_RECORD_BYTES
    assert tuple(read_record_file(path)[1].history) == _game()[1]


def test_a_record_over_the_size_limit_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    path = tmp_path / "huge.kgn"
    path.write_text(_padded(MAX_RECORD_BYTES + 1))
    assert _replay_fails(path, capsys) == (
        f"{path}:1:1: larger than 1,000,000 bytes, the most a record may be"
    )


@pytest.mark.parametrize(
    ("line_text", "ok"),
    [
        ("; " + "x" * (MAX_LINE_CHARACTERS - 2), True),
        ("; " + "x" * (MAX_LINE_CHARACTERS - 1), False),
        ('[Site "' + "x" * MAX_LINE_CHARACTERS + '"]', False),
    ],
)
def test_a_line_over_the_length_limit_is_refused(line_text: str, ok: bool) -> None:
    text = line_text + "\n" + _game()[0]
    if ok:
        assert tuple(replay_record(parse_record(text)).history) == _game()[1]
        return
    with pytest.raises(RecordError) as caught:
        parse_record(text)
    assert str(caught.value) == (
        f"1:{MAX_LINE_CHARACTERS + 1}: line longer than 10,000 characters, the most a record allows"
    )


def test_replay_of_an_endless_pipe_is_refused_without_reading_it() -> None:
    endless = subprocess.Popen(["yes", "A C4 b2"], stdout=subprocess.PIPE)
    try:
        done = subprocess.run(
            [KINGDOMS, "replay", "/dev/stdin"],
            stdin=endless.stdout,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    finally:
        endless.kill()
        endless.wait()
    assert done.returncode == 2
    assert done.stderr == "/dev/stdin:1:1: not a regular file but a pipe\n"


# ---------------------------------------------------------------------- special files


def _special_file(kind: str, folder: Path) -> tuple[str, ExitStack]:
    """A path of the kind named, made in `folder` (a pipe with no writer, a listening socket),
    and what keeps it alive until the test ends."""
    keep = ExitStack()
    if kind == "a pipe":
        path = folder / "fifo.kgn"
        os.mkfifo(path)
    elif kind == "a socket":
        path = folder / "socket.kgn"
        server = keep.enter_context(socket.socket(socket.AF_UNIX))
        server.bind(str(path))
    elif kind == "a folder":
        path = folder / "folder.kgn"
        path.mkdir()
    else:
        path = Path("/dev/zero")
    return str(path), keep


SPECIAL_KINDS = ["a pipe", "a socket", "a folder", "a character device"]
FILE_COMMANDS = [["replay"], ["review", "--budget", "10"], ["import", "--lake", "LAKE"]]


@pytest.mark.parametrize("kind", SPECIAL_KINDS)
@pytest.mark.parametrize("command", FILE_COMMANDS, ids=lambda command: command[0])
def test_a_special_file_is_refused_without_blocking(
    kind: str, command: list[str], tmp_path: Path
) -> None:
    """A pipe with no writer used to block the reader forever, a device to be read until the
    size limit; every command that reads records refuses them and folders and sockets before
    opening, naming the file."""
    path, keep = _special_file(kind, tmp_path)
    arguments = [tmp_path / "lake" if a == "LAKE" else a for a in command]
    with keep:
        done = subprocess.run(
            [KINGDOMS, *map(str, arguments), path],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    assert done.returncode == 2
    said = f"{path}:1:1: not a regular file but {kind}"
    if command[0] == "import":  # one line a bad file, then the summary
        assert done.stderr.splitlines()[0] == said
    else:
        assert done.stderr == said + "\n"


# ---------------------------------------------------------------------- line separators

SEPARATORS = ["\u2028", "\u2029", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\r"]


@pytest.mark.parametrize("separator", SEPARATORS)
@pytest.mark.parametrize("style", ["; X", "{ X }"])
def test_separators_inside_comments_keep_line_numbers(separator: str, style: str) -> None:
    text = _game()[0]
    comment = style.replace("X", f"a{separator}b{separator}c")
    commented, _ = _replace_line(text, "[Site ", f'[Site "Kitchen table"] {comment}')
    bad, line = _replace_line(commented, "epoch 2", "epoch 9")
    with pytest.raises(RecordError) as caught:
        parse_record(bad)
    assert str(caught.value) == f"{line}:7: expected 'epoch 2'"


@pytest.mark.parametrize("separator", SEPARATORS)
def test_separators_outside_comments_are_named(separator: str) -> None:
    bad, line = _replace_line(_game()[0], "epoch 1", f"epoch{separator}1")
    with pytest.raises(RecordError) as caught:
        parse_record(bad)
    assert str(caught.value) == f"{line}:6: unexpected character U+{ord(separator):04X}"


def test_a_brace_in_a_line_comment_is_text() -> None:
    text = _game()[0]
    commented, _ = _replace_line(text, "[Site ", '[Site "Kitchen table"] ; { not a comment')
    assert tuple(replay_record(parse_record(commented)).history) == _game()[1]


# -------------------------------------------------------------- a board that starts with '-'

EMPTY_ROWS = "/".join([",".join(["."] * 6)] * 4)  # no spaces: argparse's own rule does not apply
HAZARD_FIRST = "-1,A1,.,.,.,./" + EMPTY_ROWS


@pytest.mark.parametrize(
    "args",
    [
        ["score", HAZARD_FIRST],
        ["score", "--json", HAZARD_FIRST],
        ["score", HAZARD_FIRST, "--json"],
        ["score", "--players", "2", HAZARD_FIRST],
        ["score", "-1\tA1\t.\t.\t.\t./" + EMPTY_ROWS],
    ],
)
def test_a_board_may_start_with_a_hazard_tile(
    args: list[str], capsys: pytest.CaptureFixture
) -> None:
    assert main(args) == 0
    out = capsys.readouterr().out
    assert '"A": -1' in out if "--json" in args else "gold: A -1" in out


@pytest.mark.parametrize(("args", "code"), [(["score", "--help"], 0), (["score", "-x"], 2)])
def test_options_of_score_are_still_options(args: list[str], code: int) -> None:
    assert main(args) == code


# ---------------------------------------------------------------------- what editors write


@settings(max_examples=40, deadline=None)
@given(
    players=st.integers(2, 4),
    seed=st.integers(0, 10_000),
    bom=st.booleans(),
    blank=st.sampled_from([" ", "\t", " \t ", "\t\t"]),
    newline=st.sampled_from(["\n", "\r\n"]),
    site=st.text(st.characters(codec="utf-8", categories=["L", "N", "P", "S", "Zs"])),
)
def test_a_written_record_reads_back_to_the_same_game(
    players: int, seed: int, bom: bool, blank: str, newline: str, site: str
) -> None:
    """The law: a record the writer wrote, then saved by an editor (a byte-order mark, tabs
    between words, CRLF line ends), reads back to the same game and the same tags."""
    state = random_game(Game(players), seed)
    tags = {**TAGS, "Site": site}
    text = write_record(record_from_state(state, tags))
    lines = [
        line if line.startswith("[") else line.replace(" ", blank) for line in text.split("\n")
    ]
    edited = ("\ufeff" if bom else "") + newline.join(lines)
    record = parse_record(edited)
    assert replay_record(record).history == state.history
    assert record.tags["Site"] == site
    assert write_record(record) == write_record(record_from_state(state, tags))


@settings(max_examples=150, deadline=None)
@given(
    position=st.integers(0, 5_000),
    inserted=st.text(min_size=1, max_size=3),
    deleted=st.integers(0, 3),
)
def test_any_edit_of_a_record_is_read_or_refused_with_a_place(
    position: int, inserted: str, deleted: int
) -> None:
    """The reader is total: whatever the text, it gives a game or a RecordError, never
    another exception."""
    text = _game(3, 5)[0]
    at = position % len(text)
    edited = text[:at] + inserted + text[at + deleted :]
    try:
        replay_record(parse_record(edited))
    except RecordError as error:
        assert error.line >= 1 and error.column >= 1
