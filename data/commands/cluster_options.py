"""The `--cluster` option of the commands that can run on Dask, and the executor it names
(without it, the command's own local processes; Dask is imported only when it is given)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

from engine.cli_support import BadInput, workers_count
from engine.executors import Executor


def add_cluster_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--cluster",
        metavar="ADDRESS",
        type=cluster_address,
        help="run on Dask: tcp://HOST:PORT of a scheduler, or 'local' for a LocalCluster of "
        "--workers processes on this machine (the lake must be a folder every worker sees)",
    )


def cluster_address(text: str) -> str:
    """An argparse type: `local` or a scheduler address (whether it answers is seen later)."""
    from data.cluster import ClusterError, check_address

    try:
        check_address(text)
    except ClusterError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text


def cluster_workers(args: argparse.Namespace) -> int:
    """The `--workers` count: processes here (local ones, or `--cluster local`'s) at most the
    cores; a remote scheduler's workers are its own, and the count only sizes the shards."""
    from data.cluster import LOCAL

    return workers_count(args.workers, here=args.cluster in (None, LOCAL))


@contextmanager
def cluster_executor(args: argparse.Namespace, workers: int) -> Iterator[Executor | None]:
    """The Dask executor `--cluster` names, its dashboard link printed; None without it."""
    if args.cluster is None:
        yield None
        return
    from data.cluster import ClusterError, dask_executor

    with ExitStack() as stack:
        try:
            executor = stack.enter_context(dask_executor(args.cluster, workers))
        except ClusterError as error:
            raise BadInput(f"--cluster: {error}") from None
        print(f"Dask dashboard: {executor.dashboard_link}", file=sys.stderr)
        yield executor
