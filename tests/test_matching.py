"""Matching (``bleuprint.matching``): clipped counts and distinct overlap."""

from __future__ import annotations

import random as random_module
from collections import Counter

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from nltk.translate.bleu_score import modified_precision

from bleuprint import matching, ngrams
from bleuprint.typing import ArrayMatcher, Matcher

TOKENS = st.lists(st.sampled_from(["a", "b", "c", "d"]), max_size=10)
REFERENCES = st.lists(TOKENS, min_size=1, max_size=4)
MAX_N = 3


def _counts(tokens: list[str]) -> Counter[tuple[str, ...]]:
    return ngrams.Contiguous(MAX_N)(tokens)


def test_both_fit_the_protocols() -> None:
    for matcher in (matching.Clipped(), matching.Distinct()):
        assert isinstance(matcher, Matcher)
        assert isinstance(matcher, ArrayMatcher)


def test_clipped_by_hand() -> None:
    # Papineni et al.'s example: "the" four times against references holding it twice and
    # once. Its credit is clipped to 2, the most in any one reference (not 2 + 1 = 3).
    hypothesis = Counter({("the",): 4})
    references = [Counter({("the",): 2, ("cat",): 1}), Counter({("the",): 1})]
    assert matching.Clipped()(hypothesis, references, 1) == [2]


def test_distinct_by_hand() -> None:
    # distinct hypothesis n-grams found in some reference: unigrams the, cat (dog is not);
    # bigram "the cat" is in the second reference; repetitions count once
    hypothesis = _counts(["the", "the", "cat", "dog"])
    references = [_counts(["the", "dog", "x"]), _counts(["the", "cat"])]
    # unigrams the, cat, dog are all found (3); bigrams "the the", "the cat", "cat dog":
    # only "the cat" (1); trigrams "the the cat", "the cat dog": none
    assert matching.Distinct()(hypothesis, references, MAX_N) == [3, 1, 0]
    # clipped on the same: the 2 -> min(2, 1) = 1, cat 1, dog 1: 3; "the cat" 1
    assert matching.Clipped()(hypothesis, references, MAX_N) == [3, 1, 0]


@given(TOKENS, REFERENCES)
def test_clipped_counts_what_nltk_counts(
    hypothesis: list[str], references: list[list[str]]
) -> None:
    ours = matching.Clipped()(_counts(hypothesis), [_counts(r) for r in references], MAX_N)
    # NLTK's modified precision, before it is reduced: its numerator is the clipped count
    theirs = [
        modified_precision(references, hypothesis, n).numerator if len(hypothesis) >= n else 0
        for n in range(1, MAX_N + 1)
    ]
    assert ours == theirs


@given(TOKENS, REFERENCES, st.randoms(use_true_random=False))
def test_reference_order_does_not_matter(
    hypothesis: list[str], references: list[list[str]], random: random_module.Random
) -> None:
    shuffled = list(references)
    random.shuffle(shuffled)
    for matcher in (matching.Clipped(), matching.Distinct()):
        assert matcher(_counts(hypothesis), [_counts(r) for r in references], MAX_N) == matcher(
            _counts(hypothesis), [_counts(r) for r in shuffled], MAX_N
        )


@given(TOKENS, REFERENCES)
def test_matches_are_bounded_by_the_hypothesis(
    hypothesis: list[str], references: list[list[str]]
) -> None:
    counts = _counts(hypothesis)
    totals = ngrams.order_totals(counts, MAX_N)
    distinct = [sum(1 for gram in counts if len(gram) == n) for n in range(1, MAX_N + 1)]
    clipped = matching.Clipped()(counts, [_counts(r) for r in references], MAX_N)
    unique = matching.Distinct()(counts, [_counts(r) for r in references], MAX_N)
    assert all(0 <= m <= t for m, t in zip(clipped, totals))
    assert all(0 <= m <= d for m, d in zip(unique, distinct))


@given(TOKENS)
def test_a_hypothesis_identical_to_a_reference_matches_everything(tokens: list[str]) -> None:
    counts = _counts(tokens)
    assert matching.Clipped()(counts, [counts], MAX_N) == ngrams.order_totals(counts, MAX_N)


def test_credit_arrays_by_their_definitions() -> None:
    hypothesis = np.array([3, 1, 2, 0], dtype=np.int64)
    reference = np.array([1, 0, 5, 2], dtype=np.int64)
    assert matching.Clipped().credit_array(hypothesis, reference).tolist() == [1, 0, 2, 0]
    assert matching.Distinct().credit_array(hypothesis, reference).tolist() == [1, 0, 1, 0]
