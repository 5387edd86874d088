"""Significance tests against sacreBLEU 2.6.0's figures, definitions, and a naive resampler.

The vectors' statistics are counted by sacreBLEU itself (its public ``corpus_score`` on each
segment), so these tests check the resampling and testing, independent of bleuprint's presets.
"""

from __future__ import annotations

import pickle
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu
from sacrebleu.metrics import BLEU

from bleuprint import BLEUScore, BLEUStats, SegmentStats, brevity, significance
from bleuprint._resampling import DerivedRows, RowFile
from bleuprint.exceptions import ConfigurationError, InputError
from tests.conftest import load_shared_json

Scorer = Callable[[BLEUStats], float]


@pytest.fixture(scope="module")
def vectors() -> dict[str, Any]:
    data: dict[str, Any] = load_shared_json("vectors", "sacrebleu_stats_vectors.json")
    return data["significance"]


@pytest.fixture(scope="module")
def systems(vectors: dict[str, Any]) -> list[SegmentStats]:
    """Each system's per-segment statistics, counted by sacreBLEU's default BLEU."""
    bleu = BLEU()
    references = vectors["references"]
    tables = []
    for hypotheses in vectors["hypotheses"].values():
        scores = [
            bleu.corpus_score([hypothesis], [[stream[index]] for stream in references])
            for index, hypothesis in enumerate(hypotheses)
        ]
        tables.append(
            SegmentStats(
                np.array([score.counts for score in scores]),
                np.array([score.totals for score in scores]),
                np.array([score.sys_len for score in scores]),
                np.array([score.ref_len for score in scores]),
                np.ones(len(scores), dtype=np.int64),
            )
        )
    return tables


def sacrebleu_exp(stats: BLEUStats) -> float:
    """sacreBLEU's default scoring (exp smoothing) of summed statistics, on [0, 1]."""
    score = BLEU.compute_bleu(
        list(stats.matches),
        list(stats.totals),
        int(stats.hypothesis_length),
        int(stats.reference_length),
        smooth_method="exp",
    ).score
    return float(score) / 100


def sacrebleu_exp_float32(stats: BLEUStats) -> float:
    """The same, fed float32 counts as sacreBLEU's resampling feeds itself: under numpy 2 its
    precisions are then computed in float32 (``100. * np.float32(x)`` stays float32)."""
    score = BLEU.compute_bleu(
        [np.float32(value) for value in stats.matches],
        [np.float32(value) for value in stats.totals],
        int(stats.hypothesis_length),
        int(stats.reference_length),
        smooth_method="exp",
    ).score
    return float(score) / 100


def check(
    results: Sequence[significance.SignificanceResult],
    expected: Sequence[dict[str, Any]],
    tolerance: float,
    score_tolerance: float = 1e-9,
) -> None:
    for result, wanted in zip(results, expected, strict=True):
        assert 100 * result.score == pytest.approx(wanted["score"], abs=score_tolerance)
        assert result.p_value == wanted["p_value"]  # a count over n + 1: exact
        for field in ("mean", "ci"):
            value = getattr(result, field)
            if wanted[field] is None:
                assert value is None
            else:
                assert value is not None
                assert 100 * value == pytest.approx(wanted[field], abs=tolerance)


@pytest.mark.parametrize("test", ["bs", "ar"])
def test_paired_tests_give_sacrebleus_p_values_and_intervals(
    systems: list[SegmentStats], vectors: dict[str, Any], test: str
) -> None:
    results = significance.compare_systems(systems, sacrebleu_exp, test=test)  # type: ignore[arg-type]
    # Exact p-values; intervals within sacreBLEU's own float32 rounding (see the next test).
    check(results, vectors[f"paired_{test}"]["results"], tolerance=1e-5)


@pytest.mark.parametrize("test", ["bs", "ar"])
def test_same_draws_as_sacrebleu_to_the_last_bits(
    systems: list[SegmentStats], vectors: dict[str, Any], test: str
) -> None:
    # Scoring resampled corpora as sacreBLEU's resampler does leaves only the 0-100 scaling as
    # a difference in the intervals (the observed scores now carry float32 rounding instead).
    results = significance.compare_systems(
        systems,
        sacrebleu_exp_float32,
        test=test,  # type: ignore[arg-type]
    )
    check(results, vectors[f"paired_{test}"]["results"], tolerance=1e-12, score_tolerance=1e-5)


