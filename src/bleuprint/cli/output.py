"""Writing the command line's output: whole or not at all.

Standard output is written with ``os.write`` until every byte is taken, so a short write (a full
disk) is an error rather than a truncated result. A file (a plot) is first written to a
temporary file beside the target, then renamed over it, so the target is either the complete new
file or what it was before; :func:`check_target` refuses a target that cannot be one (a
directory, a device, an unknown format) before any work starts.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
from collections.abc import Collection, Iterator

from bleuprint.cli.status import StoppedWriting, Terminated
from bleuprint.exceptions import ConfigurationError

__all__ = ["OutputError", "check_target", "replaced_atomically", "write_stdout"]


class OutputError(OSError):
    """The output could not be written whole (a full disk, a closed stream)."""


def check_target(path: str, formats: Collection[str]) -> str:
    """The format (the extension, lowercase, without its dot) of an output file at ``path``,
    after checking that a complete file can be put there: the extension is one of ``formats``,
    the path is not a directory or a device, and its folder exists.

    >>> check_target("scores.png", ("png", "pdf"))
    'png'
    >>> check_target("scores.gif", ("png", "pdf"))
    Traceback (most recent call last):
    ...
    bleuprint.exceptions.ConfigurationError: scores.gif: unknown format 'gif' (give a file ...
    """
    from pathlib import Path  # noqa: PLC0415 - only files need it; it costs start-up time

    shown = repr(path) if any(character in path for character in "\n\r") else path
    target = Path(path)
    extension = target.suffix[1:].lower()
    if extension not in formats:
        known = " or ".join(f".{name}" for name in formats)
        what = f"unknown format {extension!r}" if extension else "no format extension"
        raise ConfigurationError(f"{shown}: {what} (give a file ending in {known})")
    try:
        mode = target.stat().st_mode
    except FileNotFoundError:
        mode = None
    except OSError as error:
        raise ConfigurationError(f"{shown}: cannot write there: {error.strerror}") from None
    if mode is not None and stat.S_ISDIR(mode):
        raise ConfigurationError(f"{shown}: is a directory; give a file name")
    if mode is not None and not stat.S_ISREG(mode):
        raise ConfigurationError(f"{shown}: is not a regular file (a device or a pipe)")
    folder = target.parent
    if not folder.is_dir():
        raise ConfigurationError(f"{shown}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK):
        raise ConfigurationError(f"{shown}: the folder {folder} is not writable")
    return extension


@contextlib.contextmanager
def replaced_atomically(path: str) -> Iterator[str]:
    """A temporary path beside ``path`` to write the file to; when the block ends without an
    error, the file is flushed to disk and renamed to ``path``; otherwise it is removed."""
    import tempfile  # noqa: PLC0415 - only files need it; it costs start-up time
    from pathlib import Path  # noqa: PLC0415

    target = Path(path)
    handle, temporary = tempfile.mkstemp(
        prefix=f".{target.name}.", suffix=".part", dir=target.parent or "."
    )
    os.close(handle)
    try:
        # mkstemp makes the file private; give it the permissions a new file gets.
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)
        yield temporary
        with open(temporary, "rb+") as written:
            os.fsync(written.fileno())  # a full disk shows here, not after the rename
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


_WRITTEN_AT_ONCE = 1 << 16  # bytes: a pipe's capacity on Linux


def write_stdout(text: str) -> None:
    """Write ``text`` to standard output in UTF-8 whatever the locale (as sacreBLEU does), every
    byte of it, or raise :class:`OutputError`; an interrupt while it writes is a
    :class:`~bleuprint.cli.status.StoppedWriting` that says how much was written."""
    stream = sys.stdout
    if stream is None:
        raise OutputError("standard output is closed")
    try:
        descriptor = stream.fileno()
    except (AttributeError, OSError, ValueError):  # a text-only stand-in, such as a capture
        stream.write(text)
        return
    data = memoryview(text.encode("utf-8"))
    total = len(data)
    try:
        stream.flush()
        while data:
            # A chunk at a time: a signal that cuts a write short loses the count of that
            # write's bytes (Python raises before os.write returns it), so at most a chunk's.
            written = os.write(descriptor, data[:_WRITTEN_AT_ONCE])
            if written <= 0:
                raise OutputError("cannot write standard output: it took no more bytes")
            data = data[written:]
    except (KeyboardInterrupt, Terminated) as stop:
        # What the reader already took cannot be taken back: say how much it is.
        raise StoppedWriting(stop, total - len(data), total) from None
    except BrokenPipeError:
        raise
    except OutputError:
        raise
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise OutputError(f"cannot write standard output: {reason}") from None
