"""The one reader of text files and streams: UTF-8, one segment per line.

:func:`read_aligned_blocks` reads files (byte ranges of files, standard input) line by line
together, a block of lines at a time; every caller reads through it (or through
:func:`split_segments` for bytes already in memory), so every caller splits lines the same way
and reports a problem the same way: an
:class:`~bleuprint.exceptions.InputError` whose ``path`` and ``line`` fields name the file and
the line (``ref.txt:17: not valid UTF-8 (byte 3 of the line is 0xff)``).

Lines end at ``\\n`` only: a ``\\r\\n`` ending leaves a trailing ``\\r``, and other line
separators (``\\u2028``, ``\\x85``, a lone ``\\r``, ...) do not end a line. A final ``\\n`` ends
the last line rather than starting an empty one. A byte-order mark is not removed: sacreBLEU
reads it as part of the first line's text, and so does bleuprint (the command line warns, see
:func:`byte_order_mark_warning`). What each caller then does with a line's trailing whitespace
is its own definition:

- the command line reads files as sacreBLEU's does (:func:`read_segments`): each line loses its
  trailing whitespace with :meth:`str.rstrip`, which removes any Unicode whitespace, so CRLF
  files, trailing spaces and trailing no-break spaces read the same as clean files; ``-`` is
  standard input and a name ending in ``.gz`` is decompressed first;
- :meth:`bleuprint.BLEUScore.corpus_score_files` passes lines on unchanged;
- :mod:`bleuprint.dask` passes them on unchanged, or stripped as the command line strips them.
"""

from __future__ import annotations

import codecs
import contextlib
import io
import itertools
import mmap
import os
import stat
import sys
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import BinaryIO, ClassVar, cast

import attrs

from bleuprint._kernels import kernel
from bleuprint.exceptions import InputError, counted

__all__ = [
    "STDIN",
    "LineLayout",
    "Part",
    "byte_order_mark_warning",
    "decoded",
    "differing_lengths",
    "display_name",
    "line_count",
    "line_parts",
    "lines_differ",
    "newline_count",
    "open_binary",
    "read_aligned_blocks",
    "read_segments",
    "same_length",
    "split_references",
    "split_segments",
    "standard_input",
    "transcoded",
]

STDIN = "-"
"""The file name that stands for standard input (where the caller says so)."""

_BYTE_ORDER_MARK = "\ufeff"


def read_aligned_blocks(
    paths: Sequence[str],
    lines: int,
    *,
    byte_ranges: Sequence[tuple[int, int] | None] | None = None,
    first_line: int = 1,
    sacrebleu_names: bool = False,
    encoding: str = "utf-8",
    progress: Callable[[int], object] | None = None,
) -> Iterator[tuple[int, list[bytes]]]:
    """Files aligned line by line (line ``i`` of each belongs to segment ``i``), read
    together: at least ``lines`` lines of each at a time (as many whole groups of ``lines`` as
    every file's reads hold; fewer at the end): how many, and each file's as one bytes object
    of lines separated by ``\\n``, not decoded (:func:`decoded` decodes one, naming a line
    that is not valid UTF-8). Files in another ``encoding`` (a name :mod:`codecs` knows) are
    decoded as they are read and given as UTF-8 (:func:`transcoded`).

    ``byte_ranges`` (start, end), one per file, read only those bytes, which should start and
    end at line boundaries (as a :class:`Part` does); ``first_line`` is then the number of the
    first line read, for errors. With ``sacrebleu_names``, ``-`` is standard input and a name
    ending in ``.gz`` is decompressed, as sacreBLEU's command line names files. ``progress``
    is told how many bytes were read (after decompression), a megabyte or so at a time. Files
    of different line counts are an error naming both (:func:`differing_lengths`).

    >>> import os, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> for name, text in [("hyp.txt", b"a\\nb\\nc\\n"), ("ref.txt", b"A\\nB\\nC")]:
    ...     _ = open(os.path.join(folder, name), "wb").write(text)
    >>> paths = [os.path.join(folder, name) for name in ("hyp.txt", "ref.txt")]
    >>> list(read_aligned_blocks(paths, 2))
    [(2, [b'a\\nb', b'A\\nB']), (1, [b'c', b'C'])]
    """
    names = [display_name(path) if sacrebleu_names else path for path in paths]
    ranges = byte_ranges or [None] * len(paths)
    with contextlib.ExitStack() as opened:
        held = [
            _held_lines(
                opened,
                path,
                byte_range,
                group=lines,
                name=name,
                encoding=encoding,
                progress=progress,
                sacrebleu_names=sacrebleu_names,
            )
            for path, name, byte_range in zip(paths, names, ranges)
        ]
        number = first_line
        while True:
            for stream in held:
                stream.fill()
            size = min(stream.lines for stream in held)
            if size >= lines:
                size -= size % lines  # (whole groups: see _Lines)
            if not size:
                if any(stream.lines for stream in held):
                    taken = number - first_line
                    raise differing_lengths(names, [taken + stream.rest() for stream in held])
                return
            yield size, [stream.take(size) for stream in held]
            number += size


