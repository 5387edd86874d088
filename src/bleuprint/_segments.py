"""Per-segment statistics and sentence scores held in arrays, one row per segment.

:class:`SegmentStats` is what :meth:`bleuprint.BLEUScore.count_segments` returns: a sequence
of :class:`~bleuprint.BLEUStats`, one per segment, stored column by column so that a million
segments cost a few arrays rather than a million objects. :class:`SentenceScores` is the same
for :meth:`bleuprint.BLEUScore.sentence_scores`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, NamedTuple, overload

import attrs
import numpy as np
import numpy.typing as npt

from bleuprint._result import BLEUResult, Signature, details_text, percentages
from bleuprint._stats import BLEUStats
from bleuprint.exceptions import StatisticsMismatchError, counted

__all__ = ["SegmentStats", "SentenceScores"]

Column = npt.NDArray[Any]
_RowFields = tuple[tuple[float, ...], tuple[float, ...], float, float, frozenset[int]]
"""A row's matches, totals, hypothesis and reference lengths, and reference counts."""
_RowValues = tuple[tuple[float, ...], float, _RowFields]
"""A sentence result's precisions, brevity penalty and counts."""
_WINDOW = 1024  # sentence results read from the arrays at once


def _fold(start: float, column: Column) -> float:
    """``start + column[0] + column[1] + ...`` added left to right, as ``sum()`` adds
    :class:`BLEUStats`: whole numbers exactly, floating-point numbers in the same order."""
    if column.dtype.kind in "iub":
        return start + int(column.sum())
    return float(np.cumsum(np.concatenate(([start], column)))[-1])


