"""NLTK 3.10.4's ``sentence_bleu`` and ``corpus_bleu``, quirks included.

The preset :meth:`BLEUScore.nltk <bleuprint.BLEUScore.nltk>` is built from :func:`parts`. Its
quirks are the parts of this module, each documented where it is defined:

- :class:`NLTKMethod0` .. :class:`NLTKMethod7`, ``SmoothingFunction().method0`` ..
  ``method7`` (Chen & Cherry, 2014, as NLTK computes them);
- :class:`NLTKWeights`: weights taken as given, orders with a non-positive smoothed precision
  left out of the mean, ``auto_reweigh``;
- :class:`NLTKExponential`: the brevity penalty of an empty hypothesis is 0;
- :class:`NLTKStats`: NLTK's corpus sums, which read more than the sums of the counts.

>>> from bleuprint import BLEUScore
>>> hypothesis = "the cat sat in the mat".split()
>>> reference = "the cat sat on the mat".split()
>>> import warnings
>>> with warnings.catch_warnings(record=True) as caught:  # NLTK's warning, and its number
...     warnings.simplefilter("always")
...     BLEUScore.nltk().compute(hypothesis, [reference])
7.262123179505913e-78
>>> [warning.category.__name__ for warning in caught]
['ZeroOverlapWarning']
>>> round(BLEUScore.nltk(method=1).compute(hypothesis, [reference]), 6)
0.254066
"""

from __future__ import annotations

import functools
import math
import operator
import sys
import warnings
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

import attrs
import numpy as np
import regex

from bleuprint import brevity, ngrams, tokenizers
from bleuprint._engine import BLEUScore
from bleuprint._exact import exactly
from bleuprint._segments import SegmentStats
from bleuprint._signature import Part
from bleuprint._stats import BLEUStats
from bleuprint._validators import (
    as_tuple,
    between,
    boolean,
    bounded_sum,
    finite_numbers,
    float_tuple,
    ngram_order,
    non_negative,
    not_all_zero,
    positive,
)
from bleuprint.compat._chrf import ChrF, ChrFSegments, ChrFStats, Definition
from bleuprint.compat._nist import NISTResult, information_weights, length_penalty
from bleuprint.exceptions import (
    ConfigurationError,
    InputError,
    StatisticsMismatchError,
    counted,
    user_stacklevel,
)
from bleuprint.presets import Preset
from bleuprint.typing import BoolArray, FloatArray, IntArray, Ngram, Smoother

__all__ = [
    "NLTKNIST",
    "NLTK_METHODS",
    "PRESET",
    "PRESETS",
    "NLTKChars",
    "NLTKChrF",
    "NLTKChrFStats",
    "NLTKExponential",
    "NLTKMethod0",
    "NLTKMethod1",
    "NLTKMethod2",
    "NLTKMethod3",
    "NLTKMethod4",
    "NLTKMethod5",
    "NLTKMethod6",
    "NLTKMethod7",
    "NLTKStats",
    "NLTKWeights",
    "ZeroOverlapWarning",
    "chrf",
    "nist",
    "nltk_fractions",
    "nltk_method",
    "parts",
]


def parts(
    weights: Sequence[float] = (0.25, 0.25, 0.25, 0.25),
    method: int | str = 0,
    *,
    auto_reweigh: bool = False,
    epsilon: float = 0.1,
    alpha: float = 5,
    k: float = 5,
) -> dict[str, Any]:
    """The parts that compute NLTK's BLEU with these arguments (NLTK's names and defaults).

    ``weights`` and ``auto_reweigh`` are NLTK's; ``method=n`` with ``epsilon``, ``alpha`` and
    ``k`` stands for ``smoothing_function=SmoothingFunction(epsilon, alpha, k).method<n>``
    (``method=0``, no smoothing, is NLTK's default). Give token lists, as to NLTK; text is split
    on whitespace (NLTK would read a string as characters: ``tokenizer=tokenizers.Codepoints()``
    does that).

    >>> sorted(parts(method=1))
    ['brevity_penalty', 'ngrams', 'smoothing', 'weights']
    """
    orders = len(weights)
    smoother = nltk_method(method, epsilon=epsilon, alpha=alpha, k=k, orders=orders)
    reads_fifth_order = isinstance(smoother, (NLTKMethod5, NLTKMethod7))
    return {
        "ngrams": ngrams.Contiguous(max(orders, 5) if reads_fifth_order else orders),
        "brevity_penalty": NLTKExponential(),
        "smoothing": smoother,
        "weights": NLTKWeights(tuple(weights), auto_reweigh),
    }


# -- NLTK's corpus sums ------------------------------------------------------------------


