"""Smoothing: how matches and totals become per-order precisions.

A smoother works on rows of statistics (see :class:`bleuprint.typing.Smoother`): for each row
and order, a precision in [0, 1] and whether it is defined (an order is undefined where the
hypothesis has no n-grams of it). What the engine does with an undefined precision is up to the
weights: uniform weights make the score 0, effective-order weights leave it out.
:func:`precisions` gives one set of statistics' precisions, ``None`` where undefined:

>>> from bleuprint import smoothing
>>> from bleuprint import BLEUStats
>>> stats = BLEUStats((3, 1, 0), (4, 3, 2), 4, 4)
>>> smoothing.precisions(smoothing.NoSmoothing(), stats)
[0.75, 0.3333333333333333, 0.0]
>>> smoothing.precisions(smoothing.Exp(), stats)
[0.75, 0.3333333333333333, 0.25]

:class:`NoSmoothing`, :class:`Floor`, :class:`AddK` and :class:`Exp` are sacreBLEU 2.6.0's
``smooth_method`` ``none``, ``floor``, ``add-k`` and ``exp`` (Chen and Cherry, 2014, methods 1
to 3), with its treatment of zeros:

- ``floor``, ``add-k`` and ``exp`` leave statistics without a single match unsmoothed: every
  precision is 0, and so is the score;
- the first order without n-grams, and every order after it, is undefined (``None``), even if
  a later order has n-grams (which counting never produces, but raw statistics can).

A smoother written for one set of statistics at a time, or a plain function of
:class:`~bleuprint.BLEUStats`, plugs in through :class:`FromScalar`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import attrs
import numpy as np

from bleuprint._deprecated import DeprecatedNames
from bleuprint._scalar_parts import ScalarPartAdapter
from bleuprint._segments import SegmentStats
from bleuprint._signature import Part
from bleuprint._stats import BLEUStats
from bleuprint._validators import between, boolean, non_negative
from bleuprint.exceptions import InputError
from bleuprint.typing import BoolArray, FloatArray, Precision, Smoother

__all__ = [
    "AddK",
    "AddOne",
    "Exp",
    "ExpUnzeroed",
    "Floor",
    "FromScalar",
    "NoSmoothing",
    "RejectZero",
    "ReplaceZero",
    "precisions",
]


def precisions(smoother: Smoother, stats: BLEUStats) -> list[Precision]:
    """The precisions of one set of statistics: those of its one row.

    Args:
        smoother: any smoother (a part with ``precisions_array``).
        stats: the statistics of a segment or a corpus.

    Returns:
        One precision per order, ``None`` where the order is undefined.
    """
    values, defined = smoother.precisions_array(SegmentStats.of(stats))
    return [value if known else None for value, known in zip(values[0].tolist(), defined[0])]


def _defined_orders_array(totals: FloatArray) -> BoolArray:
    """Row by row, the orders up to the first one without n-grams."""
    defined: BoolArray = np.logical_and.accumulate(totals != 0, axis=1)
    return defined


def _zero_without_matches(
    stats: SegmentStats, precisions: FloatArray, defined: BoolArray
) -> tuple[FloatArray, BoolArray]:
    """sacreBLEU scores rows without any match 0 before it smooths anything: every
    precision 0 (and defined)."""
    unmatched: BoolArray = ~np.any(stats.matches, axis=1, keepdims=True)
    if not unmatched.any():  # nothing to zero (most rows of real text)
        return precisions, defined
    return np.where(unmatched, 0.0, precisions), defined | unmatched


def _ratios(stats: SegmentStats) -> tuple[FloatArray, BoolArray]:
    """``matches / totals`` wherever an order has n-grams (0 elsewhere), and where it has."""
    counted: BoolArray = stats.totals != 0
    return stats.matches / np.where(counted, stats.totals, 1), counted


@attrs.frozen
class NoSmoothing(Part, family="smooth", name="none"):
    """The plain ratio ``matches / totals``; an order without n-grams is undefined.

    This is sacreBLEU's ``none``: where a defined order has no match, the precision is 0.
    """

    def precisions_array(self, stats: SegmentStats) -> tuple[FloatArray, BoolArray]:
        """Every segment's precisions at once, and where they are defined."""
        defined = _defined_orders_array(stats.totals)
        return stats.matches / np.where(defined, stats.totals, 1), defined