def _held_lines(
    opened: contextlib.ExitStack,
    path: str,
    byte_range: tuple[int, int] | None,
    *,
    group: int,
    name: str,
    encoding: str,
    progress: Callable[[int], object] | None,
    sacrebleu_names: bool,
) -> _Lines:
    """The lines of the file at ``path`` (see :func:`read_aligned_blocks`), opened in
    ``opened``: mapped into memory where it is a plain file in UTF-8, else read block by block."""
    handle = opened.enter_context(open_binary(path, sacrebleu_names=sacrebleu_names))
    mapped = _mapped(handle) if encoding == "utf-8" else None
    if mapped is not None:
        opened.enter_context(mapped)
        start, end = byte_range or (0, len(mapped))
        return _MappedLines(mapped, (start, min(end, len(mapped))), group, progress)
    blocks: Iterator[bytes | memoryview] = _read(handle, name, byte_range, progress)
    if encoding != "utf-8":
        blocks = transcoded(blocks, encoding, name)
    return _ReadLines(blocks, group)


def transcoded(blocks: Iterable[bytes | memoryview], encoding: str, name: str) -> Iterator[bytes]:
    """The blocks of the file ``name``, in ``encoding``, as UTF-8, decoded as they come (lines
    end at ``\\n`` only, as sacreBLEU opens files); bytes not valid in the encoding are an
    :class:`~bleuprint.exceptions.InputError` naming the file and the line."""
    decoder = codecs.getincrementaldecoder(encoding)()
    line = 1
    for block in itertools.chain(blocks, [None]):  # (None: the end, where nothing may wait)
        state, data = decoder.getstate(), block or b""
        try:
            text = decoder.decode(data, final=block is None)
        except UnicodeDecodeError as error:
            line += _decoded_before(encoding, state, data, error).count("\n")
            raise InputError(
                f"not valid {encoding}: {error.reason}", path=name, line=line
            ) from None
        line += text.count("\n")
        yield text.encode()


def _decoded_before(
    encoding: str, state: tuple[bytes, int], block: bytes | memoryview, error: UnicodeDecodeError
) -> str:
    """The text of ``block`` before the bytes ``error`` found, decoded from the decoder's
    ``state`` before it (the error's position counts the bytes the decoder held too)."""
    decoder = codecs.getincrementaldecoder(encoding)()
    decoder.setstate(state)
    return decoder.decode(block[: max(0, error.start - len(state[0]))])


