"""sacreBLEU 2.6.0's arithmetic on bleuprint's counts, for ``bleuprint sacrebleu``.

bleuprint counts the n-grams and lengths of every segment (the engine's ``count_segments``);
this module turns those counts into numbers with the same floating-point operations, in the
same order and on the same number types as sacreBLEU's command line (``BLEU.compute_bleu``,
its bootstrap on ``float32`` statistics, its paired tests). That is what makes the unrounded
numbers of sacreBLEU's JSON (the scores, means and intervals of paired tests) agree to the last
bit; bleuprint's own engine, which scores on the [0, 1] scale, agrees with them only to about
the fifteenth digit.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterator, Sequence
from typing import Any

import attrs
import numpy as np
import numpy.typing as npt

from bleuprint._segments import SegmentStats

SMOOTH_DEFAULTS: dict[str, float | None] = {"none": None, "floor": 0.1, "add-k": 1, "exp": None}
"""sacreBLEU's smoothing methods and the value each takes when none is given."""

_BLOCK = 64  # resamples summed at once: bounds the memory of a bootstrap

Rows = npt.NDArray[Any]
"""One row per segment: ``[hyp_len, ref_len, *matches, *totals]``, sacreBLEU's layout."""


@attrs.frozen
class Score:
    """One BLEU score as sacreBLEU's ``BLEUScore`` holds it (0-100 scale)."""

    score: float
    precisions: list[float]
    bp: float
    sys_len: int
    ref_len: int
    mean: float = -1.0  # sacreBLEU's "no interval": printed only when > 0
    ci: float = -1.0

    @property
    def verbose(self) -> str:
        """The details after the score: precisions, BP, ratio, lengths."""
        ratio = self.sys_len / self.ref_len if self.ref_len else 0
        precisions = "/".join(f"{p:.1f}" for p in self.precisions)
        return (
            f"{precisions} (BP = {self.bp:.3f} ratio = {ratio:.3f} hyp_len = {self.sys_len:d} "
            f"ref_len = {self.ref_len:d})"
        )


@attrs.frozen
class TestResult:
    """One system's outcome of a paired test (sacreBLEU's ``significance.Result``)."""

    score: float
    p_value: float | None = None
    mean: float | None = None
    ci: float | None = None

    def as_json(self) -> dict[str, Any]:
        return {"score": self.score, "p_value": self.p_value, "mean": self.mean, "ci": self.ci}


