"""Is a difference in BLEU real? Paired significance tests and bootstrap confidence intervals.

Everything here works on the statistics of each segment (:class:`~bleuprint.SegmentStats`, from
:meth:`BLEUScore.count_segments <bleuprint.BLEUScore.count_segments>`), so a resampled corpus is
a selection of rows rather than a re-count of n-grams. Where the engine's scoring parts support
arrays (the canonical and sacreBLEU parts do), a resampled corpus's statistics are the plain sums
of its rows, computed for many corpora at once as matrix products and scored all at once;
otherwise each resampled corpus is summed as the definition sums it
(:meth:`BLEUScore.total <bleuprint.BLEUScore.total>`) and scored on its own, so every definition
is tested exactly as it scores.

The tests draw their random numbers exactly as sacreBLEU 2.6.0 does (numpy's
``default_rng(seed)``, then ``choice`` for bootstrap indices and ``integers(2, dtype=bool)``
for the coin flips of approximate randomization), with its defaults: seed 12345, 1,000 bootstrap
resamples, 10,000 randomization trials, and the p-value ``(count + 1) / (n + 1)``. So the same
seed gives sacreBLEU's p-values, means and confidence intervals. (Means and intervals can differ
from sacreBLEU's in the sixth significant digit: under numpy 2, sacreBLEU computes the precisions
of resampled corpora in single precision. And where sacreBLEU takes a seed of 0 in paired tests
to mean "no seed", here 0 is a seed like any other.) Where sacreBLEU draws all resamples in one
call, a ``resamples x segments`` matrix, they are drawn and summed here a piece at a time (whole
resamples, or parts of one, of at most about 65,000 draws) and scored a block of resamples at a
time, from the segments' statistics kept compactly (a byte a count for nearly every segment), so
memory grows neither with the number of resamples nor with their length; the numbers drawn are
the same. A resample of more than 65,536 segments is tallied (how often each segment is drawn,
a byte a segment) and its rows summed in order, with those weights: exact, far faster than
gathering rows at random, and it lets a :class:`CompactStore` keep a long corpus's rows in a
temporary file (past :data:`IN_MEMORY` bytes a system), so that ``bleuprint score
--confidence`` and ``compare`` test ten million segments in about 70 MB.

>>> from bleuprint import BLEUScore
>>> bleu = BLEUScore.canonical(max_n=2)
>>> references = [["the cat sat on the mat"], ["a dog barked"], ["it rained all day"]]
>>> baseline = bleu.count_segments(["the cat sat", "a dog", "it rained"], references)
>>> system = bleu.count_segments(
...     ["the cat sat on the mat", "a dog barked", "it rained all day"], references)
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

from bleuprint import _resampling
from bleuprint._engine import BLEUScore
from bleuprint._resampling import (
    Indices,
    NgramTotals,
    RowStore,
    SegmentRows,
    Sums,
    bootstrap_blocks,
    bootstrap_sums,
    coin_blocks,
    concatenated,
    mean_and_ci,
    p_value,
    swapped_sums,
)
from bleuprint._segments import SegmentStats
from bleuprint._stats import BLEUStats
from bleuprint._validators import check_positive_whole
from bleuprint.exceptions import ConfigurationError, InputError, counted

__all__ = [
    "DEFAULT_RESAMPLES",
    "DEFAULT_SEED",
    "DEFAULT_TRIALS",
    "IN_MEMORY",
    "CompactSegments",
    "CompactStore",
    "Segments",
    "SignificanceResult",
    "bootstrap_confidence",
    "compare_systems",
    "paired_approximate_randomization",
    "paired_bootstrap",
]

DEFAULT_SEED = _resampling.DEFAULT_SEED
"""sacreBLEU's default seed (its ``SACREBLEU_SEED``)."""
DEFAULT_RESAMPLES = _resampling.DEFAULT_RESAMPLES
"""Bootstrap resamples, for paired bootstrap tests and confidence intervals."""
DEFAULT_TRIALS = _resampling.DEFAULT_TRIALS
"""Trials of approximate randomization."""
IN_MEMORY = _resampling.IN_MEMORY
"""Bytes of a system's compact rows that :class:`CompactStore` keeps in memory (the BLEU
statistics of some 1.4 million segments); the rest go to a temporary file."""

Scorer: TypeAlias = "BLEUScore | Callable[[BLEUStats], float]"
"""What scores a resampled corpus: an engine, or a function from statistics to a score (which
then receives the plain sums of the corpus's rows, :meth:`SegmentStats.total`)."""
Progress: TypeAlias = Callable[[int], object]
"""Told how many more resampled corpora have been scored."""
Matrix: TypeAlias = npt.NDArray[np.float64]


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


