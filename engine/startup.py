"""How a process starts the engine: one-shot commands run the kernel's source interpreted."""

from __future__ import annotations

import os
from collections.abc import Sequence

INTERPRETED_VARIABLE = "KINGDOMS_KERNEL_INTERPRETED"  # "1": the kernel runs without numba
# Commands whose work is one game at most: done in plain Python before numba would have loaded.
ONE_SHOT = frozenset({"score", "replay"})


def interpret_kernel_for(arguments: Sequence[str]) -> None:
    """Before the engine is imported (data/cli.py, as the program): run the kernel interpreted
    when the command is one-shot, or when there is none (`--help`), unless the environment says
    otherwise."""
    named = next((word for word in arguments if not word.startswith("-")), None)
    if named is None or named in ONE_SHOT:
        os.environ.setdefault(INTERPRETED_VARIABLE, "1")
