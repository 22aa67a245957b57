"""Where jobs run: the `Executor` shape every parallel command uses, and the local one (this
process, or processes forked from it). The Dask one is data/cluster.py."""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Generator, Iterable, Sequence
from typing import Any, Protocol


class Executor(Protocol):
    """Runs `function` over every job and yields the results as they finish (any order)."""

    def map_unordered(
        self, function: Callable[[Any], Any], jobs: Sequence[Any]
    ) -> Generator[Any, None, None]:
        """Each job's result once, as it finishes; closing it stops the jobs still running."""
        ...


class LocalExecutor:
    """Jobs in this process (one worker), or in a pool of worker processes forked from it,
    each set up first by `initializer(*initargs)`; the `agents` the jobs seat are compiled
    before the fork."""

    def __init__(
        self,
        workers: int,
        initializer: Callable[..., None] | None = None,
        initargs: tuple[Any, ...] = (),
        agents: Iterable[str] = (),
    ) -> None:
        self.workers, self.initializer, self.initargs = workers, initializer, initargs
        self.agents = tuple(agents)

    def map_unordered(
        self, function: Callable[[Any], Any], jobs: Sequence[Any]
    ) -> Generator[Any, None, None]:
        if self.workers <= 1:
            if self.initializer:
                self.initializer(*self.initargs)
            yield from map(function, jobs)
            return
        from engine.agents import warm_up

        warm_up(self.agents)  # compile (or load) once here, not once in every forked worker
        context = multiprocessing.get_context("fork")
        with context.Pool(self.workers, self.initializer, self.initargs) as pool:
            yield from pool.imap_unordered(function, jobs)
