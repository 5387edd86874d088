"""What someone at a terminal sees while a command works: one line on standard error saying
which step runs, with tqdm's count, rate and time left (a step of unknown size: its count, rate
and time so far; a step with nothing to count: its time so far).

A command runs inside a :class:`Progress` and each step that can take long (reading the files,
counting, testing, plotting) as one of its :meth:`~Progress.stage`\\ s. The line shows only when
standard error is a terminal (never in a log file or a pipe), never with ``--quiet``, and only
once the process has run for :data:`DELAY` seconds (``$BLEUPRINT_PROGRESS_DELAY``; start-up
included, where the system tells when the process started), so short runs stay silent. While
it shows, a thread redraws it every :data:`INTERVAL` seconds (``$BLEUPRINT_PROGRESS_INTERVAL``),
so the time moves even while a step reports nothing. Each stage's line is erased when it ends.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from types import TracebackType
from typing import Any, Protocol, TextIO

from bleuprint.exceptions import ConfigurationError

DELAY = 0.5
"""Seconds a command runs before its progress first shows."""

INTERVAL = 0.5
"""Seconds between redraws of the line while a step reports nothing."""

Update = Callable[[int], object]
"""What a stage is told as its work goes: how many more units are done."""

_UNITS = {"bytes": "B"}  # units tqdm writes with its own prefixes (kB, MB, ...)


class Bar(Protocol):
    """What is done with a bar: record work done, redraw, close; in a ``with`` block."""

    def update(self, n: float = 1) -> bool | None: ...

    def refresh(self) -> None: ...

    def close(self) -> None: ...

    def __enter__(self) -> Bar: ...

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: Any, /
    ) -> None: ...


class _Hidden:
    """A bar nobody can see: it does nothing, and tqdm (tens of milliseconds to import) is not
    loaded for it."""

    def update(self, n: float = 1) -> None:
        pass

    def refresh(self) -> None:
        pass

    def close(self) -> None:
        pass

    def __enter__(self) -> _Hidden:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: Any, /
    ) -> None:
        pass


def progress_bar(
    label: str,
    total: int | None,
    unit: str,
    *,
    quiet: bool,
    stream: TextIO | None = None,
    delay: float | None = None,
) -> Bar:
    """A bar for ``total`` units of work (``None``: not known ahead); ``update(n)`` records
    ``n`` more done. ``stream`` (default: standard error) is drawn on only if it is a terminal;
    the bar shows after ``delay`` seconds (default: :data:`DELAY`)."""
    stream = stream or sys.stderr
    delay = _seconds("BLEUPRINT_PROGRESS_DELAY", DELAY) if delay is None else delay
    if quiet or not stream.isatty():
        return _Hidden()
    from tqdm import tqdm  # noqa: PLC0415 - only where a bar can show

    symbol = _UNITS.get(unit)
    bar: Bar = tqdm(
        desc=label,
        total=total,
        unit=symbol or f" {unit}",
        unit_scale=symbol is not None,
        unit_divisor=1024,
        file=stream,
        delay=delay,
        leave=False,
        bar_format=None if unit else "{desc} [{elapsed}]",
    )
    return bar


class Progress:
    """The progress of one command: its stages, one at a time, on one line."""

    def __init__(self, *, quiet: bool, stream: TextIO | None = None) -> None:
        self._stream = stream or sys.stderr
        self._quiet = quiet or not self._stream.isatty()
        delay = _seconds("BLEUPRINT_PROGRESS_DELAY", DELAY)
        self._shows_at = time.monotonic() - _process_age() + delay
        self._interval = _seconds("BLEUPRINT_PROGRESS_INTERVAL", INTERVAL)
        self._bar: Bar | None = None
        self._lock = threading.Lock()  # the bar is redrawn from the heartbeat thread too
        self._done = threading.Event()
        self._heartbeat: threading.Thread | None = None

    def __enter__(self) -> Progress:
        if not self._quiet:  # no thread where nothing shows
            self._heartbeat = threading.Thread(target=self._beat, name="progress", daemon=True)
            self._heartbeat.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self._done.set()
        if self._heartbeat is not None:
            self._heartbeat.join()

    @contextlib.contextmanager
    def stage(self, label: str, total: int | None = None, unit: str = "") -> Iterator[Update]:
        """Show ``label`` while the block runs; the block reports its work to the function it
        is given (``total`` units of ``unit``; no unit: nothing to count, the time is shown)."""
        remaining = max(0.0, self._shows_at - time.monotonic())
        bar = progress_bar(
            label, total, unit, quiet=self._quiet, stream=self._stream, delay=remaining
        )
        with self._lock:
            self._bar = bar
        try:
            yield bar.update
        finally:
            with self._lock:
                self._bar = None
                bar.close()

    def _beat(self) -> None:
        while not self._done.wait(self._interval):
            with self._lock:
                if self._bar is not None and time.monotonic() >= self._shows_at:
                    self._bar.refresh()


def _process_age() -> float:
    """Seconds since this process started, where the system says (Linux), else 0: the delay
    counts from the start, so that a slow start-up does not add to it."""
    try:
        with open("/proc/self/stat", "rb") as stat, open("/proc/uptime", "rb") as uptime:
            # starttime, the 22nd field, in clock ticks since boot (after the name's ")")
            started = int(stat.read().rsplit(b")", 1)[1].split()[19])
            now = float(uptime.read().split()[0])
        return max(0.0, now - started / os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, IndexError):
        return 0.0


def _seconds(variable: str, default: float) -> float:
    text = os.environ.get(variable)
    if text is None:
        return default
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not seconds >= 0:  # negative, or not a number
        raise ConfigurationError(f"{variable} must be a number of seconds, got {text!r}")
    return seconds
