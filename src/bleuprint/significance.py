"""Is a difference in BLEU real? Paired significance tests and bootstrap confidence intervals.

Everything here works on the statistics of each segment, held as one matrix per system
(:class:`SegmentStatistics`), so resampling a corpus is a matrix product rather than re-counting
n-grams; the resampled corpora are then scored by the engine's own scoring, all at once on
arrays where its scoring parts support them (the canonical and sacreBLEU parts do), else one
corpus at a time, so every definition is tested exactly as it scores.

The tests draw their random numbers exactly as sacreBLEU 2.6.0 does (numpy's
``default_rng(seed)``, then ``choice`` for bootstrap indices and ``integers(2, dtype=bool)``
for the coin flips of approximate randomization), with its defaults: seed 12345, 1,000 bootstrap
resamples, 10,000 randomization trials, and the p-value ``(count + 1) / (n + 1)``. So the same
seed gives sacreBLEU's p-values, means and confidence intervals. (Means and intervals can differ
from sacreBLEU's in the sixth significant digit: under numpy 2, sacreBLEU computes the precisions
of resampled corpora in single precision. And where sacreBLEU takes a seed of 0 in paired tests
to mean "no seed", here 0 is a seed like any other.) As in sacreBLEU, the draws are made in one
call each, so they take ``resamples x segments`` integers or ``trials x segments`` booleans of
memory; the sums of resampled corpora are computed a block of corpora at a time.

>>> from bleuprint import BLEUScore
>>> bleu = BLEUScore.canonical(max_n=2)
>>> references = [["the cat sat on the mat"], ["a dog barked"], ["it rained all day"]]
>>> baseline = SegmentStatistics.count(bleu, ["the cat sat", "a dog", "it rained"], references)
>>> system = SegmentStatistics.count(
...     bleu, ["the cat sat on the mat", "a dog barked", "it rained all day"], references)
>>> result = paired_bootstrap(baseline, system, bleu, resamples=100)
>>> result.score, 0 < result.p_value <= 1
(1.0, True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal, TypeAlias

import attrs
import numpy as np
import numpy.typing as npt

from bleuprint._engine import BLEUScore
from bleuprint._segments import SegmentStats
from bleuprint._stats import BLEUStats
from bleuprint.exceptions import ConfigurationError, InputError
from bleuprint.typing import ArrayBrevityPenalty, ArraySmoother, ArrayWeights, Segment

__all__ = [
    "DEFAULT_RESAMPLES",
    "DEFAULT_SEED",
    "DEFAULT_TRIALS",
    "SegmentStatistics",
    "SignificanceResult",
    "bootstrap_confidence",
    "compare_systems",
    "paired_approximate_randomization",
    "paired_bootstrap",
]

DEFAULT_SEED = 12345
"""sacreBLEU's default seed (its ``SACREBLEU_SEED``)."""
DEFAULT_RESAMPLES = 1000
"""Bootstrap resamples, for paired bootstrap tests and confidence intervals."""
DEFAULT_TRIALS = 10000
"""Trials of approximate randomization."""

Scorer: TypeAlias = "BLEUScore | Callable[[BLEUStats], float]"
"""What scores a resampled corpus: an engine, or a function from statistics to a score."""
Progress: TypeAlias = Callable[[int], object]
"""Told how many more resampled corpora have been scored."""
Matrix: TypeAlias = npt.NDArray[np.float64]

# Resampled corpora are summed this many at a time, which bounds the memory of the
# (corpora x segments) weight matrices on large test sets.
_BLOCK = 256