def decoded(data: bytes, name: str, first_line: int) -> str:
    """UTF-8 lines (separated by ``\\n``) of the file ``name`` from line ``first_line`` on,
    decoded; a line that is not valid UTF-8 is an :class:`~bleuprint.exceptions.InputError`
    naming the file and the line."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:  # a line break is never part of a character: name the line
        return "\n".join(_decoded_lines(data, name, first_line))


# Files are read a megabyte at a time, and their lines handed on in blocks about as large: a
# Python call per line would cost several times as much as the reading itself.
_BLOCK = 1 << 20


def newline_count(data: bytes | bytearray | memoryview) -> int:
    """The newlines of ``data``, counted by the kernel (where no partition starts: at newline
    number ``sys.maxsize``), with ``memchr``: no array as large as the data, as numpy's
    comparison makes, and several times as fast as ``bytes.count``."""
    return kernel.line_ends(data, sys.maxsize, sys.maxsize)[0]


class _Lines:
    """The lines of a file's bytes, held until they are taken a number at a time: the bytes
    are held in ``held``, from offset ``start`` to ``stop`` (see the two kinds below).

    Lines are taken in whole groups of ``group`` where they can be: each block is scanned for
    newlines once, as it comes, noting where each group ends, so that taking groups scans no
    byte again."""

    held: bytearray | mmap.mmap

    def __init__(self, group: int) -> None:
        self.group, self.start, self.stop = group, 0, 0
        self.newlines, self.ended = 0, False
        self.group_ends: list[int] = []
        """The offset in ``held`` just after the last newline of each whole group."""

    @property
    def lines(self) -> int:
        """The whole lines held: a last line without ``\\n`` counts once the file ended."""
        last_open = self.ended and self.stop > self.start and self.held[self.stop - 1] != 10
        return self.newlines + last_open

    def fill(self) -> None:
        """Read until a group of lines is held, or the file ends."""
        while self.newlines < self.group and not self.ended:
            self.ended = not self._read()

    def take(self, lines: int) -> bytes:
        """The next ``lines`` lines (at most those held), separated by ``\\n``."""
        if lines > self.newlines:  # the last line, without a \n
            data = self._bytes(self.stop)
            self.newlines, self.group_ends = 0, []
            self._drop(self.stop)
            return data
        groups, rest = divmod(lines, self.group)
        if rest:  # (only where a file ends: rare enough to scan what is held again)
            with self._view(self.start, self.stop) as held:
                after = self.start + kernel.line_ends(held, lines, lines - 1)[1][0]
        else:
            after = self.group_ends[groups - 1]
        data = self._bytes(after - 1)
        shift = self._drop(after)
        if rest:
            self.newlines, self.group_ends = 0, []
            self._scan(self.start)
        else:
            self.newlines -= lines
            self.group_ends = [end - shift for end in self.group_ends[groups:]]
        return data

    def _scan(self, offset: int) -> None:
        """Count the newlines held from ``offset`` to ``stop``, which follow those counted, and
        note where the groups that end there end."""
        first = (self.group - 1 - self.newlines) % self.group  # its newline that ends a group
        with self._view(offset, self.stop) as data:
            found, ends = kernel.line_ends(data, self.group, first)
        self.group_ends.extend(offset + end for end in ends)
        self.newlines += found

    def _view(self, start: int, stop: int) -> memoryview:
        with memoryview(self.held) as held:
            return held[start:stop]

    def _bytes(self, stop: int) -> bytes:
        """What is held from ``start`` to ``stop``, as bytes."""
        with self._view(self.start, stop) as data:
            return bytes(data)

    def _read(self) -> bool:
        """Hold the next block of the file and scan it; ``False`` at its end."""
        raise NotImplementedError

    def _drop(self, offset: int) -> int:
        """Let go of what is held before ``offset``: by how much offsets in ``held`` move."""
        raise NotImplementedError

    def _unread(self) -> Iterator[bytes | memoryview]:
        """The blocks of the file not read yet."""
        raise NotImplementedError

    def rest(self) -> int:
        """The lines held and those left in the file, read to its end and counted."""
        newlines, last = self.newlines, self.held[self.stop - 1] if self.stop > self.start else 10
        for block in self._unread():
            if len(block):
                newlines, last = newlines + newline_count(block), block[-1]
        return newlines + (last != 10)


class _ReadLines(_Lines):
    """Lines read from a stream (standard input, a gzip file, a transcoded file), block by
    block, each block copied as it comes: the blocks may be views of one buffer that the next
    read overwrites. A process that sets glibc's ``MALLOC_TRIM_THRESHOLD_`` (a Dask worker
    does) maps fresh memory for every large allocation, page by page: a new bytes object for
    every block, and an array of line ends as large, cost a worker a third as much time again
    as the counting."""

    held: bytearray

    def __init__(self, blocks: Iterator[bytes | memoryview], group: int) -> None:
        super().__init__(group)
        self.blocks, self.held = blocks, bytearray()

    def _read(self) -> bool:
        block = next(self.blocks, None)
        if block is None:
            return False
        self.held += block
        offset, self.stop = self.stop, len(self.held)
        self._scan(offset)
        return True

    def _drop(self, offset: int) -> int:
        del self.held[:offset]
        self.stop -= offset
        return offset

    def _unread(self) -> Iterator[bytes | memoryview]:
        return self.blocks


class _MappedLines(_Lines):
    """Lines of a plain file (of its byte range) read through a memory map: only the bytes
    taken are copied, not every byte three times (read, held, taken), which took most of the
    time of reading a file. The pages behind the lines taken are let go of, so that the file's
    pages the process holds stay a block or so however large the file."""

    held: mmap.mmap

    def __init__(
        self,
        mapped: mmap.mmap,
        byte_range: tuple[int, int],
        group: int,
        progress: Callable[[int], object] | None,
    ) -> None:
        super().__init__(group)
        self.held, self.progress = mapped, progress
        self.start = self.stop = byte_range[0]
        self.end = byte_range[1]
        self.released = self.start
        """Where the pages not let go of yet start (see :func:`_released`)."""

    def _read(self) -> bool:
        if self.stop >= self.end:
            return False
        offset, self.stop = self.stop, min(self.stop + _BLOCK, self.end)
        self._scan(offset)
        if self.progress is not None:
            self.progress(self.stop - offset)
        return True

    def _bytes(self, stop: int) -> bytes:
        return self.held[self.start : stop]

    def _drop(self, offset: int) -> int:
        self.start = offset
        self._release(offset)
        return 0

    def _release(self, offset: int) -> None:
        """Let go of the pages before ``offset``, a block of them or more at a time."""
        if offset - self.released >= _BLOCK:
            self.released = _released(self.held, self.released, offset)

    def _unread(self) -> Iterator[memoryview]:
        return _mapped_blocks(self.held, self.stop, self.end, _BLOCK)


def _released(mapped: mmap.mmap, start: int, stop: int) -> int:
    """Let go of the whole pages of ``mapped`` from the one ``start`` is in to ``stop``, and
    return where the next page starts. Read through a map, a file's pages count as the
    process's own memory until it lets go of them; the system keeps them as cached file data."""
    start, stop = start - start % mmap.PAGESIZE, stop - stop % mmap.PAGESIZE
    if stop > start:
        mapped.madvise(mmap.MADV_DONTNEED, start, stop - start)
    return stop


