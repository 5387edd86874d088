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
from collections.abc import Iterable, Sequence
from typing import Any

import attrs
import numpy as np
import numpy.typing as npt

from bleuprint._resampling import (
    Indices,
    Scores,
    bootstrap_blocks,
    coin_blocks,
    mean_and_ci,
    p_value,
)
from bleuprint._segments import SegmentStats

SMOOTH_DEFAULTS: dict[str, float | None] = {"none": None, "floor": 0.1, "add-k": 1, "exp": None}
"""sacreBLEU's smoothing methods and the value each takes when none is given."""

_SUMMED_DRAWS = 1 << 18  # draws summed at once: bounds the memory of a bootstrap

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

    def resampled(self, rows: Rows, blocks: Iterable[Indices]) -> Scores:
        """The score of each bootstrap resample, a block of resamples at a time, on ``float32``
        statistics as in sacreBLEU (``rows`` converted, unless they are already)."""
        as_float32 = rows.astype(np.float32, copy=False)
        step = max(1, _SUMMED_DRAWS // len(rows))
        return np.array(
            [
                self.score(summed).score
                for block in blocks
                for start in range(0, len(block), step)
                for summed in as_float32[block[start : start + step]].sum(axis=1)
            ]
        )

    def with_interval(self, rows: Rows, resamples: int, seed: int | None) -> Score:
        """``corpus_score(..., n_bootstrap=resamples)``: the score with the bootstrap's mean
        (``statistics.mean``) and half the 95% interval."""
        score = self.corpus(rows)
        blocks = bootstrap_blocks(np.random.default_rng(seed), len(rows), resamples)
        ordered = sorted(self.resampled(rows, blocks).tolist())
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
            blocks = bootstrap_blocks(np.random.default_rng(baseline_seed), len(baseline), samples)
            first = TestResult(baseline_score, None, *mean_and_ci(self.resampled(baseline, blocks)))
        results = [first]
        for system in systems[1:]:
            system_score = self.corpus(system).score
            difference = abs(baseline_score - system_score)
            rng = np.random.default_rng(seed)
            if test == "bs":
                baseline_scores, system_scores = self._paired_resamples(
                    rng, samples, baseline, system
                )
                mean, ci = mean_and_ci(system_scores)
                sample_differences = np.abs(system_scores - baseline_scores)
                centred = sample_differences - sample_differences.mean()
                results.append(TestResult(system_score, p_value(centred, difference), mean, ci))
            else:
                first_scores, second_scores = self._swapped(rng, samples, baseline, system)
                p = p_value(np.abs(first_scores - second_scores), difference)
                results.append(TestResult(system_score, p))
        return results

    def _paired_resamples(
        self, rng: np.random.Generator, samples: int, first: Rows, second: Rows
    ) -> tuple[Scores, Scores]:
        """Both systems' scores on the same resamples, drawn a block at a time."""
        scores: tuple[list[Scores], list[Scores]] = ([], [])
        first, second = first.astype(np.float32), second.astype(np.float32)  # once, not per block
        for block in bootstrap_blocks(rng, len(first), samples):
            scores[0].append(self.resampled(first, [block]))
            scores[1].append(self.resampled(second, [block]))
        return np.concatenate(scores[0]), np.concatenate(scores[1])

    def _swapped(
        self, rng: np.random.Generator, trials: int, first: Rows, second: Rows
    ) -> tuple[Scores, Scores]:
        """The scores of each trial's two pseudo-systems, of whole-number statistics
        (``numpy.int64``) as sacreBLEU makes them: one takes ``first``'s segment where the coin
        says so and ``second``'s elsewhere, the other the rest."""
        scores: tuple[list[float], list[float]] = ([], [])
        for chosen in coin_blocks(rng, trials, len(first)):
            for side, coins in enumerate((chosen, ~chosen)):
                scores[side].extend(
                    self.score(row).score for row in coins @ first + ~coins @ second
                )
        return np.array(scores[0]), np.array(scores[1])


def _log(value: float) -> float:
    return -9999999999 if value == 0.0 else math.log(value)
