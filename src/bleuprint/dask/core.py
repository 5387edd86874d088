"""The Dask graphs: each partition counted (or scored) in one task, statistics summed in a tree.

A partition is turned into the engine's input by a reader: a bag's partition holds
``(hypothesis, references)`` pairs, a DataFrame's has a hypothesis column and reference columns.
An error in a partition names the partition (``partition 3: segment 2: no references``), the
segment being counted within it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, TypeAlias

import attrs
import dask
import dask.bag
import dask.dataframe
import pandas as pd
from dask.delayed import Delayed, delayed

from bleuprint._engine import BLEUScore
from bleuprint._stats import BLEUStats
from bleuprint.dask.sums import SPLIT_EVERY, scored, summed_in_a_tree
from bleuprint.exceptions import ConfigurationError, InputError

__all__ = [
    "Collection",
    "corpus_score",
    "corpus_stats",
    "from_pandas",
    "sentence_scores",
]

Collection: TypeAlias = "dask.bag.Bag | dask.dataframe.DataFrame"
"""A Dask bag of ``(hypothesis, references)`` pairs, or a Dask DataFrame with a hypothesis
column and one or more reference columns."""

_Segments: TypeAlias = "tuple[list[str], list[list[str]]]"
_Reader: TypeAlias = "Callable[[Any, int | None], _Segments]"
"""Turns one partition (and its number, where known) into the engine's input: the
hypotheses, and one list of references per hypothesis."""

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
    partitions = enumerate(data.to_delayed())
    counted = [count(engine, read, partition, number) for number, partition in partitions]
    return (
        summed_in_a_tree(counted, split_every)
        if counted
        else delayed(engine.empty_stats(), pure=True)
    )


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
    >>> lazy = corpus_score(BLEUScore.canonical(max_n=2),
    ...                     dask.dataframe.from_pandas(frame, npartitions=2),
    ...                     references="reference")
    >>> result = lazy.compute(scheduler="sync")
    >>> result.stats.matches, result.stats.totals  # "the cat", "a dog": 5 of 6 words, 2 of 4 pairs
    ((5, 2), (6, 4))
    """
    stats = corpus_stats(
        engine, data, hypothesis=hypothesis, references=references, split_every=split_every
    )
    return scored(engine, stats)


def _count_partition(engine: BLEUScore, read: _Reader, partition: Any, number: int) -> BLEUStats:
    hypotheses, references = read(partition, number)
    if not hypotheses:
        return engine.empty_stats()
    with _in_partition(number):
        return engine.count(hypotheses, references)


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
                f"expected a (hypothesis, references) pair, got {type(item).__name__}",
                partition=number,
                segment=position,
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
        hypotheses = self._texts(partition, self.hypothesis, number)
        columns = [self._texts(partition, name, number) for name in self.references]
        return hypotheses, [list(row) for row in zip(*columns, strict=True)]

    @staticmethod
    def _texts(frame: pd.DataFrame, column: str, number: int | None) -> list[str]:
        values: list[str] = frame[column].tolist()
        for label, value in zip(frame.index, values, strict=True):
            if not isinstance(value, str):
                problem = "is missing" if pd.isna(value) else f"is a {type(value).__name__}"
                # The row by its label: what the user sees in the DataFrame.
                raise InputError(
                    f"column {column!r}, row {label!r}: the text {problem}", partition=number
                )
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
    for name in [hypothesis, *names]:
        _check_text_dtype(name, data[name].dtype)
    return _FrameReader(hypothesis, tuple(names))


def _check_text_dtype(column: str, dtype: Any) -> None:
    """Refuse, before any task runs, a column whose type cannot hold text (numbers, booleans,
    dates): Dask would not convert them, but scoring their printed form is never meant."""
    if not (pd.api.types.is_object_dtype(dtype) or pd.api.types.is_string_dtype(dtype)):
        raise InputError(f"column {column!r} holds {dtype} values, not text")


def from_pandas(
    frame: pd.DataFrame, columns: Sequence[str], *, npartitions: int
) -> dask.dataframe.DataFrame:
    """A Dask DataFrame of ``frame`` for scoring, with every cell of ``columns`` checked to be
    a string first: Dask's own ``from_pandas`` converts object columns to strings by default,
    so a cell holding the float 3.5 would be scored as the text "3.5".

    >>> import pandas
    >>> from_pandas(pandas.DataFrame({"hypothesis": ["a b", 3.5]}), ["hypothesis"], npartitions=1)
    Traceback (most recent call last):
    ...
    bleuprint.exceptions.InputError: column 'hypothesis', row 1: the text is a float
    """
    for column in columns:
        if column not in frame.columns:
            raise ConfigurationError(f"the DataFrame has no column {column!r}")
        _FrameReader._texts(frame, column, None)
    with dask.config.set({"dataframe.convert-string": False}):
        return dask.dataframe.from_pandas(frame, npartitions=npartitions)


@contextlib.contextmanager
def _in_partition(number: int | None) -> Iterator[None]:
    """Name the partition in the engine's input errors, which count segments within it."""
    try:
        yield
    except InputError as error:
        raise error.located(partition=number) from None
