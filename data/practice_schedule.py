"""When a practice puzzle comes back, and a player's progress kept beside the lake.

The schedule is Leitner's boxes: a puzzle starts in box 1; solved, it moves up a box (at most
`BOXES`); missed, it goes back to box 1. A puzzle in box b comes back `WAITS[b]` after its last
answer; the puzzles due are asked the lowest box first, the costliest first within a box.

A player's progress is one small JSON file, `practice/<name>.json` in the lake folder (the name
percent-encoded), written to a temporary file and renamed into place: a reader sees the old
progress or the new one, never half of one. The Parquet batches are never touched.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from pathlib import Path
from urllib.parse import quote

from data.lake import Lake
from data.practice import Puzzle

FOLDER = "practice"
BOXES = 5
WAITS = {  # how long after an answer a puzzle in each box comes back
    1: timedelta(minutes=10),
    2: timedelta(days=1),
    3: timedelta(days=3),
    4: timedelta(days=7),
    5: timedelta(days=30),
}


class ProgressError(ValueError):
    """A progress file that cannot be read, with its `file:line:col`."""


@dataclass(frozen=True)
class Card:
    """Where one puzzle stands: its box, its last answer, and how often it was answered."""

    box: int = 1
    answered: datetime | None = None
    tries: int = 0
    solved: int = 0

    def due(self) -> datetime | None:
        """When the puzzle comes back (None: never answered, so now)."""
        return None if self.answered is None else self.answered + WAITS[self.box]


@dataclass(frozen=True)
class Progress:
    """A player's cards, by puzzle key (`Puzzle.key`); a puzzle without one is new."""

    player: str
    cards: dict[str, Card] = field(default_factory=dict)

    def card(self, puzzle: Puzzle) -> Card:
        return self.cards.get(puzzle.key, Card())


def answered(progress: Progress, puzzle: Puzzle, solved: bool, now: datetime) -> Progress:
    """The progress after an answer to `puzzle` at `now`: up a box if solved, else box 1."""
    card = progress.card(puzzle)
    box = min(card.box + 1, BOXES) if solved else 1
    new = Card(box, now, card.tries + 1, card.solved + solved)
    return replace(progress, cards={**progress.cards, puzzle.key: new})


def due_puzzles(puzzles: list[Puzzle], progress: Progress, now: datetime) -> list[Puzzle]:
    """The puzzles to ask now, in the order to ask them (see the module's docstring);
    `puzzles` come costliest first."""
    due = [p for p in puzzles if (when := progress.card(p).due()) is None or when <= now]
    return sorted(due, key=lambda puzzle: progress.card(puzzle).box)


def next_return(puzzles: list[Puzzle], progress: Progress) -> datetime | None:
    """When the first of the puzzles answered comes back (None: none was answered)."""
    times = [when for p in puzzles if (when := progress.card(p).due()) is not None]
    return min(times, default=None)


def progress_path(lake: Lake, player: str) -> Path:
    return lake.root / FOLDER / f"{quote(player, safe='')}.json"


def load_progress(lake: Lake, player: str) -> Progress:
    """The player's progress (none yet: every puzzle new)."""
    path = progress_path(lake, player)
    if not path.exists():
        return Progress(player)
    try:
        stored = json.loads(path.read_text(encoding="utf-8"))
        cards = {
            key: Card(
                int(card["box"]),
                datetime.fromisoformat(card["answered"]),
                int(card["tries"]),
                int(card["solved"]),
            )
            for key, card in stored["cards"].items()
        }
    except json.JSONDecodeError as error:
        raise ProgressError(f"{path}:{error.lineno}:{error.colno}: {error.msg}") from None
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise ProgressError(f"{path}:1:1: not a practice progress file ({error})") from None
    if any(card.box not in WAITS for card in cards.values()):
        raise ProgressError(f"{path}:1:1: a box outside 1 to {BOXES}")
    return Progress(player, cards)


def save_progress(lake: Lake, progress: Progress) -> None:
    """Write the player's progress atomically (temporary file, then rename)."""
    path = progress_path(lake, progress.player)
    path.parent.mkdir(parents=True, exist_ok=True)
    stored = {
        "player": progress.player,
        "cards": {
            key: {
                "box": card.box,
                "answered": card.answered.isoformat() if card.answered else None,
                "tries": card.tries,
                "solved": card.solved,
            }
            for key, card in sorted(progress.cards.items())
        },
    }
    handle, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}-", suffix=".json")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            json.dump(stored, out, indent=1)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temp, path)
    finally:
        if os.path.exists(temp):
            os.unlink(temp)
