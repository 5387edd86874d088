"""Aggregation: corpus scores made from the segments' own results, not only from their sums.

A corpus score is usually the score of the summed statistics. Two definitions in circulation
aggregate otherwise, and each is a smoothing part that also fits
:class:`~bleuprint.typing.Aggregation`:

- :class:`SentenceMean`: the corpus score is the mean of the sentence scores (ignite's
  ``average="macro"``), with any smoother inside;
- :class:`MinPrecisionRecall`: GLEU (Wu et al., 2016), ``matches / max(hypothesis n-grams,
  reference n-grams)`` over orders ``min_len`` to N, so the smaller of precision and recall;
  a corpus divides the summed matches by the sum of each segment's larger count.

Both sum a corpus into :class:`AggregatedStats`, which add with ``+`` like any statistics.

>>> from bleuprint import BLEUScore, ngrams, smoothing
>>> bigrams = ngrams.Contiguous(2)
>>> bleu = BLEUScore(ngrams=bigrams, smoothing=SentenceMean(smoothing.NoSmoothing()))
>>> hypotheses, references = ["a b c", "x y"], [["a b c"], ["x z"]]
>>> bleu.corpus_score(hypotheses, references).score  # (1 + 0) / 2
0.5
>>> micro = BLEUScore(ngrams=bigrams).corpus_score(hypotheses, references)
>>> round(micro.score, 4)  # sqrt(4/5 * 2/3)
0.7303
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any, cast

import attrs
import numpy as np

from bleuprint._result import BLEUResult
from bleuprint._segments import SegmentStats
from bleuprint._signature import Part
from bleuprint._stats import BLEUStats
from bleuprint._validators import fits, positive_whole
from bleuprint.exceptions import InputError, StatisticsMismatchError, counted
from bleuprint.typing import BoolArray, FloatArray, Smoother, order_problem_of

__all__ = ["UNIT", "AggregatedStats", "MinPrecisionRecall", "SentenceMean"]


UNIT = 1074
"""``aggregate`` counts in units of ``2**-1074``: every finite double is a whole number of them,
so sums of any values are exact, in any order and grouping (Dask's, a merge's)."""


def _units(value: float) -> int:
    numerator, denominator = value.as_integer_ratio()  # the denominator is a power of 2
    return numerator * ((1 << UNIT) // denominator)


@attrs.frozen
class AggregatedStats(BLEUStats):
    """Corpus statistics with ``aggregate``: the exact sum over the segments of a value of
    each (a sentence score for :class:`SentenceMean`, a GLEU denominator for
    :class:`MinPrecisionRecall`), as a whole number of units of ``2**-1074`` (:data:`UNIT`).
    Like NLTK's extra sums, it takes no part in equality.

    >>> from bleuprint import BLEUScore
    >>> stats = BLEUScore.ignite().count(["a b c d", "a b c e"], [["a b c d"], ["a b c d"]])
    >>> stats.aggregate / 2**UNIT  # 1 + 0
    1.0
    """

    aggregate: int = attrs.field(default=0, eq=False)

    def __attrs_post_init__(self) -> None:
        super().__attrs_post_init__()
        if type(self.aggregate) is not int:
            raise InputError(
                f"aggregate must be a whole number of units of 2**-{UNIT}, got {self.aggregate!r}"
            )

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> AggregatedStats:
        """Read back what :meth:`~bleuprint.BLEUStats.to_dict` wrote."""
        return cast("AggregatedStats", super().from_dict(data))

    def __add__(self, other: BLEUStats) -> AggregatedStats:
        if not isinstance(other, BLEUStats):
            return NotImplemented
        return _added(self, other)

    def __radd__(self, other: object) -> AggregatedStats:
        if other == 0:  # ``sum()`` starts from the integer 0
            return self
        if not isinstance(other, BLEUStats):
            return NotImplemented
        return _added(other, self)


def _added(first: BLEUStats, second: BLEUStats) -> AggregatedStats:
    summed = BLEUStats.__add__(first, second)
    return AggregatedStats(
        **_shared_fields(summed), aggregate=_aggregate(first) + _aggregate(second)
    )


def _value(stats: AggregatedStats) -> Fraction:
    """``aggregate`` as the number it stands for."""
    return Fraction(stats.aggregate, 1 << UNIT)


def _shared_fields(stats: BLEUStats) -> dict[str, Any]:
    return {field.name: getattr(stats, field.name) for field in attrs.fields(BLEUStats)}


def _aggregate(stats: BLEUStats) -> int:
    if isinstance(stats, AggregatedStats):
        return stats.aggregate
    if not stats.segments:
        return 0
    raise StatisticsMismatchError(
        f"these statistics of {counted(stats.segments, 'segment')} were summed without the "
        "per-segment values this definition aggregates: sum them with its engine "
        "(BLEUScore.count or .total)"
    )


def _summed(segments: SegmentStats, start: BLEUStats, values: Iterable[float]) -> AggregatedStats:
    """``segments`` added to ``start``, with ``values`` (one per segment) added exactly."""
    aggregate = sum(map(_units, values), _aggregate(start))
    return AggregatedStats(**_shared_fields(segments.total(start)), aggregate=aggregate)


@attrs.frozen
class SentenceMean(Part, family="smooth", name="sentence-mean"):
    """The corpus score is the mean of the sentence scores (``inner`` smooths each segment):
    a macro average, ignite's default. The corpus result's other numbers (precisions, brevity
    penalty) are those of the summed statistics.

    Args:
        inner: the smoother of each segment (one written for a set of statistics at a time
            goes in :class:`~bleuprint.smoothing.FromScalar`).

    Raises:
        ConfigurationError: ``inner`` is not a smoother.

    >>> from bleuprint import smoothing
    >>> from bleuprint import BLEUStats
    >>> smoothing.precisions(SentenceMean(smoothing.Exp()), BLEUStats((3, 0), (4, 3), 4, 4))
    [0.75, 0.16666666666666666]
    """

    inner: Smoother = attrs.field(validator=fits(Smoother, adapter="smoothing.FromScalar"))

    def order_problem(self, max_n: int) -> str | None:
        """Whatever the ``inner`` smoother needs of the orders."""
        return order_problem_of(self.inner, max_n)

    def precisions_array(self, stats: SegmentStats) -> tuple[FloatArray, BoolArray]:
        """The ``inner`` smoother's precisions of every row."""
        return self.inner.precisions_array(stats)

    def total(self, segments: SegmentStats, scores: FloatArray, start: BLEUStats) -> BLEUStats:
        """The sums of ``segments`` added to ``start``, with the sum of their scores."""
        return _summed(segments, start, scores.tolist())

    def corpus_result(self, result: BLEUResult) -> BLEUResult:
        """The mean of the sentence scores, where ``result`` is of a corpus."""
        stats = result.stats
        if not isinstance(stats, AggregatedStats) or not stats.segments:
            return result
        return attrs.evolve(result, score=float(_value(stats) / stats.segments))