@attrs.frozen
class CompactSegments:
    """A system's segments as a test scored on sums needs them, in about a fifteenth of the
    memory of :class:`~bleuprint.SegmentStats`: each segment's additive statistics as one
    compact row (a byte a count where it fits, and no totals where the engine's n-gram
    extractor derives them from the hypothesis's length), the corpus's total, and what the rows
    are of. The tests take it wherever they take segment statistics, with an engine whose
    scoring reads only the sums of a corpus (the canonical and sacreBLEU presets, for example);
    ``bleuprint score --confidence`` and ``compare`` keep their files' segments so, a chunk at
    a time (:class:`CompactStore`).

    >>> from bleuprint import BLEUScore
    >>> bleu = BLEUScore.sacrebleu()
    >>> segments = bleu.count_segments(
    ...     ["the cat sat", "a dog", "it rained"],
    ...     [["the cat sat down"], ["a dog barked"], ["it rained"]])
    >>> kept = CompactSegments.joined(
    ...     [CompactSegments.of(segments[:2], bleu), CompactSegments.of(segments[2:], bleu)])
    >>> len(kept), kept.rows.kept.small.dtype.name, kept.rows.kept.small.shape
    (3, 'uint8', (3, 6))
    >>> same = bootstrap_confidence(kept, bleu, resamples=50)
    >>> same == bootstrap_confidence(segments, bleu, resamples=50)
    True
    """

    rows: SegmentRows
    total: BLEUStats
    max_n: int
    reference_count: int
    counting: str

    @classmethod
    def of(cls, segments: SegmentStats, engine: BLEUScore) -> CompactSegments:
        """The segments (at least one) of a corpus counted by ``engine``, kept compactly."""
        store = CompactStore(engine)
        store.append(segments)
        return store.segments

    @classmethod
    def joined(cls, parts: Sequence[CompactSegments]) -> CompactSegments:
        """The segments of the parts (at least one), one part after the other."""
        first = parts[0]
        total = first.total
        for part in parts[1:]:
            total += part.total  # (a mismatch of configurations raises here)
        rows = concatenated([part.rows for part in parts])
        return cls(rows, total, first.max_n, first.reference_count, first.counting)

    def __len__(self) -> int:
        return len(self.rows)


class CompactStore:
    """A system's segments kept compactly as they are counted, a chunk at a time, for a test
    scored on sums: their rows in one array that grows in place, so that they are held once
    (chunks kept apart are held twice while they are joined), and once they take more than
    ``in_memory`` bytes (:data:`IN_MEMORY` by default; ``None``: no limit), in a temporary
    file, which a bootstrap test reads once a resample, in order, and approximate
    randomization once a trial. ``bleuprint score --confidence`` and ``compare`` keep their
    files' segments so.

    >>> from bleuprint import BLEUScore
    >>> bleu = BLEUScore.sacrebleu()
    >>> segments = bleu.count_segments(["the cat sat", "a dog"], [["the cat sat"], ["a dog"]])
    >>> store = CompactStore(bleu)
    >>> store.append(segments[:1])
    >>> store.append(segments[1:])
    >>> kept = store.segments
    >>> len(kept), kept.total == bleu.total(segments), kept.rows.sum().tolist()
    (2, True, [5, 5, 5, 3, 1, 0, 5, 3, 1, 0])
    """

    def __init__(self, engine: BLEUScore, *, in_memory: int | None = IN_MEMORY) -> None:
        if not engine.scoring.reads_only_sums:
            raise ConfigurationError(
                "compact segments are tested on the sums of their rows, and this engine's "
                "scoring reads more than sums: keep the SegmentStats"
            )
        self._engine = engine
        self._rows = RowStore(NgramTotals.of(engine.ngrams), in_memory=in_memory)
        self._total = engine.empty_stats()
        self._first: SegmentStats | None = None  # (says what the rows are of)

    def append(self, segments: SegmentStats) -> None:
        """Keep the next segments (at least one)."""
        _check_segments(segments)
        self._rows.append_columns(
            [
                segments.hypothesis_lengths,
                segments.reference_lengths,
                segments.matches,
                segments.totals,
            ]
        )
        self._total = self._engine.total(segments, self._total)
        self._first = self._first or segments[:1]

    def extend(self, other: CompactStore) -> None:
        """Keep the segments of ``other`` (a store of the same engine's) after these."""
        if other._first is None:
            return
        self._rows.extend(other._rows.rows)
        self._total += other._total
        self._first = self._first or other._first

    @property
    def segments(self) -> CompactSegments:
        """The segments kept, in order; the store's own arrays, so keep no more."""
        first = self._first
        if first is None:
            raise InputError("no segments: significance needs at least one")
        return CompactSegments(
            self._rows.rows,
            self._total,
            first.max_n,
            int(first.reference_counts[0]),
            first.counting,
        )


