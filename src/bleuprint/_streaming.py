"""Scoring corpora of any size a chunk at a time, in one process or several.

Statistics add, so a corpus can be counted chunk by chunk and the chunks' statistics summed:
memory holds one chunk (per process) however long the corpus is. Each chunk's per-segment
statistics are folded into the running total in corpus order, so the total is exactly what
counting the whole corpus at once gives, floating-point reference lengths included.

This module knows the engine only as a :class:`Counter`: what it calls, and nothing more.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, NoReturn, Protocol, TypeVar

import attrs

from bleuprint import _counting, _io
from bleuprint._kernels import THREADS_VARIABLE
from bleuprint._result import BLEUResult
from bleuprint._segments import SegmentStats
from bleuprint._stats import BLEUStats
from bleuprint._validators import check_positive_whole
from bleuprint.exceptions import InputError, counted
from bleuprint.typing import Segment

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor

DEFAULT_CHUNK_SIZE = 20_000
"""Segments per chunk: large enough for the array path, small enough for little memory."""

Chunk = tuple[list[Segment], list[Sequence[Segment]]]
Result = TypeVar("Result")


class LineCounter(Protocol):
    """What counting lines of files needs of an engine's counting parts."""

    def count_lines(self, hypotheses: bytes, references: Sequence[bytes]) -> SegmentStats | None:
        """The statistics of each line, counted from the bytes; ``None`` where it cannot."""
        ...


class Counter(Protocol):
    """What streaming needs of an engine (:class:`~bleuprint.BLEUScore` is one); it must also
    pickle, to be sent to worker processes."""

    def count_segments(
        self, hypotheses: Sequence[Segment], references: Sequence[Sequence[Segment]]
    ) -> SegmentStats:
        """The statistics of each segment; an error names the segment by its index here."""
        ...

    def total(self, segments: SegmentStats, start: BLEUStats | None = None) -> BLEUStats:
        """``start`` plus the segments' statistics, added in order."""
        ...

    def empty_stats(self) -> BLEUStats:
        """The statistics of no segment: the start of the running total."""
        ...

    def score(self, stats: BLEUStats) -> BLEUResult:
        """The result of scoring the corpus statistics."""
        ...

    @property
    def counting(self) -> LineCounter:
        """The counting parts (:meth:`LineCounter.count_lines`)."""
        ...


def count_stream(
    engine: Counter,
    hypotheses: Iterable[Segment],
    references: Iterable[Sequence[Segment]],
    *,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    jobs: int = 1,
) -> BLEUStats:
    """The summed statistics of a corpus of any length given as two aligned iterables
    (generators, open files, ...), read and counted ``chunk_size`` segments at a time, in
    ``jobs`` processes. Memory depends on the chunk size, not on the corpus length.

    >>> from bleuprint import BLEUScore
    >>> bleu = BLEUScore.canonical(max_n=2)
    >>> stats = bleu.count_stream(iter(["the cat is here", "a dog"]),
    ...                           iter([["the cat was here"], ["a dog"]]), chunk_size=1)
    >>> stats.matches, stats.totals
    ((5, 2), (6, 4))
    """
    return count_pairs(engine, _zip_aligned(hypotheses, references), chunk_size, jobs)


def _zip_aligned(
    hypotheses: Iterable[Segment], references: Iterable[Sequence[Segment]]
) -> Iterator[tuple[Segment, Sequence[Segment]]]:
    hypothesis_iterator, reference_iterator = iter(hypotheses), iter(references)
    for count, hypothesis in enumerate(hypothesis_iterator):
        refs = next(reference_iterator, None)
        if refs is None:
            lists = counted(count, "reference list")
            raise InputError(f"there are more hypotheses than the {lists}")
        yield hypothesis, refs
    if next(reference_iterator, None) is not None:
        raise InputError("there are more reference lists than hypotheses")


def count_pairs(
    engine: Counter,
    pairs: Iterator[tuple[Segment, Sequence[Segment]]],
    chunk_size: int,
    jobs: int,
) -> BLEUStats:
    """The summed statistics of (hypothesis, references) pairs, a chunk at a time."""
    check_positive_whole("chunk_size", chunk_size)
    check_positive_whole("jobs", jobs)
    total = summed(engine, _counted(engine, _chunks(pairs, chunk_size), jobs))
    if not total.segments:
        raise InputError("the corpus is empty: there is nothing to score")
    return total


def summed(engine: Counter, chunks: Iterable[SegmentStats]) -> BLEUStats:
    """The corpus statistics of the chunks' segments, each chunk added to the running total as
    the definition sums (:meth:`BLEUScore.total <bleuprint.BLEUScore.total>`) when it comes."""
    total = engine.empty_stats()
    for chunk in chunks:
        total = engine.total(chunk, total)
    return total