@attrs.frozen
class Floor(Part, family="smooth", name="floor"):
    """An order with n-grams but no match counts ``value`` matches (sacreBLEU's ``floor``,
    Chen and Cherry's method 1). ``value`` is from 0 to 1: sacreBLEU takes more, and then
    scores above 100 (its presets take such values, as
    :class:`bleuprint.compat.sacrebleu.AnyFloor`).

    Args:
        value: the matches an unmatched order counts.

    Raises:
        ConfigurationError: ``value`` is not a number from 0 to 1.

    >>> from bleuprint import BLEUStats
    >>> precisions(Floor(), BLEUStats((3, 0, 0, 0), (4, 3, 2, 1), 4, 4))
    [0.75, 0.03333333333333333, 0.05, 0.1]
    """

    value: float = attrs.field(
        default=0.1,
        validator=between(
            0, 1, above="above 1 an unmatched order's precision exceeds 1, and so can BLEU"
        ),
    )

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

    Args:
        k: what is added.

    Raises:
        ConfigurationError: ``k`` is not a finite number of at least 0.

    >>> from bleuprint import BLEUStats
    >>> precisions(AddK(), BLEUStats((3, 1, 0, 0), (4, 3, 2, 0), 4, 4))
    [0.75, 0.5, 0.3333333333333333, 1.0]
    """

    k: float = attrs.field(default=1.0, validator=non_negative)

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

    >>> from bleuprint import BLEUStats
    >>> precisions(Exp(), BLEUStats((3, 0, 1, 0), (4, 3, 2, 1), 4, 4))
    [0.75, 0.16666666666666666, 0.5, 0.25]
    """

    def precisions_array(self, stats: SegmentStats) -> tuple[FloatArray, BoolArray]:
        """Every segment's precisions at once, and where they are defined."""
        defined = _defined_orders_array(stats.totals)
        totals = np.where(defined, stats.totals, 1)
        unmatched = defined & (stats.matches == 0)
        if not unmatched.any():  # every defined order matched: nothing to smooth
            return _zero_without_matches(stats, stats.matches / totals, defined)
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

    Args:
        unigrams: whether unigrams get one added too.

    Raises:
        ConfigurationError: ``unigrams`` is not ``True`` or ``False``.

    >>> from bleuprint import BLEUStats
    >>> stats = BLEUStats((3, 1, 0), (4, 3, 0), 4, 4)
    >>> precisions(AddOne(), stats), precisions(AddOne(unigrams=True), stats)
    ([0.75, 0.5, 1.0], [0.8, 0.5, 1.0])
    """

    unigrams: bool = attrs.field(default=False, validator=boolean)

    def precisions_array(self, stats: SegmentStats) -> tuple[FloatArray, BoolArray]:
        """Every row's precisions, and where they are defined (everywhere but a plain unigram
        ratio without unigrams)."""
        added = (stats.matches + 1) / (stats.totals + 1)
        if self.unigrams:
            return added, np.ones(added.shape, np.bool_)
        ratios, counted = _ratios(stats)
        added[:, :1], defined = ratios[:, :1], np.ones(added.shape, np.bool_)
        defined[:, :1] = counted[:, :1]
        return added, defined


@attrs.frozen
class ReplaceZero(Part, family="smooth", name="replace-zero"):
    """A zero or undefined precision becomes ``value`` (distancia: ``1e-9``); others stay.

    Args:
        value: the precision that replaces a zero or undefined one.

    Raises:
        ConfigurationError: ``value`` is not a number from 0 to 1.

    >>> from bleuprint import BLEUStats
    >>> precisions(ReplaceZero(), BLEUStats((3, 0, 0), (4, 3, 0), 4, 4))
    [0.75, 1e-09, 1e-09]
    """

    value: float = attrs.field(
        default=1e-9,
        validator=between(0, 1, above="a precision above 1 would let BLEU exceed 1"),
    )

    def precisions_array(self, stats: SegmentStats) -> tuple[FloatArray, BoolArray]:
        """Every row's precisions, all defined."""
        ratios, _ = _ratios(stats)
        return np.where(ratios != 0, ratios, self.value), np.ones(ratios.shape, np.bool_)


@attrs.frozen
class RejectZero(Part, family="smooth", name="reject-zero"):
    """The plain ratio, for definitions that take the logarithm of every precision: a zero or
    undefined precision is an :class:`~bleuprint.InputError` (where distancia without
    smoothing crashes with "math domain error").

    Raises:
        InputError: (when scoring) a precision is zero or undefined; the message names the
            order.

    >>> from bleuprint import BLEUStats
    >>> precisions(RejectZero(), BLEUStats((3, 0), (4, 3), 4, 4))
    Traceback (most recent call last):
    ...
    bleuprint.exceptions.InputError: the 2-gram precision is 0 and this definition takes ...
    """

    def precisions_array(self, stats: SegmentStats) -> tuple[FloatArray, BoolArray]:
        """Every row's plain ratios; the first row with a zero or undefined one raises."""
        ratios, defined = NoSmoothing().precisions_array(stats)
        zero = ~defined | (ratios == 0)
        if zero.any():
            order = int(np.argmax(zero[np.argmax(zero.any(axis=1))])) + 1
            raise InputError(
                f"the {order}-gram precision is 0 and this definition takes its logarithm; "
                "turn smoothing on or use a definition that scores it 0"
            )
        return ratios, defined


