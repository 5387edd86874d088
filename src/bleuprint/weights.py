"""Weights: how much each order's log precision counts in the geometric mean.

>>> from bleuprint import weights
>>> from bleuprint._stats import BLEUStats
>>> stats = BLEUStats((2, 1, 0, 0), (2, 1, 0, 0), 2, 2)
>>> weights.Uniform()(stats, [1.0, 1.0, None, None])
[0.25, 0.25, 0.25, 0.25]
>>> weights.EffectiveOrder()(stats, [1.0, 1.0, None, None])
[0.5, 0.5, 0.0, 0.0]
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import takewhile
from typing import TYPE_CHECKING

import attrs
import numpy as np

from bleuprint._signature import Part
from bleuprint._stats import BLEUStats
from bleuprint._validators import finite_numbers, float_tuple, none_negative, not_all_zero
from bleuprint.exceptions import InputError
from bleuprint.typing import BoolArray, FloatArray, Precision

if TYPE_CHECKING:
    from bleuprint._segments import SegmentStats

__all__ = ["EffectiveOrder", "Explicit", "Uniform"]


@attrs.frozen
class Uniform(Part, family="weights", name="uniform"):
    """Every order from 1 to ``max_n`` weighs ``1 / max_n``."""

    def __call__(self, stats: BLEUStats, precisions: Sequence[Precision]) -> list[float]:
        return [1 / stats.max_n] * stats.max_n

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

    def __call__(self, stats: BLEUStats, precisions: Sequence[Precision]) -> list[float]:
        effective = sum(1 for _ in takewhile(lambda precision: precision is not None, precisions))
        if not effective:  # no n-grams at all: nothing to weigh, the score is 0
            return [0.0] * len(precisions)
        return [1 / effective] * effective + [0.0] * (len(precisions) - effective)

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

    >>> from bleuprint._stats import BLEUStats
    >>> Explicit((0.7, 0.3))(BLEUStats((3, 1, 0), (4, 3, 2), 4, 4), [0.75, 1 / 3, 0.0])
    [0.7, 0.3, 0.0]
    """

    values: tuple[float, ...] = attrs.field(
        converter=float_tuple, validator=[finite_numbers, not_all_zero, none_negative]
    )

    def order_problem(self, max_n: int) -> str | None:
        """More weights than orders (the extra ones could weigh nothing), else ``None``."""
        if len(self.values) > max_n:
            return f"{len(self.values)} weights given but only {max_n} orders are scored"
        return None

    def __call__(self, stats: BLEUStats, precisions: Sequence[Precision]) -> list[float]:
        if (problem := self.order_problem(len(precisions))) is not None:
            raise InputError(problem)
        return [*self.values, *[0.0] * (len(precisions) - len(self.values))]
