"""Scoring on arrays: every segment's score at once, where the scoring parts allow.

The smoothing, weights and brevity penalty of every segment are computed on arrays; the
kernel's :func:`~bleuprint._kernels.weighted_geometric_means` does the last step with the very
rounding of the scalar code, so each score equals the engine's ``score`` of that segment.
"""

from __future__ import annotations

from collections.abc import Callable

import attrs
import numpy as np

from bleuprint._exact import weighted_geometric_mean
from bleuprint._kernels import weighted_geometric_means
from bleuprint._result import Signature
from bleuprint._segments import SegmentStats, SentenceScores
from bleuprint._stats import BLEUStats
from bleuprint.typing import (
    ArrayBrevityPenalty,
    ArraySmoother,
    ArrayWeights,
    BoolArray,
    BrevityPenalty,
    FloatArray,
    Smoother,
    Weights,
)

SCORED_SEGMENTS = 1 << 15
"""Segments scored together: few enough for numpy's temporary arrays to stay in cache."""


@attrs.frozen
class ScoringParts:
    """An engine's scoring parts, known to support arrays."""

    smoothing: ArraySmoother
    weights: ArrayWeights
    brevity_penalty: ArrayBrevityPenalty

    @classmethod
    def of(
        cls, smoothing: Smoother, weights: Weights, brevity_penalty: BrevityPenalty
    ) -> ScoringParts | None:
        """The parts, or ``None`` where one of them has no array support."""
        if (
            isinstance(smoothing, ArraySmoother)
            and isinstance(weights, ArrayWeights)
            and isinstance(brevity_penalty, ArrayBrevityPenalty)
        ):
            return cls(smoothing, weights, brevity_penalty)
        return None


def score_segments(
    parts: ScoringParts, stats: SegmentStats, signature_of: Callable[[BLEUStats], Signature]
) -> SentenceScores:
    """Every segment's result, as the engine's ``score`` gives it for each segment."""
    starts = range(0, len(stats), SCORED_SEGMENTS) or range(1)
    columns = zip(*(_score_rows(parts, stats[start : start + SCORED_SEGMENTS]) for start in starts))
    scores, precisions, penalties = map(np.concatenate, columns)
    return SentenceScores(scores, precisions, penalties, stats, signature_of)


def _score_rows(
    parts: ScoringParts, stats: SegmentStats
) -> tuple[FloatArray, FloatArray, FloatArray]:
    precisions, defined = parts.smoothing.precisions_array(stats)
    order_weights = parts.weights.weights_array(stats, precisions, defined)
    penalties = parts.brevity_penalty.penalty_array(
        stats.hypothesis_lengths.astype(np.float64), stats.reference_lengths.astype(np.float64)
    )
    precisions = np.where(defined, precisions, 0.0)
    means = _weighted_geometric_means(precisions, defined, order_weights)
    return penalties * means, precisions, penalties


def _weighted_geometric_means(
    precisions: FloatArray, defined: BoolArray, order_weights: FloatArray
) -> FloatArray:
    """Row by row, what the simple path's ``weighted_geometric_mean`` computes, with the same
    floating-point operations; rows the kernel leaves to it (infinities, errors) it computes."""
    means = weighted_geometric_means(precisions, defined, order_weights)
    for row in np.flatnonzero(np.isnan(means)).tolist():
        row_precisions = zip(precisions[row].tolist(), defined[row].tolist(), strict=True)
        means[row] = weighted_geometric_mean(
            [precision if known else None for precision, known in row_precisions],
            order_weights[row].tolist(),
        )
    return means
