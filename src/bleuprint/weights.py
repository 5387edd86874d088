"""Weights: how much each order's log precision counts in the geometric mean.

Weights work on rows of statistics and their precisions (see
:class:`bleuprint.typing.Weights`); :func:`order_weights` gives those of one set of
statistics:

>>> from bleuprint import weights
>>> from bleuprint import BLEUStats
>>> stats = BLEUStats((2, 1, 0, 0), (2, 1, 0, 0), 2, 2)
>>> weights.order_weights(weights.Uniform(), stats, [1.0, 1.0, None, None])
[0.25, 0.25, 0.25, 0.25]
>>> weights.order_weights(weights.EffectiveOrder(), stats, [1.0, 1.0, None, None])
[0.5, 0.5, 0.0, 0.0]

Weights written for one set of statistics at a time, or a plain function, plug in through
:class:`FromScalar`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import attrs
import numpy as np

from bleuprint._scalar_parts import ScalarPartAdapter
from bleuprint._segments import SegmentStats
from bleuprint._signature import Part
from bleuprint._stats import BLEUStats
from bleuprint._validators import (
    bounded_sum,
    finite_numbers,
    float_tuple,
    none_negative,
    not_all_zero,
)
from bleuprint.exceptions import InputError, counted
from bleuprint.typing import BoolArray, FloatArray, Precision, Weights

__all__ = ["EffectiveOrder", "Explicit", "FromScalar", "Uniform", "order_weights"]


def order_weights(part: Weights, stats: BLEUStats, precisions: Sequence[Precision]) -> list[float]:
    """The weights of one set of statistics with these precisions: those of its one row.

    Args:
        part: any weights (a part with ``weights_array``).
        stats: the statistics of a segment or a corpus.
        precisions: one per order, ``None`` where the order is undefined.

    Returns:
        One weight per order.
    """
    defined = np.array([[precision is not None for precision in precisions]])
    values = np.array([[precision or 0.0 for precision in precisions]], np.float64)
    weighed: list[float] = part.weights_array(SegmentStats.of(stats), values, defined)[0].tolist()
    return weighed


@attrs.frozen
class Uniform(Part, family="weights", name="uniform"):
    """Every order from 1 to ``max_n`` weighs ``1 / max_n``."""

    def weights_array(
        self, stats: SegmentStats, precisions: FloatArray, defined: BoolArray
    ) -> FloatArray:
        """The same weights for every segment."""
        return np.full(precisions.shape, 1 / stats.max_n)


@attrs.frozen
class EffectiveOrder(Part, family="weights", name="effective"):
    """sacreBLEU's effective order: uniform weights over the leading defined orders.

    The effective order is the number of orders before the first undefined one (``None``:
    no n-grams of that order); those orders weigh ``1 / effective order`` each, the rest 0.
    So a hypothesis shorter than ``max_n`` tokens is not scored 0 for lacking long n-grams;
    an order that has n-grams but no match still counts (and, unsmoothed, makes the score 0).
    """

    def weights_array(
        self, stats: SegmentStats, precisions: FloatArray, defined: BoolArray
    ) -> FloatArray:
        """Every segment's weights at once."""
        effective = np.logical_and.accumulate(defined, axis=1).sum(axis=1, keepdims=True)
        weights: FloatArray = np.where(
            np.arange(precisions.shape[1]) < effective, 1 / np.maximum(effective, 1), 0.0
        )
        return weights


# -- explicit weights ------------------------------------------------------------------


@attrs.frozen
class Explicit(Part, family="weights", name="explicit"):
    """The given weights, order by order, as they are (not normalised); orders beyond them
    weigh 0. An undefined precision of positive weight makes the score 0, as with uniform
    weights.

    Args:
        values: the weight of orders 1, 2, ..., as many as at most the orders scored.

    Raises:
        ConfigurationError: a weight is not a finite number of at least 0, or all are 0; or
            (when the engine is built) there are more weights than orders.

    >>> from bleuprint import BLEUStats
    >>> stats = BLEUStats((3, 1, 0), (4, 3, 2), 4, 4)
    >>> order_weights(Explicit((0.7, 0.3)), stats, [0.75, 1 / 3, 0.0])
    [0.7, 0.3, 0.0]
    """

    values: tuple[float, ...] = attrs.field(
        converter=float_tuple, validator=[finite_numbers, not_all_zero, none_negative, bounded_sum]
    )

    def order_problem(self, max_n: int) -> str | None:
        """More weights than orders (the extra ones could weigh nothing), else ``None``."""
        if len(self.values) > max_n:
            return (
                f"{counted(len(self.values), 'weight')} given, more than the "
                f"{counted(max_n, 'order')} scored"
            )
        return None

    def weights_array(
        self, stats: SegmentStats, precisions: FloatArray, defined: BoolArray
    ) -> FloatArray:
        """The same weights for every row."""
        width = precisions.shape[1]
        if (problem := self.order_problem(width)) is not None:
            raise InputError(problem)
        row = np.array([*self.values[:width], *[0.0] * (width - len(self.values))])
        weights: FloatArray = np.broadcast_to(row, precisions.shape).copy()
        return weights


# -- weights written for one set of statistics at a time ----------------------------------


@attrs.frozen
class FromScalar(ScalarPartAdapter[Callable[[BLEUStats, Sequence[Precision]], Sequence[float]]]):
    """Weights written for one set of statistics at a time, on rows: it calls ``part`` once per
    row, with the row's :class:`~bleuprint.BLEUStats` and its precisions.

    Args:
        part: a callable (a part, or a plain function) taking one set of statistics and its
            precisions (``None`` where undefined) and returning one weight per order.
        signature: the signature results name it by; by default ``part.signature``.

    Raises:
        ConfigurationError: ``part`` is not callable, or has no signature and none is given.

    >>> from bleuprint import BLEUScore
    >>> def unigrams_only(stats, precisions):
    ...     return [1.0] + [0.0] * (len(precisions) - 1)
    >>> bleu = BLEUScore(weights=FromScalar(unigrams_only, signature="unigrams-only"))
    >>> bleu.compute("a b c d", ["a c b d"])  # every unigram matches, no bigram does
    1.0
    """

    def weights_array(
        self, stats: SegmentStats, precisions: FloatArray, defined: BoolArray
    ) -> FloatArray:
        """The part's weights of each row."""
        rows = zip(stats, precisions.tolist(), defined.tolist())
        weighed = [
            self.part(row, [p if known else None for p, known in zip(values, knowns)])
            for row, values, knowns in rows
        ]
        return np.array(weighed, np.float64).reshape(precisions.shape)
