"""Reviewing a player's unreviewed games from the Player page, in the background: `kingdoms
review --all --player NAME --only-player` (the command's own code path) as a child process, one
per lake and player and shared by every session, so that the app stays responsive meanwhile.

Its progress is read from the lake's review cache, where each review lands as it is made; a
failure is the command's own last line on stderr.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass
from typing import IO

import streamlit as st

_STARTING = threading.Lock()  # two sessions clicking at once start one review


@dataclass(frozen=True)
class PlayerReview:
    """A review of one player's games, running or finished, in a child process."""

    player: str
    process: subprocess.Popen[bytes]
    errors: IO[bytes]  # the command's stderr

    @property
    def running(self) -> bool:
        return self.process.poll() is None

    @property
    def failure(self) -> str | None:
        """What stopped the review, once it has stopped without finishing; else None."""
        status = self.process.poll()
        if status in (None, 0):
            return None
        self.errors.seek(0)
        said = [line for line in self.errors.read().decode(errors="replace").splitlines() if line]
        return said[-1] if said else f"the review stopped (exit status {status})"


@st.cache_resource
def _reviews() -> dict[tuple[str, str], PlayerReview]:
    """The reviews started in this app, by lake folder and player (shared by every session)."""
    return {}


def player_review(lake: str, player: str) -> PlayerReview | None:
    """The review of the player's games in the lake that was started last, if any."""
    return _reviews().get((lake, player))


def forget_review(lake: str, player: str) -> None:
    """Drop a finished review, its outcome taken in."""
    with _STARTING:
        _reviews().pop((lake, player), None)


def start_review(lake: str, player: str, budget: int, seed: int) -> PlayerReview:
    """Start reviewing the player's games that lack a review at this budget and seed (or join
    the review already running), on every core but one."""
    with _STARTING:
        running = _reviews().get((lake, player))
        if running is not None and running.running:
            return running
        workers = max(1, (os.cpu_count() or 1) - 1)
        errors = tempfile.TemporaryFile()  # noqa: SIM115 - open as long as the review is kept
        command = [
            sys.executable,
            "-m",
            "data.cli",
            "review",
            "--all",
            f"--player={player}",
            "--only-player",
            f"--budget={budget}",
            f"--seed={seed}",
            f"--workers={workers}",
            f"--lake={lake}",
        ]
        process = subprocess.Popen(
            command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=errors
        )
        review = PlayerReview(player, process, errors)
        _reviews()[(lake, player)] = review
        return review
