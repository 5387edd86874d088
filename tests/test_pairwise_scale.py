"""Pairwise scores of large groups (issue 16): n-grams of few candidates are credited pair by
pair, those of many as matrix products, and rows are scored in blocks. Every path gives the
sentence scores one pair at a time gives (the simple path, or sacreBLEU on real text)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from bleuprint import BLEUScore, _pairwise, matching
from tests.test_arrays import simple

GROUP = ["a a a b", "a b a b c", "a a", "c a b a a", "b", "", "a b c d a b", "d d d d a"]


def _expected(engine: BLEUScore, group: list[str]) -> list[list[float]]:
    reference = simple(engine)
    return [[reference.compute(h, [r]) for r in group] for h in group]


@pytest.mark.parametrize("matcher", [matching.Clipped(), matching.Distinct()], ids=str)
@pytest.mark.parametrize(
    ("few_streams", "block"),
    [(10**9, 1 << 22), (1, 1 << 22), (1, 1), (1, 7), (10**9, 3), (3, 5)],
    ids=["pairs", "products", "products-one-column", "products-7", "pairs-3", "both"],
)
def test_every_path_gives_the_sentence_scores(
    monkeypatch: pytest.MonkeyPatch, matcher: Any, few_streams: int, block: int
) -> None:
    monkeypatch.setattr(_pairwise, "_FEW_STREAMS", few_streams)
    monkeypatch.setattr(_pairwise, "_PAIRWISE_BLOCK_ENTRIES", block)
    engine = BLEUScore(matching=matcher)
    (matrix,) = engine.pairwise_scores([GROUP])
    assert matrix.tolist() == _expected(engine, GROUP)


def test_real_text_matches_sacrebleu(shared: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    sacrebleu = pytest.importorskip("sacrebleu")
    lines = (shared("data", "wmt22", "en-de") / "ref.A.txt").read_text("utf-8").split("\n")
    group = lines[:400]
    # 400 candidates: frequent words ("die", ",") take the matrix products, the rest pairs.
    assert _pairwise._dense_threshold(len(group)) < 400
    (matrix,) = BLEUScore.sacrebleu_sentence().pairwise_scores([group])
    bleu = sacrebleu.metrics.BLEU(effective_order=True)
    for row, column in [(0, 1), (5, 17), (399, 3), (100, 100), (250, 42)]:
        expected = bleu.sentence_score(group[row], [group[column]]).score / 100
        assert matrix[row, column] == pytest.approx(expected, abs=1e-12)


@pytest.mark.scale
def test_a_group_of_5000_candidates_is_scored_whole(shared: Any) -> None:
    # Issue 16's case: one group of 5,000 distinct candidates, 12.5 million pairs (each way).
    # Real words, cut to five per candidate and scored on unigrams, so that it takes seconds;
    # frequent words take the matrix products, rare ones the pairs.
    sacrebleu = pytest.importorskip("sacrebleu")
    folder = shared("data", "wmt22", "en-de")
    lines = [
        line
        for path in sorted(folder.glob("*.txt"))
        for line in path.read_text("utf-8").split("\n")
    ]
    group = list(dict.fromkeys(" ".join(line.split()[:5]) for line in lines if line))[:5000]
    assert len(group) == 5000
    holders = Counter(word for candidate in group for word in set(candidate.split()))
    assert max(holders.values()) > _pairwise._dense_threshold(5000)
    assert min(holders.values()) <= _pairwise._FEW_STREAMS
    (matrix,) = BLEUScore.canonical(max_n=1).pairwise_scores([group])
    assert matrix.shape == (5000, 5000)
    bleu = sacrebleu.metrics.BLEU(
        tokenize="none", smooth_method="none", max_ngram_order=1, effective_order=True
    )
    draw = random.Random(5000)
    sampled = [(draw.randrange(5000), draw.randrange(5000)) for _ in range(60)]
    for row, column in [(0, 4999), (4999, 0), (2500, 2500), *sampled]:
        expected = bleu.sentence_score(group[row], [group[column]]).score / 100
        assert matrix[row, column] == pytest.approx(expected, abs=1e-12), (row, column)