def test_single_system_bootstrap(systems: list[SegmentStats], vectors: dict[str, Any]) -> None:
    wanted = vectors["single_system_bootstrap"]
    result = significance.bootstrap_confidence(systems[0], sacrebleu_exp_float32)
    assert 100 * result.score == pytest.approx(wanted["score"], abs=1e-5)
    assert 100 * (result.mean or 0) == pytest.approx(wanted["mean"], abs=1e-12)
    assert 100 * (result.ci or 0) == pytest.approx(wanted["ci"], abs=1e-12)


def test_approximate_randomization_can_also_bootstrap_intervals(
    systems: list[SegmentStats],
) -> None:
    # sacreBLEU draws the interval's resamples after the coin flips, from the same generator.
    rng = np.random.default_rng(significance.DEFAULT_SEED)
    rng.integers(2, size=(200, len(systems[1])), dtype=bool)
    indices = rng.choice(len(systems[1]), size=(50, len(systems[1])))
    naive = sorted(naive_score(systems[1], row, sacrebleu_exp) for row in indices)
    result = significance.paired_approximate_randomization(
        systems[0], systems[1], sacrebleu_exp, trials=200, confidence_resamples=50
    )
    assert result.mean == pytest.approx(float(np.mean(naive)), abs=1e-12)
    assert result.ci == pytest.approx(0.5 * (naive[50 - 1 - 1] - naive[1]), abs=1e-12)


def naive_score(table: SegmentStats, rows: Sequence[int], scorer: Scorer) -> float:
    """Score the corpus made of ``rows`` by adding BLEUStats one segment at a time."""
    segments = [
        BLEUStats(
            table.matches[row].tolist(),
            table.totals[row].tolist(),
            int(table.hypothesis_lengths[row]),
            int(table.reference_lengths[row]),
        )
        for row in rows
    ]
    return scorer(sum(segments[1:], segments[0]))


def test_bootstrap_matches_a_naive_resampler(systems: list[SegmentStats]) -> None:
    rng = np.random.default_rng(7)
    indices = rng.choice(len(systems[2]), size=(40, len(systems[2])))
    naive = sorted(naive_score(systems[2], row, sacrebleu_exp) for row in indices)
    result = significance.bootstrap_confidence(systems[2], sacrebleu_exp, resamples=40, seed=7)
    assert result.mean == pytest.approx(float(np.mean(naive)), abs=1e-12)
    # 40 resamples: the interval runs from rank 1 to rank 38.
    assert result.ci == pytest.approx(0.5 * (naive[38] - naive[1]), abs=1e-12)


def test_a_system_against_itself_is_never_significant(systems: list[SegmentStats]) -> None:
    # Every resampled difference is 0, never above the observed 0: p = (0 + 1) / (n + 1).
    bootstrap = significance.paired_bootstrap(systems[1], systems[1], sacrebleu_exp, resamples=99)
    randomized = significance.paired_approximate_randomization(
        systems[1], systems[1], sacrebleu_exp, trials=99
    )
    assert bootstrap.p_value == randomized.p_value == 1 / 100


def test_engine_as_scorer_on_counted_segments() -> None:
    # The canonical preset is sacreBLEU's BLEU without tokenization and without smoothing.
    bleu = BLEUScore.canonical(max_n=2)
    hypotheses = ["a b c d", "a b", "x y z"]
    references = ["a b c d", "a c", "x y w"]
    segments = bleu.count_segments(hypotheses, [[reference] for reference in references])
    result = significance.bootstrap_confidence(segments, bleu, resamples=10)
    expected = BLEU(tokenize="none", smooth_method="none", max_ngram_order=2).corpus_score(
        hypotheses, [references]
    )
    assert 100 * result.score == pytest.approx(expected.score, abs=1e-12)


def test_bad_arguments_are_errors(systems: list[SegmentStats]) -> None:
    shorter = systems[1][:-1]
    with pytest.raises(InputError, match="baseline has 120 segments but the system has 119"):
        significance.paired_bootstrap(systems[0], shorter, sacrebleu_exp)
    with pytest.raises(ConfigurationError, match="resamples must be a whole number"):
        significance.bootstrap_confidence(systems[0], sacrebleu_exp, resamples=0)
    with pytest.raises(InputError, match="a baseline and at least one other"):
        significance.compare_systems(systems[:1], sacrebleu_exp)
    with pytest.raises(ConfigurationError, match="test must be 'bs' or 'ar'"):
        significance.compare_systems(systems, sacrebleu_exp, test="t")  # type: ignore[arg-type]
    with pytest.raises(InputError, match="no segments: significance needs at least one"):
        significance.bootstrap_confidence(systems[0][:0], sacrebleu_exp)


