"""Progress bars on standard error (tqdm's: count, rate and time left), where someone watches.

A bar shows only when standard error is a terminal (never in a log file or a pipe), never with
``--quiet``, and only once the work has run for :data:`DELAY` seconds (or
``$BLEUPRINT_PROGRESS_DELAY``), so short runs stay silent. It erases itself when done.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any, NoReturn, Protocol, TextIO

from bleuprint.exceptions import ConfigurationError

if TYPE_CHECKING:
    from tqdm import tqdm

DELAY = 0.5
"""Seconds of work before a bar first appears."""


class Bar(Protocol):
    """What the commands do with a bar: record work done, inside a ``with`` block."""

    def update(self, n: float = 1) -> bool | None: ...

    def __enter__(self) -> Bar: ...

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: Any, /
    ) -> None: ...


class _Hidden:
    """A bar nobody can see: it does nothing, and tqdm (tens of milliseconds to import) is not
    loaded for it."""

    def update(self, n: float = 1) -> None:
        pass

    def __enter__(self) -> _Hidden:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: Any, /
    ) -> None:
        pass


def progress_bar(
    label: str, total: int, unit: str, *, quiet: bool, stream: TextIO | None = None
) -> Bar:
    """A bar for ``total`` units of work; ``update(n)`` records ``n`` more done. ``stream``
    (default: standard error) is drawn on only if it is a terminal."""
    stream = stream or sys.stderr
    delay = _delay()
    if quiet or not stream.isatty():
        return _Hidden()
    from tqdm import tqdm  # noqa: PLC0415 - only where a bar can show

    bar: tqdm[NoReturn] = tqdm(
        desc=label, total=total, unit=f" {unit}", file=stream, delay=delay, leave=False
    )
    return bar


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