@attrs.frozen(eq=False)
class SegmentStatistics:
    """The statistics of every segment of one system's output, one row per segment.

    The columns of ``matrix`` follow sacreBLEU's layout: hypothesis length, reference length, the
    matches of orders 1 to N, then the totals of orders 1 to N. ``empty_orders`` (one column per
    order: 1 where the segment's hypothesis has no n-gram of that order) is what NLTK's
    definitions read besides; ``None`` counts no such segment. A resampled corpus's last
    segment, which some of NLTK's smoothing methods read, is its last drawn segment.

    >>> from bleuprint import BLEUScore
    >>> bleu = BLEUScore.canonical(max_n=2)
    >>> table = SegmentStatistics.count(bleu, ["a b c", "a x"], [["a b c"], ["a b"]])
    >>> table.matrix.tolist()
    [[3.0, 3.0, 3.0, 2.0, 3.0, 2.0], [2.0, 2.0, 1.0, 0.0, 2.0, 1.0]]
    >>> table.total().matches
    (4.0, 2.0)
    """

    matrix: Matrix
    reference_counts: frozenset[int] = frozenset()
    counting: str = ""
    empty_orders: Matrix | None = None

    @classmethod
    def from_segments(cls, segments: Sequence[BLEUStats]) -> SegmentStatistics:
        """Stack the statistics of single segments (e.g. from ``BLEUScore.count_segments``)."""
        if not segments:
            raise InputError("no segments: significance needs at least one")
        rows = [
            [stats.hypothesis_length, stats.reference_length, *stats.matches, *stats.totals]
            for stats in segments
        ]
        empty = [[int(total == 0) for total in stats.totals] for stats in segments]
        total = sum(segments[1:], segments[0])  # refuses to mix counting configurations
        return cls(
            np.array(rows, dtype=np.float64),
            total.reference_counts,
            total.counting,
            np.array(empty, dtype=np.float64),
        )

    @classmethod
    def count(
        cls,
        engine: BLEUScore,
        hypotheses: Sequence[Segment],
        references: Sequence[Sequence[Segment]],
    ) -> SegmentStatistics:
        """Count every segment of a system's output with ``engine``."""
        return cls.from_segments(engine.count_segments(hypotheses, references))

    @property
    def max_n(self) -> int:
        """The number of n-gram orders."""
        columns: int = self.matrix.shape[1]
        return (columns - 2) // 2

    def __len__(self) -> int:
        return len(self.matrix)

    @property
    def columns(self) -> Matrix:
        """Every additive statistic of each segment: the matrix, then the empty orders."""
        empty = (
            np.zeros((len(self), self.max_n)) if self.empty_orders is None else self.empty_orders
        )
        return np.hstack([self.matrix, empty])

    def total(self) -> BLEUStats:
        """The statistics of the whole corpus."""
        return self.corpus(self.columns.sum(axis=0), final=self.columns[-1])

    def without(self, index: int) -> BLEUStats:
        """The statistics of the corpus without segment ``index``."""
        rest = np.delete(self.columns, index, axis=0)
        return self.corpus(rest.sum(axis=0), segments=len(rest), final=_last(rest))

    def corpus(
        self, row: Matrix, *, segments: int | None = None, final: Matrix | None = None
    ) -> BLEUStats:
        """Statistics of a corpus from one summed row of :attr:`columns`: it has ``segments``
        segments (default: as many as this table), the last of which has the columns
        ``final``."""
        n = self.max_n
        # Interim, until significance works on SegmentStats: NLTK's extra sums.
        from bleuprint.compat.nltk import NLTKStats  # noqa: PLC0415

        return NLTKStats(
            row[2 : 2 + n].tolist(),
            row[2 + n : 2 + 2 * n].tolist(),
            float(row[0]),
            float(row[1]),
            segments=len(self) if segments is None else segments,
            reference_counts=self.reference_counts,
            counting=self.counting,
            empty_orders=tuple(round(count) for count in row[2 + 2 * n :]),
            last=None if final is None else self.corpus(final, segments=1),
        )


def _last(rows: Matrix) -> Matrix | None:
    return rows[-1] if len(rows) else None


@attrs.frozen
class SignificanceResult:
    """One system's score, with the outcome of the tests run on it.

    ``score``, ``mean`` and ``ci`` are on the scale of the scorer ([0, 1] for bleuprint's
    engines). ``p_value`` is ``None`` for the baseline; ``mean`` and ``ci`` (half the width of
    the 95% bootstrap interval, sacreBLEU's "±") are ``None`` where no bootstrap was run.
    """

    score: float
    p_value: float | None = None
    mean: float | None = None
    ci: float | None = None


def bootstrap_confidence(
    system: SegmentStatistics,
    scorer: Scorer,
    *,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int | None = DEFAULT_SEED,
    progress: Progress | None = None,
) -> SignificanceResult:
    """The score with its bootstrap mean and 95% confidence interval (sacreBLEU's
    ``corpus_score(..., n_bootstrap=resamples)``)."""
    score = _Scoring.of(scorer)
    _check_count("resamples", resamples)
    rng = np.random.default_rng(seed)
    indices = _bootstrap_indices(rng, len(system), resamples)
    mean, ci = _mean_and_ci(_resampled_scores(system, indices, score, progress))
    return SignificanceResult(score.one(system.total()), mean=mean, ci=ci)


def paired_bootstrap(
    baseline: SegmentStatistics,
    system: SegmentStatistics,
    scorer: Scorer,
    *,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int | None = DEFAULT_SEED,
    progress: Progress | None = None,
) -> SignificanceResult:
    """Paired bootstrap resampling (Koehn, 2004), as in Moses and sacreBLEU.

    Both systems are scored on the same resampled test sets. The p-value is the share of
    resamples whose centred absolute difference ``|s - b| - mean |s - b|`` exceeds the observed
    one, with sacreBLEU's ``+ 1`` correction; ``mean`` and ``ci`` describe the system.
    """
    score = _Scoring.of(scorer)
    _check_paired(baseline, system)
    _check_count("resamples", resamples)
    rng = np.random.default_rng(seed)
    indices = _bootstrap_indices(rng, len(system), resamples)
    baseline_scores = _resampled_scores(baseline, indices, score, progress)
    system_scores = _resampled_scores(system, indices, score, progress)
    differences = np.abs(system_scores - baseline_scores)
    system_score = score.one(system.total())
    observed = abs(score.one(baseline.total()) - system_score)
    mean, ci = _mean_and_ci(system_scores)
    return SignificanceResult(
        system_score, _p_value(differences - differences.mean(), observed), mean, ci
    )