def _random_tables(seed: int, segments: int) -> tuple[SegmentStats, SegmentStats]:
    """Two systems' plausible per-segment statistics (matches never above totals)."""
    rng = np.random.default_rng(seed)
    tables = []
    for _ in range(2):
        lengths = rng.integers(1, 30, size=segments)
        totals = np.stack([np.maximum(lengths - n, 0) for n in range(4)], axis=1)
        matches = rng.integers(0, totals + 1)
        references = np.maximum(lengths + rng.integers(-3, 4, size=segments), 1)
        tables.append(
            SegmentStats(matches, totals, lengths, references, np.ones(segments, dtype=np.int64))
        )
    return tables[0], tables[1]


@settings(max_examples=25)
@given(st.integers(0, 2**32 - 1), st.integers(2, 40), st.integers(0, 1000))
def test_approximate_randomization_is_symmetric(data_seed: int, segments: int, seed: int) -> None:
    # Swapping the roles swaps the two pseudo-systems of every trial: |A - B| is unchanged.
    first, second = _random_tables(data_seed, segments)
    forward = significance.paired_approximate_randomization(
        first, second, sacrebleu_exp, trials=60, seed=seed
    )
    backward = significance.paired_approximate_randomization(
        second, first, sacrebleu_exp, trials=60, seed=seed
    )
    assert forward.p_value == backward.p_value
    assert 1 / 61 <= (forward.p_value or 0) <= 1


@settings(max_examples=25)
@given(st.integers(0, 2**32 - 1), st.integers(2, 40), st.integers(0, 1000))
def test_paired_bootstrap_figures_are_in_range(data_seed: int, segments: int, seed: int) -> None:
    first, second = _random_tables(data_seed, segments)
    result = significance.paired_bootstrap(first, second, sacrebleu_exp, resamples=80, seed=seed)
    assert result.ci is not None and result.ci >= 0
    assert 0 <= (result.mean or 0) <= 1 and 1 / 81 <= (result.p_value or 0) <= 1


@pytest.mark.parametrize(
    ("engine", "weights", "method"),
    [
        (BLEUScore.nltk(), (0.25,) * 4, 0),
        (BLEUScore.nltk(weights=(0.2,) * 5, method=5), (0.2,) * 5, 5),
    ],
    ids=["empty orders", "last segment"],
)
def test_resampling_keeps_what_nltk_reads(
    engine: BLEUScore, weights: tuple[float, ...], method: int
) -> None:
    # NLTK's definitions read the segments without n-grams of an order, and methods 5 to 7 the
    # last segment: each resampled corpus must score as NLTK's corpus_bleu scores the segments
    # drawn, in the order drawn.
    hypotheses = ["a b c d e f", "a b", "b c d e f g h", "x", "a b c d e f g"]
    references = ["a b c d e f", "a c", "b c d e f g", "y", "a b c d e f h"]
    segments = engine.count_segments(hypotheses, [[reference] for reference in references])
    smoothing = getattr(SmoothingFunction(), f"method{method}")

    def nltk_score(rows: Sequence[int]) -> float:
        with warnings.catch_warnings():  # NLTK warns about orders without matches
            warnings.simplefilter("ignore")
            score: float = corpus_bleu(
                [[references[i].split()] for i in rows],
                [hypotheses[i].split() for i in rows],
                weights,
                smoothing,
            )
        return score

    rng = np.random.default_rng(11)
    indices = rng.choice(len(segments), size=(30, len(segments)))
    expected = sorted(nltk_score(row) for row in indices)
    result = significance.bootstrap_confidence(segments, engine, resamples=30, seed=11)
    assert result.score == pytest.approx(nltk_score(range(len(segments))), rel=1e-12)
    assert result.mean == pytest.approx(float(np.mean(expected)), rel=1e-12)
    # 30 resamples: 30 // 40 = 0, so the interval runs from the lowest to the highest.
    assert result.ci == pytest.approx(0.5 * (expected[29] - expected[0]), rel=1e-12)


