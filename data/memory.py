"""Memory tuning for processes that build batches: keep freed heap, pause the collector."""

from __future__ import annotations

import ctypes
import gc
from collections.abc import Iterator
from contextlib import contextmanager

_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3  # mallopt parameters, from glibc's malloc.h


def keep_freed_memory() -> None:
    """Reuse freed memory instead of returning it: a batch's many large arrays then cost no
    fresh page faults (glibc only; elsewhere nothing)."""
    try:
        libc = ctypes.CDLL("libc.so.6")
    except OSError:
        return
    libc.mallopt(_M_TRIM_THRESHOLD, 1 << 30)  # keep up to 1 GiB of free heap
    libc.mallopt(_M_MMAP_THRESHOLD, 1 << 28)  # blocks below 256 MiB come from the heap


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the garbage collector: a batch's games all live until it is written, so
    collecting would only walk them again and again."""
    paused = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()
