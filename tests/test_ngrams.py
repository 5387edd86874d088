"""N-gram extraction (``bleuprint.ngrams``): contiguous runs of tokens and their totals."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from nltk.util import ngrams as nltk_ngrams

from bleuprint import ConfigurationError, ngrams
from bleuprint.typing import ArrayNgramExtractor, NgramExtractor

TOKENS = st.lists(st.sampled_from(["a", "b", "c"]), max_size=12)
ORDERS = st.integers(min_value=1, max_value=6)


def test_contiguous_by_hand() -> None:
    # "a b a b" has unigrams a, b, a, b; bigrams ab, ba, ab; trigrams aba, bab
    assert ngrams.Contiguous(3)(["a", "b", "a", "b"]) == Counter(
        {
            ("a",): 2,
            ("b",): 2,
            ("a", "b"): 2,
            ("b", "a"): 1,
            ("a", "b", "a"): 1,
            ("b", "a", "b"): 1,
        }
    )


def test_contiguous_counts_four_orders_by_default_and_fits_the_protocols() -> None:
    extractor = ngrams.Contiguous()
    assert extractor.max_n == 4
    assert isinstance(extractor, NgramExtractor)
    assert isinstance(extractor, ArrayNgramExtractor)


@pytest.mark.parametrize("max_n", [0, -2, 2.0, True, "3"])
def test_contiguous_refuses_a_max_n_that_is_not_a_positive_whole_number(max_n: object) -> None:
    with pytest.raises(ConfigurationError, match="max_n"):
        ngrams.Contiguous(max_n)  # type: ignore[arg-type]


def test_fewer_tokens_than_the_order_give_no_ngrams_of_it() -> None:
    assert ngrams.Contiguous(3)(["x"]) == Counter({("x",): 1})
    assert ngrams.Contiguous(3)([]) == Counter()


@given(TOKENS, ORDERS)
def test_contiguous_counts_what_nltk_counts(tokens: list[str], max_n: int) -> None:
    expected = Counter(gram for n in range(1, max_n + 1) for gram in nltk_ngrams(tokens, n))
    assert ngrams.Contiguous(max_n)(tokens) == expected


@given(TOKENS, ORDERS)
def test_order_totals_are_length_minus_order_plus_one(tokens: list[str], max_n: int) -> None:
    # a sequence of L tokens has max(L - n + 1, 0) runs of n tokens
    expected = [max(len(tokens) - n + 1, 0) for n in range(1, max_n + 1)]
    assert ngrams.order_totals(ngrams.Contiguous(max_n)(tokens), max_n) == expected


def test_order_totals_count_repetitions() -> None:
    counts = Counter({("a",): 3, ("b",): 1, ("a", "b"): 2})
    assert ngrams.order_totals(counts, 3) == [4, 2, 0]  # 3 + 1 unigrams, 2 bigrams, no trigram


@given(st.lists(st.integers(min_value=0, max_value=20), max_size=8), ORDERS)
def test_order_totals_array_is_the_formula_row_by_row(lengths: list[int], max_n: int) -> None:
    totals = ngrams.Contiguous(max_n).order_totals_array(np.array(lengths, dtype=np.int64))
    expected = [[max(length - n + 1, 0) for n in range(1, max_n + 1)] for length in lengths]
    assert totals.reshape(len(lengths), max_n).tolist() == expected
