"""Connecting to a Dask scheduler, or starting a cluster on this machine that counts quickly."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator

import dask
import distributed
from distributed.comm.addressing import resolve_address

from bleuprint.exceptions import ConfigurationError

__all__ = ["adaptive_malloc", "connect"]


@contextlib.contextmanager
def connect(scheduler: str) -> Iterator[distributed.Client]:
    """A client of the scheduler at ``scheduler`` (``tcp://host:8786``), or of a new cluster
    on this machine for ``"local"``; closed (and the local cluster shut down) on leaving the
    ``with`` block. Scoring several systems in one block shares the cluster between them.

    The local cluster has one single-threaded worker process per core: counting is Python
    code that holds the interpreter lock, so threads would take turns rather than share out
    the work. Its workers keep glibc's adaptive memory allocation (see
    :func:`adaptive_malloc`).
    """
    if scheduler != "local":
        try:
            # Checked first: a Client that fails to start stalls the interpreter's exit.
            resolve_address(scheduler)
            client = distributed.Client(scheduler, set_as_default=False)
        except (OSError, ValueError) as error:  # not an address, unknown host, unreachable
            raise ConfigurationError(
                f"cannot connect to the Dask scheduler {scheduler!r}: {error}"
            ) from None
        with client:
            yield client
        return
    with adaptive_malloc():
        cluster = distributed.LocalCluster(
            n_workers=os.cpu_count() or 1,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
        )
    with cluster, distributed.Client(cluster, set_as_default=False) as client:
        yield client


_TRIM_THRESHOLD = "MALLOC_TRIM_THRESHOLD_"


@contextlib.contextmanager
def adaptive_malloc() -> Iterator[None]:
    """Worker processes started in this block keep glibc's adaptive memory allocation.

    Dask's nannies set ``MALLOC_TRIM_THRESHOLD_`` to 64 KiB in new worker processes, to hand
    freed memory back to the system sooner (and leave it set in the starting process too).
    Setting it turns off glibc's adaptive threshold for ``mmap``, so every large temporary
    array of the engine's fast path is mapped and unmapped again: counting ran about twice as
    slowly in such a worker. :func:`connect` starts its local cluster in this block; start a
    ``LocalCluster`` of your own in it the same way. On a cluster started elsewhere, put
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
