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

import attrs

from bleuprint._signature import Part
from bleuprint._stats import BLEUStats
from bleuprint.typing import Precision

__all__ = ["EffectiveOrder", "Uniform"]


@attrs.frozen
class Uniform(Part, family="weights", name="uniform"):
    """Every order from 1 to ``max_n`` weighs ``1 / max_n``."""

    def __call__(self, stats: BLEUStats, precisions: Sequence[Precision]) -> list[float]:
        return [1 / stats.max_n] * stats.max_n


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
