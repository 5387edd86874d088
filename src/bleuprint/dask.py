"""BLEU on Dask: corpus and sentence scores of data that lives on a cluster.

Statistics add, so a corpus score on Dask needs no algorithm of its own: every partition is
counted with the engine's :meth:`~bleuprint.BLEUScore.count`, the partitions' statistics are
summed with ``+`` in a tree, and the sum is scored once. The result is the one the same engine
gives on the same data in one process. Everything here is lazy, like the rest of Dask:
functions return Dask collections or :class:`~dask.delayed.Delayed` values, which run on
whatever scheduler is active when they are computed (a ``dask.distributed`` client, or Dask's
local schedulers).

>>> import dask.bag
>>> from bleuprint import BLEUScore
>>> from bleuprint import dask as bleu_dask
>>> pairs = dask.bag.from_sequence(
...     [("the cat is on the mat", ["the cat is on the mat"]), ("a dog", ["a dog"])],
...     npartitions=2,
... )
>>> score = bleu_dask.corpus_score(BLEUScore.canonical(max_n=2), pairs)
>>> score.compute(scheduler="sync").score
1.0

Install the optional dependencies with ``pip install 'bleuprint[dask]'``.
"""

from __future__ import annotations

import contextlib
import functools
import operator
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, ClassVar, TypeAlias

import attrs
import numpy as np

try:
    import dask
    import dask.bag
    import dask.dataframe
    import distributed
    import pandas as pd
    from dask.delayed import Delayed, delayed
    from distributed.comm.addressing import resolve_address
except ImportError as error:
    raise ImportError(
        f"bleuprint.dask needs Dask's distributed scheduler and pandas (cannot import "
        f"{error.name}); install them with: pip install 'bleuprint[dask]'"
    ) from error

from bleuprint._engine import BLEUScore
from bleuprint._result import BLEUResult
from bleuprint._stats import BLEUStats
from bleuprint.exceptions import ConfigurationError, InputError

__all__ = [
    "adaptive_malloc",
    "connect",
    "corpus_score",
    "corpus_score_files",
    "corpus_stats",
    "read_corpus",
    "sentence_scores",
]

Collection: TypeAlias = "dask.bag.Bag | dask.dataframe.DataFrame"
"""A Dask bag of ``(hypothesis, references)`` pairs, or a Dask DataFrame with a hypothesis
column and one or more reference columns."""

_Segments: TypeAlias = "tuple[list[str], list[list[str]]]"
_Reader: TypeAlias = "Callable[[Any, int | None], _Segments]"
"""Turns one partition (and its number, where known) into the engine's input: the
hypotheses, and one list of references per hypothesis."""

SPLIT_EVERY = 8
"""How many statistics one task of the tree reduction adds up."""

LINES_PER_PARTITION = 100_000
"""The default partition size, in lines, of :func:`read_corpus`."""


# -- corpus scores ------------------------------------------------------------------------


def corpus_stats(
    engine: BLEUScore,
    data: Collection,
    *,
    hypothesis: str = "hypothesis",
    references: str | Sequence[str] | None = None,
    split_every: int = SPLIT_EVERY,
) -> Delayed:
    """The summed statistics of a corpus on Dask, as a delayed :class:`~bleuprint.BLEUStats`.

    Each partition is counted in one task; the statistics are then added in a tree whose
    tasks add ``split_every`` values each. A DataFrame needs ``references``, the name of its
    reference column or a list of names (one reference per column); ``hypothesis`` names
    its hypothesis column. An empty partition contributes nothing.
    """
    if split_every < 2:
        raise ConfigurationError(f"split_every must be at least 2, got {split_every}")
    read = _partition_reader(data, hypothesis, references)
    count = delayed(_count_partition, pure=True)
    level = [
        count(engine, read, partition, number) for number, partition in enumerate(data.to_delayed())
    ]
    add = delayed(_add, pure=True)
    while len(level) > 1:
        level = [
            add(*level[start : start + split_every]) for start in range(0, len(level), split_every)
        ]
    return level[0] if level else delayed(engine.empty_stats(), pure=True)


