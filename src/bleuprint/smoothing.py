"""Smoothing: how matches and totals become per-order precisions.

A smoother returns one precision in [0, 1] per order, or ``None`` for an order that is
undefined because the hypothesis has no n-grams of it. What the engine does with ``None`` is
up to the weights: uniform weights make the score 0, effective-order weights leave it out.

>>> from bleuprint import smoothing
>>> from bleuprint._stats import BLEUStats
>>> stats = BLEUStats((3, 1, 0), (4, 3, 2), 4, 4)
>>> smoothing.NoSmoothing()(stats)
[0.75, 0.3333333333333333, 0.0]
>>> smoothing.Exp()(stats)
[0.75, 0.3333333333333333, 0.25]

:class:`NoSmoothing`, :class:`Floor`, :class:`AddK` and :class:`Exp` are sacreBLEU 2.6.0's
``smooth_method`` ``none``, ``floor``, ``add-k`` and ``exp`` (Chen and Cherry, 2014, methods 1
to 3), with its treatment of zeros:

- ``floor``, ``add-k`` and ``exp`` leave statistics without a single match unsmoothed: every
  precision is 0, and so is the score;
- the first order without n-grams, and every order after it, is undefined (``None``), even if
  a later order has n-grams (which counting never produces, but raw statistics can).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import attrs
import numpy as np

from bleuprint._signature import Part
from bleuprint._stats import BLEUStats
from bleuprint._validators import positive_whole
from bleuprint.exceptions import ConfigurationError, InputError
from bleuprint.typing import BoolArray, FloatArray, Precision, Smoother

if TYPE_CHECKING:
    from bleuprint._segments import SegmentStats

__all__ = [
    "NLTK_METHODS",
    "AddK",
    "AddOne",
    "Exp",
    "Floor",
    "NLTKMethod0",
    "NLTKMethod1",
    "NLTKMethod2",
    "NLTKMethod3",
    "NLTKMethod4",
    "NLTKMethod5",
    "NLTKMethod6",
    "NLTKMethod7",
    "NoSmoothing",
    "RejectZero",
    "ReplaceZero",
    "RequireAllMatched",
    "nltk_fractions",
    "nltk_method",
]


def _defined_orders(stats: BLEUStats) -> Iterator[tuple[float, float]]:
    """``(matches, totals)`` of each order up to the first one without n-grams."""
    for matched, total in zip(stats.matches, stats.totals):
        if not total:
            return
        yield matched, total


def _undefined_after(precisions: list[Precision], max_n: int) -> list[Precision]:
    return precisions + [None] * (max_n - len(precisions))


def _without_matches(stats: BLEUStats) -> list[Precision] | None:
    """sacreBLEU scores statistics without any match 0 before it smooths anything."""
    return None if any(stats.matches) else [0.0] * stats.max_n


def _defined_orders_array(totals: FloatArray) -> BoolArray:
    """Row by row, the orders up to the first one without n-grams."""
    defined: BoolArray = np.logical_and.accumulate(totals != 0, axis=1)
    return defined


def _zero_without_matches(
    stats: SegmentStats, precisions: FloatArray, defined: BoolArray
) -> tuple[FloatArray, BoolArray]:
    """Rows without any match: every precision 0, as ``_without_matches`` says."""
    unmatched: BoolArray = ~np.any(stats.matches, axis=1)
    return np.where(unmatched[:, None], 0.0, precisions), defined | unmatched[:, None]


def _non_negative(instance: object, attribute: attrs.Attribute[float], value: float) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value >= 0:
        raise ConfigurationError(f"{attribute.name} must be a number >= 0, got {value!r}")


@attrs.frozen
class NoSmoothing(Part, family="smooth", name="none"):
    """The plain ratio ``matches / totals``; an order without n-grams is undefined.

    This is sacreBLEU's ``none``: where a defined order has no match, the precision is 0.
    """

    sacrebleu_name = "none"

    def __call__(self, stats: BLEUStats) -> list[Precision]:
        precisions: list[Precision] = [matched / total for matched, total in _defined_orders(stats)]
        return _undefined_after(precisions, stats.max_n)

    def precisions_array(self, stats: SegmentStats) -> tuple[FloatArray, BoolArray]:
        """Every segment's precisions at once, and where they are defined."""
        defined = _defined_orders_array(stats.totals)
        return stats.matches / np.where(defined, stats.totals, 1), defined