@pytest.mark.parametrize(
    "engine",
    [
        BLEUScore.sacrebleu(),
        BLEUScore.sacrebleu(smooth_method="floor", effective_order=True),
        BLEUScore.sacrebleu(smooth_method="add-k", smooth_value=2, max_ngram_order=3),
        BLEUScore.sacrebleu(smooth_method="none", lowercase=True),
        BLEUScore.canonical(max_n=2),
    ],
    ids=["exp", "floor-effective", "add-k-3", "none-lc", "canonical-2"],
)
def test_corpora_scored_as_rows_of_sums_give_the_same_figures(
    vectors: dict[str, Any], engine: BLEUScore
) -> None:
    # An engine whose corpora score from their rows' sums alone scores all resampled corpora at
    # once, as rows; a plain function scores them one by one through the engine. The figures
    # must be identical.
    references = [[reference] for reference in vectors["references"][0]]
    tables = [
        engine.count_segments(vectors["hypotheses"][name], references)
        for name in ("baseline", "sysA")
    ]

    def one_by_one(stats: BLEUStats) -> float:
        return engine.score(stats).score

    assert significance._Scoring.of(engine).engine is engine  # the array path is taken

    for test in ("bs", "ar"):
        on_arrays = significance.compare_systems(tables, engine, test=test, samples=300)  # type: ignore[arg-type]
        row_by_row = significance.compare_systems(tables, one_by_one, test=test, samples=300)  # type: ignore[arg-type]
        assert on_arrays == row_by_row


_LINES = ["the cat sat on the mat", "a dog barked at the cat", "it rained", "", "so it did"]
_REFERENCES = [["the cat sat on a mat"], ["a dog barked"], ["it rained all day"], ["x"], ["so"]]


@pytest.mark.parametrize(
    ("engine", "derived"),
    [
        (BLEUScore.sacrebleu(), True),
        (BLEUScore.canonical(max_n=2), True),
        # Lengths in characters: the totals do not follow from them, and are kept.
        (BLEUScore(length=brevity.Characters()), False),
    ],
    ids=["sacrebleu", "bigrams", "lengths in characters"],
)
def test_segments_kept_compactly_test_as_their_statistics_do(
    engine: BLEUScore, derived: bool
) -> None:
    baseline = engine.count_segments(_LINES * 40, _REFERENCES * 40)
    system = engine.count_segments(list(reversed(_LINES)) * 40, _REFERENCES * 40)
    compact = [significance.CompactSegments.of(segments, engine) for segments in (baseline, system)]
    assert isinstance(compact[0].rows, DerivedRows) is derived
    # Kept a chunk at a time, one of them counted in another process (pickled).
    store = significance.CompactStore(engine)
    store.append(baseline[:70])
    elsewhere = significance.CompactStore(engine)
    elsewhere.append(baseline[70:])
    store.extend(pickle.loads(pickle.dumps(elsewhere)))
    chunked = store.segments
    assert chunked.total == compact[0].total == engine.total(baseline)
    np.testing.assert_array_equal(chunked.rows.rows(0, 200), compact[0].rows.rows(0, 200))
    for test in (
        lambda pools: significance.bootstrap_confidence(pools[0], engine, resamples=30),
        lambda pools: significance.compare_systems(pools, engine, samples=30),
        lambda pools: significance.compare_systems(pools, engine, test="ar", samples=30),
    ):
        assert test(compact) == test([chunked, compact[1]]) == test([baseline, system])


def test_long_corpora_kept_in_a_file_test_as_their_statistics_do() -> None:
    # Past 65,536 segments a bootstrap tallies each resample's draws and sums the rows in
    # order; past ``in_memory`` bytes a store keeps its rows in a file: the figures are still
    # those of the statistics, resampled row by row.
    engine = BLEUScore.sacrebleu()
    lines, references = _LINES * 14_001, _REFERENCES * 14_001
    baseline = engine.count_segments(lines, references)
    system = engine.count_segments(lines[1:] + lines[:1], references)
    stores = [significance.CompactStore(engine, in_memory=4096) for _ in range(2)]
    for store, segments in zip(stores, (baseline, system)):
        store.append(segments[:30_000])
        store.append(segments[30_000:])
    kept = [store.segments for store in stores]
    for pool in kept:
        assert isinstance(pool.rows, DerivedRows)
        assert isinstance(pool.rows.kept.small, RowFile)
    for test in (
        lambda pools: significance.bootstrap_confidence(pools[0], engine, resamples=3),
        lambda pools: significance.compare_systems(pools, engine, samples=3),
        lambda pools: significance.compare_systems(pools, engine, test="ar", samples=3),
    ):
        assert test(kept) == test([baseline, system])