@attrs.frozen(eq=False)
class SegmentStats(Sequence[BLEUStats]):
    """The statistics of each segment of a corpus, as columns.

    Row ``i`` of ``matches`` and ``totals`` (one column per order) and entry ``i`` of the other
    arrays are segment ``i``'s :class:`~bleuprint.BLEUStats`; indexing gives it back, and
    :meth:`total` sums them exactly as ``sum()`` sums the objects.

    >>> from bleuprint import BLEUScore
    >>> segments = BLEUScore.canonical(max_n=2).count_segments(
    ...     ["the cat is here", "a dog"], [["the cat was here"], ["a dog", "one dog"]])
    >>> segments.matches.tolist(), segments.reference_counts.tolist()
    ([[3, 1], [2, 1]], [1, 2])
    >>> segments[1].totals, segments.total().matches
    ((2, 1), (5, 2))
    """

    matches: Column
    totals: Column
    hypothesis_lengths: Column
    reference_lengths: Column
    reference_counts: Column
    counting: str = ""

    @property
    def max_n(self) -> int:
        """The number of n-gram orders counted."""
        return int(self.totals.shape[1])

    @classmethod
    def from_stats(cls, segments: Sequence[BLEUStats], max_n: int, counting: str) -> SegmentStats:
        """Columns from one :class:`BLEUStats` per segment (as the simple path counts them)."""
        return cls(
            np.array([stats.matches for stats in segments]).reshape(len(segments), max_n),
            np.array([stats.totals for stats in segments]).reshape(len(segments), max_n),
            np.array([stats.hypothesis_length for stats in segments]),
            np.array([stats.reference_length for stats in segments]),
            np.array([next(iter(stats.reference_counts)) for stats in segments], dtype=np.int64),
            counting,
        )

    @classmethod
    def of(cls, stats: BLEUStats) -> SegmentStats:
        """One row of ``stats`` (a segment's or a corpus's), to score as any row is scored;
        ``[0]`` gives ``stats`` back, subclass and all. Counts too large for 64-bit integers
        become floats.

        >>> row = SegmentStats.of(BLEUStats((5, 2), (6, 4), 6, 7, segments=2))
        >>> row.matches.tolist(), row[0].segments
        ([[5, 2]], 2)
        """

        counts = _numeric((stats.matches, stats.totals)).reshape(2, stats.max_n)
        return _Row(
            counts[:1],
            counts[1:],
            _numeric((stats.hypothesis_length,)),
            _numeric((stats.reference_length,)),
            np.array([min(stats.reference_counts, default=0)], np.int64),
            stats.counting,
            stats=stats,
        )

    @classmethod
    def concatenate(cls, parts: Iterable[SegmentStats]) -> SegmentStats:
        """The segments of several batches, one batch after the other (one batch is itself)."""
        parts = list(parts)
        if len(parts) == 1:
            return parts[0]
        return cls(*_joined(parts, _COLUMNS), counting=parts[0].counting)  # type: ignore[misc]

    def __len__(self) -> int:
        return len(self.hypothesis_lengths)

    @overload
    def __getitem__(self, index: int) -> BLEUStats: ...

    @overload
    def __getitem__(self, index: slice) -> SegmentStats: ...

    def __getitem__(self, index: int | slice) -> BLEUStats | SegmentStats:
        if isinstance(index, slice):
            rows = (getattr(self, name)[index] for name in _COLUMNS)
            return SegmentStats(*rows, counting=self.counting)  # type: ignore[misc]
        index = range(len(self))[index]  # negative indices, and IndexError past the end
        ((matches, totals, hypothesis_length, reference_length, reference_counts),) = (
            self._fields_of_rows(index, index + 1)
        )
        return BLEUStats(
            matches,
            totals,
            hypothesis_length,
            reference_length,
            segments=1,
            reference_counts=reference_counts,
            counting=self.counting,
        )

    def _fields_of_rows(self, start: int, end: int) -> list[_RowFields]:
        """The fields of rows ``start`` to ``end`` as their :class:`~bleuprint.BLEUStats` hold
        them (matches, totals, the two lengths, the reference counts), read from the columns
        at once (reading an array's items one by one costs more than using them), unchecked:
        ``self[index]`` checks them as it builds the statistics, which a loop over many rows
        may not need."""
        columns = (getattr(self, name)[start:end].tolist() for name in _COLUMNS)
        matches, totals, hypothesis_lengths, reference_lengths, reference_counts = columns
        return [
            (tuple(matched), tuple(total), hypothesis, reference, frozenset({int(count)}))
            for matched, total, hypothesis, reference, count in zip(
                matches, totals, hypothesis_lengths, reference_lengths, reference_counts
            )
        ]

    def take(self, indices: npt.ArrayLike) -> SegmentStats:
        """The segments at ``indices`` (any integer array; repeats allowed), in that order.

        >>> from bleuprint import BLEUScore
        >>> segments = BLEUScore.canonical(max_n=1).count_segments(["a", "a b"], [["a"], ["b"]])
        >>> segments.take([1, 1, 0]).matches.tolist()
        [[1], [1], [1]]
        """
        rows = np.asarray(indices, dtype=np.intp)
        return SegmentStats(
            *(getattr(self, name)[rows] for name in _COLUMNS), counting=self.counting
        )  # type: ignore[misc]

    def total(self, start: BLEUStats | None = None) -> BLEUStats:
        """All segments summed (onto ``start``, by default empty statistics): exactly
        ``sum(self, start)``, without making one object per segment."""
        if start is None:
            start = BLEUStats.empty(self.max_n, self.counting)
        if start.counting != self.counting or start.max_n != self.max_n:
            raise StatisticsMismatchError(
                "cannot add statistics from different counting configurations: "
                f"{start.counting or '?'} with {counted(start.max_n, 'order')} and "
                f"{self.counting or '?'} with {counted(self.max_n, 'order')}"
            )
        return BLEUStats(
            list(map(_fold, start.matches, self.matches.T)),
            list(map(_fold, start.totals, self.totals.T)),
            _fold(start.hypothesis_length, self.hypothesis_lengths),
            _fold(start.reference_length, self.reference_lengths),
            segments=start.segments + len(self),
            reference_counts=start.reference_counts | set(self.reference_counts.tolist()),
            counting=self.counting,
        )


@attrs.frozen(eq=False)
class _Row(SegmentStats):
    """The one row of :meth:`SegmentStats.of`: ``[0]`` gives back the statistics it was made
    of, whole (a corpus's sums, say, or a subclass's extras such as NLTK's)."""

    stats: BLEUStats = attrs.field(kw_only=True, repr=False)

    @overload
    def __getitem__(self, index: int) -> BLEUStats: ...

    @overload
    def __getitem__(self, index: slice) -> SegmentStats: ...

    def __getitem__(self, index: int | slice) -> BLEUStats | SegmentStats:
        if isinstance(index, slice):
            return super().__getitem__(index)
        range(1)[index]  # IndexError past the one row
        return self.stats

    def _fields_of_rows(self, start: int, end: int) -> list[_RowFields]:
        stats = self.stats
        row = (
            stats.matches,
            stats.totals,
            stats.hypothesis_length,
            stats.reference_length,
            stats.reference_counts,
        )
        return [row][start:end]


def _numeric(values: object) -> Column:
    """An array of ``values``; integers too large for 64 bits become floats."""
    array = np.array(values)
    return array.astype(np.float64) if array.dtype == object else array