def corpus_score(
    engine: BLEUScore,
    data: Collection,
    *,
    hypothesis: str = "hypothesis",
    references: str | Sequence[str] | None = None,
    split_every: int = SPLIT_EVERY,
) -> Delayed:
    """Corpus BLEU on Dask, as a delayed :class:`~bleuprint.BLEUResult`.

    The same score as ``engine.corpus_score`` on the same segments in one process. The
    arguments are those of :func:`corpus_stats`; a corpus with no segment at all is an
    :class:`~bleuprint.InputError` when computed, as it is locally.

    >>> import dask.dataframe, pandas
    >>> from bleuprint import BLEUScore
    >>> frame = pandas.DataFrame({
    ...     "hypothesis": ["the cat is here", "a dog"],
    ...     "reference": ["the cat was here", "a dog"],
    ... })
    >>> bleu = BLEUScore.canonical(max_n=2)
    >>> lazy = corpus_score(bleu, dask.dataframe.from_pandas(frame, npartitions=2),
    ...                     references="reference")
    >>> lazy.compute(scheduler="sync") == bleu.corpus_score(
    ...     list(frame["hypothesis"]), [[reference] for reference in frame["reference"]])
    True
    """
    stats = corpus_stats(
        engine, data, hypothesis=hypothesis, references=references, split_every=split_every
    )
    return delayed(_score_corpus, pure=True)(engine, stats)


def _count_partition(engine: BLEUScore, read: _Reader, partition: Any, number: int) -> BLEUStats:
    hypotheses, references = read(partition, number)
    if not hypotheses:
        return engine.empty_stats()
    with _in_partition(number):
        return engine.count(hypotheses, references)


def _add(*stats: BLEUStats) -> BLEUStats:
    return functools.reduce(operator.add, stats)


def _score_corpus(engine: BLEUScore, stats: BLEUStats) -> BLEUResult:
    if not stats.segments:
        raise InputError("the corpus is empty: there is nothing to score")
    return engine.score(stats)


# -- sentence scores ----------------------------------------------------------------------


def sentence_scores(
    engine: BLEUScore,
    data: Collection,
    *,
    hypothesis: str = "hypothesis",
    references: str | Sequence[str] | None = None,
    column: str = "bleu",
) -> Collection:
    """Every segment's sentence score in [0, 1], lazily.

    For a DataFrame, the DataFrame with a new float column ``column`` (which must not exist
    yet); for a bag, a bag of floats in the order of its pairs. Each score is the one
    ``engine.sentence_score`` gives the same segment.

    >>> import dask.dataframe, pandas
    >>> from bleuprint import BLEUScore
    >>> frame = dask.dataframe.from_pandas(pandas.DataFrame({
    ...     "hypothesis": ["the cat is on the mat", "the dog"],
    ...     "reference": ["the cat is on the mat", "the cat"],
    ... }), npartitions=2)
    >>> scored = sentence_scores(BLEUScore.unigram(), frame, references="reference")
    >>> scored["bleu"].compute(scheduler="sync").tolist()
    [1.0, 0.5]
    """
    read = _partition_reader(data, hypothesis, references)
    if isinstance(data, dask.bag.Bag):
        score = delayed(_scores, pure=True)
        return dask.bag.from_delayed(
            [score(engine, read, items, number) for number, items in enumerate(data.to_delayed())]
        )
    if column in data.columns:
        raise ConfigurationError(
            f"the DataFrame already has a column {column!r}; name the score column with column="
        )
    meta = data._meta.assign(**{column: pd.Series(dtype="float64")})
    return data.map_partitions(_frame_with_scores, engine, read, column, meta=meta)


def _scores(engine: BLEUScore, read: _Reader, partition: Any, number: int | None) -> list[float]:
    hypotheses, references = read(partition, number)
    if not hypotheses:
        return []
    with _in_partition(number):
        return [result.score for result in engine.sentence_scores(hypotheses, references)]


def _frame_with_scores(
    frame: pd.DataFrame,
    engine: BLEUScore,
    read: _Reader,
    column: str,
    partition_info: dict[str, Any] | None = None,
) -> pd.DataFrame:
    number = partition_info["number"] if partition_info else None
    scores = _scores(engine, read, frame, number)
    return frame.assign(**{column: pd.Series(scores, index=frame.index, dtype="float64")})


# -- reading partitions -------------------------------------------------------------------


def _read_bag_partition(partition: Iterable[Any], number: int | None) -> _Segments:
    hypotheses, references = [], []
    for position, item in enumerate(partition):
        if not (isinstance(item, Sequence) and not isinstance(item, str) and len(item) == 2):
            raise InputError(
                f"{_partition_name(number)}, item {position}: expected a "
                f"(hypothesis, references) pair, got {type(item).__name__}"
            )
        hypotheses.append(item[0])
        references.append(item[1])
    return hypotheses, references


