"""fast-bleu's definition (:mod:`bleuprint.compat.fast_bleu`), by hand-computed cases."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import strategies as st

from bleuprint import (
    BLEUScore,
    ConfigurationError,
    matching,
)
from bleuprint.compat import fast_bleu

WORD = st.sampled_from(["a", "b", "c", "the", "cat"])
SENTENCE = st.lists(WORD, max_size=8)


def test_space_joined_matching_merges_colliding_ngrams() -> None:
    extract = BLEUScore.canonical(max_n=2).ngrams
    hypothesis, reference = extract(["x", "a", "b c"]), extract(["x", "a b", "c"])
    # Unigrams: only "x" matches; bigrams: "a b c" matches "a b c".
    assert fast_bleu.SpaceJoined()(hypothesis, [reference], 2) == [1, 1]
    assert matching.Clipped()(hypothesis, [reference], 2) == [1, 0]


def test_space_joined_matching_still_clips() -> None:
    hypothesis = Counter({("a",): 3})
    assert fast_bleu.SpaceJoined()(hypothesis, [Counter({("a",): 2})], 1) == [2]


@pytest.mark.parametrize(
    ("weight_set", "message"), [((1.0,), "2 or more orders"), ((0.6, 0.6), "sum to 1")]
)
def test_fast_bleu_weights(weight_set: tuple[float, ...], message: str) -> None:
    with pytest.raises(ConfigurationError, match=message):
        BLEUScore.fast_bleu(weight_set)
