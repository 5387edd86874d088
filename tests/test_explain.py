"""``bleuprint.explain``: itemized n-grams and leave-one-out losses checked by hand."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu

from bleuprint import BLEUScore, InputError, matching
from bleuprint.explain import costliest_segments, explain_segment
from bleuprint.typing import NgramCounts


def test_orders_by_hand() -> None:
    # "the" three times against at most two in a reference: two matched, one clipped.
    explanation = explain_segment(
        BLEUScore.canonical(max_n=2), "the the the cat", ["the cat sat", "the mat the"]
    )
    unigrams, bigrams = explanation.orders
    assert unigrams.matched == [(("the",), 2), (("cat",), 1)]
    assert unigrams.clipped == [(("the",), 1)]
    assert unigrams.unmatched == []
    assert unigrams.missed == [(("sat",), 1), (("mat",), 1)]
    assert (unigrams.matches, unigrams.total) == (3, 4)
    assert bigrams.matched == [(("the", "cat"), 1)]
    assert bigrams.unmatched == [(("the", "the"), 2)]
    assert bigrams.missed == [(("cat", "sat"), 1), (("the", "mat"), 1), (("mat", "the"), 1)]
    # Lengths 3 and 3 against 4: both as close; the hypothesis is longer, no penalty.
    assert explanation.reference_lengths == [3, 3]
    assert explanation.reference_length == 3
    assert explanation.result.brevity_penalty == 1.0


def test_distinct_matching_clips_repetitions() -> None:
    explanation = explain_segment(BLEUScore.russian(), "the the cat", ["The cat!"])
    assert explanation.orders[0].matched == [(("the",), 1), (("cat",), 1)]
    assert explanation.orders[0].clipped == [(("the",), 1)]


def test_a_matcher_that_is_not_a_sum_over_ngrams_is_refused() -> None:
    class AllOrNothing:
        """Credits n-grams only when the hypothesis has more than one distinct n-gram."""

        signature = "all-or-nothing"

        def __call__(
            self, hypothesis: NgramCounts, references: Sequence[NgramCounts], max_n: int
        ) -> list[int]:
            credit = matching.Clipped()(hypothesis, references, max_n)
            return credit if len(hypothesis) > 1 else [0] * max_n

    engine = BLEUScore.canonical(max_n=1, matching=AllOrNothing())
    with pytest.raises(InputError, match="cannot itemize the matching all-or-nothing"):
        explain_segment(engine, "a b", ["a b"])


def test_costliest_segments_by_leave_one_out() -> None:
    bleu = BLEUScore.canonical(max_n=1)
    hypotheses = ["a b", "x y", "c d"]
    references = [["a b"], ["a b"], ["c e"]]
    # Corpus unigram precision 3/6. Without segment 2: 3/4; without 3: 2/4; without 1: 1/4.
    ranked = costliest_segments(bleu, hypotheses, references, count=3)
    assert [item.index for item in ranked] == [1, 2, 0]
    assert [item.loss for item in ranked] == pytest.approx([0.25, 0.0, -0.25])


def test_costliest_segments_of_a_definition_that_reads_more_than_the_sums() -> None:
    # NLTK's corpus BLEU reads more than the sums: each corpus without a segment is summed as
    # NLTK sums it, so the losses are NLTK's own corpus_bleu without and with the segment.
    bleu = BLEUScore.nltk(weights=(0.5, 0.5), method=1)
    hypotheses = ["a b c", "x", "a c d e", "b d"]
    references = ["a b c", "y", "a b d e", "b d"]
    smoothing = SmoothingFunction().method1

    def nltk_score(rows: Sequence[int]) -> float:
        score: float = corpus_bleu(
            [[references[i].split()] for i in rows],
            [hypotheses[i].split() for i in rows],
            (0.5, 0.5),
            smoothing,
        )
        return score

    everything = nltk_score(range(4))
    expected = [nltk_score([j for j in range(4) if j != i]) - everything for i in range(4)]
    ranked = costliest_segments(bleu, hypotheses, [[reference] for reference in references], 4)
    assert sorted(item.index for item in ranked) == [0, 1, 2, 3]
    for item in ranked:
        assert item.loss == pytest.approx(expected[item.index], rel=1e-12, abs=1e-15)
    assert [item.loss for item in ranked] == pytest.approx(sorted(expected, reverse=True))