@attrs.frozen
class _FrameReader:
    """Reads the hypothesis column and the reference columns of a DataFrame partition."""

    hypothesis: str
    references: tuple[str, ...]

    def __call__(self, partition: pd.DataFrame, number: int | None) -> _Segments:
        hypotheses = self._texts(partition, self.hypothesis)
        columns = [self._texts(partition, name) for name in self.references]
        return hypotheses, [list(row) for row in zip(*columns, strict=True)]

    @staticmethod
    def _texts(frame: pd.DataFrame, column: str) -> list[str]:
        values: list[str] = frame[column].tolist()
        for label, value in zip(frame.index, values, strict=True):
            if not isinstance(value, str):
                problem = "is missing" if pd.isna(value) else f"is a {type(value).__name__}"
                raise InputError(f"column {column!r}, row {label!r}: the text {problem}")
        return values


def _partition_reader(
    data: Collection, hypothesis: str, references: str | Sequence[str] | None
) -> _Reader:
    if isinstance(data, dask.bag.Bag):
        if references is not None:
            raise ConfigurationError(
                "references= names DataFrame columns; a bag holds (hypothesis, references) pairs"
            )
        return _read_bag_partition
    if not isinstance(data, dask.dataframe.DataFrame):
        raise ConfigurationError(
            f"expected a Dask bag or a Dask DataFrame, got {type(data).__name__}"
        )
    if references is None:
        raise ConfigurationError("name the DataFrame's reference column(s) with references=")
    names = [references] if isinstance(references, str) else list(references)
    if not names:
        raise ConfigurationError("references= must name at least one column")
    absent = [name for name in [hypothesis, *names] if name not in data.columns]
    if absent:
        raise ConfigurationError(
            f"the DataFrame has no column {', '.join(map(repr, absent))}; "
            f"its columns are {', '.join(map(repr, data.columns))}"
        )
    return _FrameReader(hypothesis, tuple(names))


def _partition_name(number: int | None) -> str:
    return "a partition" if number is None else f"partition {number}"


@contextlib.contextmanager
def _in_partition(number: int | None) -> Iterator[None]:
    """Prefix the engine's input errors, which count segments within the partition."""
    try:
        yield
    except InputError as error:
        raise InputError(f"{_partition_name(number)}: {error}") from None


# -- files --------------------------------------------------------------------------------


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
    layouts = [_Layout.scan(path, lines_per_partition) for path in paths]
    for layout in layouts[1:]:
        if layout.lines != layouts[0].lines:
            raise InputError(
                f"{layout.path} has {layout.lines} lines but {layouts[0].path} has "
                f"{layouts[0].lines}: the files must be aligned line by line"
            )
    read = delayed(_read_pairs, pure=True)
    parts = [
        read(
            [(layout.path, *layout.byte_range(number)) for layout in layouts],
            first_line=1 + number * lines_per_partition,
            rstrip=rstrip,
        )
        for number in range(len(layouts[0].starts))
    ]
    return dask.bag.from_delayed(parts)


@attrs.frozen
class _Layout:
    """Where the partitions of one text file start (byte offsets), its size and its number
    of lines, found without decoding it."""

    BLOCK: ClassVar[int] = 1 << 24

    path: str
    starts: list[int]
    size: int
    lines: int

    @classmethod
    def scan(cls, path: str, every: int) -> _Layout:
        starts, newlines, offset, last = [0], 0, 0, b"\n"
        try:
            with open(path, "rb") as handle:
                while block := handle.read(cls.BLOCK):
                    ends = np.flatnonzero(np.frombuffer(block, dtype=np.uint8) == ord("\n"))
                    # The line after newline number k (counting from 1) starts a partition
                    # when k is a multiple of every.
                    first = (every - 1 - newlines) % every
                    starts.extend((offset + ends[first::every] + 1).tolist())
                    newlines, offset, last = newlines + len(ends), offset + len(block), block[-1:]
        except OSError as error:
            raise InputError(f"cannot read {path}: {error.strerror}") from None
        if starts[-1] == offset and len(starts) > 1:
            starts.pop()  # the file ends exactly at a partition boundary
        return cls(path, starts, offset, newlines + (last != b"\n"))

    def byte_range(self, number: int) -> tuple[int, int]:
        end = self.starts[number + 1] if number + 1 < len(self.starts) else self.size
        return self.starts[number], end


def _read_pairs(
    ranges: Sequence[tuple[str, int, int]], first_line: int, rstrip: bool
) -> list[tuple[str, list[str]]]:
    hypotheses, *references = (
        _read_lines(path, start, end, first_line, rstrip) for path, start, end in ranges
    )
    rows = zip(hypotheses, *references, strict=True)
    return [(hypothesis, list(refs)) for hypothesis, *refs in rows]


