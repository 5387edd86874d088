"""Scoring corpora of any size a chunk at a time, in one process or several.

Statistics add, so a corpus can be counted chunk by chunk and the chunks' statistics summed:
memory holds one chunk (per process) however long the corpus is. Each chunk's per-segment
statistics are folded into the running total in corpus order, so the total is exactly what
counting the whole corpus at once gives, floating-point reference lengths included.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from itertools import islice
from pathlib import Path
from typing import TYPE_CHECKING

from bleuprint._segments import SegmentStats
from bleuprint._stats import BLEUStats
from bleuprint.exceptions import ConfigurationError, InputError
from bleuprint.typing import Segment

if TYPE_CHECKING:
    from bleuprint._engine import BLEUScore

DEFAULT_CHUNK_SIZE = 20_000
"""Segments per chunk: large enough for the array path, small enough for little memory."""

Chunk = tuple[list[Segment], list[Sequence[Segment]]]


def count_stream(
    engine: BLEUScore,
    hypotheses: Iterable[Segment],
    references: Iterable[Sequence[Segment]],
    *,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    jobs: int = 1,
) -> BLEUStats:
    """The summed statistics of two aligned iterables, read ``chunk_size`` segments at a time."""
    return count_pairs(engine, _zip_aligned(hypotheses, references), chunk_size, jobs)


def _zip_aligned(
    hypotheses: Iterable[Segment], references: Iterable[Sequence[Segment]]
) -> Iterator[tuple[Segment, Sequence[Segment]]]:
    hypothesis_iterator, reference_iterator = iter(hypotheses), iter(references)
    for count, hypothesis in enumerate(hypothesis_iterator):
        refs = next(reference_iterator, None)
        if refs is None:
            raise InputError(f"there are more hypotheses than the {count} reference lists")
        yield hypothesis, refs
    if next(reference_iterator, None) is not None:
        raise InputError("there are more reference lists than hypotheses")


def count_pairs(
    engine: BLEUScore,
    pairs: Iterator[tuple[Segment, Sequence[Segment]]],
    chunk_size: int,
    jobs: int,
) -> BLEUStats:
    """The summed statistics of (hypothesis, references) pairs, a chunk at a time."""
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise ConfigurationError(
            f"chunk_size must be a whole number of at least 1, got {chunk_size!r}"
        )
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ConfigurationError(f"jobs must be a whole number of at least 1, got {jobs!r}")
    total = engine.empty_stats()
    for segments in _counted(engine, _chunks(pairs, chunk_size), jobs):
        total = segments.total(total)
    if not total.segments:
        raise InputError("the corpus is empty: there is nothing to score")
    return total


def _chunks(pairs: Iterator[tuple[Segment, Sequence[Segment]]], chunk_size: int) -> Iterator[Chunk]:
    while chunk := list(islice(pairs, chunk_size)):
        yield [hypothesis for hypothesis, _ in chunk], [refs for _, refs in chunk]


def _counted(engine: BLEUScore, chunks: Iterator[Chunk], jobs: int) -> Iterator[SegmentStats]:
    """Each chunk's per-segment statistics, in order."""
    if jobs == 1:
        offset = 0
        for chunk in chunks:
            yield _count_chunk(engine, offset, chunk)
            offset += len(chunk[0])
        return
    # A bounded window of chunks in flight keeps memory independent of the corpus length.
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        pending: deque[Future[SegmentStats]] = deque()
        offset = 0
        for chunk in chunks:
            pending.append(pool.submit(_count_chunk, engine, offset, chunk))
            offset += len(chunk[0])
            if len(pending) >= 2 * jobs:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()


def _count_chunk(engine: BLEUScore, offset: int, chunk: Chunk) -> SegmentStats:
    """One chunk's statistics; an error names the segment by its index in the whole corpus."""
    hypotheses, references = chunk
    try:
        return engine.count_segments(hypotheses, references)
    except InputError as error:
        message = str(error)
        if message.startswith("segment "):
            index, _, rest = message[len("segment ") :].partition(":")
            if index.isdigit():
                message = f"segment {offset + int(index)}:{rest}"
        raise InputError(message) from None


# -- files ------------------------------------------------------------------------------------


def read_lines(path: str | os.PathLike[str]) -> Iterator[str]:
    """The lines of a UTF-8 file, lazily: split on ``\\n`` only, without it; a byte-order mark
    stays as U+FEFF; a final ``\\n`` ends the last line rather than starting an empty one."""
    name = os.fspath(path)
    try:
        handle = Path(name).open("rb")  # noqa: SIM115 (a generator closes it below)
    except OSError as error:
        raise InputError(f"{name}: cannot open: {error.strerror or error}") from None
    with handle:
        for number, line in enumerate(handle, start=1):
            try:
                text = line.decode("utf-8")
            except UnicodeDecodeError as error:
                raise InputError(
                    f"{name}:{number}: not valid UTF-8 (byte {error.start + 1} of the line)"
                ) from None
            yield text[:-1] if text.endswith("\n") else text


def count_files(
    engine: BLEUScore,
    hypothesis_file: str | os.PathLike[str],
    reference_files: Sequence[str | os.PathLike[str]],
    *,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    jobs: int = 1,
) -> BLEUStats:
    """The summed statistics of a hypothesis file against one or more reference files."""
    if isinstance(reference_files, (str, os.PathLike)) or not reference_files:
        raise InputError("give the reference files as a list of one or more paths")
    files = [hypothesis_file, *reference_files]
    rows = _aligned(files, [read_lines(path) for path in files])
    return count_pairs(engine, ((row[0], row[1:]) for row in rows), chunk_size, jobs)


def _aligned(
    files: Sequence[str | os.PathLike[str]], streams: Sequence[Iterator[str]]
) -> Iterator[list[str]]:
    """One list per line number with that line of every file; files of different lengths are
    an error naming both files and their line counts."""
    counts = 0
    while True:
        row = [next(stream, None) for stream in streams]
        if all(line is None for line in row):
            return
        if any(line is None for line in row):
            shorter = next(i for i, line in enumerate(row) if line is None)
            longer = next(i for i, line in enumerate(row) if line is not None)
            rest = sum(1 for _ in streams[longer])
            raise InputError(
                f"{os.fspath(files[longer])} has {counts + 1 + rest} lines but "
                f"{os.fspath(files[shorter])} has {counts}"
            )
        counts += 1
        yield row  # type: ignore[misc]