def _mapped_blocks(mapped: mmap.mmap, start: int, end: int, size: int) -> Iterator[memoryview]:
    """Views of the bytes of ``mapped`` from ``start`` to ``end``, ``size`` at a time, each let
    go of once the next is asked for."""
    with memoryview(mapped) as whole:
        for offset in range(start, end, size):
            stop = min(offset + size, end)
            with whole[offset:stop] as block:
                yield block
            _released(mapped, offset, stop)


def _mapped(handle: BinaryIO) -> mmap.mmap | None:
    """A plain file (standard input too, where it is one) mapped into memory for reading from
    its start; ``None`` for any other (a pipe, a terminal, an empty file, a file system that
    cannot map it). A file cut short while it is read ends the process (SIGBUS): it cannot be
    read to a right score anyway."""
    if type(handle) is not io.BufferedReader or not hasattr(mmap, "MADV_DONTNEED"):
        return None  # (without madvise, as on Windows, a map's pages would pile up)
    try:
        status = os.fstat(handle.fileno())
        if not stat.S_ISREG(status.st_mode) or not status.st_size or handle.tell():
            return None
        return mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError):
        return None


def _read(
    handle: BinaryIO,
    name: str,
    byte_range: tuple[int, int] | None,
    progress: Callable[[int], object] | None,
) -> Iterator[memoryview]:
    """The bytes of the open file ``name`` (of its byte range if given), in blocks, telling
    ``progress`` how many were read; a damaged gzip file or a failing read is an
    :class:`~bleuprint.exceptions.InputError` naming it."""
    try:
        blocks = _blocks(handle, byte_range, _BLOCK)
        yield from blocks if progress is None else _reported(blocks, progress)
    except _gzip_errors():
        raise InputError("not a valid gzip file", path=name) from None
    except OSError as error:
        raise _unreadable(error, name) from None