_COLUMNS = ("matches", "totals", "hypothesis_lengths", "reference_lengths", "reference_counts")
_SCORES = ("scores", "precisions", "brevity_penalties")


def _joined(
    parts: Sequence[SegmentStats] | Sequence[SentenceScores], names: Sequence[str]
) -> list[Any]:
    """Each named column of the parts, one part's rows after the other's."""
    return [np.concatenate([getattr(part, name) for part in parts]) for name in names]


@attrs.frozen(eq=False)
class SentenceScores(Sequence[BLEUResult]):
    """The sentence-level result of every segment, as arrays (``scores``: read it for the
    numbers); indexing or a loop gives each segment's :class:`~bleuprint.BLEUResult`, whose
    fields are read from the arrays when asked for, so a loop costs little.

    >>> from bleuprint import BLEUScore
    >>> results = BLEUScore.canonical(max_n=2).sentence_scores(
    ...     ["the cat is here", "a dog"], [["the cat was here"], ["a dog"]])
    >>> results.scores.round(4).tolist()
    [0.5, 1.0]
    >>> print(results[0])
    BLEU = 50.00 75.0/33.3 (BP = 1.000 ratio = 1.000 hyp_len = 4 ref_len = 4)
    """

    scores: Column
    """The score of each segment, in [0, 1]."""
    precisions: Column
    """Each segment's precision per order (0 where undefined), one column per order."""
    brevity_penalties: Column
    stats: SegmentStats
    signature_of: Callable[[BLEUStats], Signature]

    @classmethod
    def concatenate(cls, parts: Iterable[SentenceScores]) -> SentenceScores:
        """The results of several batches, one batch after the other (one batch is itself)."""
        parts = list(parts)
        if len(parts) == 1:
            return parts[0]
        scores, precisions, penalties = _joined(parts, _SCORES)
        stats = SegmentStats.concatenate(part.stats for part in parts)
        return cls(scores, precisions, penalties, stats, parts[0].signature_of)

    def __len__(self) -> int:
        return len(self.scores)

    @overload
    def __getitem__(self, index: int) -> BLEUResult: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[BLEUResult]: ...

    def __getitem__(self, index: int | slice) -> BLEUResult | Sequence[BLEUResult]:
        if isinstance(index, slice):
            return list(map(self._row, range(len(self))[index]))
        return self._row(range(len(self))[index])  # (negative indices; IndexError past the end)

    def __iter__(self) -> Iterator[BLEUResult]:
        return map(self._row, range(len(self)))

    def _row(self, index: int) -> BLEUResult:
        row = object.__new__(_SentenceResult)
        _ROWS_OF(row, self)
        _INDEX_OF(row, index)
        return row

    def _values_of(self, index: int) -> _RowValues:
        """Row ``index``'s precisions, brevity penalty and counts, read from the arrays with
        the rows around it (:data:`_WINDOW`): a loop reads each array once a window."""
        start = index - index % _WINDOW
        window = self._window[0]  # (one read: another thread may put a new window meanwhile)
        if window[0] != start:
            end = min(start + _WINDOW, len(self))
            rows = zip(
                map(tuple, self.precisions[start:end].tolist()),
                self.brevity_penalties[start:end].tolist(),
                self.stats._fields_of_rows(start, end),
            )
            window = (start, list(rows))
            self._window[0] = window
        return window[1][index - start]

    @functools.cached_property
    def _window(self) -> list[tuple[int, list[_RowValues]]]:
        """The rows last read (:meth:`_values_of`), from which row, in a list of one."""
        return [(-1, [])]

    def _signature(self, index: int, reference_counts: frozenset[int]) -> Signature:
        """Row ``index``'s signature, whose ``reference_counts`` are the row's: the
        configuration's with those counts, so one object for each set of counts seen (a
        signature is built and checked field by field)."""
        signatures = self._signatures
        if reference_counts not in signatures:
            signatures[reference_counts] = self.signature_of(self.stats[index])
        return signatures[reference_counts]

    @functools.cached_property
    def _signatures(self) -> dict[frozenset[int], Signature]:
        return {}


