"""Connecting to a Dask scheduler, or starting a cluster on this machine that counts quickly."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import os
import time
import warnings
from collections.abc import Iterator
from typing import Any

import dask
import distributed
from distributed.comm.addressing import resolve_address
from distributed.comm.core import connect as open_comm

from bleuprint.exceptions import ConfigurationError

__all__ = ["DEFAULT_TIMEOUT", "adaptive_malloc", "connect", "waited"]

DEFAULT_TIMEOUT = 30.0
"""Seconds a connection to the cluster may take to open, and may then stay silent, before it
fails (Dask's ``distributed.comm.timeouts.connect`` and ``.tcp``): a scheduler that accepts
connections and never answers fails after this long rather than hanging."""


@contextlib.contextmanager
def connect(
    scheduler: str, *, timeout: float = DEFAULT_TIMEOUT, logs: bool = False
) -> Iterator[distributed.Client]:
    """A client of the scheduler at ``scheduler`` (``tcp://host:8786``), or of a new cluster
    on this machine for ``"local"``; closed (and the local cluster shut down) on leaving the
    ``with`` block. Scoring several systems in one block shares the cluster between them.

    The local cluster has one single-threaded worker process per core: counting is Python
    code that holds the interpreter lock, so threads would take turns rather than share out
    the work. Its workers keep glibc's adaptive memory allocation (see
    :func:`adaptive_malloc`). Their logs, and the client's own (a lost scheduler's
    reconnection attempts, with tracebacks), stay off the terminal unless ``logs`` is true:
    a failure is reported by the error it raises, not by a page of logs.

    ``timeout`` (seconds) bounds opening a connection and how long an open one may stay
    silent (default ``DEFAULT_TIMEOUT``); the local cluster restarts a worker that has been
    silent for half as long (or 5 s, the least distributed allows), and :func:`waited`
    bounds the silence of a cluster while it computes.
    """
    if not (isinstance(timeout, (int, float)) and 0 < timeout < float("inf")):
        raise ConfigurationError(f"timeout must be a positive number of seconds, got {timeout!r}")
    seconds = f"{timeout}s"
    settings = {
        "distributed.comm.timeouts.connect": seconds,
        # distributed needs 11 s at least for its keep-alive probes of an open connection.
        "distributed.comm.timeouts.tcp": f"{max(timeout, _LEAST_TCP_TIMEOUT)}s",
        # The local cluster's scheduler restarts a worker silent this long (a stopped one),
        # looking as often: within the timeout, before waited() would give up on it.
        "distributed.scheduler.worker-ttl": f"{timeout / 2}s",
    }
    with dask.config.set(settings), _logs_shown(logs):
        if scheduler != "local":
            try:
                # Checked first: a Client that fails to start stalls the interpreter's exit
                # and complains there.
                resolve_address(scheduler)
                _probe(scheduler, timeout)
                client = distributed.Client(scheduler, set_as_default=False, timeout=seconds)
            except (OSError, ValueError) as error:  # not an address, unknown host, unreachable
                raise ConfigurationError(
                    f"cannot connect to the Dask scheduler {scheduler!r}: {error}"
                ) from None
            with client:
                yield client
            return
        with adaptive_malloc(), warnings.catch_warnings():
            # Without a dashboard the scheduler still serves HTTP (health checks), on port
            # 8787 if it is free, else on another one with a UserWarning on the terminal.
            warnings.filterwarnings("ignore", r"Port \d+ is already in use", UserWarning)
            cluster = distributed.LocalCluster(
                n_workers=os.cpu_count() or 1,
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",
                dashboard_address=None,
                silence_logs=logging.WARNING if logs else logging.CRITICAL,
            )
        with cluster, distributed.Client(cluster, set_as_default=False) as client:
            yield client


_LEAST_TCP_TIMEOUT = 11


def waited(client: distributed.Client, future: distributed.Future[Any], timeout: float) -> Any:
    """The result of ``future``, however long the work takes, as long as the cluster is heard
    from: while it waits, the scheduler is asked every few seconds for its workers, and
    a ``TimeoutError`` ends the wait if the scheduler does not answer within ``timeout``
    seconds, or if a worker that is running tasks has not been heard from (its heartbeats,
    as the scheduler records them) for three times that. A stopped process keeps its connections
    open, so without this a ``.result()`` would wait for it forever."""
    silent_since: dict[str, tuple[float, float]] = {}  # worker: (its last heartbeat, seen at)
    while True:
        try:
            return future.result(timeout=min(timeout, _POLL_SECONDS))
        except TimeoutError:
            if future.done():  # (a result that came just as the wait ended)
                continue
        _check_heard_from(client, timeout, silent_since)


_POLL_SECONDS = 2.0
_WORKER_SILENCES = 3  # timeouts: long after a local cluster's scheduler restarts such a worker


def _check_heard_from(
    client: distributed.Client, timeout: float, silent_since: dict[str, tuple[float, float]]
) -> None:
    """Raise ``TimeoutError`` if the scheduler is silent, or a busy worker has been silent for
    ``3 * timeout`` seconds of this machine's clock (``silent_since`` remembers, per worker,
    the last heartbeat time seen, and when it was first seen)."""
    scheduler = client.scheduler
    if scheduler is None:
        raise ConfigurationError("the Dask client is not connected to a scheduler")
    try:
        identity = client.sync(scheduler.identity, callback_timeout=timeout)
        busy = client.sync(scheduler.processing, workers=None, callback_timeout=timeout)
    except TimeoutError:
        raise TimeoutError(
            f"the Dask scheduler {scheduler.address} has not answered for {timeout:g} s"
        ) from None
    now = time.monotonic()
    for address, worker in identity.get("workers", {}).items():
        heartbeat = worker.get("last_seen")
        if silent_since.get(address, (None, 0.0))[0] != heartbeat:
            silent_since[address] = (heartbeat, now)
        elif busy.get(address) and now - silent_since[address][1] > _WORKER_SILENCES * timeout:
            raise TimeoutError(
                f"the Dask worker {address} has sent no heartbeat for "
                f"{now - silent_since[address][1]:.0f} s while running tasks"
            )


@contextlib.contextmanager
def _logs_shown(shown: bool) -> Iterator[None]:
    """Within the block, distributed's log handlers in this process print nothing unless
    ``shown`` (distributed's own ``silence_logging_cmgr``, which is not public, does alike)."""
    handlers = [] if shown else list(logging.getLogger("distributed").handlers)
    levels = [handler.level for handler in handlers]
    for handler in handlers:
        handler.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        for handler, level in zip(handlers, levels):
            handler.setLevel(level)


def _probe(scheduler: str, timeout: float) -> None:
    """Open a connection to ``scheduler`` and exchange Dask's handshake, within ``timeout``
    seconds, in a thread of its own (the caller may be running an event loop): an OSError if a
    listener there does not speak Dask, or stays silent."""

    async def handshake() -> None:
        comm = await open_comm(scheduler, timeout=timeout)
        await comm.close()

    def run() -> None:
        asyncio.run(asyncio.wait_for(handshake(), timeout))

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        try:
            pool.submit(run).result()
        except asyncio.TimeoutError:
            raise TimeoutError(f"no Dask handshake within {timeout:g} s") from None
        except OSError:
            raise
        except Exception as error:  # garbage read as a message: a huge length, bad bytes
            raise OSError(f"it does not speak Dask's protocol ({type(error).__name__})") from None


_TRIM_THRESHOLD = "MALLOC_TRIM_THRESHOLD_"


@contextlib.contextmanager
def adaptive_malloc() -> Iterator[None]:
    """Worker processes started in this block keep glibc's adaptive memory allocation.

    Dask's nannies set ``MALLOC_TRIM_THRESHOLD_`` to 64 KiB in new worker processes, to hand
    freed memory back to the system sooner (and leave it set in the starting process too).
    Setting it turns off glibc's adaptive threshold for ``mmap``, so every large temporary
    array of the engine's fast path is mapped and unmapped again, and the heap's top is
    handed back and taken again: counting 1,000,000 lines of files took a fifth more CPU in
    such a worker (a third more before the file reader reused its buffer). :func:`connect`
    starts its local cluster in this block; start a ``LocalCluster`` of your own in it the
    same way. On a cluster started elsewhere, put
    ``MALLOC_TRIM_THRESHOLD_: null`` under ``distributed.nanny.pre-spawn-environ`` in the
    workers' Dask configuration, and leave the variable out of their environment.
    """
    inherited = os.environ.pop(_TRIM_THRESHOLD, None)
    try:
        with dask.config.set({f"distributed.nanny.pre-spawn-environ.{_TRIM_THRESHOLD}": None}):
            yield
    finally:
        if inherited is not None:
            os.environ[_TRIM_THRESHOLD] = inherited
