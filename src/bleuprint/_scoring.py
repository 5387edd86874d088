"""Scoring: rows of statistics in, results out, the one path for segments and corpora.

Each scoring part works on rows (see :mod:`bleuprint.typing`): the smoothing gives every row's
precisions, the weights every row's weights, the brevity penalty every row's factor, and the
kernel's :func:`~bleuprint._kernels._python.weighted_geometric_means` the means. A corpus total is
scored as a single row (:meth:`~bleuprint._segments.SegmentStats.of`), so one set of
statistics scores exactly as a row among many.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import attrs
import numpy as np

from bleuprint._kernels import geometric_mean, kernel
from bleuprint._result import BLEUResult, Signature
from bleuprint._scalar_parts import ScalarPartAdapter
from bleuprint._segments import SegmentStats, SentenceScores
from bleuprint._stats import BLEUStats
from bleuprint.typing import (
    Aggregation,
    BoolArray,
    BrevityPenalty,
    CorpusSmoother,
    FloatArray,
    Smoother,
    Weights,
    implements,
)

SCORED_SEGMENTS = 1 << 15
"""Segments scored together: few enough for numpy's temporary arrays to stay in cache."""


@attrs.frozen
class ScoringParts:
    """An engine's scoring parts."""

    smoothing: Smoother
    weights: Weights
    brevity_penalty: BrevityPenalty

    @property
    def reads_only_sums(self) -> bool:
        """Whether a corpus scores from the plain sums of its rows' statistics alone (so that
        many corpora, each a sum of rows, score as rows at once): no smoother that sums
        corpora its own way, no part that sees whole statistics one set at a time."""
        corpus_smoother = implements(self.smoothing, CorpusSmoother)
        return not (corpus_smoother or implements(self.smoothing, Aggregation)) and not any(
            isinstance(part, ScalarPartAdapter) for part in attrs.astuple(self, recurse=False)
        )

    def score_segments(
        self, stats: SegmentStats, signature_of: Callable[[BLEUStats], Signature]
    ) -> SentenceScores:
        """Every row's result, in slices that keep numpy's temporaries small."""
        if len(stats) <= SCORED_SEGMENTS:
            columns = self._score_rows(stats)
        else:
            starts = range(0, len(stats), SCORED_SEGMENTS)
            slices = (self._score_rows(stats[start : start + SCORED_SEGMENTS]) for start in starts)
            columns = tuple(map(np.concatenate, zip(*slices)))  # type: ignore[assignment]
        return self._results(columns, stats, signature_of)

    def total(
        self,
        segments: SegmentStats,
        start: BLEUStats,
        signature_of: Callable[[BLEUStats], Signature],
    ) -> BLEUStats:
        """The corpus statistics of ``segments`` added to ``start``, summed as the smoother
        sums them where it reads more than the sums (NLTK's, an aggregation's)."""
        if implements(self.smoothing, Aggregation):
            scores = self.score_segments(segments, signature_of).scores
            return self.smoothing.total(segments, scores, start)
        if implements(self.smoothing, CorpusSmoother):
            return self.smoothing.total(segments, start)
        return segments.total(start)

    def score(self, stats: BLEUStats, signature_of: Callable[[BLEUStats], Signature]) -> BLEUResult:
        """The result of one set of statistics: its one row's."""
        return self.score_segments(SegmentStats.of(stats), signature_of)[0]

    def score_weights(
        self,
        stats: BLEUStats,
        weightings: Iterable[tuple[Weights, Callable[[BLEUStats], Signature]]],
    ) -> list[BLEUResult]:
        """The results of one set of statistics under each weighting, with its signature
        (smoothed once)."""
        row = SegmentStats.of(stats)
        precisions, defined = self.smoothing.precisions_array(row)
        return [
            self._results(self._weigh(row, precisions, defined, part), row, signature_of)[0]
            for part, signature_of in weightings
        ]

    def _results(
        self,
        columns: tuple[FloatArray, FloatArray, FloatArray],
        stats: SegmentStats,
        signature_of: Callable[[BLEUStats], Signature],
    ) -> SentenceScores:
        """The rows' results; a smoother that aggregates a corpus its own way (GLEU, a mean of
        sentence scores) has the last word on each (a segment's and a corpus's alike)."""
        results = SentenceScores(*columns, stats, signature_of)
        if not implements(self.smoothing, Aggregation):
            return results
        final = [self.smoothing.corpus_result(result) for result in results]
        return SentenceScores(
            np.array([result.score for result in final], np.float64),
            np.array([result.precisions for result in final], np.float64).reshape(columns[1].shape),
            np.array([result.brevity_penalty for result in final], np.float64),
            stats,
            signature_of,
        )

    def _score_rows(self, stats: SegmentStats) -> tuple[FloatArray, FloatArray, FloatArray]:
        precisions, defined = self.smoothing.precisions_array(stats)
        return self._weigh(stats, precisions, defined, self.weights)

    def _weigh(
        self, stats: SegmentStats, precisions: FloatArray, defined: BoolArray, part: Weights
    ) -> tuple[FloatArray, FloatArray, FloatArray]:
        order_weights = part.weights_array(stats, precisions, defined)
        penalties = self.brevity_penalty.penalty_array(
            stats.hypothesis_lengths.astype(np.float64), stats.reference_lengths.astype(np.float64)
        )
        precisions = np.where(defined, precisions, 0.0)
        means = _weighted_geometric_means(precisions, defined, order_weights)
        return penalties * means, precisions, penalties


def _weighted_geometric_means(
    precisions: FloatArray, defined: BoolArray, order_weights: FloatArray
) -> FloatArray:
    """Row by row, ``exp(fsum(w * log p))`` over the orders of nonzero weight; rows the kernel
    leaves (infinities, errors) are computed, or raise, as :mod:`math` does."""
    means = kernel.weighted_geometric_means(precisions, defined, order_weights)
    for row in np.flatnonzero(np.isnan(means)).tolist():
        means[row] = geometric_mean(
            precisions[row].tolist(), defined[row].tolist(), order_weights[row].tolist()
        )
    return means
