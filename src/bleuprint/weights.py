"""Weights: how much each order's log precision counts in the geometric mean.

>>> from bleuprint import weights
>>> from bleuprint._stats import BLEUStats
>>> stats = BLEUStats((2, 1, 0, 0), (2, 1, 0, 0), 2, 2)
>>> weights.Uniform()(stats, [1.0, 1.0, None, None])
[0.25, 0.25, 0.25, 0.25]
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs
import numpy as np

from bleuprint._segments import SegmentStats
from bleuprint._signature import Part
from bleuprint._stats import BLEUStats
from bleuprint.typing import BoolArray, FloatArray, Precision

__all__ = ["Uniform"]


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