@attrs.frozen
class ExpUnzeroed(Part, family="smooth", name="exp-unzeroed"):
    """The halving of :class:`Exp` (the k-th order with n-grams but no match gets
    ``1 / (2**k * totals)``) without its two zero rules, as NIST's ``mteval`` scripts and
    tensor2tensor score: a segment without any match is smoothed too, not scored 0, and an
    order without n-grams counts precision 1, so it leaves the log sum alone while keeping its
    weight. Only statistics without any n-gram are undefined (the score is 0).

    >>> from bleuprint import BLEUStats
    >>> precisions(ExpUnzeroed(), BLEUStats((0, 0, 0, 0), (2, 1, 0, 0), 2, 2))
    [0.25, 0.25, 1.0, 1.0]
    >>> precisions(Exp(), BLEUStats((0, 0, 0, 0), (2, 1, 0, 0), 2, 2))
    [0.0, 0.0, 0.0, 0.0]
    """

    def precisions_array(self, stats: SegmentStats) -> tuple[FloatArray, BoolArray]:
        """Every row's precisions, and where they are defined (rows with some n-gram)."""
        ratios, counted = _ratios(stats)
        unmatched = counted & (stats.matches == 0)
        # ldexp(1, k) is 2**k exactly, without a general power per element
        halved = 1 / (
            np.ldexp(1.0, np.cumsum(unmatched, axis=1)) * np.where(counted, stats.totals, 1)
        )
        values = np.where(counted, np.where(unmatched, halved, ratios), 1.0)
        return values, np.broadcast_to(counted.any(axis=1, keepdims=True), values.shape).copy()


# -- smoothers written for one set of statistics at a time ---------------------------------


@attrs.frozen
class FromScalar(ScalarPartAdapter[Callable[[BLEUStats], Sequence[Precision]]]):
    """A smoother written for one set of statistics at a time, on rows: it calls ``part``
    once per row, with the row's :class:`~bleuprint.BLEUStats`.

    Args:
        part: a callable (a part, or a plain function) taking one set of statistics and
            returning one precision per order, ``None`` where the order is undefined; if it
            also has a ``total(segments, start)`` (a corpus summed its own way, as
            :class:`~bleuprint.typing.CorpusSmoother` says), corpora are summed with it.
        signature: the signature results name it by; by default ``part.signature``.

    Raises:
        ConfigurationError: ``part`` is not callable, or has no signature and none is given.

    >>> from bleuprint import BLEUScore
    >>> def halves(stats):
    ...     return [0.5] * stats.max_n
    >>> bleu = BLEUScore(smoothing=FromScalar(halves, signature="halves"))
    >>> bleu.compute("a b c d", ["a b c e"])
    0.5
    >>> bleu.smoothing.signature
    'halves'
    """

    def precisions_array(self, stats: SegmentStats) -> tuple[FloatArray, BoolArray]:
        """The part's precisions of each row, and where they are defined (not ``None``)."""
        rows = [self.part(row) for row in stats]
        width = len(rows[0]) if rows else stats.max_n
        values = np.array([[p or 0.0 for p in row] for row in rows], np.float64)
        defined = np.array([[p is not None for p in row] for row in rows], np.bool_)
        return values.reshape(len(rows), width), defined.reshape(len(rows), width)

    def total(self, segments: SegmentStats, start: BLEUStats) -> BLEUStats:
        """The corpus statistics of ``segments`` added to ``start``: summed by the part's own
        ``total`` where it has one, else plainly."""
        own_total = getattr(self.part, "total", None)
        if callable(own_total):
            total: BLEUStats = own_total(segments, start)
            return total
        return segments.total(start)


# (FromScalar sums a corpus with the part's own total, where it has one.)
_DEPRECATED = DeprecatedNames(
    __name__, {"CorpusFromScalar": ("bleuprint.smoothing.FromScalar", lambda: FromScalar)}
)


def __getattr__(name: str) -> Any:
    return _DEPRECATED.get(name)