def line_count(path: str, encoding: str = "utf-8") -> int:
    """The number of lines of the plain file at ``path`` (a final line without ``\\n``
    counts), counted without decoding it where it is UTF-8."""
    if encoding != "utf-8":  # (in UTF-16, a byte 10 need not end a line)
        with open_binary(path) as handle:
            text = transcoded(_read(handle, path, None, None), encoding, path)
            return _line_count(text)
    return _line_count(_byte_blocks(path))


def _line_count(blocks: Iterable[bytes | memoryview]) -> int:
    newlines, last = 0, ord("\n")
    for block in blocks:
        if len(block):
            newlines, last = newlines + newline_count(block), block[-1]
    return newlines + (last != ord("\n"))


def _byte_blocks(path: str) -> Iterator[memoryview]:
    """The bytes of the plain file at ``path``, a block at a time (:func:`_blocks`): read into
    a buffer small enough to stay in the core's cache, which scans faster than a memory map
    (twice as fast, counting the lines of two files of 120 MB)."""
    with open_binary(path) as handle:
        yield from _blocks(handle, None, LineLayout.BLOCK)


@attrs.frozen
class LineLayout:
    """Where the partitions of ``every`` lines of one text file start (byte offsets), its
    size and its number of lines, found in one pass without decoding it: each partition is
    then read by a process of its own (:func:`read_aligned_blocks` with ``byte_ranges``).

    >>> import os, tempfile
    >>> with tempfile.NamedTemporaryFile("wb", suffix=".txt", delete=False) as handle:
    ...     _ = handle.write(b"a\\nbb\\nccc\\nd")
    >>> layout = LineLayout.scan(handle.name, 2)
    >>> layout.starts, layout.lines, layout.byte_range(1)
    ([0, 5], 4, (5, 10))
    >>> os.remove(handle.name)
    """

    BLOCK: ClassVar[int] = 1 << 17  # (small enough to stay in the core's cache while scanned)

    path: str
    every: int
    starts: list[int]
    size: int
    lines: int

    @classmethod
    def scan(cls, path: str, every: int) -> LineLayout:
        starts, newlines, offset, last = [0], 0, 0, ord("\n")
        for block in _byte_blocks(path):
            # The line after newline number k (counting from 1) starts a partition when k is
            # a multiple of every: in this block, from its newline number `first` (from 0).
            first = (every - 1 - newlines) % every
            found, block_starts = kernel.line_ends(block, every, first)
            starts.extend(offset + start for start in block_starts)
            newlines, offset, last = newlines + found, offset + len(block), block[-1]
        if starts[-1] == offset and len(starts) > 1:
            starts.pop()  # the file ends exactly at a partition boundary
        return cls(path, every, starts, offset, newlines + (last != ord("\n")))

    def byte_range(self, number: int, partitions: int = 1) -> tuple[int, int]:
        """The bytes of ``partitions`` partitions from number ``number`` on."""
        end = number + partitions
        return self.starts[number], self.starts[end] if end < len(self.starts) else self.size


@attrs.frozen
class Part:
    """A part of files aligned line by line: each file's byte range (``byte_ranges`` of
    :func:`read_aligned_blocks`), and the number of the part's first line."""

    byte_ranges: list[tuple[int, int]]
    first_line: int


def line_parts(paths: Sequence[str], every: int) -> list[Part]:
    """Plain files aligned line by line, cut into parts of ``every`` lines (the last may have
    fewer) that processes can read on their own: see :func:`line_layouts`."""
    return joined_parts(line_layouts(paths, every), itertools.repeat(1))


