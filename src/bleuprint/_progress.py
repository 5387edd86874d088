"""A small progress bar on standard error, for work long enough to wonder about.

Built in rather than taken from tqdm: it needs a dozen lines, and the command line should not
pull in a dependency for them. It draws only when standard error is a terminal (never into a
log file or a pipe), never with ``--quiet``, and only once the work has run for
:data:`DELAY` seconds (or ``$BLEUPRINT_PROGRESS_DELAY``), so short runs stay silent. It erases
itself when done.
"""

from __future__ import annotations

import os
import sys
import time
from types import TracebackType
from typing import TextIO

from bleuprint.exceptions import ConfigurationError

DELAY = 0.5
"""Seconds of work before the bar first appears."""
_REDRAW = 0.1
_WIDTH = 30


class ProgressBar:
    """Counts units of work done out of ``total`` and shows them as a bar when worth it.

    >>> import io
    >>> with ProgressBar("scoring", 10, enabled=False) as bar:
    ...     bar.advance(10)
    >>> bar.done
    10
    """

    def __init__(
        self,
        label: str,
        total: int,
        *,
        enabled: bool,
        stream: TextIO | None = None,
        delay: float = DELAY,
    ) -> None:
        self.label = label
        self.total = max(total, 1)
        self.done = 0
        self.enabled = enabled
        self.stream = stream or sys.stderr
        self.delay = delay
        self._started = time.monotonic()
        self._drawn_at: float | None = None

    @classmethod
    def on_stderr(cls, label: str, total: int, *, quiet: bool) -> ProgressBar:
        """A bar that shows only where someone watches: stderr is a terminal, not ``quiet``."""
        return cls(label, total, enabled=not quiet and sys.stderr.isatty(), delay=_delay())

    def advance(self, steps: int) -> None:
        """Record ``steps`` more units of work done, redrawing at most ten times a second."""
        self.done += steps
        if not self.enabled:
            return
        now = time.monotonic()
        due = self._drawn_at is None or now - self._drawn_at >= _REDRAW
        if now - self._started >= self.delay and due:
            self._draw()
            self._drawn_at = now

    def _draw(self) -> None:
        share = min(self.done / self.total, 1.0)
        filled = round(share * _WIDTH)
        bar = "#" * filled + "-" * (_WIDTH - filled)
        self.stream.write(f"\r{self.label} [{bar}] {share:4.0%}")
        self.stream.flush()

    def close(self) -> None:
        """Erase the bar, leaving the terminal as it was."""
        if self._drawn_at is not None:
            self.stream.write("\r" + " " * (len(self.label) + _WIDTH + 8) + "\r")
            self.stream.flush()
            self._drawn_at = None

    def __enter__(self) -> ProgressBar:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


def _delay() -> float:
    text = os.environ.get("BLEUPRINT_PROGRESS_DELAY")
    if text is None:
        return DELAY
    try:
        return float(text)
    except ValueError:
        raise ConfigurationError(
            f"BLEUPRINT_PROGRESS_DELAY must be a number of seconds, got {text!r}"
        ) from None
