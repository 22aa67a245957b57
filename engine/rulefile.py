"""Rule sets as TOML files: read strictly, every refusal at the `file:line:col` of its key.

A file names the edition it starts from (`base`) and changes what it gives: the board, the tiles
(copies per kind), the castles per rank and player count, the start gold, the epochs, the castle
ranks that come back after an epoch, and the variants. The shipped editions and variants are
such files (engine/rulesets/); an edition's file gives every key.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections import Counter
from importlib import resources
from pathlib import Path

from engine import pieces

PLAYER_COUNTS = tuple(range(2, pieces.MAX_SEATS + 1))
SIDES = range(3, 9)  # rows and columns a board may have
TILE_TOKENS = {pieces.piece_token(code): code for code in pieces.TILE_KINDS}
MOST_COPIES = 64  # copies of one tile kind (the cells of the largest board)
MOST_CASTLES = 10  # castles of one rank a player takes
MOST_EPOCHS = 12
MOST_GOLD = 10_000
KEYS = (
    "name",
    "base",
    "variants",
    "rows",
    "columns",
    "start_gold",
    "epochs",
    "returning_ranks",
    "later_first",
    "tiles",
    "castles",
    "gold_mine",
)
LATER_FIRST = ("richest",)  # who starts a later epoch, as the engine plays it
MOST_FACTOR = 10  # what a gold mine may multiply by


class RuleFileError(ValueError):
    """A rule-set file that cannot be read or describes no playable rule set."""


def read_rule_file(path: str | Path) -> str:
    """A rule-set file's text, or RuleFileError with `file:line:col: what is wrong`."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise RuleFileError(f"{path}:1:1: not UTF-8 text") from None
    except OSError as error:
        raise RuleFileError(f"{path}: {error.strerror}") from None


def shipped(folder: str = "") -> tuple[str, ...]:
    """The names of the shipped rule sets: the editions, or with `variants` the variants."""
    where = resources.files("engine").joinpath("rulesets", *([folder] if folder else []))
    return tuple(sorted(f.name[:-5] for f in where.iterdir() if f.name.endswith(".toml")))


def shipped_parameters(name: str) -> dict[str, object]:
    """The parameters a shipped rule-set file gives (`kingdoms-2011`, `variants/no-luck`), as
    RuleSet fields; an edition's file must give them all."""
    origin = f"engine/rulesets/{name}.toml"
    text = resources.files("engine").joinpath("rulesets", f"{name}.toml").read_text("utf-8")
    document = RuleFile(text, origin)
    given = document.parameters()
    if "/" not in name:
        missing = [key for key in KEYS if key not in document.data]
        if missing:
            raise document.error(
                (), f"an edition's rule set gives every key; '{missing[0]}' is missing"
            )
    parameters = {k: v for k, v in given.items() if k not in ("base", "variants")}
    if "tile_counts" in parameters:
        counts = parameters.pop("tile_counts")
        assert isinstance(counts, dict)
        parameters["tiles"] = tuple(sorted(Counter(counts).elements()))
    if "castle_counts" in parameters:
        castles = parameters.pop("castle_counts")
        assert isinstance(castles, dict)
        parameters["castle_counts"] = tuple(sorted(castles.items()))
    return parameters