def line_layouts(paths: Sequence[str], every: int) -> list[LineLayout]:
    """Where partitions of ``every`` lines of each file start: one pass over each file, not
    decoded, the files scanned at once on threads (reading and the kernel's ``line_ends`` let
    go of the interpreter). Files of different line counts are an error
    (:func:`differing_lengths`)."""
    # (threads only where they run: the module costs start-up time)
    from concurrent.futures import ThreadPoolExecutor  # noqa: PLC0415

    with ThreadPoolExecutor(len(paths)) as pool:
        layouts = list(pool.map(LineLayout.scan, paths, [every] * len(paths)))
    counts = [layout.lines for layout in layouts]
    if len(set(counts)) > 1:
        raise differing_lengths(paths, counts)
    return layouts


def joined_parts(layouts: Sequence[LineLayout], sizes: Iterable[int]) -> list[Part]:
    """The files of the layouts (of the same line counts) in parts of the given ``sizes``, in
    partitions, in turn until the files end (the last part may be shorter)."""
    first, parts, number = layouts[0], [], 0
    for size in sizes:
        if number >= len(first.starts):
            break
        parts.append(
            Part([layout.byte_range(number, size) for layout in layouts], 1 + number * first.every)
        )
        number += size
    return parts


def split_segments(data: bytes, name: str, *, as_given: bool = False) -> list[str]:
    """Decode UTF-8 ``data`` read from the file called ``name`` into its segments; at least one.

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
    lines = decoded(data.removesuffix(b"\n"), name, 1).split("\n") if data else []
    return _segments(lines, name, as_given=as_given)


def read_segments(path: str, progress: Callable[[int], object] | None = None) -> list[str]:
    """The segments of the file at ``path`` as sacreBLEU's command line reads them (``-``:
    standard input); at least one. ``progress``: as :func:`read_aligned_blocks`'s."""
    name, lines, number = display_name(path), [], 1
    for _, [data] in read_aligned_blocks(
        [path], _SEGMENT_LINES, sacrebleu_names=True, progress=progress
    ):
        block = decoded(data, name, number).split("\n")
        lines.extend(block)
        number += len(block)
    return _segments(lines, name, as_given=False)


_SEGMENT_LINES = 1 << 13  # lines decoded at once: about a megabyte of text


def _segments(lines: Iterable[str], name: str, *, as_given: bool) -> list[str]:
    if as_given:
        segments = [line.removesuffix("\r") for line in lines]
    else:
        segments = [line.rstrip() for line in lines]
    if not segments:
        raise InputError("the file is empty", path=name)
    return segments