Segments: TypeAlias = "SegmentStats | CompactSegments"
"""A system's per-segment statistics, as the tests take them."""


def bootstrap_confidence(
    system: Segments,
    scorer: Scorer,
    *,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int | None = DEFAULT_SEED,
    progress: Progress | None = None,
) -> SignificanceResult:
    """The score with its bootstrap mean and 95% confidence interval (sacreBLEU's
    ``corpus_score(..., n_bootstrap=resamples)``)."""
    score = _Scoring.of(scorer)
    _check_segments(system)
    check_positive_whole("resamples", resamples)
    rng = np.random.default_rng(seed)
    (scores,) = score.resampled([system], rng, resamples, progress)
    mean, ci = mean_and_ci(scores)
    return SignificanceResult(score.corpus(system), mean=mean, ci=ci)


def paired_bootstrap(
    baseline: Segments,
    system: Segments,
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
    _check_paired(baseline, system)
    return _paired_bootstraps([baseline, system], scorer, resamples, seed, progress)[1]


def _paired_bootstraps(
    systems: Sequence[Segments],
    scorer: Scorer,
    resamples: int,
    seed: int | None,
    progress: Progress | None,
) -> list[SignificanceResult]:
    """The first system's bootstrap interval, and every other's paired bootstrap test against
    it: all scored on the same resampled test sets, drawn once (each test alone would draw the
    same ones from the same seed)."""
    score = _Scoring.of(scorer)
    check_positive_whole("resamples", resamples)
    rng = np.random.default_rng(seed)
    baseline_scores, *others_scores = score.resampled(systems, rng, resamples, progress)
    baseline_score = score.corpus(systems[0])
    results = [SignificanceResult(baseline_score, None, *mean_and_ci(baseline_scores))]
    for system, system_scores in zip(systems[1:], others_scores):
        differences = np.abs(system_scores - baseline_scores)
        system_score = score.corpus(system)
        observed = abs(baseline_score - system_score)
        mean, ci = mean_and_ci(system_scores)
        results.append(
            SignificanceResult(
                system_score, p_value(differences - differences.mean(), observed), mean, ci
            )
        )
    return results


def paired_approximate_randomization(
    baseline: Segments,
    system: Segments,
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
    check_positive_whole("trials", trials)
    rng = np.random.default_rng(seed)
    system_score = score.corpus(system)
    observed = abs(score.corpus(baseline) - system_score)
    first, second = score.swapped(baseline, system, rng, trials, progress)
    result = SignificanceResult(system_score, p_value(np.abs(first - second), observed))
    if confidence_resamples > 0:
        (scores,) = score.resampled([system], rng, confidence_resamples, progress)
        mean, ci = mean_and_ci(scores)
        result = attrs.evolve(result, mean=mean, ci=ci)
    return result


def compare_systems(
    systems: Sequence[Segments],
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
        for other in others:
            _check_paired(baseline, other)
        return _paired_bootstraps(systems, scorer, samples or DEFAULT_RESAMPLES, seed, progress)
    if test == "ar":
        if confidence_resamples > 0:
            first = bootstrap_confidence(
                baseline, scorer, resamples=confidence_resamples, seed=seed, progress=progress
            )
        else:
            _check_segments(baseline)
            first = SignificanceResult(_Scoring.of(scorer).corpus(baseline))
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
    """Scores corpora made of segments' statistics: ``corpus`` one whole corpus,
    ``resampled`` and ``swapped`` many resampled ones."""

    one: Callable[[BLEUStats], float]
    total: Callable[[SegmentStats], BLEUStats]
    engine: BLEUScore | None = None
    """The engine, where its scoring reads only the sums of a corpus's rows: many corpora
    then score at once, as rows of sums."""

    @classmethod
    def of(cls, scorer: Scorer) -> _Scoring:
        if not isinstance(scorer, BLEUScore):
            return cls(scorer, SegmentStats.total)
        engine = scorer
        on_arrays = engine.scoring.reads_only_sums
        return cls(
            lambda stats: engine.score(stats).score, engine.total, engine if on_arrays else None
        )

    def corpus(self, segments: Segments) -> float:
        """The score of the corpus of all ``segments``."""
        if isinstance(segments, CompactSegments):
            return self.one(segments.total)
        return self.one(self.total(segments))

    def resampled(
        self,
        pools: Sequence[Segments],
        rng: np.random.Generator,
        resamples: int,
        progress: Progress | None,
    ) -> list[Matrix]:
        """The score of each bootstrap resample of each pool (of one length, all resampled
        alike, drawn from ``rng``)."""
        scores: list[list[Matrix]] = [[] for _ in pools]
        if self.engine is not None:
            kept = [self._compact(pool) for pool in pools]
            for sums in bootstrap_sums(rng, [pool.rows for pool in kept], resamples):
                for number, (pool, part) in enumerate(zip(kept, sums)):
                    scores[number].append(self._scored(pool, part))
                    _tell(progress, len(part))
        else:
            whole = [_whole(pool) for pool in pools]
            for block in bootstrap_blocks(rng, len(pools[0]), resamples):
                for number, segments in enumerate(whole):
                    scores[number].append(self._taken(segments, block))
                    _tell(progress, len(block))
        return [np.concatenate(pool_scores) for pool_scores in scores]

    def swapped(
        self,
        baseline: Segments,
        system: Segments,
        rng: np.random.Generator,
        trials: int,
        progress: Progress | None,
    ) -> tuple[Matrix, Matrix]:
        """The scores of approximate randomization's pseudo-systems in each trial: the first
        takes the baseline's segment where the trial's coin says so and the system's
        elsewhere, the second the rest."""
        scores: tuple[list[Matrix], list[Matrix]] = ([], [])
        if self.engine is not None:
            kept = self._compact(baseline)
            for sums in swapped_sums(rng, kept.rows, self._compact(system).rows, trials):
                for side, part in enumerate(sums):
                    scores[side].append(self._scored(kept, part))
                    _tell(progress, len(part))
        else:
            # Both outputs in one pool of rows: the baseline's segment i is row i, the
            # system's n + i.
            pool = SegmentStats.concatenate([_whole(baseline), _whole(system)])
            own, other = np.arange(len(system)), np.arange(len(system)) + len(system)
            for swaps in coin_blocks(rng, trials, len(own)):
                for side, rows in enumerate(
                    (np.where(swaps, own, other), np.where(swaps, other, own))
                ):
                    scores[side].append(self._taken(pool, rows))
                    _tell(progress, len(rows))
        return np.concatenate(scores[0]), np.concatenate(scores[1])

    def _compact(self, pool: Segments) -> CompactSegments:
        """The pool as compact rows, for an engine that scores sums."""
        assert self.engine is not None
        return pool if isinstance(pool, CompactSegments) else CompactSegments.of(pool, self.engine)

    def _scored(self, pool: CompactSegments, sums: Sums) -> Matrix:
        """The scores of corpora of ``pool``'s segments, from the sums of their rows."""
        assert self.engine is not None
        return self.engine.score_segments(_as_rows(pool, sums.astype(np.float64))).scores

    def _taken(self, pool: SegmentStats, block: Indices) -> Matrix:
        """The scores of corpora of ``pool``'s segments, row ``k`` of ``block`` listing corpus
        ``k``'s, each summed as the definition sums it."""
        return np.array([self.corpus(pool.take(rows)) for rows in block])


def _tell(progress: Progress | None, done: int) -> None:
    if progress is not None:
        progress(done)


def _whole(pool: Segments) -> SegmentStats:
    """The pool's statistics, for a scorer that sums each corpus itself."""
    if isinstance(pool, CompactSegments):
        raise ConfigurationError(
            "compact segments are tested on the sums of their rows: give an engine whose "
            "scoring reads only sums, or the SegmentStats"
        )
    return pool


def _as_rows(pool: CompactSegments, sums: Matrix) -> SegmentStats:
    """Summed corpora as rows of :class:`SegmentStats`, for array scoring (which reads the
    matches, totals and lengths only)."""
    n = pool.max_n
    counts = np.full(len(sums), pool.reference_count, dtype=np.int64)
    return SegmentStats(
        sums[:, 2 : 2 + n], sums[:, 2 + n :], sums[:, 0], sums[:, 1], counts, pool.counting
    )


def _check_segments(segments: Segments) -> None:
    if not len(segments):
        raise InputError("no segments: significance needs at least one")


def _check_paired(baseline: Segments, system: Segments) -> None:
    _check_segments(baseline)
    if len(baseline) != len(system):
        raise InputError(
            f"the baseline has {counted(len(baseline), 'segment')} but the system has "
            f"{len(system)}: "
            "paired tests compare outputs for the same segments"
        )
    if baseline.counting != system.counting or baseline.max_n != system.max_n:
        raise InputError("the baseline and the system were counted with different configurations")
