"""Reading segments from text files the way sacreBLEU's command line reads them.

A file is UTF-8 text with one segment per line. Lines end at ``\\n`` only (a ``\\r\\n`` ending
leaves a trailing ``\\r``), and each line then loses its trailing whitespace with
:meth:`str.rstrip`, which removes any Unicode whitespace: so CRLF files, trailing spaces and
trailing no-break spaces read the same as clean files. Leading and inner whitespace is kept for
the tokenizer. Other line separators (``\\u2028``, ``\\x85``, a lone ``\\r``, ...) do not end a
line. A byte-order mark is not removed: sacreBLEU reads it as part of the first line's text, and
so does bleuprint, with a warning (see :func:`byte_order_mark_warning`). A file whose name ends
in ``.gz`` is decompressed first, as sacreBLEU does.

Every problem is an :class:`~bleuprint.exceptions.InputError` naming the file, and the line
where there is one.
"""

from __future__ import annotations

import gzip
import sys
import zlib
from collections.abc import Sequence
from pathlib import Path

from bleuprint.exceptions import InputError

__all__ = [
    "STDIN",
    "byte_order_mark_warning",
    "read_segments",
    "same_length",
    "split_references",
    "split_segments",
]

STDIN = "-"
"""The file name that stands for standard input."""

_BYTE_ORDER_MARK = "\ufeff"


def read_segments(path: str) -> list[str]:
    """The segments of the file at ``path`` (``-``: standard input); at least one.

    >>> read_segments("no/such/file.txt")
    Traceback (most recent call last):
    ...
    bleuprint.exceptions.InputError: no/such/file.txt: no such file
    """
    return split_segments(_read_bytes(path), _display_name(path))


def split_segments(data: bytes, name: str, *, as_given: bool = False) -> list[str]:
    """Decode UTF-8 ``data`` read from the file called ``name`` into its segments.

    Segments lose their trailing whitespace, as sacreBLEU strips them; with ``as_given`` they
    lose only their line terminator (LF or CRLF), for definitions that measure the text itself.

    >>> split_segments(b"a b \\r\\nc\\xc2\\xa0\\n\\n", "f.txt")
    ['a b', 'c', '']
    >>> split_segments(b"a b \\r\\nc\\xc2\\xa0\\n", "f.txt", as_given=True)
    ['a b ', 'c\\xa0']
    >>> split_segments(b"ok\\n\\xff\\n", "f.txt")
    Traceback (most recent call last):
    ...
    bleuprint.exceptions.InputError: f.txt:2: not valid UTF-8 (byte 1 of the line is 0xff)
    """
    if not data:
        raise InputError(f"{name}: the file is empty")
    lines = data.split(b"\n")
    if lines[-1] == b"":
        lines.pop()
    segments = [_decode(line, name, number) for number, line in enumerate(lines, start=1)]
    if as_given:
        return [segment.removesuffix("\r") for segment in segments]
    return [segment.rstrip() for segment in segments]


def split_references(segments: Sequence[str], count: int, name: str) -> list[list[str]]:
    """``count`` reference streams from lines holding ``count`` tab-separated references each,
    as sacreBLEU's ``--num-refs`` reads them (a tab inside the last reference stays in it; each
    reference loses its trailing whitespace, as sacreBLEU strips every segment).

    >>> split_references(["a b\\tc d ", "e\\tf"], 2, "refs.tsv")
    [['a b', 'e'], ['c d', 'f']]
    >>> split_references(["a b\\tc d", "e"], 2, "refs.tsv")
    Traceback (most recent call last):
    ...
    bleuprint.exceptions.InputError: refs.tsv:2: expected 2 tab-separated references, found 1
    """
    rows = []
    for number, line in enumerate(segments, start=1):
        fields = line.split("\t", count - 1)
        if len(fields) != count:
            raise InputError(
                f"{name}:{number}: expected {count} tab-separated references, found {len(fields)}"
            )
        rows.append([field.rstrip() for field in fields])
    return [list(stream) for stream in zip(*rows)]


def same_length(named: Sequence[tuple[str, Sequence[str]]]) -> None:
    """Check that every file has as many segments as the first; name both files if not.

    >>> same_length([("hyp.txt", ["a", "b"]), ("ref.txt", ["a"])])
    Traceback (most recent call last):
    ...
    bleuprint.exceptions.InputError: hyp.txt has 2 lines but ref.txt has 1: ...
    """
    first_name, first = named[0]
    for name, segments in named[1:]:
        if len(segments) != len(first):
            raise InputError(
                f"{first_name} has {_lines(len(first))} but {name} has {len(segments)}: "
                "every file needs one line per segment"
            )


def _lines(count: int) -> str:
    return f"{count} line" if count == 1 else f"{count} lines"


def byte_order_mark_warning(path: str, segments: Sequence[str]) -> str | None:
    """A warning when the file starts with a byte-order mark, which stays part of its text."""
    if segments and segments[0].startswith(_BYTE_ORDER_MARK):
        return (
            f"{_display_name(path)}:1 starts with a byte-order mark (U+FEFF); like sacreBLEU, "
            "bleuprint keeps it as part of the first segment's text"
        )
    return None


def _display_name(path: str) -> str:
    return "<stdin>" if path == STDIN else path


def _read_bytes(path: str) -> bytes:
    if path == STDIN:
        return sys.stdin.buffer.read()
    try:
        data = Path(path).read_bytes()
        return gzip.decompress(data) if path.endswith(".gz") else data
    except (gzip.BadGzipFile, EOFError, zlib.error):
        raise InputError(f"{path}: not a valid gzip file") from None
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a directory, not a file") from None
    except PermissionError:
        raise InputError(f"{path}: permission denied") from None
    except OSError as error:
        raise InputError(f"{path}: cannot read: {error.strerror or error}") from None


def _decode(line: bytes, name: str, number: int) -> str:
    try:
        return line.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputError(
            f"{name}:{number}: not valid UTF-8 "
            f"(byte {error.start + 1} of the line is 0x{line[error.start]:02x})"
        ) from None
