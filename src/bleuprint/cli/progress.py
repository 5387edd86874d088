"""Progress bars on standard error (tqdm's: count, rate and time left), where someone watches.

A bar shows only when standard error is a terminal (never in a log file or a pipe), never with
``--quiet``, and only once the work has run for :data:`DELAY` seconds (or
``$BLEUPRINT_PROGRESS_DELAY``), so short runs stay silent. It erases itself when done.
"""

from __future__ import annotations

import os
import sys
from typing import NoReturn, TextIO

from tqdm import tqdm

from bleuprint.exceptions import ConfigurationError

DELAY = 0.5
"""Seconds of work before a bar first appears."""


def progress_bar(
    label: str, total: int, unit: str, *, quiet: bool, stream: TextIO | None = None
) -> tqdm[NoReturn]:
    """A bar for ``total`` units of work; ``update(n)`` records ``n`` more done. ``stream``
    (default: standard error) is drawn on only if it is a terminal."""
    stream = stream or sys.stderr
    return tqdm(
        desc=label,
        total=total,
        unit=f" {unit}",
        file=stream,
        disable=quiet or not stream.isatty(),
        delay=_delay(),
        leave=False,
    )


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
