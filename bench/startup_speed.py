"""The `kingdoms` command's start-up figures for `kingdoms bench`: what a user waits for on
every command, measured as fresh processes (interpreter, imports, the command itself), and for
the default lake that `make run` builds on its first start."""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import data

RECORD = Path(data.__file__).with_name("records") / "2026-11-16-four-player.kgn"
BOARD = (
    "+3 B1 A4 C1 -6 A1 / C2 GM +4 +1 MT WZ / +2 +4 B2 -5 -2 C1 / "
    "A2 DR +3 MT C1 +5 / -1 -3 C1 A3 +6 +2"
)
COMMANDS = {
    "cli_help_s": ["--help"],
    "cli_score_s": ["score", BOARD],
    "cli_replay_s": ["replay", str(RECORD)],
}


def command_seconds(arguments: list[str], repeats: int = 7) -> float:
    """Wall-clock seconds of `kingdoms ARGUMENTS` as a new process, the median over repeats
    (after one run that warms the file cache)."""
    command = [sys.executable, "-m", "data.cli", *arguments]
    timings = []
    for _ in range(repeats + 1):
        started = time.perf_counter()
        subprocess.run(command, stdout=subprocess.DEVNULL, check=True)
        timings.append(time.perf_counter() - started)
    return statistics.median(timings[1:])


def default_lake_seconds(root: Path) -> float:
    """Wall-clock seconds of `kingdoms simulate --default-lake` into an empty folder, as `make
    run` builds it: a new process, the corpus imported, the kernel compiled (once, in one run)."""
    with tempfile.TemporaryDirectory(dir=root) as folder:
        command = [sys.executable, "-m", "data.cli", "simulate", "--default-lake", "--lake", folder]
        started = time.perf_counter()
        subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        return time.perf_counter() - started


def startup_figures(root: Path) -> dict[str, float]:
    figures = {key: round(command_seconds(arguments), 3) for key, arguments in COMMANDS.items()}
    return {**figures, "default_lake_s": round(default_lake_seconds(root), 1)}