@attrs.frozen
class Floor(Part, family="smooth", name="floor"):
    """An order with n-grams but no match counts ``value`` matches (sacreBLEU's ``floor``,
    Chen and Cherry's method 1).

    >>> from bleuprint._stats import BLEUStats
    >>> Floor()(BLEUStats((3, 0, 0, 0), (4, 3, 2, 1), 4, 4))
    [0.75, 0.03333333333333333, 0.05, 0.1]
    """

    value: float = attrs.field(default=0.1, validator=_non_negative)

    @property
    def sacrebleu_name(self) -> str:
        return f"floor[{self.value:.2f}]"

    def __call__(self, stats: BLEUStats) -> list[Precision]:
        if (zeros := _without_matches(stats)) is not None:
            return zeros
        precisions: list[Precision] = [
            (matched or self.value) / total for matched, total in _defined_orders(stats)
        ]
        return _undefined_after(precisions, stats.max_n)

    def precisions_array(self, stats: SegmentStats) -> tuple[FloatArray, BoolArray]:
        """Every segment's precisions at once, and where they are defined."""
        defined = _defined_orders_array(stats.totals)
        floored = np.where(stats.matches != 0, stats.matches, self.value)
        precisions = floored / np.where(defined, stats.totals, 1)
        return _zero_without_matches(stats, precisions, defined)


@attrs.frozen
class AddK(Part, family="smooth", name="add-k"):
    """Add ``k`` to the matches and the totals of every order above 1 (sacreBLEU's ``add-k``,
    Chen and Cherry's method 2, after Lin and Och, 2004).

    Since it adds to the totals too, an order above 1 without n-grams becomes defined
    (``k / k = 1``). sacreBLEU reports the incremented counts and totals; the statistics
    here keep the counted ones.

    >>> from bleuprint._stats import BLEUStats
    >>> AddK()(BLEUStats((3, 1, 0, 0), (4, 3, 2, 0), 4, 4))
    [0.75, 0.5, 0.3333333333333333, 1.0]
    """

    k: float = attrs.field(default=1.0, validator=_non_negative)

    @property
    def sacrebleu_name(self) -> str:
        return f"add-k[{self.k:.2f}]"

    def __call__(self, stats: BLEUStats) -> list[Precision]:
        if (zeros := _without_matches(stats)) is not None:
            return zeros
        precisions: list[Precision] = []
        for order, (matched, total) in enumerate(zip(stats.matches, stats.totals), start=1):
            added = self.k if order > 1 else 0
            if not total + added:
                break
            precisions.append((matched + added) / (total + added))
        return _undefined_after(precisions, stats.max_n)

    def precisions_array(self, stats: SegmentStats) -> tuple[FloatArray, BoolArray]:
        """Every segment's precisions at once, and where they are defined."""
        added = np.where(np.arange(stats.max_n) > 0, self.k, 0)
        totals = stats.totals + added
        defined = _defined_orders_array(totals)
        precisions = (stats.matches + added) / np.where(defined, totals, 1)
        return _zero_without_matches(stats, precisions, defined)


@attrs.frozen
class Exp(Part, family="smooth", name="exp"):
    """sacreBLEU's default ``exp`` (Chen and Cherry's method 3, NIST's ``mteval-v13a``): the
    k-th order with n-grams but no match gets precision ``1 / (2**k * totals)``.

    >>> from bleuprint._stats import BLEUStats
    >>> Exp()(BLEUStats((3, 0, 1, 0), (4, 3, 2, 1), 4, 4))
    [0.75, 0.16666666666666666, 0.5, 0.25]
    """

    sacrebleu_name = "exp"

    def __call__(self, stats: BLEUStats) -> list[Precision]:
        if (zeros := _without_matches(stats)) is not None:
            return zeros
        precisions: list[Precision] = []
        zero_orders = 0
        for matched, total in _defined_orders(stats):
            if matched:
                precisions.append(matched / total)
            else:
                zero_orders += 1
                precisions.append(1 / (2**zero_orders * total))
        return _undefined_after(precisions, stats.max_n)

    def precisions_array(self, stats: SegmentStats) -> tuple[FloatArray, BoolArray]:
        """Every segment's precisions at once, and where they are defined."""
        defined = _defined_orders_array(stats.totals)
        totals = np.where(defined, stats.totals, 1)
        unmatched = defined & (stats.matches == 0)
        zero_orders = np.cumsum(unmatched, axis=1)
        # ldexp(1, k) is 2**k exactly, without a general power per element
        smoothed = 1 / (np.ldexp(1.0, zero_orders) * totals)
        precisions = np.where(unmatched, smoothed, stats.matches / totals)
        return _zero_without_matches(stats, precisions, defined)