def paired_approximate_randomization(
    baseline: SegmentStatistics,
    system: SegmentStatistics,
    scorer: Scorer,
    *,
    trials: int = DEFAULT_TRIALS,
    seed: int | None = DEFAULT_SEED,
    confidence_resamples: int = 0,
    progress: Progress | None = None,
) -> SignificanceResult:
    """Paired approximate randomization (Riezler and Maxwell, 2005), as in sacreBLEU.

    Each trial swaps the two systems' outputs on a random half of the segments; the p-value is
    the share of trials whose absolute score difference exceeds the observed one, with the
    ``+ 1`` correction. ``confidence_resamples > 0`` also bootstraps the system's mean and
    confidence interval, drawing after the coin flips as sacreBLEU does.
    """
    score = _Scoring.of(scorer)
    _check_paired(baseline, system)
    _check_count("trials", trials)
    rng = np.random.default_rng(seed)
    swaps = rng.integers(2, size=(trials, len(system)), dtype=bool)
    system_score = score.one(system.total())
    observed = abs(score.one(baseline.total()) - system_score)
    differences = _randomized_differences(baseline, system, swaps, score, progress)
    result = SignificanceResult(system_score, _p_value(differences, observed))
    if confidence_resamples > 0:
        indices = _bootstrap_indices(rng, len(system), confidence_resamples)
        mean, ci = _mean_and_ci(_resampled_scores(system, indices, score, progress))
        result = attrs.evolve(result, mean=mean, ci=ci)
    return result


def compare_systems(
    systems: Sequence[SegmentStatistics],
    scorer: Scorer,
    *,
    test: Literal["bs", "ar"] = "bs",
    samples: int | None = None,
    seed: int | None = DEFAULT_SEED,
    confidence_resamples: int = 0,
    progress: Progress | None = None,
) -> list[SignificanceResult]:
    """Test every system against the first, the baseline, as sacreBLEU's paired tests do.

    ``test="bs"`` runs paired bootstrap resampling (``samples`` resamples, default 1,000) and
    gives every system a confidence interval; ``test="ar"`` runs approximate randomization
    (``samples`` trials, default 10,000), with intervals only when ``confidence_resamples > 0``.
    The baseline's interval uses a generator of its own seeded with ``seed``.
    """
    if len(systems) < 2:
        raise InputError("a paired test needs a baseline and at least one other system")
    baseline, others = systems[0], systems[1:]
    if test == "bs":
        resamples = samples or DEFAULT_RESAMPLES
        first = bootstrap_confidence(
            baseline, scorer, resamples=resamples, seed=seed, progress=progress
        )
        rest = [
            paired_bootstrap(
                baseline, other, scorer, resamples=resamples, seed=seed, progress=progress
            )
            for other in others
        ]
    elif test == "ar":
        if confidence_resamples > 0:
            first = bootstrap_confidence(
                baseline, scorer, resamples=confidence_resamples, seed=seed, progress=progress
            )
        else:
            first = SignificanceResult(_Scoring.of(scorer).one(baseline.total()))
        rest = [
            paired_approximate_randomization(
                baseline,
                other,
                scorer,
                trials=samples or DEFAULT_TRIALS,
                seed=seed,
                confidence_resamples=confidence_resamples,
                progress=progress,
            )
            for other in others
        ]
    else:
        raise ConfigurationError(f"test must be 'bs' or 'ar', got {test!r}")
    return [first, *rest]


@attrs.frozen
class _Scoring:
    """Scores corpora: ``one`` at a time, or many from their summed rows, on arrays where the
    engine's scoring parts support them (the same numbers as ``one``, much faster)."""

    one: Callable[[BLEUStats], float]
    engine: BLEUScore | None = None

    @classmethod
    def of(cls, scorer: Scorer) -> _Scoring:
        if not isinstance(scorer, BLEUScore):
            return cls(scorer)
        engine = scorer
        on_arrays = (
            isinstance(engine.smoothing, ArraySmoother)
            and isinstance(engine.weights, ArrayWeights)
            and isinstance(engine.brevity_penalty, ArrayBrevityPenalty)
        )
        return cls(lambda stats: engine.score(stats).score, engine if on_arrays else None)

    def corpora(
        self, system: SegmentStatistics, sums: Matrix, finals: Matrix, progress: Progress | None
    ) -> Matrix:
        """The score of each corpus, from its summed :attr:`~SegmentStatistics.columns` and
        the columns of its last segment."""
        if self.engine is not None:
            # Array scoring parts read matches, totals and lengths only, row by row.
            scores: Matrix = self.engine.score_segments(_as_rows(system, sums)).scores
            if progress is not None:
                progress(len(sums))
            return scores
        scores = np.empty(len(sums))
        for row, (corpus, final) in enumerate(zip(sums, finals)):
            scores[row] = self.one(system.corpus(corpus, final=final))
            if progress is not None and row % _BLOCK == _BLOCK - 1:
                progress(_BLOCK)
        if progress is not None:
            progress(len(sums) % _BLOCK)
        return scores