@attrs.frozen
class NLTKStats(BLEUStats):
    """Corpus statistics as NLTK's ``corpus_bleu`` reads them: the sums, plus

    - ``empty_orders``: per order, the segments whose hypothesis has no n-gram of it (NLTK
      counts each such segment 1 in that order's denominator);
    - ``last``: the statistics of the final segment (NLTK's methods 5 to 7 read it at corpus
      level, through a variable left over from its loop).

    The NLTK smoothers sum a corpus into these (``BLEUScore.nltk().count(...)`` gives them);
    they add with ``+`` like any statistics. Neither extra field takes part in equality.

    >>> from bleuprint import BLEUScore
    >>> bleu = BLEUScore.nltk()
    >>> stats = bleu.count([["a", "b"], ["a"]], [[["a", "b"]], [["a"]]])
    >>> stats.totals, stats.empty_orders, stats.last.totals
    ((3, 1, 0, 0), (0, 1, 2, 2), (1, 0, 0, 0))
    """

    empty_orders: tuple[int, ...] = attrs.field(default=(), eq=False)
    last: BLEUStats | None = attrs.field(default=None, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        super().__attrs_post_init__()
        if len(self.empty_orders) != self.max_n:
            raise InputError(
                f"empty_orders has {counted(len(self.empty_orders), 'order')} but totals has "
                f"{self.max_n}"
            )

    @classmethod
    def from_dict(cls, data: Any) -> NLTKStats:
        """Read back what :meth:`~bleuprint.BLEUStats.to_dict` wrote (``last`` included)."""
        if not isinstance(data, Mapping):
            raise InputError(f"statistics must be a dictionary, got {type(data).__name__}")
        values = dict(data)
        values["empty_orders"] = tuple(values.get("empty_orders", ()))
        if values.get("last") is not None:
            values["last"] = BLEUStats.from_dict(values["last"])
        return cast("NLTKStats", super().from_dict(values))

    def __add__(self, other: BLEUStats) -> NLTKStats:
        if not isinstance(other, BLEUStats):
            return NotImplemented
        return _added(self, other)

    def __radd__(self, other: object) -> NLTKStats:
        if other == 0:  # ``sum()`` starts from the integer 0
            return self
        if not isinstance(other, BLEUStats):
            return NotImplemented
        return _added(other, self)


def _added(first: BLEUStats, second: BLEUStats) -> NLTKStats:
    """``first + second``, keeping what NLTK reads besides the sums."""
    summed = BLEUStats.__add__(first, second)
    return NLTKStats(
        **_shared_fields(summed),
        empty_orders=tuple(a + b for a, b in zip(_empty_orders(first), _empty_orders(second))),
        last=_last_or_none(second) if second.segments else _last_or_none(first),
    )


def _shared_fields(stats: BLEUStats) -> dict[str, Any]:
    return {field.name: getattr(stats, field.name) for field in attrs.fields(BLEUStats)}


def _empty_orders(stats: BLEUStats) -> tuple[int, ...]:
    """Per order, the segments of ``stats`` without an n-gram of it: recorded by NLTK's sums,
    evident for one segment or none, unknowable for other sums."""
    if isinstance(stats, NLTKStats):
        return stats.empty_orders
    if stats.segments <= 1:
        return tuple(int(stats.segments == 1 and total == 0) for total in stats.totals)
    raise StatisticsMismatchError(
        "NLTK counts each segment without n-grams of an order as 1 in its denominator, and "
        f"these statistics of {stats.segments} segments were summed without recording that: "
        "sum them with the nltk preset (BLEUScore.nltk(...).count or .total)"
    )


def _last_or_none(stats: BLEUStats) -> BLEUStats | None:
    if isinstance(stats, NLTKStats):
        return stats.last
    return stats if stats.segments == 1 else None


# -- weights and brevity penalty ---------------------------------------------------------

_NLTK_DEFAULT = (0.25, 0.25, 0.25, 0.25)


@attrs.frozen
class NLTKWeights(Part, family="weights", name="nltk"):
    """NLTK 3.10.4's weights, quirks included (for :meth:`bleuprint.BLEUScore.nltk`).

    - Weights are taken as given, negative ones too (then BLEU can exceed 1).
    - An order whose smoothed precision is not positive (the smoother reports it undefined) is
      left out of the geometric mean, without re-weighting the others.
    - ``auto_reweigh=True`` replaces exactly the default ``(0.25, 0.25, 0.25, 0.25)``, and only
      it, by ``1/L`` for each of the first ``L`` orders when the corpus hypothesis length ``L``
      is below 4. (NLTK compares with a tuple, so weights it was given as a list never
      re-weigh: give ``auto_reweigh=False`` for those.)

    >>> from bleuprint import weights
    >>> from bleuprint import BLEUStats
    >>> stats = BLEUStats((2, 1, 0, 0), (2, 1, 0, 0), 2, 4)
    >>> weights.order_weights(NLTKWeights(auto_reweigh=True), stats, [1.0, 1.0, 0.1, 0.1])
    [0.5, 0.5, 0.0, 0.0]
    >>> weights.order_weights(NLTKWeights((1.0, -1.0)), stats, [0.5, None])
    [1.0, 0.0]
    """

    values: tuple[float, ...] = attrs.field(
        default=_NLTK_DEFAULT,
        converter=float_tuple,
        validator=[finite_numbers, not_all_zero, bounded_sum],
    )
    auto_reweigh: bool = attrs.field(default=False, validator=boolean)

    def order_problem(self, max_n: int) -> str | None:
        """More weights than orders (NLTK counts one order per weight), else ``None``."""
        if len(self.values) > max_n:
            return (
                f"{counted(len(self.values), 'weight')} given, more than the "
                f"{counted(max_n, 'order')} scored"
            )
        return None

    def weights_array(
        self, stats: SegmentStats, precisions: FloatArray, defined: BoolArray
    ) -> FloatArray:
        """Every row's weights (0 where the precision is undefined)."""
        width = precisions.shape[1]
        fitted = np.array([*self.values[:width], *[0.0] * (width - len(self.values))])
        weights = np.broadcast_to(fitted, precisions.shape).copy()
        if self.auto_reweigh and self.values == _NLTK_DEFAULT:
            lengths = np.trunc(stats.hypothesis_lengths).astype(np.float64)
            short = (lengths > 0) & (lengths < 4)
            orders = np.arange(width)
            reweighed = np.where(orders < lengths[short, None], 1 / lengths[short, None], 0.0)
            weights[short] = reweighed
        return np.where(defined, weights, 0.0)


@attrs.frozen
class NLTKExponential(Part, family="bp", name="nltk-exp"):
    """NLTK's ``brevity_penalty`` (distancia's too): the exponential penalty, except that an
    empty hypothesis gets 0 even against an empty reference.

    >>> brevity.penalty(NLTKExponential(), 0, 0), brevity.penalty(brevity.Exponential(), 0, 0)
    (0.0, 1.0)
    """

    def penalty_array(
        self, hypothesis_lengths: FloatArray, reference_lengths: FloatArray
    ) -> FloatArray:
        """The penalty of each pair of lengths."""
        penalties = brevity.Exponential().penalty_array(hypothesis_lengths, reference_lengths)
        return np.where(hypothesis_lengths <= 0, 0.0, penalties)


# -- NLTK 3.10.4's SmoothingFunction: Chen & Cherry (2014) as NLTK computes them --------
#
# Shared by all eight methods, as in NLTK:
# - a segment with no n-gram of an order counts 1 in that order's denominator;
# - no unigram match at all gives 0 for every order, before any smoothing;
# - an order whose smoothed precision is not positive is reported undefined (None): NLTK
#   leaves it out of the geometric mean (see :class:`NLTKWeights`).


def nltk_fractions(stats: BLEUStats) -> list[tuple[float, float]]:
    """NLTK's modified precisions as ``(numerator, denominator)`` pairs, order by order.

    The numerator is the clipped matches; the denominator the hypothesis n-grams, where each
    segment without any n-gram of the order counts 1 (NLTK floors every sentence's
    denominator at 1).

    >>> from bleuprint import BLEUScore
    >>> stats = BLEUScore.canonical().count([["the", "cat"]], [[["the", "cat", "sat"]]])
    >>> nltk_fractions(stats)
    [(2, 2), (1, 1), (0, 1), (0, 1)]
    """
    fractions = _Fractions.of(SegmentStats.of(stats), stats.max_n)
    return list(zip(fractions.numerators[0].tolist(), fractions.denominators[0].tolist()))


@attrs.frozen
class _Fractions:
    """What NLTK's methods read of rows of statistics: per row and order scored, the modified
    precision's numerator and denominator (see :func:`nltk_fractions`); each row's hypothesis
    length; the rows NLTK smooths (those with a unigram match); and the statistics of each row's
    last segment (``None`` where they were not recorded)."""

    numerators: FloatArray
    denominators: FloatArray
    lengths: FloatArray
    smoothed: BoolArray
    last: SegmentStats | None

    @classmethod
    def of(cls, stats: SegmentStats, orders: int) -> _Fractions:
        last: SegmentStats | None = stats
        if len(stats) != 1:  # rows of single segments: each its own last segment
            empty = (stats.totals == 0).astype(np.int64)
        else:  # one row: a segment's statistics, or a corpus's sums (NLTKStats, with extras)
            whole = stats[0]
            empty = np.array([_empty_orders(whole)], np.int64)
            last_stats = _last_or_none(whole)
            last = None if last_stats is None else SegmentStats.of(last_stats)
        numerators = stats.matches[:, :orders]
        return cls(
            numerators,
            (stats.totals + empty)[:, :orders],
            stats.hypothesis_lengths.astype(np.float64),
            numerators[:, 0] != 0,
            last,
        )

    def last_segment(self, method: str) -> SegmentStats:
        if self.last is None:
            raise InputError(
                f"NLTK's {method} reads the statistics of the last segment, and these "
                "statistics do not record it (count them with BLEUScore.nltk(...).count)"
            )
        return self.last


class _NLTKMethod:
    """The steps every NLTK method shares, around the method's own ``_smooth``; and how
    NLTK sums a corpus (see :class:`NLTKStats`)."""

    __slots__ = ()

    def total(self, segments: SegmentStats, start: BLEUStats) -> NLTKStats:
        """The corpus statistics of ``segments`` added to ``start``, with what NLTK reads
        besides the sums."""
        summed = segments.total(start)
        empty = (segments.totals == 0).sum(axis=0).tolist()
        return NLTKStats(
            **_shared_fields(summed),
            empty_orders=tuple(a + b for a, b in zip(_empty_orders(start), empty)),
            last=segments[-1] if len(segments) else _last_or_none(start),
        )

    def precisions_array(self, stats: SegmentStats) -> tuple[FloatArray, BoolArray]:
        """Every row's precisions: 0 in every order of a row without a unigram match, else
        the method's, undefined where not positive (NLTK leaves those out of the mean)."""
        fractions = _Fractions.of(stats, self._orders(stats.max_n))
        with np.errstate(divide="ignore", invalid="ignore"):  # rows that are not smoothed
            smoothed = self._smooth(fractions)
        unmatched = ~fractions.smoothed[:, None]
        return np.where(unmatched, 0.0, smoothed), unmatched | (smoothed > 0)

    def _orders(self, max_n: int) -> int:
        return max_n

    def _smooth(self, fractions: _Fractions) -> FloatArray:
        raise NotImplementedError


def _ratios(fractions: _Fractions) -> FloatArray:
    ratios: FloatArray = fractions.numerators / fractions.denominators
    return ratios


class ZeroOverlapWarning(UserWarning):
    """NLTK's warning of an order without a match, with NLTK's message: a
    :class:`UserWarning`, as NLTK's, of its own class so that it can be filtered alone."""


@attrs.frozen
class NLTKMethod0(_NLTKMethod, Part, family="smooth", name="nltk-method0"):
    """NLTK's ``method0``, no smoothing. Quirk: a zero precision becomes the smallest positive
    float (``sys.float_info.min``), so BLEU is a tiny positive number, not 0. As NLTK, it warns
    (:class:`ZeroOverlapWarning`, a :class:`UserWarning`) of each order without a match.

    >>> import warnings
    >>> from bleuprint import smoothing
    >>> from bleuprint import BLEUStats
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore", ZeroOverlapWarning)
    ...     smoothing.precisions(NLTKMethod0(), BLEUStats((3, 0), (4, 3), 4, 4))
    [0.75, 2.2250738585072014e-308]
    """

    def _smooth(self, fractions: _Fractions) -> FloatArray:
        unmatched = fractions.numerators == 0
        for order in np.flatnonzero(unmatched[fractions.smoothed].any(axis=0)).tolist():
            warnings.warn(
                _zero_overlaps(order + 1), ZeroOverlapWarning, stacklevel=user_stacklevel()
            )
        return np.where(unmatched, sys.float_info.min, _ratios(fractions))


def _zero_overlaps(order: int) -> str:
    """NLTK's warning, word for word."""
    return (
        f"\nThe hypothesis contains 0 counts of {order}-gram overlaps.\n"
        "Therefore the BLEU score evaluates to 0, independently of\n"
        "how many N-gram overlaps of lower order it contains.\n"
        "Consider using lower n-gram order or use SmoothingFunction()"
    )


@attrs.frozen
class NLTKMethod1(_NLTKMethod, Part, family="smooth", name="nltk-method1"):
    """NLTK's ``method1``: a zero numerator becomes ``epsilon``.

    >>> from bleuprint import smoothing
    >>> from bleuprint import BLEUStats
    >>> smoothing.precisions(NLTKMethod1(), BLEUStats((3, 0), (4, 2), 4, 4))
    [0.75, 0.05]
    """

    epsilon: float = attrs.field(
        default=0.1,
        validator=between(
            0, 1, above="above 1 an unmatched order's precision exceeds 1, and so can BLEU"
        ),
    )

    def _smooth(self, fractions: _Fractions) -> FloatArray:
        numerators = np.where(fractions.numerators != 0, fractions.numerators, self.epsilon)
        smoothed: FloatArray = numerators / fractions.denominators
        return smoothed


@attrs.frozen
class NLTKMethod2(_NLTKMethod, Part, family="smooth", name="nltk-method2"):
    """NLTK's ``method2`` (Lin & Och 2004): one is added to the numerator and denominator of
    every order from 2 up, matched or not.

    >>> from bleuprint import smoothing
    >>> from bleuprint import BLEUStats
    >>> smoothing.precisions(NLTKMethod2(), BLEUStats((3, 1), (4, 3), 4, 4))
    [0.75, 0.5]
    """

    def _smooth(self, fractions: _Fractions) -> FloatArray:
        added = (fractions.numerators + 1) / (fractions.denominators + 1)
        added[:, 0] = _ratios(fractions)[:, 0]
        return added


def _powers(unmatched: BoolArray) -> FloatArray:
    """``2^k`` at the k-th unmatched order of each row (exactly, as NLTK's integer power)."""
    powers: FloatArray = np.ldexp(1.0, np.cumsum(unmatched, axis=1))
    return powers


@attrs.frozen
class NLTKMethod3(_NLTKMethod, Part, family="smooth", name="nltk-method3"):
    """NLTK's ``method3`` (NIST geometric sequence): the k-th unmatched order gets
    ``1 / (2^k * denominator)``.

    >>> from bleuprint import smoothing
    >>> from bleuprint import BLEUStats
    >>> smoothing.precisions(NLTKMethod3(), BLEUStats((3, 0, 0), (4, 3, 2), 4, 4))
    [0.75, 0.16666666666666666, 0.125]
    """

    def _smooth(self, fractions: _Fractions) -> FloatArray:
        unmatched = fractions.numerators == 0
        halves = 1 / (_powers(unmatched) * fractions.denominators)
        return np.where(unmatched, halves, _ratios(fractions))


def _method4(fractions: _Fractions, k: float) -> FloatArray:
    """The i-th unmatched order gets ``ln(L) / (2^i * k) / denominator`` for a (corpus)
    hypothesis length ``L`` above 1; with ``L <= 1`` unmatched orders stay 0."""
    long = fractions.lengths > 1
    logs = exactly(math.log, np.where(long, fractions.lengths, 2.0))
    unmatched = (fractions.numerators == 0) & long[:, None]
    # NLTK's operations, in its order
    halves = 1 / (_powers(unmatched) * k / logs[:, None]) / fractions.denominators
    return np.where(unmatched, halves, _ratios(fractions))


def _method5(values: FloatArray, following: FloatArray) -> FloatArray:
    """Each order becomes the mean of the previous order's smoothed value (``p1 + 1`` before
    the first), its own value and the next order's value (``following`` after the last)."""
    smoothed = np.empty_like(values)
    previous = values[:, 0] + 1
    nexts = np.column_stack([values[:, 1:], following])
    for order in range(values.shape[1]):
        previous = (previous + values[:, order] + nexts[:, order]) / 3
        smoothed[:, order] = previous
    return smoothed


def _fifth_order_of_last_segment(fractions: _Fractions, method: str) -> FloatArray:
    """NLTK's methods 5 and 7 always read the 5-gram precision of the last segment."""
    last = fractions.last_segment(method)
    if last.max_n < 5:
        raise InputError(
            f"NLTK's {method} reads 5-gram counts, but these statistics have {last.max_n} "
            "orders: count at least 5 (BLEUScore.nltk does)"
        )
    totals = last.totals[:, 4]
    fifth: FloatArray = last.matches[:, 4] / (totals + (totals == 0))
    return fifth


def _reads_fifth_order(orders: int, max_n: int, method: str) -> str | None:
    if max_n < 5:
        return f"NLTK's {method} reads the 5-gram precision: count 5 orders at least, not {max_n}"
    if orders > max_n:
        return f"NLTK's {method} scores {orders} orders, but only {max_n} are counted"
    return None


@attrs.frozen
class NLTKMethod4(_NLTKMethod, Part, family="smooth", name="nltk-method4"):
    """NLTK's ``method4``: like method 3, scaled by ``ln(L) / k`` for the hypothesis length
    ``L`` (the whole corpus's at corpus level). Quirk: with ``L <= 1`` nothing is smoothed and
    unmatched orders are left out of the mean.

    >>> from bleuprint import smoothing
    >>> from bleuprint import BLEUStats
    >>> [round(p, 6) for p in smoothing.precisions(NLTKMethod4(), BLEUStats((3, 0), (4, 3), 4, 4))]
    [0.75, 0.04621]
    """

    k: float = attrs.field(default=5, validator=positive)

    def _smooth(self, fractions: _Fractions) -> FloatArray:
        return _method4(fractions, self.k)


@attrs.frozen
class NLTKMethod5(_NLTKMethod, Part, family="smooth", name="nltk-method5"):
    """NLTK's ``method5``: each order becomes the mean of the previous (smoothed) order, itself
    and the next order; the first order's "previous" is ``p1 + 1``.

    Quirks: after the last of the ``orders`` scored, the "next" order is always the 5-gram
    precision (so counting must reach order 5), and at corpus level that of the last segment
    only, so the order of the segments changes the score. Precisions can exceed 1, and so
    can BLEU.
    """

    orders: int = attrs.field(default=4, validator=ngram_order)

    def order_problem(self, max_n: int) -> str | None:
        """Method 5 reads the 5-gram precision and scores ``orders`` orders."""
        return _reads_fifth_order(self.orders, max_n, "method5")

    def _orders(self, max_n: int) -> int:
        return self.orders

    def _smooth(self, fractions: _Fractions) -> FloatArray:
        if not fractions.smoothed.any():
            return _ratios(fractions)
        following = _fifth_order_of_last_segment(fractions, "method5")
        return _method5(_ratios(fractions), following)


@attrs.frozen
class NLTKMethod6(_NLTKMethod, Part, family="smooth", name="nltk-method6"):
    """NLTK's ``method6`` (Gao & He 2013): from order 3 up, the precision is interpolated with
    the prior ``p[n-1]^2 / p[n-2]``: ``(matches + alpha * prior) / (ngrams + alpha)``.

    Quirks: ``ngrams`` is the n-gram count of the last segment only (at corpus level, while
    ``matches`` is the corpus's), so BLEU can exceed 1. Where the hypotheses match a unigram,
    it needs at least 3 orders and a nonzero trigram precision: NLTK fails with an assertion or
    an index error there; bleuprint raises :class:`~bleuprint.InputError`. Where they match no
    unigram, the score is 0, with any number of orders (as NLTK's).
    """

    alpha: float = attrs.field(default=5, validator=non_negative)

    def _smooth(self, fractions: _Fractions) -> FloatArray:
        smoothed = _ratios(fractions)
        if not fractions.smoothed.any():
            return smoothed
        orders = smoothed.shape[1]
        if orders < 3 or not fractions.numerators[fractions.smoothed, 2].all():
            trigrams = fractions.numerators[fractions.smoothed, 2] if orders >= 3 else None
            raise InputError(
                "NLTK's method6 needs at least 3 orders and a nonzero trigram precision "
                f"(this hypothesis has {orders} orders, trigram matches "
                f"{'none' if trigrams is None else int(trigrams.min())})"
            )
        last_totals = fractions.last_segment("method6").totals
        for order in range(2, orders):
            before, previous = smoothed[:, order - 2], smoothed[:, order - 1]
            # ``**`` is C's pow, as NLTK's: numpy's square may differ in the last bit
            squares = exactly(lambda value: value**2, previous)
            prior = np.where(before != 0, squares / np.where(before != 0, before, 1), 0.0)
            ngrams_in_last = last_totals[:, order]
            if ((ngrams_in_last + self.alpha == 0) & fractions.smoothed).any():
                raise InputError(
                    f"NLTK's method6 with alpha=0 divides by the {order + 1}-gram count of the "
                    "last hypothesis, which is 0"
                )
            smoothed[:, order] = (fractions.numerators[:, order] + self.alpha * prior) / (
                ngrams_in_last + self.alpha
            )
        return smoothed


@attrs.frozen
class NLTKMethod7(_NLTKMethod, Part, family="smooth", name="nltk-method7"):
    """NLTK's ``method7``: method 4, then method 5 on its output (with method 5's quirks)."""

    k: float = attrs.field(default=5, validator=positive)
    orders: int = attrs.field(default=4, validator=ngram_order)

    def order_problem(self, max_n: int) -> str | None:
        """Method 7 reads the 5-gram precision and scores ``orders`` orders."""
        return _reads_fifth_order(self.orders, max_n, "method7")

    def _orders(self, max_n: int) -> int:
        return self.orders

    def _smooth(self, fractions: _Fractions) -> FloatArray:
        smoothed = _method4(fractions, self.k)
        if not fractions.smoothed.any():
            return smoothed
        return _method5(smoothed, _fifth_order_of_last_segment(fractions, "method7"))


NLTK_METHODS: tuple[Callable[..., Smoother], ...] = (
    NLTKMethod0,
    NLTKMethod1,
    NLTKMethod2,
    NLTKMethod3,
    NLTKMethod4,
    NLTKMethod5,
    NLTKMethod6,
    NLTKMethod7,
)
"""NLTK's ``SmoothingFunction().method0`` .. ``method7``, by number."""


def nltk_method(
    method: int | str = 0,
    *,
    epsilon: float = 0.1,
    alpha: float = 5,
    k: float = 5,
    orders: int = 4,
) -> Smoother:
    """The part for NLTK's ``SmoothingFunction(epsilon, alpha, k).method<n>``, scoring
    ``orders`` orders; ``method`` is ``n`` or ``"method<n>"``.

    >>> nltk_method("method4", k=3)
    NLTKMethod4(k=3)
    """
    number = method.removeprefix("method") if isinstance(method, str) else method
    if str(number) not in {str(n) for n in range(8)}:
        raise ConfigurationError(
            f"NLTK smoothing method must be 0..7 or 'method0'..'method7', got {method!r}"
        )
    parameters: dict[int, dict[str, Any]] = {
        1: {"epsilon": epsilon},
        4: {"k": k},
        5: {"orders": orders},
        6: {"alpha": alpha},
        7: {"k": k, "orders": orders},
    }
    return NLTK_METHODS[int(number)](**parameters.get(int(number), {}))


# -- NLTK 3.10.4's chrf_score: sentence_chrf and corpus_chrf ---------------------------------


def chrf(
    min_len: int = 1, max_len: int = 6, beta: float = 3.0, ignore_whitespace: bool = True
) -> ChrF:
    """NLTK's ``sentence_chrf`` and ``corpus_chrf`` with these arguments (NLTK's names and
    defaults): its ``compute(hypothesis, [reference])`` is ``sentence_chrf(reference,
    hypothesis)`` and its ``corpus_score(hypotheses, [[reference] for reference in
    references]).score`` is ``corpus_chrf(references, hypotheses)`` (NLTK takes the references
    first, and one per hypothesis). A segment may be a string or a list of tokens, which NLTK
    joins with spaces. NLTK's quirks are :class:`NLTKChrF`'s.

    >>> nltk_chrf = chrf()
    >>> round(nltk_chrf.compute("the the the the the the the", ["the cat is on the mat"]), 6)
    0.146807
    >>> hypotheses, references = ["the cat sat on the mat", "a dog"], ["the cat sat", "a dog"]
    >>> round(nltk_chrf.corpus_score(hypotheses, [[ref] for ref in references]).score, 6)
    0.775221
    """
    return ChrF(NLTKChrF(min_len, max_len, beta, ignore_whitespace))


_WHITESPACE = regex.compile(r"\s+")


@attrs.frozen
class NLTKChars(Part, family="tok", name="nltk-chars"):
    """Quirk (NLTK's chrF): the characters of the text once the ``regex`` module's ``\\s``
    is removed, which is :meth:`str.isspace` but for U+001C to U+001F (kept).

    >>> NLTKChars()("a\\u3000b\\x1cc d")
    ['a', 'b', '\\x1c', 'c', 'd']
    """

    def __call__(self, text: str) -> list[str]:
        return list(_WHITESPACE.sub("", text))


_EPSILON = 1e-16  # NLTK's F-score of an order where a division by zero was attempted


@attrs.frozen
class NLTKChrF(Definition):
    """NLTK 3.10.4's ``chrf_score`` (see :func:`chrf`), which
    :class:`~bleuprint.compat._chrf.ChrF` counts and scores: character n-grams of orders
    ``min_len`` to ``max_len`` (whitespace removed where ``ignore_whitespace``,
    :class:`NLTKChars`), against one reference per hypothesis. Its quirks:

    - an order's F-score, ``(1 + beta**2) * (P * R) / (beta**2 * P + R)``, is 1e-16 where
      the hypothesis or the reference has no n-gram of it, or none matches;
    - a corpus score is the mean of the segments' scores, each the mean of its orders'
      F-scores (a macro average, summed order by order as NLTK sums them:
      :class:`NLTKChrFStats`); so a segment's score is its ``sentence_chrf``.
    """

    min_len: int = attrs.field(default=1, validator=ngram_order)
    max_len: int = attrs.field(default=6, validator=ngram_order)
    beta: float = attrs.field(default=3.0, validator=non_negative)
    ignore_whitespace: bool = attrs.field(default=True, validator=boolean)

    def __attrs_post_init__(self) -> None:
        if self.min_len > self.max_len:
            raise ConfigurationError(
                f"min_len {self.min_len} is above max_len {self.max_len}: no order to count"
            )

    @property
    def name(self) -> str:
        """``NLTK chrF``."""
        return "NLTK chrF"

    @functools.cached_property
    def counters(self) -> tuple[BLEUScore, ...]:
        """A counting engine of characters."""
        characters = NLTKChars() if self.ignore_whitespace else tokenizers.Codepoints()
        return (BLEUScore(tokenizer=characters, ngrams=ngrams.Contiguous(self.max_len)),)

    def as_text(self, segment: object) -> object:
        """A list of tokens joined with spaces, as NLTK joins them."""
        if isinstance(segment, (list, tuple)) and all(isinstance(token, str) for token in segment):
            return " ".join(segment)
        return segment

    def recorded(self, pairs: ChrFSegments) -> ChrFSegments:
        """The orders from ``min_len`` up."""
        orders = slice(self.min_len - 1, None)
        return attrs.evolve(
            pairs,
            hypothesis=pairs.hypothesis[:, orders],
            reference=pairs.reference[:, orders],
            matches=pairs.matches[:, orders],
        )

    def chosen(self, pairs: ChrFSegments, reference_counts: IntArray) -> IntArray:
        """The one reference of each segment (NLTK takes no more)."""
        several = np.flatnonzero(reference_counts != 1)
        if len(several):
            raise InputError(
                f"NLTK's chrF takes one reference per hypothesis, "
                f"got {reference_counts[several[0]]}",
                segment=int(several[0]),
            )
        return np.arange(len(pairs))

    def fscores(self, rows: ChrFSegments) -> FloatArray:
        """Each row's F-score of each order, with NLTK's operations."""
        factor = self.beta**2
        matched, hypothesis, reference = rows.matches, rows.hypothesis, rows.reference
        defined = (matched > 0) & (hypothesis > 0) & (reference > 0)
        precision = matched / np.where(defined, hypothesis, 1)
        recall = matched / np.where(defined, reference, 1)
        denominator = np.where(defined, factor * precision + recall, 1.0)
        scores: FloatArray = np.where(
            defined, (1 + factor) * (precision * recall) / denominator, _EPSILON
        )
        return scores

    def points(self, rows: ChrFSegments) -> FloatArray:
        """Each row's ``sentence_chrf``: its orders' F-scores summed by Python's ``sum``."""
        orders = rows.matches.shape[1]
        return np.array([sum(row) / orders / 1 for row in self.fscores(rows).tolist()])

    def total(self, segments: ChrFSegments) -> NLTKChrFStats:
        """The sums, with each order's F-scores summed over the segments as NLTK sums them."""
        summed = segments.total()
        fscores = tuple(sum(column) for column in self.fscores(segments).T.tolist())
        return NLTKChrFStats(**attrs.asdict(summed, recurse=False), fscores=fscores)

    def corpus_points(self, stats: ChrFStats) -> float:
        """``corpus_chrf`` of a corpus summed by :meth:`total`, or a segment's score."""
        if isinstance(stats, NLTKChrFStats):
            return sum(stats.fscores) / stats.orders / stats.segments
        if stats.segments > 1:
            raise StatisticsMismatchError(
                f"these chrF statistics of {stats.segments} segments were summed without "
                "NLTK's sums of sentence F-scores: sum them with its engine (count)"
            )
        return super().corpus_points(stats)

    def signature(self, stats: ChrFStats) -> str:
        """The options, and the NLTK version reproduced."""
        whitespace = "ignored" if self.ignore_whitespace else "kept"
        return (
            f"nltk-chrf|min_len:{self.min_len}|max_len:{self.max_len}|beta:{self.beta}|"
            f"whitespace:{whitespace}|version:3.10.4"
        )


@attrs.frozen
class NLTKChrFStats(ChrFStats):
    """chrF statistics with NLTK's corpus sums: per order, the sum of the segments' F-scores
    (added in the order of the segments, as NLTK adds them).

    >>> stats = chrf(max_len=2).count(["ab", "b"], [["ab"], ["c"]])
    >>> stats.fscores  # 1 + 1e-16, and 1 + 1e-16 (in Python's float arithmetic)
    (1.0, 1.0)
    """

    fscores: tuple[float, ...] = attrs.field(default=(), converter=as_tuple)

    def __add__(self, other: ChrFStats) -> NLTKChrFStats:
        if not isinstance(other, NLTKChrFStats):
            return NotImplemented
        summed = ChrFStats.__add__(self, other)
        fscores = tuple(map(operator.add, self.fscores, other.fscores))
        return NLTKChrFStats(**attrs.asdict(summed, recurse=False), fscores=fscores)


# -- NIST ------------------------------------------------------------------------------------


def nist(n: int = 5) -> NLTKNIST:
    """NLTK's ``sentence_nist`` and ``corpus_nist`` with this ``n`` (NLTK's name and default):
    ``nist().compute(hypothesis, references)`` is ``sentence_nist(references, hypothesis)``,
    ``nist().corpus_score(hypotheses, references).score`` is ``corpus_nist(references,
    hypotheses)`` (NLTK takes the references first). A segment is a list of tokens, as NLTK
    takes it, or a string, split on whitespace. Its quirks are :class:`NLTKNIST`'s.

    >>> hypothesis = "It is a guide to action which ensures that the military always obeys"
    >>> references = ["It is a guide to action that ensures that the military will heed",
    ...               "It is the guiding principle which guarantees the military forces"]
    >>> round(nist().compute(hypothesis, references), 6)
    3.356373
    """
    return NLTKNIST(n)


@attrs.frozen
class NLTKNIST:
    """NLTK 3.10.4's NIST score (:func:`nist`): information weights from the n-grams of every
    reference of the corpus (:func:`~bleuprint.compat._nist.information_weights`), each
    order's matched information over its hypothesis n-grams, the orders' precisions added,
    times the :func:`~bleuprint.compat._nist.length_penalty`. Its quirks:

    - for each order on its own, a segment counts against the reference of highest
      ``(precision, matched information, hypothesis n-grams, reference length)``, compared as
      a tuple, so different orders may count against different references;
    - the penalty's lengths are summed once per order: the hypotheses' length ``n`` times, and
      for each order the length of the reference that order chose;
    - where NLTK divides by zero (an order of which no hypothesis has an n-gram, references
      without a word) it raises ``ZeroDivisionError``; here an
      :class:`~bleuprint.InputError` says why.
    """

    n: int = attrs.field(default=5, validator=ngram_order)

    def compute(self, hypothesis: object, references: object) -> float:
        """``sentence_nist(references, hypothesis, n)``."""
        return self.sentence_score(hypothesis, references).score

    def sentence_score(self, hypothesis: object, references: object) -> NISTResult:
        """The score of one segment, a corpus of one (as NLTK's ``sentence_nist``)."""
        return self.corpus_score([hypothesis], [references])

    def corpus_score(self, hypotheses: object, references: object) -> NISTResult:
        """``corpus_nist``: ``references`` holds each hypothesis's list of references."""
        hypothesis_tokens, reference_tokens = _nist_segments(hypotheses, references)
        count = ngrams.Contiguous(self.n)
        reference_counts = [[count(tokens) for tokens in segment] for segment in reference_tokens]
        everywhere: Counter[Ngram] = Counter()
        for of_segment in reference_counts:
            for counts in of_segment:
                everywhere.update(counts)
        words = sum(len(tokens) for segment in reference_tokens for tokens in segment)
        weights = information_weights(everywhere, words)
        # Each order's sums run over the segments in order, as NLTK's do (so the same bits);
        # the segments are the outer loop here, where NLTK's orders are.
        matched: list[float] = [0] * self.n
        totals = [0] * self.n
        hypothesis_length, reference_length = 0, 0
        for tokens, references_tokens, references_counts in zip(
            hypothesis_tokens, reference_tokens, reference_counts
        ):
            hypothesis = count(tokens)
            information = [
                _matched_information(hypothesis, counts, weights, self.n)
                for counts in references_counts
            ]
            for order in range(self.n):
                total = max(len(tokens) - order, 0)
                chosen = max(
                    (0 if total == 0 else bits[order] / total, bits[order], total, len(reference))
                    for bits, reference in zip(information, references_tokens)
                )
                matched[order] += chosen[1]
                totals[order] += total
                reference_length += chosen[3]
            hypothesis_length += self.n * len(tokens)
        for order, total in enumerate(totals):
            if total == 0:
                raise InputError(
                    f"no hypothesis has an n-gram of order {order + 1} (of n={self.n}): NLTK's "
                    "NIST divides by zero"
                )
        if reference_length == 0:
            raise InputError("the references have no word: NLTK's NIST divides by zero")
        precisions = [bits / total for bits, total in zip(matched, totals)]
        ratio = hypothesis_length / reference_length
        penalty = length_penalty(ratio)
        return NISTResult(
            sum(precisions) * penalty,
            tuple(precisions),
            penalty,
            ratio,
            name="NLTK NIST",
            signature=f"nltk-nist|n:{self.n}|version:3.10.4",
        )


def _nist_segments(
    hypotheses: object, references: object
) -> tuple[list[list[str]], list[list[list[str]]]]:
    """The tokens of every hypothesis and of each of its references, checked."""
    if isinstance(hypotheses, str) or not isinstance(hypotheses, Sequence):
        raise InputError(f"the hypotheses must be a list of segments, got {_kind(hypotheses)}")
    if isinstance(references, str) or not isinstance(references, Sequence):
        raise InputError(
            f"the references must be a list of each hypothesis's references, got "
            f"{_kind(references)}"
        )
    if len(hypotheses) != len(references):
        raise InputError(
            f"{counted(len(hypotheses), 'hypothesis', 'hypotheses')} but "
            f"{counted(len(references), 'list')} of references: give "
            "each hypothesis its list"
        )
    hypothesis_tokens, reference_tokens = [], []
    for index, (hypothesis, segment) in enumerate(zip(hypotheses, references)):
        hypothesis_tokens.append(_nist_tokens(hypothesis, "the hypothesis", index))
        if isinstance(segment, str) or not isinstance(segment, Sequence) or not segment:
            raise InputError(
                f"the references must be a non-empty list of segments, got {_kind(segment)}",
                segment=index,
            )
        reference_tokens.append(
            [
                _nist_tokens(reference, f"reference {at}", index)
                for at, reference in enumerate(segment)
            ]
        )
    return hypothesis_tokens, reference_tokens


def _nist_tokens(segment: object, what: str, index: int) -> list[str]:
    if isinstance(segment, str):
        return segment.split()
    if isinstance(segment, (list, tuple)) and all(isinstance(token, str) for token in segment):
        return list(segment)
    raise InputError(
        f"{what} must be a string or a list of string tokens, got {_kind(segment)}", segment=index
    )


def _kind(value: object) -> str:
    return f"a {type(value).__name__} ({value!r:.40})"


def _matched_information(
    hypothesis: Counter[Ngram], reference: Counter[Ngram], weights: dict[Ngram, float], n: int
) -> list[float]:
    """Each order's information of the hypothesis's n-grams matched in one reference, added in
    the hypothesis's order of n-grams (NLTK's order)."""
    bits: list[float] = [0] * n
    for ngram, count in hypothesis.items():
        if ngram in reference:
            bits[len(ngram) - 1] += weights[ngram] * min(count, reference[ngram])
    return bits


PRESET = Preset("nltk", "NLTK 3.10.4 sentence_bleu / corpus_bleu", parts)
PRESETS = (PRESET,)
"""The presets this module adds to :data:`bleuprint.presets.PRESETS`."""