# -- simple smoothers used by the compatibility presets ----------------------------------


@attrs.frozen
class AddOne(Part, family="smooth", name="add-one"):
    """``(matches + 1) / (totals + 1)`` for every order from 2 up, and for unigrams too when
    ``unigrams=True``.

    Lin & Och (2004). Hugging Face evaluate and bleuscore add one to every order
    (``unigrams=True``); torchmetrics leaves unigrams alone (``unigrams=False``). An order
    without n-grams gets ``1/1``.

    >>> from bleuprint._stats import BLEUStats
    >>> stats = BLEUStats((3, 1, 0), (4, 3, 0), 4, 4)
    >>> AddOne()(stats), AddOne(unigrams=True)(stats)
    ([0.75, 0.5, 1.0], [0.8, 0.5, 1.0])
    """

    unigrams: bool = False

    def __call__(self, stats: BLEUStats) -> list[Precision]:
        return [
            (matched + 1) / (total + 1) if order > 1 or self.unigrams else _ratio(matched, total)
            for order, (matched, total) in enumerate(zip(stats.matches, stats.totals), start=1)
        ]


def _ratio(matched: float, total: float) -> Precision:
    return matched / total if total else None


@attrs.frozen
class RequireAllMatched(Part, family="smooth", name="all-matched"):
    """Quirk (torchmetrics): every precision is 0 unless every order has at least one match;
    only then does the ``inner`` smoother run. So smoothing never rescues a hypothesis with
    an unmatched order, and neither does a weight of 0 for that order.

    >>> from bleuprint._stats import BLEUStats
    >>> RequireAllMatched(AddOne())(BLEUStats((3, 1, 0), (4, 3, 2), 4, 4))
    [0.0, 0.0, 0.0]
    """

    inner: Smoother = attrs.field(factory=NoSmoothing)

    def __call__(self, stats: BLEUStats) -> list[Precision]:
        if min(stats.matches) == 0:
            return [0.0] * stats.max_n
        return self.inner(stats)


@attrs.frozen
class ReplaceZero(Part, family="smooth", name="replace-zero"):
    """A zero or undefined precision becomes ``value`` (distancia: ``1e-9``); others stay.

    >>> from bleuprint._stats import BLEUStats
    >>> ReplaceZero()(BLEUStats((3, 0, 0), (4, 3, 0), 4, 4))
    [0.75, 1e-09, 1e-09]
    """

    value: float = 1e-9

    def __call__(self, stats: BLEUStats) -> list[Precision]:
        return [
            _ratio(matched, total) or self.value
            for matched, total in zip(stats.matches, stats.totals)
        ]


@attrs.frozen
class RejectZero(Part, family="smooth", name="reject-zero"):
    """The plain ratio, for definitions that take the logarithm of every precision: a zero or
    undefined precision is an :class:`~bleuprint.InputError` (where distancia without
    smoothing crashes with "math domain error").

    >>> from bleuprint._stats import BLEUStats
    >>> RejectZero()(BLEUStats((3, 0), (4, 3), 4, 4))
    Traceback (most recent call last):
    ...
    bleuprint.exceptions.InputError: the 2-gram precision is 0 and this definition takes ...
    """

    def __call__(self, stats: BLEUStats) -> list[Precision]:
        precisions = NoSmoothing()(stats)
        for order, precision in enumerate(precisions, start=1):
            if not precision:
                raise InputError(
                    f"the {order}-gram precision is 0 and this definition takes its logarithm; "
                    "turn smoothing on or use a definition that scores it 0"
                )
        return precisions


# -- NLTK 3.10.4's SmoothingFunction: Chen & Cherry (2014) as NLTK computes them --------
#
# Shared by all eight methods, as in NLTK:
# - a segment with no n-gram of an order counts 1 in that order's denominator;
# - no unigram match at all gives 0 for every order, before any smoothing;
# - an order whose smoothed precision is not positive is reported undefined (None): NLTK
#   leaves it out of the geometric mean (see :class:`bleuprint.weights.NLTK`).


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
    return [
        (matched, total + empty)
        for matched, total, empty in zip(stats.matches, stats.totals, stats.segments_without_ngrams)
    ]