@attrs.frozen
class Arithmetic:
    """sacreBLEU's ``compute_bleu`` with one configuration's order and smoothing."""

    max_n: int
    smooth_method: str
    smooth_value: float | None
    effective_order: bool

    def rows(self, segments: SegmentStats) -> Rows:
        """The counts of each segment in sacreBLEU's layout, as whole numbers."""
        columns = [
            np.asarray(segments.hypothesis_lengths).reshape(-1, 1),
            np.asarray(segments.reference_lengths).reshape(-1, 1),
            np.asarray(segments.matches).reshape(len(segments), -1),
            np.asarray(segments.totals).reshape(len(segments), -1),
        ]
        rows: Rows = np.rint(np.hstack(columns)).astype(np.int64)
        return rows

    def corpus(self, rows: Rows) -> Score:
        """The corpus score, summed in Python integers as sacreBLEU sums its lists."""
        return self.score([int(value) for value in rows.sum(axis=0)])

    def score(self, stats: Sequence[Any]) -> Score:
        """``BLEU._compute_score_from_stats``: the numbers keep the type they come in
        (``int``, ``numpy.int64`` or ``numpy.float32``), as they do in sacreBLEU."""
        order = self.max_n
        correct, total = list(stats[2 : 2 + order]), list(stats[2 + order :])
        sys_len, ref_len = int(stats[0]), int(stats[1])
        value = self.smooth_value
        if value is None:
            value = SMOOTH_DEFAULTS[self.smooth_method]
        bp = 1.0
        if sys_len < ref_len:
            bp = math.exp(1 - ref_len / sys_len) if sys_len > 0 else 0.0
        precisions = [0.0] * order
        if not any(correct):
            return Score(0.0, precisions, bp, sys_len, ref_len)
        smooth_mteval = 1.0
        effective = order
        for n in range(1, order + 1):
            if self.smooth_method == "add-k" and n > 1:
                correct[n - 1] += value
                total[n - 1] += value
            if total[n - 1] == 0:
                break
            if self.effective_order:
                effective = n
            if correct[n - 1] == 0:
                if self.smooth_method == "exp":
                    smooth_mteval *= 2
                    precisions[n - 1] = 100.0 / (smooth_mteval * total[n - 1])
                elif self.smooth_method == "floor":
                    precisions[n - 1] = 100.0 * value / total[n - 1]  # type: ignore[operator]
            else:
                precisions[n - 1] = 100.0 * correct[n - 1] / total[n - 1]
        logs = [_log(precision) for precision in precisions[:effective]]
        return Score(bp * math.exp(sum(logs) / effective), precisions, bp, sys_len, ref_len)

    def resampled(self, rows: Rows, indices: npt.NDArray[np.int64]) -> list[float]:
        """The score of each bootstrap resample, on ``float32`` statistics as in sacreBLEU."""
        as_float32 = rows.astype(np.float32)
        return [
            self.score(summed).score
            for block in _blocks(indices)
            for summed in as_float32[block].sum(axis=1)
        ]

    def with_interval(self, rows: Rows, resamples: int, seed: int | None) -> Score:
        """``corpus_score(..., n_bootstrap=resamples)``: the score with the bootstrap's mean
        (``statistics.mean``) and half the 95% interval."""
        score = self.corpus(rows)
        indices = _bootstrap_indices(np.random.default_rng(seed), len(rows), resamples)
        ordered = sorted(self.resampled(rows, indices))
        lower = len(ordered) // 40
        half = 0.5 * (ordered[len(ordered) - lower - 1] - ordered[lower])
        return attrs.evolve(score, mean=statistics.mean(ordered), ci=half)

    def paired(
        self,
        systems: Sequence[Rows],
        *,
        test: str,
        samples: int,
        seed: int | None,
        baseline_seed: int | None,
    ) -> list[TestResult]:
        """``PairedTest``: the baseline first (with its bootstrap interval under ``bs``, drawn
        with ``baseline_seed``), then each system against it."""
        baseline = systems[0]
        baseline_score = self.corpus(baseline).score
        first = TestResult(baseline_score)
        if test == "bs":
            indices = _bootstrap_indices(
                np.random.default_rng(baseline_seed), len(baseline), samples
            )
            first = TestResult(
                baseline_score, None, *_estimate_ci(self.resampled(baseline, indices))
            )
        results = [first]
        for system in systems[1:]:
            system_score = self.corpus(system).score
            difference = abs(baseline_score - system_score)
            rng = np.random.default_rng(seed)
            if test == "bs":
                indices = _bootstrap_indices(rng, len(system), samples)
                baseline_scores = np.array(self.resampled(baseline, indices))
                system_scores = np.array(self.resampled(system, indices))
                mean, ci = _estimate_ci(list(system_scores))
                sample_differences = np.abs(system_scores - baseline_scores)
                centred = sample_differences - sample_differences.mean()
                results.append(TestResult(system_score, _p_value(centred, difference), mean, ci))
            else:
                chosen = rng.integers(2, size=(samples, len(system)), dtype=bool)
                first_scores = self._swapped(chosen, baseline, system)
                second_scores = self._swapped(~chosen, baseline, system)
                p_value = _p_value(np.abs(first_scores - second_scores), difference)
                results.append(TestResult(system_score, p_value))
        return results

    def _swapped(self, chosen: npt.NDArray[np.bool_], first: Rows, second: Rows) -> Rows:
        # Pseudo-systems of whole-number statistics (numpy.int64), as sacreBLEU makes them.
        return np.array([self.score(row).score for row in chosen @ first + ~chosen @ second])


def _log(value: float) -> float:
    return -9999999999 if value == 0.0 else math.log(value)


def _bootstrap_indices(
    rng: np.random.Generator, segments: int, resamples: int
) -> npt.NDArray[np.int64]:
    return rng.choice(segments, size=(resamples, segments), replace=True)


def _blocks(indices: npt.NDArray[np.int64]) -> Iterator[npt.NDArray[np.int64]]:
    for start in range(0, len(indices), _BLOCK):
        yield indices[start : start + _BLOCK]


def _estimate_ci(scores: list[float]) -> tuple[float, float]:
    """``significance.estimate_ci``: numpy's mean, and half the 95% interval."""
    ordered = np.sort(np.array(scores))
    lower = len(ordered) // 40
    return float(ordered.mean()), float(0.5 * (ordered[len(ordered) - lower - 1] - ordered[lower]))


def _p_value(statistics_: npt.NDArray[np.float64], observed: float) -> float:
    return (int(np.sum(statistics_ > observed)) + 1) / (len(statistics_) + 1)