def _as_rows(system: SegmentStatistics, sums: Matrix) -> SegmentStats:
    """Summed corpora as rows of :class:`~bleuprint.SegmentStats`, for array scoring."""
    n = system.max_n
    counts = np.full(len(sums), next(iter(system.reference_counts), 1), dtype=np.int64)
    return SegmentStats(
        sums[:, 2 : 2 + n],
        sums[:, 2 + n : 2 + 2 * n],
        sums[:, 0],
        sums[:, 1],
        counts,
        system.counting,
    )


def _check_count(name: str, value: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ConfigurationError(f"{name} must be a whole number of at least 1, got {value!r}")


def _check_paired(baseline: SegmentStatistics, system: SegmentStatistics) -> None:
    if len(baseline) != len(system):
        raise InputError(
            f"the baseline has {len(baseline)} segments but the system has {len(system)}: "
            "paired tests compare outputs for the same segments"
        )
    if baseline.counting != system.counting or baseline.columns.shape != system.columns.shape:
        raise InputError("the baseline and the system were counted with different configurations")


def _bootstrap_indices(
    rng: np.random.Generator, segments: int, resamples: int
) -> npt.NDArray[np.int64]:
    # One call for all resamples: the same draws as sacreBLEU's.
    indices: npt.NDArray[np.int64] = rng.choice(segments, size=(resamples, segments))
    return indices


def _resampled_scores(
    system: SegmentStatistics,
    indices: npt.NDArray[np.int64],
    score: _Scoring,
    progress: Progress | None,
) -> Matrix:
    """The score of each resampled corpus; ``indices[k]`` lists the segments of corpus k."""
    columns = system.columns
    segments = len(system)
    sums = np.empty((len(indices), columns.shape[1]))
    for start in range(0, len(indices), _BLOCK):
        block = indices[start : start + _BLOCK]
        # How often each segment was drawn into each corpus, so a corpus sum is a dot product.
        cells = block + segments * np.arange(len(block))[:, None]
        draws = np.bincount(cells.ravel(), minlength=block.size).reshape(len(block), segments)
        sums[start : start + len(block)] = draws @ columns
    return score.corpora(system, sums, columns[indices[:, -1]], progress)


def _randomized_differences(
    baseline: SegmentStatistics,
    system: SegmentStatistics,
    swaps: npt.NDArray[np.bool_],
    score: _Scoring,
    progress: Progress | None,
) -> Matrix:
    """``|score(A) - score(B)|`` per trial, where pseudo-system A takes the baseline's segment
    where the trial's coin says so and the system's elsewhere, and B takes the rest."""
    ours, theirs = baseline.columns, system.columns
    both = ours.sum(axis=0) + theirs.sum(axis=0)
    gain = ours - theirs
    first = np.empty((len(swaps), ours.shape[1]))
    for start in range(0, len(swaps), _BLOCK):
        block = swaps[start : start + _BLOCK]
        first[start : start + len(block)] = theirs.sum(axis=0) + block.astype(np.float64) @ gain
    last_swapped = swaps[:, -1:]
    first_final = np.where(last_swapped, ours[-1], theirs[-1])
    second_final = np.where(last_swapped, theirs[-1], ours[-1])
    return np.abs(
        score.corpora(system, first, first_final, progress)
        - score.corpora(system, both - first, second_final, progress)
    )


def _mean_and_ci(scores: Matrix) -> tuple[float, float]:
    """The mean and half the width of the central 95% of the scores, sacreBLEU's way:
    the scores at ranks ``n // 40`` and ``n - n // 40 - 1`` of the sorted list."""
    ordered = np.sort(scores)
    low = len(ordered) // 40
    high = len(ordered) - low - 1
    # The mean of the sorted scores: the same summation order, so the same bits, as sacreBLEU.
    return float(ordered.mean()), float(0.5 * (ordered[high] - ordered[low]))


def _p_value(statistics: Matrix, observed: float) -> float:
    # Strictly greater: a system compared with itself must not look significant by chance.
    exceeding = int(np.sum(statistics > observed))
    return (exceeding + 1) / (len(statistics) + 1)
