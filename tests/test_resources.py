"""Resources planned before they are spent (issue 16): significance tests in bounded blocks,
high orders refused up front with the estimated size, and what the refusal names."""

from __future__ import annotations

import tracemalloc
from collections.abc import Callable

import numpy as np
import pytest

from bleuprint import BLEUScore, InputError, _counting, significance
from bleuprint._segments import SegmentStats


def _peak(function: Callable[[], object]) -> int:
    tracemalloc.start()
    try:
        function()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.fixture(scope="module")
def systems() -> list[SegmentStats]:
    rng = np.random.default_rng(3)
    words = np.array(["a", "b", "c", "d", "e", "f"])
    texts = [" ".join(rng.choice(words, size=12)) for _ in range(3 * 2000)]
    references = [[text] for text in texts[:2000]]
    bleu = BLEUScore.sacrebleu()
    return [bleu.count_segments(texts[k * 2000 : (k + 1) * 2000], references) for k in (1, 2)]


def test_bootstrap_memory_does_not_grow_with_the_resamples(systems: list[SegmentStats]) -> None:
    # sacreBLEU's one draw takes resamples x segments x 8 bytes: 64 MB at 4,000 x 2,000.
    bleu = BLEUScore.sacrebleu()
    peaks = [
        _peak(lambda n=n: significance.paired_bootstrap(*systems, bleu, resamples=n))
        for n in (1000, 4000)
    ]
    assert peaks[1] < 1.3 * peaks[0], peaks
    assert peaks[1] < 4000 * 2000 * 8 / 2


def test_randomization_memory_does_not_grow_with_the_trials(systems: list[SegmentStats]) -> None:
    bleu = BLEUScore.sacrebleu()
    peaks = [
        _peak(lambda n=n: significance.paired_approximate_randomization(*systems, bleu, trials=n))
        for n in (1000, 4000)
    ]
    assert peaks[1] < 1.3 * peaks[0], peaks


def test_blocks_give_sacrebleus_draws_exactly(systems: list[SegmentStats]) -> None:
    # One call for all resamples, as sacreBLEU draws them, scored naively: the same scores.
    bleu = BLEUScore.sacrebleu()
    resamples = 700  # several blocks and a partial one
    indices = np.random.default_rng(12345).choice(2000, size=(resamples, 2000))
    naive = sorted(bleu.score(bleu.total(systems[0].take(row))).score for row in indices)
    result = significance.bootstrap_confidence(systems[0], bleu, resamples=resamples)
    assert result.mean == pytest.approx(float(np.mean(naive)), abs=1e-12)
    assert result.ci == pytest.approx(0.5 * (naive[-17 - 1] - naive[17]), abs=1e-12)


def test_high_orders_are_refused_before_counting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_counting, "_physical_memory", lambda: 8 << 30)
    # 200,000 segments x 1,000 orders x 16 bytes = 2.98 GiB, over a quarter of 8 GiB.
    with pytest.raises(InputError, match=r"about 3\.0 GiB .* \(2\.0 GiB\): lower max_n"):
        BLEUScore.canonical(max_n=1000).count_segments(["a b"] * 200_000, [["a b"]] * 200_000)


def test_ordinary_orders_are_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_counting, "_physical_memory", lambda: 8 << 30)
    result = BLEUScore.canonical(max_n=50).corpus_score(["a b c"] * 1000, [["a b c"]] * 1000)
    assert result.totals[:3] == (3000, 2000, 1000) and result.totals[3] == 0
