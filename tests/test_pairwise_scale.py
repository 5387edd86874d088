"""Pairwise scores of large groups (issue 16): n-grams of few candidates are credited pair by
pair, those of many as matrix products, and rows are scored in blocks. Every path gives the
sentence scores one pair at a time gives (the simple path, or sacreBLEU on real text)."""

from __future__ import annotations

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
