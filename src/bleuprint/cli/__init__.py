"""The ``bleuprint`` command line.

Every expected failure (bad input, bad configuration) ends as one line on standard error and
exit status 2, with nothing on standard output. Each command is a module of this package with
``add_command`` (its options) and ``run`` (its output, as text); :mod:`~bleuprint.cli.parser`
puts them together.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from bleuprint.cli.parser import EXIT_USAGE, Command, build_parser
from bleuprint.exceptions import BLEUError

__all__ = ["main"]

EXIT_BROKEN_PIPE = 1


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``); return the exit status."""
    arguments = build_parser().parse_args(argv)
    command: Command = arguments.command
    try:
        output = command(arguments)
    except BLEUError as error:
        print(f"bleuprint: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    try:
        _write(output)
    except BrokenPipeError:
        # The reader went away (``bleuprint ... | head``): stop quietly, and keep Python from
        # complaining again when it flushes standard output at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
    return 0


def _write(output: str) -> None:
    """Write to standard output in UTF-8 whatever the locale, as sacreBLEU does."""
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is None:  # a text-only stand-in, such as a test's capture
        sys.stdout.write(output)
        return
    sys.stdout.flush()
    buffer.write(output.encode("utf-8"))
    buffer.flush()