def count_chunks(
    engine: Counter,
    hypotheses: Sequence[Segment],
    references: Sequence[Sequence[Segment]],
    *,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    jobs: int = 1,
) -> Iterator[SegmentStats]:
    """The per-segment statistics of a corpus held in memory, a chunk of ``chunk_size``
    segments at a time, in order, counted in ``jobs`` processes: concatenated, they are
    ``engine.count_segments(hypotheses, references)``.

    >>> from bleuprint import BLEUScore
    >>> bleu = BLEUScore.canonical(max_n=2)
    >>> chunks = list(count_chunks(bleu, ["a b", "c d", "e"], [["a b"], ["c"], ["e"]],
    ...                            chunk_size=2))
    >>> [len(chunk) for chunk in chunks]
    [2, 1]
    """
    check_positive_whole("chunk_size", chunk_size)
    check_positive_whole("jobs", jobs)
    if len(hypotheses) != len(references):
        raise InputError(
            f"there are {counted(len(hypotheses), 'hypothesis', 'hypotheses')} but "
            f"{counted(len(references), 'reference list')}"
        )
    chunks = (
        (list(hypotheses[start : start + chunk_size]), list(references[start : start + chunk_size]))
        for start in range(0, len(hypotheses), chunk_size)
    )
    return _counted(engine, chunks, jobs)


def _chunks(pairs: Iterator[tuple[Segment, Sequence[Segment]]], chunk_size: int) -> Iterator[Chunk]:
    while chunk := list(itertools.islice(pairs, chunk_size)):
        yield [hypothesis for hypothesis, _ in chunk], [refs for _, refs in chunk]


def _counted(
    engine: Counter, chunks: Iterator[Chunk], jobs: int, first_segment: int = 0
) -> Iterator[SegmentStats]:
    """Each chunk's per-segment statistics, in order; ``first_segment`` is the index of the
    first chunk's first segment in the corpus, for errors."""

    def numbered() -> Iterator[tuple[Counter, int, Chunk]]:
        offset = first_segment
        for chunk in chunks:
            yield engine, offset, chunk
            offset += len(chunk[0])

    return in_processes(_count_chunk, numbered(), jobs)


def in_processes(
    function: Callable[..., Result], arguments: Iterable[tuple[Any, ...]], jobs: int
) -> Iterator[Result]:
    """``function(*each)`` for each tuple of ``arguments``, in order, computed by ``jobs``
    processes, or fewer where there are fewer calls (in this one where there is one;
    ``function`` and the arguments must pickle); at most ``2 * jobs`` calls are in flight, so
    memory does not grow with the number of calls."""
    arguments = iter(arguments)
    first = list(itertools.islice(arguments, jobs))
    if len(first) <= 1:
        yield from itertools.starmap(function, itertools.chain(first, arguments))
        return
    with started_processes(len(first)) as processes:
        yield from processes.map(function, itertools.chain(first, arguments))


@attrs.frozen
class Processes:
    """Worker processes: a started pool of ``jobs`` (:func:`started_processes`)."""

    pool: ProcessPoolExecutor
    jobs: int

    def map(
        self, function: Callable[..., Result], arguments: Iterable[tuple[Any, ...]]
    ) -> Iterator[Result]:
        """``function(*each)`` for each tuple of ``arguments``, in order, at most two calls a
        process in flight."""
        pending: deque[Future[Result]] = deque()
        for each in arguments:
            pending.append(self.pool.submit(function, *each))
            if len(pending) >= 2 * self.jobs:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()


@contextlib.contextmanager
def started_processes(jobs: int) -> Iterator[Processes]:
    """A pool of ``jobs`` worker processes, started now: they start while the caller gets
    their work ready (multiprocessing only where it runs: it costs start-up time)."""
    from concurrent.futures import ProcessPoolExecutor  # noqa: PLC0415

    with ProcessPoolExecutor(max_workers=jobs, initializer=_share_cpus, initargs=(jobs,)) as pool:
        for _ in range(jobs):
            pool.submit(_nothing)  # (the pool starts its processes as work is submitted)
        yield Processes(pool, jobs)


