"""Smoothing: how matches and totals become per-order precisions.

A smoother returns one precision in [0, 1] per order, or ``None`` for an order that is
undefined because the hypothesis has no n-grams of it. What the engine does with ``None`` is
up to the weights: uniform weights make the score 0, effective-order weights leave it out.

>>> from bleuprint import smoothing
>>> from bleuprint._stats import BLEUStats
>>> stats = BLEUStats((3, 1, 0), (4, 3, 2), 4, 4)
>>> smoothing.NoSmoothing()(stats)
[0.75, 0.3333333333333333, 0.0]
"""

from __future__ import annotations

import attrs
import numpy as np

from bleuprint._segments import SegmentStats
from bleuprint._signature import Part
from bleuprint._stats import BLEUStats
from bleuprint.typing import BoolArray, FloatArray, Precision

__all__ = ["NoSmoothing"]


@attrs.frozen
class NoSmoothing(Part, family="smooth", name="none"):
    """The plain ratio ``matches / totals``; an order without n-grams is undefined."""

    def __call__(self, stats: BLEUStats) -> list[Precision]:
        return [
            matched / total if total else None
            for matched, total in zip(stats.matches, stats.totals, strict=True)
        ]

    def precisions_array(self, stats: SegmentStats) -> tuple[FloatArray, BoolArray]:
        """Every segment's precisions at once, and where they are defined."""
        defined = stats.totals != 0
        return stats.matches / np.where(defined, stats.totals, 1), defined