def split_references(
    segments: Sequence[str], count: int, name: str, first_line: int = 1
) -> list[list[str]]:
    """``count`` reference streams from lines holding ``count`` tab-separated references each,
    as sacreBLEU's ``--num-refs`` reads them (a tab inside the last reference stays in it; each
    reference loses its trailing whitespace, as sacreBLEU strips every segment). The first
    segment is line ``first_line`` of the file, for errors.

    >>> split_references(["a b\\tc d ", "e\\tf"], 2, "refs.tsv")
    [['a b', 'e'], ['c d', 'f']]
    >>> split_references(["a b\\tc d", "e"], 2, "refs.tsv")
    Traceback (most recent call last):
    ...
    bleuprint.exceptions.InputError: refs.tsv:2: expected 2 tab-separated references, found 1
    """
    rows = []
    for number, line in enumerate(segments, start=first_line):
        fields = line.split("\t", count - 1)
        if len(fields) != count:
            raise InputError(
                f"expected {count} tab-separated references, found {len(fields)}",
                path=name,
                line=number,
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
            raise lines_differ(first_name, len(first), name, len(segments))


def lines_differ(name: str, count: int, other: str, other_count: int) -> InputError:
    """The error for two files that should be aligned line by line but are not."""
    return InputError(
        f"{name} has {counted(count, 'line')} but {other} has {other_count}: every file needs "
        "one line per segment"
    )


def differing_lengths(files: Sequence[str], counts: Sequence[int]) -> InputError:
    """The error for files of different line counts (``counts``, not all equal): the first
    file against the first whose count differs from it, or the one that is empty."""
    other = next(index for index, count in enumerate(counts) if count != counts[0])
    for index in (0, other):
        if not counts[index]:
            return InputError("the file is empty", path=files[index])
    return lines_differ(files[0], counts[0], files[other], counts[other])


def byte_order_mark_warning(path: str, segments: Sequence[str]) -> str | None:
    """A warning when the file starts with a byte-order mark, which stays part of its text."""
    if segments and segments[0].startswith(_BYTE_ORDER_MARK):
        return (
            f"{display_name(path)}:1 starts with a byte-order mark (U+FEFF); like sacreBLEU, "
            "bleuprint keeps it as part of the first segment's text"
        )
    return None


def display_name(path: str) -> str:
    """How errors name the file: ``<stdin>`` for standard input."""
    return "<stdin>" if path == STDIN else path


def standard_input() -> BinaryIO:
    """Standard input's bytes; an :class:`~bleuprint.exceptions.InputError` if it is closed
    (``<&-``), where Python leaves ``sys.stdin`` as ``None``."""
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:
        raise InputError("standard input is closed: give the text on standard input or name a file")
    return cast(BinaryIO, stream)


@contextlib.contextmanager
def open_binary(path: str, *, sacrebleu_names: bool = False) -> Iterator[BinaryIO]:
    """The file at ``path`` open for reading bytes; a file that cannot be opened is an
    :class:`~bleuprint.exceptions.InputError` naming it (see :func:`read_aligned_blocks`
    for ``sacrebleu_names``)."""
    if sacrebleu_names and path == STDIN:
        yield standard_input()  # not closed: it is not ours
        return
    try:
        handle: BinaryIO = open(path, "rb")  # noqa: SIM115 (closed below)
    except OSError:
        # Where the name as given cannot be opened, pathlib's reading of it ("ref.txt/" is
        # ref.txt, "" is "."), as the files were always opened; pathlib costs start-up time.
        from pathlib import Path  # noqa: PLC0415

        try:
            handle = Path(path).open("rb")  # noqa: SIM115
        except OSError as error:
            raise _unreadable(error, path) from None
    with handle:
        if sacrebleu_names and path.endswith(".gz"):
            import gzip  # noqa: PLC0415 - see _gzip_errors

            with gzip.GzipFile(fileobj=handle) as unpacked:
                # A GzipFile reads bytes like any binary file; typeshed does not say it is one.
                yield unpacked  # type: ignore[misc]
        else:
            yield handle


def _gzip_errors() -> tuple[type[Exception], ...]:
    """What a damaged gzip file raises. gzip is imported when a ``.gz`` file is read (or an
    error is raised while reading), not at start-up, which most runs do without."""
    import gzip  # noqa: PLC0415

    return (gzip.BadGzipFile, EOFError, zlib.error)


def _unreadable(error: OSError, name: str) -> InputError:
    if isinstance(error, FileNotFoundError):
        reason = "no such file"
    elif isinstance(error, IsADirectoryError):
        reason = "is a directory, not a file"
    elif isinstance(error, PermissionError):
        reason = "permission denied"
    else:
        reason = f"cannot read: {error.strerror or error}"
    return InputError(reason, path=name)


def _blocks(
    handle: BinaryIO, byte_range: tuple[int, int] | None, block: int
) -> Iterator[memoryview]:
    """The bytes of ``handle``, in blocks of at most ``block`` bytes, from the byte range only
    if given: views of one buffer that each block overwrites (see :class:`_Lines`)."""
    buffer = memoryview(bytearray(block))
    size = None
    if byte_range is not None:
        start, end = byte_range
        handle.seek(start)
        size = end - start
    while size is None or size > 0:
        read = handle.readinto(buffer if size is None else buffer[:size])  # type: ignore[attr-defined]
        if not read:
            return
        if size is not None:
            size -= read
        yield buffer[:read]


def _reported(
    blocks: Iterable[memoryview], progress: Callable[[int], object]
) -> Iterator[memoryview]:
    for block in blocks:
        progress(len(block))
        yield block


def _decoded_lines(data: bytes, name: str, first_line: int) -> Iterator[str]:
    for number, line in enumerate(data.split(b"\n"), start=first_line):
        try:
            yield line.decode("utf-8")
        except UnicodeDecodeError as error:
            raise InputError(
                f"not valid UTF-8 (byte {error.start + 1} of the line is "
                f"0x{line[error.start]:02x})",
                path=name,
                line=number,
            ) from None
