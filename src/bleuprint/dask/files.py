"""Aligned text files read in partitions by the workers themselves.

Only where every partition starts is found here (one fast pass over each file, counting
newlines); each task then reads its byte range of every file as a one-process reader does
(:func:`bleuprint._streaming.line_blocks`), so a problem names the file and the line in the
whole file (``hyp.txt:120001: not valid UTF-8 ...``), and :func:`corpus_score_files` counts
a partition at the speed of ``bleuprint score``: from the bytes, without a str per line.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

import dask.bag
import distributed
from dask.base import tokenize
from dask.delayed import delayed

from bleuprint import _io
from bleuprint._engine import BLEUScore
from bleuprint._result import BLEUResult
from bleuprint._streaming import Files, count_part, line_blocks
from bleuprint.dask.cluster import DEFAULT_TIMEOUT, connect, waited
from bleuprint.dask.sums import scored, summed_in_a_tree
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
    files, parts = _partitioned(hypothesis_path, reference_paths, lines_per_partition, rstrip)
    read = delayed(_read_pairs, pure=True)
    stamps = _stamps(files)
    return dask.bag.from_delayed(
        [read(files, part, dask_key_name=_key("read", files, part, stamps)) for part in parts]
    )


def _partitioned(
    hypothesis_path: str | os.PathLike[str],
    reference_paths: Sequence[str | os.PathLike[str]],
    lines_per_partition: int,
    rstrip: bool,
) -> tuple[Files, list[_io.Part]]:
    if lines_per_partition < 1:
        raise ConfigurationError(f"lines_per_partition must be positive, got {lines_per_partition}")
    if not reference_paths:
        raise ConfigurationError("give at least one reference file")
    files = Files.of(
        [os.path.abspath(path) for path in (hypothesis_path, *reference_paths)], rstrip=rstrip
    )
    return files, _io.line_parts(files.paths, lines_per_partition)


def _stamps(files: Files) -> list[tuple[int, int]]:
    """Each file's size and time of last change, for the keys of the tasks that read it."""
    return [(stat.st_size, stat.st_mtime_ns) for stat in map(os.stat, files.paths)]


def _key(name: str, *arguments: object) -> str:
    """A task's key, from what it reads: the files' stamps among its arguments, so that a
    cluster still holding the result of a byte range of an earlier version of the files
    (tasks of equal keys are computed once) does not give it again."""
    return f"{name}-{tokenize(*arguments)}"


def _read_pairs(files: Files, part: _io.Part) -> list[tuple[str, list[str]]]:
    pairs: list[tuple[str, list[str]]] = []
    for block in line_blocks(files, _READ_LINES, part):
        pairs.extend(zip(block.segments(0), block.segment_references()))
    return pairs


_READ_LINES = 20_000  # lines read at once: a few megabytes


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
    files, parts = _partitioned(hypothesis_path, reference_paths, lines_per_partition, rstrip)
    count = delayed(count_part, pure=True)
    stamps = _stamps(files)
    counts = [
        count(
            engine,
            files,
            part,
            _READ_LINES,
            dask_key_name=_key("count", engine, files, part, stamps),
        )
        for part in parts
    ]
    stats = summed_in_a_tree(counts)
    lazy = scored(engine, stats)
    if isinstance(scheduler, distributed.Client):
        return waited(scheduler, scheduler.compute(lazy, retries=retries), timeout)
    with connect(scheduler, timeout=timeout) as client:
        return waited(client, client.compute(lazy, retries=retries), timeout)