class _NLTKMethod:
    """The steps every NLTK method shares, around the method's own ``_smooth``."""

    __slots__ = ()

    def __call__(self, stats: BLEUStats) -> list[Precision]:
        fractions = nltk_fractions(stats)[: self._orders(stats)]
        if not fractions[0][0]:
            return [0.0] * len(fractions)
        return [value if value > 0 else None for value in self._smooth(fractions, stats)]

    def _orders(self, stats: BLEUStats) -> int:
        return stats.max_n

    def _smooth(self, fractions: list[tuple[float, float]], stats: BLEUStats) -> list[float]:
        raise NotImplementedError


@attrs.frozen
class NLTKMethod0(_NLTKMethod, Part, family="smooth", name="nltk-method0"):
    """NLTK's ``method0``, no smoothing. Quirk: a zero precision becomes the smallest positive
    float (``sys.float_info.min``), so BLEU is a tiny positive number, not 0.

    >>> from bleuprint._stats import BLEUStats
    >>> NLTKMethod0()(BLEUStats((3, 0), (4, 3), 4, 4))
    [0.75, 2.2250738585072014e-308]
    """

    def _smooth(self, fractions: list[tuple[float, float]], stats: BLEUStats) -> list[float]:
        return [matched / total if matched else sys.float_info.min for matched, total in fractions]


@attrs.frozen
class NLTKMethod1(_NLTKMethod, Part, family="smooth", name="nltk-method1"):
    """NLTK's ``method1``: a zero numerator becomes ``epsilon``.

    >>> from bleuprint._stats import BLEUStats
    >>> NLTKMethod1()(BLEUStats((3, 0), (4, 2), 4, 4))
    [0.75, 0.05]
    """

    epsilon: float = 0.1

    def _smooth(self, fractions: list[tuple[float, float]], stats: BLEUStats) -> list[float]:
        return [(matched or self.epsilon) / total for matched, total in fractions]


@attrs.frozen
class NLTKMethod2(_NLTKMethod, Part, family="smooth", name="nltk-method2"):
    """NLTK's ``method2`` (Lin & Och 2004): one is added to the numerator and denominator of
    every order from 2 up, matched or not.

    >>> from bleuprint._stats import BLEUStats
    >>> NLTKMethod2()(BLEUStats((3, 1), (4, 3), 4, 4))
    [0.75, 0.5]
    """

    def _smooth(self, fractions: list[tuple[float, float]], stats: BLEUStats) -> list[float]:
        first, *others = fractions
        return [first[0] / first[1], *[(matched + 1) / (total + 1) for matched, total in others]]


@attrs.frozen
class NLTKMethod3(_NLTKMethod, Part, family="smooth", name="nltk-method3"):
    """NLTK's ``method3`` (NIST geometric sequence): the k-th unmatched order gets
    ``1 / (2^k * denominator)``.

    >>> from bleuprint._stats import BLEUStats
    >>> NLTKMethod3()(BLEUStats((3, 0, 0), (4, 3, 2), 4, 4))
    [0.75, 0.16666666666666666, 0.125]
    """

    def _smooth(self, fractions: list[tuple[float, float]], stats: BLEUStats) -> list[float]:
        smoothed, unmatched = [], 0
        for matched, total in fractions:
            if matched:
                smoothed.append(matched / total)
            else:
                unmatched += 1
                smoothed.append(1 / (2**unmatched * total))
        return smoothed


def _method4(
    fractions: list[tuple[float, float]], hypothesis_length: float, k: float
) -> list[float]:
    """The i-th unmatched order gets ``ln(L) / (2^i * k) / denominator`` for a (corpus)
    hypothesis length ``L`` above 1; with ``L <= 1`` unmatched orders stay 0."""
    smoothed, unmatched = [], 0
    for matched, total in fractions:
        if matched or hypothesis_length <= 1:
            smoothed.append(matched / total)
        else:
            unmatched += 1
            smoothed.append(1 / (2**unmatched * k / math.log(hypothesis_length)) / total)
    return smoothed


def _method5(values: list[float], following: float) -> list[float]:
    """Each order becomes the mean of the previous order's smoothed value (``p1 + 1`` before
    the first), its own value and the next order's value (``following`` after the last)."""
    smoothed, previous = [], values[0] + 1
    for value, next_value in zip(values, [*values[1:], following]):
        previous = (previous + value + next_value) / 3
        smoothed.append(previous)
    return smoothed


def _last_segment(stats: BLEUStats, method: str) -> BLEUStats:
    last = stats.last_segment
    if last is None:
        raise InputError(
            f"NLTK's {method} reads the statistics of the last segment, and these statistics "
            "do not record it (count them with BLEUScore.count)"
        )
    return last