@attrs.frozen
class MinPrecisionRecall(Part, family="smooth", name="min-precision-recall"):
    """GLEU (Wu et al., 2016): the matched n-grams of orders ``min_len`` to N over the larger
    of the hypothesis's and the reference's n-gram counts of those orders, so the smaller of
    precision and recall; 0 where neither has such an n-gram. The reference's count is that of
    contiguous n-grams of the reference length. A corpus sums each segment's matches and its
    larger count. The precisions it reports are the plain ones, order by order.

    Args:
        min_len: the lowest order counted.

    Raises:
        ConfigurationError: ``min_len`` is not a whole number of at least 1, or (when the
            engine is built) is above the highest order.

    >>> from bleuprint import BLEUStats
    >>> stats = BLEUStats((3, 1), (4, 3), 4, 6)  # the reference has 6 + 5 n-grams
    >>> MinPrecisionRecall().corpus_result_of(stats)  # 4 / 11
    0.36363636363636365
    """

    min_len: int = attrs.field(default=1, validator=positive_whole)

    def order_problem(self, max_n: int) -> str | None:
        """``min_len`` must not exceed the highest order."""
        if self.min_len > max_n:
            return f"min_len {self.min_len} is above the highest order {max_n}"
        return None

    def precisions_array(self, stats: SegmentStats) -> tuple[FloatArray, BoolArray]:
        """Every row's plain ratios, undefined for an order without n-grams."""
        counted: BoolArray = stats.totals != 0
        return stats.matches / np.where(counted, stats.totals, 1), counted

    def denominator(self, stats: BLEUStats) -> float:
        """One segment's larger n-gram count: hypothesis or reference, orders ``min_len``
        up."""
        orders = range(self.min_len, stats.max_n + 1)
        reference = sum(max(0.0, stats.reference_length - order + 1) for order in orders)
        return max(sum(stats.totals[self.min_len - 1 :]), reference)

    def total(self, segments: SegmentStats, scores: FloatArray, start: BLEUStats) -> BLEUStats:
        """The sums of ``segments`` added to ``start``, with the sum of their denominators."""
        return _summed(segments, start, [self.denominator(stats) for stats in segments])

    def corpus_result_of(self, stats: BLEUStats) -> float:
        """GLEU of ``stats``: of one segment, or of a corpus summed by :meth:`total`."""
        if isinstance(stats, AggregatedStats):
            denominator = float(_value(stats))
        elif stats.segments <= 1:
            denominator = self.denominator(stats)
        else:
            _aggregate(stats)  # raises: a plain sum has lost the per-segment denominators
        matched = math.fsum(stats.matches[self.min_len - 1 :])
        return matched / denominator if denominator else 0.0

    def corpus_result(self, result: BLEUResult) -> BLEUResult:
        """The result with GLEU as its score."""
        return attrs.evolve(result, score=self.corpus_result_of(result.stats))