class _SentenceResult(BLEUResult):
    """Segment ``index``'s :class:`~bleuprint.BLEUResult` in a :class:`SentenceScores`, its
    fields read from the columns when asked for (the statistics once): a loop over a corpus's
    results makes one small object per segment, not statistics and a signature each. It
    compares, prints, copies and pickles as the plain result it stands for."""

    __slots__ = ("_index", "_rows", "_stats", "_values")
    _rows: SentenceScores
    _index: int
    _stats: BLEUStats
    _values: _RowValues

    def __new__(cls, *args: Any, **fields: Any) -> Any:
        # attrs.evolve(row, ...) calls the row's class with every field: a plain result.
        return BLEUResult(*args, **fields)

    @property
    def score(self) -> float:
        # (read alone: a loop that reads only the scores reads nothing else)
        return float(self._rows.scores[self._index])

    @property
    def precisions(self) -> tuple[float, ...]:
        return self._row_values[0]

    @property
    def brevity_penalty(self) -> float:
        return self._row_values[1]

    @property
    def stats(self) -> BLEUStats:
        try:
            return self._stats
        except AttributeError:
            stats = self._rows.stats[self._index]
            _STATS_OF(self, stats)
            return stats

    @property
    def matches(self) -> tuple[float, ...]:
        return self._row_fields[0]

    @property
    def totals(self) -> tuple[float, ...]:
        return self._row_fields[1]

    @property
    def hypothesis_length(self) -> float:
        return self._row_fields[2]

    @property
    def reference_length(self) -> float:
        return self._row_fields[3]

    @property
    def _row_fields(self) -> _RowFields:
        return self._row_values[2]

    @property
    def _row_values(self) -> _RowValues:
        """The row's values, read once, its counts without the checks of building its
        statistics."""
        try:
            return self._values
        except AttributeError:
            values = self._rows._values_of(self._index)
            _VALUES_OF(self, values)
            return values

    @property
    def signature(self) -> Signature:
        return self._rows._signature(self._index, self._row_fields[4])

    def _plain(self) -> BLEUResult:
        """The plain :class:`~bleuprint.BLEUResult` this row stands for."""
        return BLEUResult(*self._fields())

    def _fields(self) -> tuple[Any, ...]:
        return self.score, self.precisions, self.brevity_penalty, self.stats, self.signature

    def __eq__(self, other: object) -> bool:
        return self._plain() == other if isinstance(other, BLEUResult) else NotImplemented

    __hash__ = BLEUResult.__hash__

    def __repr__(self) -> str:
        return repr(self._plain())

    def __reduce__(self) -> tuple[Any, ...]:
        return BLEUResult, self._fields()


# The rows' slots, set without the frozen class's __setattr__ (as attrs sets its own).
_ROWS_OF = _SentenceResult.__dict__["_rows"].__set__
_INDEX_OF = _SentenceResult.__dict__["_index"].__set__
_STATS_OF = _SentenceResult.__dict__["_stats"].__set__
_VALUES_OF = _SentenceResult.__dict__["_values"].__set__


class SegmentDetails(NamedTuple):
    """One segment's numbers as its :class:`~bleuprint.BLEUResult` gives them (``precisions``
    as fractions, ``percentages`` as its line prints them), and its number of references."""

    score: float
    precisions: list[float]
    percentages: list[float]
    brevity_penalty: float
    ratio: float
    hypothesis_length: float
    reference_length: float
    matches: list[float]
    totals: list[float]
    references: int

    def format_details(self) -> str:
        """What follows the score in the segment's line: its result's
        :meth:`~bleuprint.BLEUResult.format_details`."""
        return details_text(
            self.percentages,
            self.brevity_penalty,
            self.ratio,
            self.hypothesis_length,
            self.reference_length,
        )


def segment_details(scores: SentenceScores) -> list[SegmentDetails]:
    """Each segment's numbers, read from the columns at once (the precisions as percentages
    too): what a command writes for each segment, without a result object each, which would
    take most of the time of writing them.

    >>> from bleuprint import BLEUScore
    >>> scores = BLEUScore.canonical(max_n=2).sentence_scores(["a b c"], [["a b d"]])
    >>> details = segment_details(scores)[0]
    >>> details.percentages, details.format_details() == scores[0].format_details()
    ([66.66666666666667, 50.0], True)
    """
    stats = scores.stats
    hypothesis, reference = stats.hypothesis_lengths, stats.reference_lengths
    # (the division of the result's ratio, on the same floats; 0 where the reference length is)
    ratios = np.divide(hypothesis, reference, out=np.zeros(len(scores)), where=reference != 0)
    columns = zip(
        scores.scores.tolist(),
        scores.precisions.tolist(),
        percentages(scores.precisions, stats.totals),
        scores.brevity_penalties.tolist(),
        ratios.tolist(),
        hypothesis.tolist(),
        reference.tolist(),
        stats.matches.tolist(),
        stats.totals.tolist(),
        stats.reference_counts.tolist(),
    )
    return list(map(SegmentDetails._make, columns))