class RuleFile:
    """One file's TOML and the positions of its keys, for errors that point at them."""

    def __init__(self, text: str, origin: str) -> None:
        self.origin = origin
        self.lines = text.splitlines()
        try:
            self.data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as error:
            message = str(error)
            at = re.search(r"\s*\(at line (\d+), column (\d+)\)$", message)
            if at:
                line, column = at.group(1), at.group(2)
                message = message[: at.start()]
            else:
                line, column = str(max(len(self.lines), 1)), "1"
            raise RuleFileError(f"{origin}:{line}:{column}: {message}") from None

    def error(self, key: tuple[str, ...], message: str) -> RuleFileError:
        """A refusal at the line of `key` (a table then a key in it, or a top-level key)."""
        line, column = self._position(key)
        name = ".".join(key)
        return RuleFileError(
            f"{self.origin}:{line}:{column}: {f'{name}: ' if name else ''}{message}"
        )

    def _position(self, key: tuple[str, ...]) -> tuple[int, int]:
        if not key:
            return 1, 1
        table, name = ("", key[0]) if len(key) == 1 else (key[0], key[1])
        current = ""
        for number, line in enumerate(self.lines, start=1):
            header = re.match(r"\s*\[\s*([^\]]*?)\s*\]", line)
            if header:
                current = header.group(1).strip("\"'")
                if len(key) == 1 and current == name:
                    return number, line.index("[") + 1
                continue
            found = re.match(rf"(\s*)([\"']?){re.escape(name)}\2\s*=", line)
            if found and current == table:
                return number, len(found.group(1)) + 1
            dotted = re.match(rf"(\s*){re.escape(table)}\s*\.\s*{re.escape(name)}\s*=", line)
            if table and dotted and current == "":
                return number, len(dotted.group(1)) + 1
        return 1, 1

    def parameters(self) -> dict:
        """What the file gives, checked key by key, as RuleSet fields (`base`, `tile_counts`
        and `castle_counts` still to be merged with the base's)."""
        data = self.data
        for key in data:
            if key not in KEYS:
                raise self.error((key,), f"unknown key (known: {', '.join(KEYS)})")
        given: dict[str, object] = {}
        if "name" in data:
            given["name"] = self._text(("name",), data["name"])
        if "base" in data:
            given["base"] = self._choice(("base",), data["base"], shipped())
        if "variants" in data:
            given["variants"] = self._variants(data["variants"])
        for key, allowed in (("rows", SIDES), ("columns", SIDES)):
            if key in data:
                given[key] = self._whole((key,), data[key], allowed.start, allowed.stop - 1)
        if "start_gold" in data:
            given["start_gold"] = self._whole(("start_gold",), data["start_gold"], 0, MOST_GOLD)
        if "epochs" in data:
            given["epochs"] = self._whole(("epochs",), data["epochs"], 1, MOST_EPOCHS)
        if "returning_ranks" in data:
            given["returning_ranks"] = self._ranks(data["returning_ranks"])
        if "later_first" in data:
            self._choice(("later_first",), data["later_first"], LATER_FIRST)
        if "tiles" in data:
            given["tile_counts"] = self._tiles(data["tiles"])
        if "castles" in data:
            given["castle_counts"] = self._castles(data["castles"])
        if "gold_mine" in data:
            given.update(self._gold_mine(data["gold_mine"]))
        return given

    def _text(self, key: tuple[str, ...], value: object) -> str:
        if not isinstance(value, str) or not value.strip():
            raise self.error(key, "give a non-empty string")
        return value

    def _choice(self, key: tuple[str, ...], value: object, allowed: tuple) -> object:
        if value not in allowed:
            raise self.error(key, f"{_shown(value)} is not one of {_quoted(allowed)}")
        return value

    def _whole(self, key: tuple[str, ...], value: object, low: int, high: int) -> int:
        if type(value) is not int or not low <= value <= high:
            raise self.error(key, f"{_shown(value)} is not a whole number from {low} to {high}")
        return value

    def _table(self, key: str, value: object) -> dict:
        if not isinstance(value, dict):
            raise self.error((key,), "give a table: [" + key + "]")
        return value

    def _variants(self, value: object) -> frozenset[str]:
        if not isinstance(value, list):
            message = f"give a list of variants from {_quoted(shipped('variants'))}"
            raise self.error(("variants",), message)
        for variant in value:
            self._choice(("variants",), variant, shipped("variants"))
        return frozenset(value)

    def _ranks(self, value: object) -> tuple[int, ...]:
        key = ("returning_ranks",)
        if not isinstance(value, list):
            raise self.error(key, "give a list of castle ranks from 1 to 4")
        ranks = [self._whole(key, rank, 1, len(pieces.CASTLE_RANKS)) for rank in value]
        if len(set(ranks)) < len(ranks):
            raise self.error(key, "a rank is named twice")
        return tuple(sorted(ranks))

    def _tiles(self, value: object) -> dict[int, int]:
        counts = {}
        for token, count in self._table("tiles", value).items():
            if token not in TILE_TOKENS:
                raise self.error(
                    ("tiles", token), f"unknown tile (known: {', '.join(TILE_TOKENS)})"
                )
            most = 1 if TILE_TOKENS[token] == pieces.WIZARD else MOST_COPIES
            counts[TILE_TOKENS[token]] = self._whole(("tiles", token), count, 0, most)
        return counts

    def _castles(self, value: object) -> dict[int, tuple[int, ...]]:
        castles = {}
        ranks = len(pieces.CASTLE_RANKS)
        for players, counts in self._table("castles", value).items():
            key = ("castles", players)
            if players not in {str(count) for count in PLAYER_COUNTS}:
                raise self.error(key, f"player counts are {_quoted(PLAYER_COUNTS)}")
            if not isinstance(counts, list) or len(counts) != ranks:
                raise self.error(key, "give the castles of rank 1, 2, 3 and 4: a list of 4")
            row = tuple(self._whole(key, count, 0, MOST_CASTLES) for count in counts)
            if not sum(row):
                raise self.error(key, "each player needs at least one castle")
            castles[int(players)] = row
        return castles

    def _gold_mine(self, value: object) -> dict[str, int]:
        parameters = {}
        for key, given in self._table("gold_mine", value).items():
            if key != "factor":
                raise self.error(("gold_mine", key), "unknown key (known: factor)")
            factor = self._whole(("gold_mine", key), given, 0, MOST_FACTOR)
            parameters["gold_mine_factor"] = factor
        return parameters

    def check_playable(self, rows: int, columns: int, tiles: int, castles: dict) -> None:
        """Refuse a board that the tiles and each player count's castles (`castles`: players ->
        castles a player takes) cannot fill."""
        where = next((k for k in ("rows", "columns", "tiles", "castles") if k in self.data), "base")
        cells = rows * columns
        for players, each in sorted(castles.items()):
            pieces_there = tiles + players * each
            if pieces_there < cells:
                raise self.error(
                    (where,),
                    f"the tiles and the castles of {players} players ({pieces_there} pieces) "
                    f"cannot fill the {rows} × {columns} board ({cells} cells)",
                )


def _shown(value: object) -> str:
    """A value as the file would write it (`'text'`, `true`, `3`)."""
    return f"'{value}'" if isinstance(value, str) else json.dumps(value, default=str)


def _quoted(values: tuple) -> str:
    return ", ".join(f"'{v}'" if isinstance(v, str) else str(v) for v in values)
