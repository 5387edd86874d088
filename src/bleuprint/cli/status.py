"""The command line's exit statuses (what each means: :mod:`bleuprint.cli`), and the
exceptions that stand for the signals that end it."""

from __future__ import annotations

import signal

EXIT_FAILURE = 1
EXIT_BROKEN_PIPE = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130

ENDING_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)
)
"""The signals, besides Ctrl-C's, that the ``bleuprint`` command ends on as it ends on Ctrl-C:
cleaning up (no temporary file left) and saying so in one line."""


class Terminated(BaseException):
    """One of :data:`ENDING_SIGNALS` arrived: raised where Python next runs, so that every
    cleanup runs as for a ``KeyboardInterrupt``. The exit status is 128 + its number, as the
    shell reports a process the signal killed."""

    def __init__(self, number: int) -> None:
        super().__init__(number)
        self.number = number

    @property
    def status(self) -> int:
        return 128 + self.number

    @property
    def name(self) -> str:
        return signal.Signals(self.number).name


class StoppedWriting(BaseException):
    """An interrupt or an ending signal (``stop``) arrived while standard output was written:
    at least ``written`` of its ``total`` bytes were taken (those of the write the signal cut
    short are not known), and they stay written."""

    def __init__(self, stop: KeyboardInterrupt | Terminated, written: int, total: int) -> None:
        super().__init__(stop, written, total)
        self.stop, self.written, self.total = stop, written, total