def _fifth_order_of_last_segment(stats: BLEUStats, method: str) -> float:
    """NLTK's methods 5 and 7 always read the 5-gram precision of the last segment."""
    if stats.max_n < 5:
        raise InputError(
            f"NLTK's {method} reads 5-gram counts, but these statistics have {stats.max_n} "
            "orders: count at least 5 (BLEUScore.nltk does)"
        )
    matched, total = nltk_fractions(_last_segment(stats, method))[4]
    return matched / total


@attrs.frozen
class NLTKMethod4(_NLTKMethod, Part, family="smooth", name="nltk-method4"):
    """NLTK's ``method4``: like method 3, scaled by ``ln(L) / k`` for the hypothesis length
    ``L`` (the whole corpus's at corpus level). Quirk: with ``L <= 1`` nothing is smoothed and
    unmatched orders are left out of the mean.

    >>> from bleuprint._stats import BLEUStats
    >>> [round(p, 6) for p in NLTKMethod4()(BLEUStats((3, 0), (4, 3), 4, 4))]
    [0.75, 0.04621]
    """

    k: float = 5

    def _smooth(self, fractions: list[tuple[float, float]], stats: BLEUStats) -> list[float]:
        return _method4(fractions, stats.hypothesis_length, self.k)


@attrs.frozen
class NLTKMethod5(_NLTKMethod, Part, family="smooth", name="nltk-method5"):
    """NLTK's ``method5``: each order becomes the mean of the previous (smoothed) order, itself
    and the next order; the first order's "previous" is ``p1 + 1``.

    Quirks: after the last of the ``orders`` scored, the "next" order is always the 5-gram
    precision (so counting must reach order 5), and at corpus level that of the last segment
    only, so the order of the segments changes the score. Precisions can exceed 1, and so
    can BLEU.
    """

    orders: int = attrs.field(default=4, validator=positive_whole)

    def _orders(self, stats: BLEUStats) -> int:
        return self.orders

    def _smooth(self, fractions: list[tuple[float, float]], stats: BLEUStats) -> list[float]:
        following = _fifth_order_of_last_segment(stats, "method5")
        return _method5([matched / total for matched, total in fractions], following)


@attrs.frozen
class NLTKMethod6(_NLTKMethod, Part, family="smooth", name="nltk-method6"):
    """NLTK's ``method6`` (Gao & He 2013): from order 3 up, the precision is interpolated with
    the prior ``p[n-1]^2 / p[n-2]``: ``(matches + alpha * prior) / (ngrams + alpha)``.

    Quirks: ``ngrams`` is the n-gram count of the last segment only (at corpus level, while
    ``matches`` is the corpus's), so BLEU can exceed 1. It needs at least 3 orders and a
    nonzero trigram precision: NLTK fails with an assertion or an index error there;
    bleuprint raises :class:`~bleuprint.InputError`.
    """

    alpha: float = 5

    def _smooth(self, fractions: list[tuple[float, float]], stats: BLEUStats) -> list[float]:
        if len(fractions) < 3 or not fractions[2][0]:
            raise InputError(
                "NLTK's method6 needs at least 3 orders and a nonzero trigram precision "
                f"(this hypothesis has {len(fractions)} orders, trigram matches "
                f"{fractions[2][0] if len(fractions) >= 3 else 'none'})"
            )
        last_totals = _last_segment(stats, "method6").totals
        smoothed = [matched / total for matched, total in fractions]
        for order in range(2, len(smoothed)):
            before, previous = smoothed[order - 2], smoothed[order - 1]
            prior = previous**2 / before if before else 0.0
            ngrams_in_last = last_totals[order]
            if ngrams_in_last + self.alpha == 0:
                raise InputError(
                    f"NLTK's method6 with alpha=0 divides by the {order + 1}-gram count of the "
                    "last hypothesis, which is 0"
                )
            smoothed[order] = (fractions[order][0] + self.alpha * prior) / (
                ngrams_in_last + self.alpha
            )
        return smoothed


@attrs.frozen
class NLTKMethod7(_NLTKMethod, Part, family="smooth", name="nltk-method7"):
    """NLTK's ``method7``: method 4, then method 5 on its output (with method 5's quirks)."""

    k: float = 5
    orders: int = attrs.field(default=4, validator=positive_whole)

    def _orders(self, stats: BLEUStats) -> int:
        return self.orders

    def _smooth(self, fractions: list[tuple[float, float]], stats: BLEUStats) -> list[float]:
        following = _fifth_order_of_last_segment(stats, "method7")
        return _method5(_method4(fractions, stats.hypothesis_length, self.k), following)


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
