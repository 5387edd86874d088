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

from collections.abc import Iterator
from typing import TYPE_CHECKING

import attrs
import numpy as np

from bleuprint._signature import Part
from bleuprint._stats import BLEUStats
from bleuprint._validators import between, boolean, non_negative
from bleuprint.exceptions import InputError
from bleuprint.typing import BoolArray, FloatArray, Precision

if TYPE_CHECKING:
    from bleuprint._segments import SegmentStats

__all__ = [
    "AddK",
    "AddOne",
    "Exp",
    "ExpUnzeroed",
    "Floor",
    "NoSmoothing",
    "RejectZero",
    "ReplaceZero",
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


@attrs.frozen
class NoSmoothing(Part, family="smooth", name="none"):
    """The plain ratio ``matches / totals``; an order without n-grams is undefined.

    This is sacreBLEU's ``none``: where a defined order has no match, the precision is 0.
    """

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
    Chen and Cherry's method 1). ``value`` is from 0 to 1: sacreBLEU takes more, and then
    scores above 100.

    >>> from bleuprint._stats import BLEUStats
    >>> Floor()(BLEUStats((3, 0, 0, 0), (4, 3, 2, 1), 4, 4))
    [0.75, 0.03333333333333333, 0.05, 0.1]
    """

    value: float = attrs.field(
        default=0.1,
        validator=between(
            0, 1, above="above 1 an unmatched order's precision exceeds 1, and so can BLEU"
        ),
    )

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

    k: float = attrs.field(default=1.0, validator=non_negative)

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

    unigrams: bool = attrs.field(default=False, validator=boolean)

    def __call__(self, stats: BLEUStats) -> list[Precision]:
        return [
            (matched + 1) / (total + 1) if order > 1 or self.unigrams else _ratio(matched, total)
            for order, (matched, total) in enumerate(zip(stats.matches, stats.totals), start=1)
        ]


def _ratio(matched: float, total: float) -> Precision:
    return matched / total if total else None


@attrs.frozen
class ReplaceZero(Part, family="smooth", name="replace-zero"):
    """A zero or undefined precision becomes ``value`` (distancia: ``1e-9``); others stay.

    >>> from bleuprint._stats import BLEUStats
    >>> ReplaceZero()(BLEUStats((3, 0, 0), (4, 3, 0), 4, 4))
    [0.75, 1e-09, 1e-09]
    """

    value: float = attrs.field(
        default=1e-9,
        validator=between(0, 1, above="a precision above 1 would let BLEU exceed 1"),
    )

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


@attrs.frozen
class ExpUnzeroed(Part, family="smooth", name="exp-unzeroed"):
    """The halving of :class:`Exp` (the k-th order with n-grams but no match gets
    ``1 / (2**k * totals)``) without its two zero rules, as NIST's ``mteval`` scripts and
    tensor2tensor score: a segment without any match is smoothed too, not scored 0, and an
    order without n-grams counts precision 1, so it leaves the log sum alone while keeping its
    weight. Only statistics without any n-gram are undefined (the score is 0).

    >>> from bleuprint._stats import BLEUStats
    >>> ExpUnzeroed()(BLEUStats((0, 0, 0, 0), (2, 1, 0, 0), 2, 2))
    [0.25, 0.25, 1.0, 1.0]
    >>> Exp()(BLEUStats((0, 0, 0, 0), (2, 1, 0, 0), 2, 2))
    [0.0, 0.0, 0.0, 0.0]
    """

    def __call__(self, stats: BLEUStats) -> list[Precision]:
        if not any(stats.totals):
            return [None] * stats.max_n
        precisions: list[Precision] = []
        zero_orders = 0
        for matched, total in zip(stats.matches, stats.totals):
            if not total:
                precisions.append(1.0)
            elif matched:
                precisions.append(matched / total)
            else:
                zero_orders += 1
                precisions.append(1 / (2**zero_orders * total))
        return precisions