def _read_lines(path: str, start: int, end: int, first_line: int, rstrip: bool) -> list[str]:
    with open(path, "rb") as handle:
        handle.seek(start)
        lines = handle.read(end - start).split(b"\n")
    if lines[-1] == b"":
        lines.pop()
    decoded = []
    for number, line in enumerate(lines, start=first_line):
        try:
            decoded.append(line.decode("utf-8"))
        except UnicodeDecodeError as error:
            raise InputError(
                f"{path}:{number}: not valid UTF-8 (byte {error.start + 1} of the line)"
            ) from None
    return [line.rstrip() for line in decoded] if rstrip else decoded


def corpus_score_files(
    engine: BLEUScore,
    hypothesis_path: str | os.PathLike[str],
    reference_paths: Sequence[str | os.PathLike[str]],
    *,
    scheduler: str | distributed.Client = "local",
    lines_per_partition: int = LINES_PER_PARTITION,
    rstrip: bool = False,
    retries: int = 1,
) -> BLEUResult:
    """Corpus BLEU of aligned text files, computed on a Dask cluster and waited for: the
    result of :meth:`bleuprint.BLEUScore.corpus_score_files` on the same files.

    ``scheduler`` is a connected :class:`distributed.Client`, or what :func:`connect` takes:
    ``"local"`` or a scheduler's address. A task that raises is tried again ``retries``
    times. The files are read as :func:`read_corpus` reads them (``rstrip`` included).
    """
    pairs = read_corpus(
        hypothesis_path, reference_paths, lines_per_partition=lines_per_partition, rstrip=rstrip
    )
    lazy = corpus_score(engine, pairs)
    if isinstance(scheduler, distributed.Client):
        return scheduler.compute(lazy, retries=retries).result()
    with connect(scheduler) as client:
        return client.compute(lazy, retries=retries).result()


@contextlib.contextmanager
def connect(scheduler: str) -> Iterator[distributed.Client]:
    """A client of the scheduler at ``scheduler`` (``tcp://host:8786``), or of a new cluster
    on this machine for ``"local"``; closed (and the local cluster shut down) on leaving the
    ``with`` block. Scoring several systems in one block shares the cluster between them.

    The local cluster has one single-threaded worker process per core: counting is Python
    code that holds the interpreter lock, so threads would take turns rather than share out
    the work. Its workers keep glibc's adaptive memory allocation (see
    :func:`adaptive_malloc`).
    """
    if scheduler != "local":
        try:
            # Checked first: a Client that fails to start stalls the interpreter's exit.
            resolve_address(scheduler)
            client = distributed.Client(scheduler, set_as_default=False)
        except (OSError, ValueError) as error:  # not an address, unknown host, unreachable
            raise ConfigurationError(
                f"cannot connect to the Dask scheduler {scheduler!r}: {error}"
            ) from None
        with client:
            yield client
        return
    with adaptive_malloc():
        cluster = distributed.LocalCluster(
            n_workers=os.cpu_count() or 1,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
        )
    with cluster, distributed.Client(cluster, set_as_default=False) as client:
        yield client


_TRIM_THRESHOLD = "MALLOC_TRIM_THRESHOLD_"


@contextlib.contextmanager
def adaptive_malloc() -> Iterator[None]:
    """Worker processes started in this block keep glibc's adaptive memory allocation.

    Dask's nannies set ``MALLOC_TRIM_THRESHOLD_`` to 64 KiB in new worker processes, to hand
    freed memory back to the system sooner (and leave it set in the starting process too).
    Setting it turns off glibc's adaptive threshold for ``mmap``, so every large temporary
    array of the engine's fast path is mapped and unmapped again: counting ran about twice as
    slowly in such a worker. :func:`connect` starts its local cluster in this block; start a
    ``LocalCluster`` of your own in it the same way. On a cluster started elsewhere, put
    ``MALLOC_TRIM_THRESHOLD_: null`` under ``distributed.nanny.pre-spawn-environ`` in the
    workers' Dask configuration, and leave the variable out of their environment.
    """
    inherited = os.environ.pop(_TRIM_THRESHOLD, None)
    try:
        with dask.config.set({f"distributed.nanny.pre-spawn-environ.{_TRIM_THRESHOLD}": None}):
            yield
    finally:
        if inherited is not None:
            os.environ[_TRIM_THRESHOLD] = inherited
