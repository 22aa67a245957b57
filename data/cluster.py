"""Jobs on a Dask cluster: an existing scheduler (`tcp://HOST:PORT`) or a LocalCluster of
single-threaded worker processes on this machine (`local`)."""

from __future__ import annotations

import logging
import re
import signal
from collections.abc import Callable, Generator, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from distributed import Client

LOCAL = "local"
RETRIES = 2  # a job that raises is tried again this often (a worker that dies costs none)
CONNECT_TIMEOUT = "10s"
_ADDRESS = re.compile(r"(tcp|tls)://[^\s:/]+:\d{1,5}")


class ClusterError(Exception):
    """A cluster that cannot be used: a bad address or a scheduler that does not answer."""


class DaskExecutor:
    """Each job a Dask task (retried on another worker if its worker dies), results yielded
    to the client as they finish."""

    def __init__(self, client: Client) -> None:
        self.client = client

    @property
    def dashboard_link(self) -> str:
        return str(self.client.dashboard_link)

    def map_unordered(
        self, function: Callable[[Any], Any], jobs: Sequence[Any]
    ) -> Generator[Any, None, None]:
        from distributed import as_completed

        futures = self.client.map(function, jobs, pure=False, retries=RETRIES)
        try:
            for future in as_completed(futures):
                yield future.result()
                future.release()
        finally:
            self.client.cancel(futures)


def dask_setup(worker: object) -> None:
    """Set up a LocalCluster worker process: Ctrl-C, which the terminal sends to the whole
    process group, is for the client alone (it cancels the run and closes the cluster)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def check_address(address: str) -> None:
    """Refuse anything but `local` or a scheduler address such as tcp://10.0.0.5:8786."""
    if address != LOCAL and not _ADDRESS.fullmatch(address):
        raise ClusterError(
            f"'{address}' is not 'local' nor a scheduler address like tcp://HOST:8786"
        )


@contextmanager
def dask_executor(address: str, workers: int) -> Iterator[DaskExecutor]:
    """A client of the scheduler at `address`, or of a LocalCluster of `workers` processes of
    one thread each (`local`), closed (with the LocalCluster) on the way out."""
    from distributed import Client, LocalCluster

    check_address(address)
    if address == LOCAL:
        cluster = LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",  # any free port: several runs may share the machine
            silence_logs=logging.ERROR,
            preload=[__name__],  # each worker runs dask_setup below as it starts
        )
        client = Client(cluster)
    else:
        cluster = None
        try:
            client = Client(address, timeout=CONNECT_TIMEOUT)
        except (OSError, TimeoutError) as error:
            raise ClusterError(f"no scheduler answers at {address} ({error})") from None
    try:
        yield DaskExecutor(client)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
