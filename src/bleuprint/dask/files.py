"""Aligned text files as a Dask bag whose partitions the workers read themselves.

:func:`read_corpus` only finds where every partition starts (one fast pass over each file,
counting newlines); each task then reads its byte range of every file with the project's one
line reader (:func:`bleuprint._io.read_lines`), so a problem names the file and the line in the
whole file (``hyp.txt:120001: not valid UTF-8 ...``).
"""

from __future__ import annotations

import os
from collections.abc import Sequence

import dask.bag
import distributed
from dask.delayed import delayed

from bleuprint import _io
from bleuprint._engine import BLEUScore
from bleuprint._result import BLEUResult
from bleuprint.dask.cluster import DEFAULT_TIMEOUT, connect, waited
from bleuprint.dask.core import corpus_score
from bleuprint.exceptions import ConfigurationError

__all__ = ["LINES_PER_PARTITION", "corpus_score_files", "read_corpus"]

LINES_PER_PARTITION = 100_000
"""The default partition size, in lines, of :func:`read_corpus`."""


def read_corpus(
    hypothesis_path: str | os.PathLike[str],
    reference_paths: Sequence[str | os.PathLike[str]],
    *,
    lines_per_partition: int = LINES_PER_PARTITION,
    rstrip: bool = False,
) -> dask.bag.Bag:
    """A bag of ``(hypothesis, references)`` pairs read from aligned text files.

    Line ``i`` of every reference file is a reference of line ``i`` of the hypothesis file.
    Files are read as :meth:`bleuprint.BLEUScore.corpus_score_files` reads them: UTF-8, lines
    end at ``\\n`` only and are passed on unchanged. With ``rstrip=True`` each line loses its
    trailing whitespace, as sacreBLEU's command line and ``bleuprint score`` read files (so a
    CRLF file reads as an LF file).

    This function only finds where every partition starts (one fast pass over each file);
    the workers then read their own lines, so on a cluster the paths must be readable by
    every worker (a shared file system).
    """
    if lines_per_partition < 1:
        raise ConfigurationError(f"lines_per_partition must be positive, got {lines_per_partition}")
    if not reference_paths:
        raise ConfigurationError("give at least one reference file")
    paths = [os.path.abspath(path) for path in (hypothesis_path, *reference_paths)]
    read = delayed(_read_pairs, pure=True)
    parts = [
        read(
            [(path, *byte_range) for path, byte_range in zip(paths, part.byte_ranges)],
            first_line=part.first_line,
            rstrip=rstrip,
        )
        for part in _io.line_parts(paths, lines_per_partition)
    ]
    return dask.bag.from_delayed(parts)


def _read_pairs(
    ranges: Sequence[tuple[str, int, int]], first_line: int, rstrip: bool
) -> list[tuple[str, list[str]]]:
    hypotheses, *references = (
        _read_range(path, (start, end), first_line, rstrip) for path, start, end in ranges
    )
    rows = zip(hypotheses, *references, strict=True)
    return [(hypothesis, list(refs)) for hypothesis, *refs in rows]


def _read_range(path: str, byte_range: tuple[int, int], first_line: int, rstrip: bool) -> list[str]:
    lines = _io.read_lines(path, byte_range=byte_range, first_line=first_line)
    return [line.rstrip() for line in lines] if rstrip else list(lines)


def corpus_score_files(
    engine: BLEUScore,
    hypothesis_path: str | os.PathLike[str],
    reference_paths: Sequence[str | os.PathLike[str]],
    *,
    scheduler: str | distributed.Client = "local",
    lines_per_partition: int = LINES_PER_PARTITION,
    rstrip: bool = False,
    retries: int = 1,
    timeout: float = DEFAULT_TIMEOUT,
) -> BLEUResult:
    """Corpus BLEU of aligned text files, computed on a Dask cluster and waited for: the
    result of :meth:`bleuprint.BLEUScore.corpus_score_files` on the same files.

    ``scheduler`` is a connected :class:`distributed.Client`, or what
    :func:`~bleuprint.dask.connect` takes: ``"local"`` or a scheduler's address. A task that
    raises is tried again ``retries`` times. The files are read as :func:`read_corpus` reads
    them (``rstrip`` included). A cluster silent for ``timeout`` seconds (see
    :func:`~bleuprint.dask.waited`) ends the wait with a ``TimeoutError``.
    """
    pairs = read_corpus(
        hypothesis_path, reference_paths, lines_per_partition=lines_per_partition, rstrip=rstrip
    )
    lazy = corpus_score(engine, pairs)
    if isinstance(scheduler, distributed.Client):
        return waited(scheduler, scheduler.compute(lazy, retries=retries), timeout)
    with connect(scheduler, timeout=timeout) as client:
        return waited(client, client.compute(lazy, retries=retries), timeout)