def _share_cpus(jobs: int) -> None:
    """In a worker process, where ``BLEUPRINT_THREADS`` does not say how many threads count:
    a ``jobs``-th of the CPUs' threads, so that the processes together run one a CPU (each
    with as many as there are CPUs took 13% longer with two jobs on two cores)."""
    if not os.environ.get(THREADS_VARIABLE):
        _counting.COUNTING_THREADS = max(1, _counting.COUNTING_THREADS // jobs)


def _nothing() -> None:
    """Nothing: submitted to start a worker process."""


def _count_chunk(engine: Counter, offset: int, chunk: Chunk) -> SegmentStats:
    """One chunk's statistics; an error names the segment by its index in the whole corpus."""
    hypotheses, references = chunk
    try:
        return engine.count_segments(hypotheses, references)
    except InputError as error:
        if error.segment is None:
            raise
        raise error.located(segment=offset + error.segment) from None


# -- files ------------------------------------------------------------------------------------


def score_files(
    engine: Counter,
    hypothesis_file: str | os.PathLike[str],
    reference_files: Sequence[str | os.PathLike[str]],
    *,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    jobs: int = 1,
) -> BLEUResult:
    """Corpus BLEU of a hypothesis file against reference files (one segment per line,
    UTF-8), streamed: see :func:`count_stream`. Lines are split on ``\\n`` only."""
    stats = count_files(engine, hypothesis_file, reference_files, chunk_size=chunk_size, jobs=jobs)
    return engine.score(stats)


def count_files(
    engine: Counter,
    hypothesis_file: str | os.PathLike[str],
    reference_files: Sequence[str | os.PathLike[str]],
    *,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    jobs: int = 1,
) -> BLEUStats:
    """The summed statistics of a hypothesis file against one or more reference files.

    One job reads the files a block at a time. Several jobs split them into parts of whole
    lines (one pass over each file finds where they start), and each process reads and counts
    its own parts: only statistics cross between processes, never text.
    """
    if isinstance(reference_files, (str, os.PathLike)) or not reference_files:
        raise InputError("give the reference files as a list of one or more paths")
    check_positive_whole("chunk_size", chunk_size)
    check_positive_whole("jobs", jobs)
    files = Files.of([os.fspath(path) for path in (hypothesis_file, *reference_files)])
    if jobs == 1:
        total = count_part(engine, files, None, chunk_size)
    else:
        total = engine.empty_stats()
        for _, stats in over_file_parts(
            count_part, files, jobs, lambda part: (engine, files, part, chunk_size)
        ):
            total = total + stats
    if not total.segments:
        raise InputError("the corpus is empty: there is nothing to score")
    return total


@attrs.frozen
class Files:
    """Text files aligned line by line (line ``i`` of each belongs to segment ``i``), and how
    their lines become segments where the kernel cannot read the lines itself."""

    paths: list[str]
    names: list[str]
    """The files as errors name them."""
    systems: int = 1
    """The first ``systems`` files hold hypotheses, one system each; the rest references."""
    references_per_line: int = 1
    """References on each line of a reference file, tab-separated (sacreBLEU's
    ``--num-refs``)."""
    rstrip: bool = False
    """Each line loses its trailing whitespace, as sacreBLEU reads files."""
    sacrebleu_names: bool = False
    """``-`` is standard input, a name ending in ``.gz`` is decompressed."""
    encoding: str = "utf-8"
    """The files' encoding (sacreBLEU's ``-e``): in another than UTF-8, they are decoded as
    they are read and counted as UTF-8."""

    @classmethod
    def of(cls, paths: list[str], *, rstrip: bool = False) -> Files:
        """One hypothesis file and its reference files, named by their paths."""
        return cls(paths, paths, rstrip=rstrip)


# Lines a process reads at most at once with several jobs: parts this size keep the
# statistics of a part's segments (where a caller keeps them) small, and the processes busy.
PART_LINES = 1 << 18


def file_parts(paths: Sequence[str], jobs: int) -> list[_io.Part]:
    """Plain files aligned line by line, cut into parts of whole lines for ``jobs`` processes
    that each take the next part when done with one: one pass over each file finds where
    partitions of :data:`_FINE` lines start, and the parts join them, largest first
    (:func:`part_sizes`)."""
    layouts = _io.line_layouts(paths, _FINE)
    return _io.joined_parts(layouts, part_sizes(len(layouts[0].starts), jobs))


_FINE = 1 << 10  # lines of the partitions parts are made of


def part_sizes(partitions: int, jobs: int) -> Iterator[int]:
    """The sizes, in partitions, of parts of ``partitions`` partitions for ``jobs`` processes:
    each a ``2 * jobs``-th of what is left (and at most :data:`PART_LINES` lines), so that the
    last parts are small and the processes finish together however the parts' times vary.

    >>> list(part_sizes(40, 2))
    [10, 8, 6, 4, 3, 3, 2, 1, 1, 1, 1]
    """
    left = partitions
    while left > 0:
        size = min(-(-left // (2 * jobs)), PART_LINES // _FINE)
        yield size
        left -= size


def over_file_parts(
    function: Callable[..., Result],
    files: Files,
    jobs: int,
    arguments: Callable[[_io.Part], tuple[Any, ...]],
) -> Iterator[tuple[_io.Part, Result]]:
    """Each part of the files (:func:`file_parts`) and ``function(*arguments(part))``, in
    order, computed by ``jobs`` processes, forked before the files are scanned for their
    parts so that they start up meanwhile."""
    with started_processes(jobs) as processes:
        parts = file_parts(files.paths, jobs)
        yield from zip(parts, processes.map(function, map(arguments, parts)))


def count_part(engine: Counter, files: Files, part: _io.Part | None, chunk_size: int) -> BLEUStats:
    """The summed statistics of the files' lines (of a ``part`` of them if given), read and
    counted at least ``chunk_size`` lines at a time."""
    total = engine.empty_stats()
    blocks = line_blocks(files, chunk_size, part)
    for _, stats in counted_blocks(blocks, lambda block: block.counted(engine)):
        total = engine.total(stats, total)
    return total


def counted_blocks(
    blocks: Iterable[LineBlock], count: Callable[[LineBlock], Result]
) -> Iterator[tuple[LineBlock, Result]]:
    """Each block and ``count(block)``, in order, counted on the counting threads while the
    next blocks are read (:func:`~bleuprint._counting.handed_on`: the kernel counts without
    the GIL, so two cores read and count a file at once)."""
    return _counting.handed_on(_works(blocks, count))


def _works(
    blocks: Iterable[LineBlock], count: Callable[[LineBlock], Result]
) -> Iterator[Callable[[], tuple[LineBlock, Result]]]:
    """A work for each block; a failure to read the next block (files of different lengths)
    becomes the next work, raised in its turn: read ahead of the counting, it must not come
    before an error of a line before it (bad UTF-8)."""
    try:
        for block in blocks:
            yield functools.partial(_with_count, count, block)
    except Exception as error:  # (raised in its turn, whatever it is)
        yield functools.partial(_raised, error)


def _with_count(count: Callable[[LineBlock], Result], block: LineBlock) -> tuple[LineBlock, Result]:
    return block, count(block)


def _raised(error: Exception) -> NoReturn:
    raise error


def line_blocks(
    files: Files,
    lines: int,
    part: _io.Part | None = None,
    progress: Callable[[int], object] | None = None,
) -> Iterator[LineBlock]:
    """The files' lines (of a ``part`` of them if given) at least ``lines`` at a time, as
    :func:`bleuprint._io.read_aligned_blocks` reads them; ``progress`` is told the bytes read."""
    first_line = part.first_line if part else 1
    blocks = _io.read_aligned_blocks(
        files.paths,
        lines,
        byte_ranges=part.byte_ranges if part else None,
        first_line=first_line,
        sacrebleu_names=files.sacrebleu_names,
        encoding=files.encoding,
        progress=progress,
    )
    for lines_read, data in blocks:
        yield LineBlock(files, data, first_line, lines_read)
        first_line += lines_read


@attrs.define
class LineBlock:
    """The same lines of every file, from line ``first_line`` on: a bytes object of lines
    separated by ``\\n`` for each file, counted system by system. The kernel decodes and
    reads the lines in the bytes themselves where it can (its tokenizers ignore trailing
    whitespace); else each line becomes a segment."""

    files: Files
    data: list[bytes]
    first_line: int
    lines: int
    _references: list[list[str]] | None = None

    def counted(self, engine: Counter, system: int = 0) -> SegmentStats:
        """The statistics of each line of system number ``system``."""
        if self.files.references_per_line == 1:
            reference_data = self.data[self.files.systems :]
            try:
                counted = engine.counting.count_lines(self.data[system], reference_data)
            except UnicodeDecodeError:  # named below, with its file and line
                counted = None
            if counted is not None:
                return counted
        hypotheses: list[Segment] = list(self.segments(system))
        references: list[Sequence[Segment]] = list(self.segment_references())
        return _count_chunk(engine, self.first_line - 1, (hypotheses, references))

    def first_lines(self) -> list[str]:
        """The first line of each file's block, in the files' order."""
        return [
            _io.decoded(data.split(b"\n", 1)[0], name, self.first_line)
            for name, data in zip(self.files.names, self.data)
        ]

    def segments(self, number: int) -> list[str]:
        """The lines of file number ``number``, as segments."""
        lines = _io.decoded(self.data[number], self.files.names[number], self.first_line)
        split = lines.split("\n")
        return [line.rstrip() for line in split] if self.files.rstrip else split

    def segment_references(self) -> list[list[str]]:
        """The references of each line."""
        if self._references is None:
            files = self.files
            streams = [
                stream
                for number in range(files.systems, len(files.paths))
                for stream in self._streams(number)
            ]
            self._references = [list(segment) for segment in zip(*streams)]
        return self._references

    def _streams(self, number: int) -> list[list[str]]:
        """The reference streams of file number ``number``: itself, or its tab-separated
        columns."""
        segments, count = self.segments(number), self.files.references_per_line
        if count == 1:
            return [segments]
        name = self.files.names[number]
        return _io.split_references(segments, count, name, self.first_line)
