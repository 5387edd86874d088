"""Scoring corpora of any size a chunk at a time, in one process or several.

Statistics add, so a corpus can be counted chunk by chunk and the chunks' statistics summed:
memory holds one chunk (per process) however long the corpus is. Each chunk's per-segment
statistics are folded into the running total in corpus order, so the total is exactly what
counting the whole corpus at once gives, floating-point reference lengths included.

This module knows the engine only as a :class:`Counter`: what it calls, and nothing more.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from itertools import islice
from typing import TYPE_CHECKING, Protocol

from bleuprint import _io
from bleuprint._result import BLEUResult
from bleuprint._segments import SegmentStats
from bleuprint._stats import BLEUStats
from bleuprint._validators import check_positive_whole
from bleuprint.exceptions import InputError, counted
from bleuprint.typing import Segment

if TYPE_CHECKING:
    from concurrent.futures import Future

DEFAULT_CHUNK_SIZE = 20_000
"""Segments per chunk: large enough for the array path, small enough for little memory."""

Chunk = tuple[list[Segment], list[Sequence[Segment]]]


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
    while chunk := list(islice(pairs, chunk_size)):
        yield [hypothesis for hypothesis, _ in chunk], [refs for _, refs in chunk]


def _counted(
    engine: Counter, chunks: Iterator[Chunk], jobs: int, first_segment: int = 0
) -> Iterator[SegmentStats]:
    """Each chunk's per-segment statistics, in order; ``first_segment`` is the index of the
    first chunk's first segment in the corpus, for errors."""
    offset = first_segment
    if jobs == 1:
        for chunk in chunks:
            yield _count_chunk(engine, offset, chunk)
            offset += len(chunk[0])
        return
    # (multiprocessing only where it runs: it costs start-up time.)
    from concurrent.futures import ProcessPoolExecutor  # noqa: PLC0415

    # A bounded window of chunks in flight keeps memory independent of the corpus length.
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        pending: deque[Future[SegmentStats]] = deque()
        for chunk in chunks:
            pending.append(pool.submit(_count_chunk, engine, offset, chunk))
            offset += len(chunk[0])
            if len(pending) >= 2 * jobs:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()


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

    One job reads the files a block at a time. Several jobs split them into ``jobs`` parts of
    equal line counts (one pass over each file finds where they start), and each process reads
    and counts its own part: only statistics cross between processes, never text.
    """
    if isinstance(reference_files, (str, os.PathLike)) or not reference_files:
        raise InputError("give the reference files as a list of one or more paths")
    check_positive_whole("chunk_size", chunk_size)
    check_positive_whole("jobs", jobs)
    files = [os.fspath(path) for path in (hypothesis_file, *reference_files)]
    if jobs == 1:
        total = summed(engine, _counted(engine, _file_chunks(files, chunk_size), 1))
    else:
        total = _count_parts(engine, files, chunk_size, jobs)
    if not total.segments:
        raise InputError("the corpus is empty: there is nothing to score")
    return total


def _count_parts(engine: Counter, files: list[str], chunk_size: int, jobs: int) -> BLEUStats:
    """The statistics of the files, counted in ``jobs`` processes, a part each, summed in
    order."""
    every = max(1, -(-_io.line_count(files[0]) // jobs))
    parts = _io.line_parts(files, every)
    # (multiprocessing only where it runs: it costs start-up time.)
    from concurrent.futures import ProcessPoolExecutor  # noqa: PLC0415

    with ProcessPoolExecutor(max_workers=min(jobs, len(parts))) as pool:
        counted = list(
            pool.map(
                _count_part,
                [engine] * len(parts),
                [files] * len(parts),
                parts,
                [chunk_size] * len(parts),
            )
        )
    total = engine.empty_stats()
    for stats in counted:
        total = total + stats
    return total


def _count_part(engine: Counter, files: list[str], part: _io.Part, chunk_size: int) -> BLEUStats:
    chunks = _file_chunks(files, chunk_size, part)
    return summed(engine, _counted(engine, chunks, 1, first_segment=part.first_line - 1))


def _file_chunks(
    files: Sequence[str], chunk_size: int, part: _io.Part | None = None
) -> Iterator[Chunk]:
    """The aligned lines of the files (of a part of them if given), ``chunk_size`` at a
    time: line ``i`` of every reference file is a reference of line ``i`` of the first."""
    byte_ranges = part.byte_ranges if part else [None] * len(files)
    first_line = part.first_line if part else 1
    streams = [
        _io.read_line_blocks(path, byte_range=byte_range, first_line=first_line)
        for path, byte_range in zip(files, byte_ranges)
    ]
    for columns in aligned_columns(files, streams, chunk_size):
        hypotheses: list[Segment] = list(columns[0])
        yield hypotheses, list(zip(*columns[1:]))


def aligned_columns(
    files: Sequence[str], streams: Sequence[Iterator[list[str]]], chunk_size: int
) -> Iterator[list[list[str]]]:
    """The next ``chunk_size`` lines of every stream of line blocks
    (:func:`bleuprint._io.read_line_blocks`), a column per file, until they end; streams of
    different lengths are an error naming the longer and the shorter file (``files``) with
    their line counts. Lines are moved a block at a time, never one by one."""
    buffers: list[list[str]] = [[] for _ in streams]
    ended = [False] * len(streams)
    taken = 0  # lines handed on from every file
    while True:
        for index, stream in enumerate(streams):
            while len(buffers[index]) < chunk_size and not ended[index]:
                block = next(stream, None)
                if block is None:
                    ended[index] = True
                else:
                    buffers[index].extend(block)
        size = min(map(len, buffers))
        if not size:
            if any(buffers):
                raise _lines_differ(files, streams, buffers, taken)
            return
        columns = [buffer[:size] for buffer in buffers]
        buffers = [buffer[size:] for buffer in buffers]
        taken += size
        yield columns


def _lines_differ(
    files: Sequence[str],
    streams: Sequence[Iterator[list[str]]],
    buffers: Sequence[Sequence[str]],
    taken: int,
) -> InputError:
    """The error for streams of different lengths (read up to ``taken`` lines each)."""
    counts = [
        taken + len(buffer) + (sum(map(len, stream)) if buffer else 0)
        for buffer, stream in zip(buffers, streams)
    ]
    return _io.differing_lengths(files, counts)
