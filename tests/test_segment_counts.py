"""The kernel's one-segment count (``segment_counts``, a sentence's statistics without arrays)
against the definition, on both kernels."""

from __future__ import annotations

from types import ModuleType

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from bleuprint import tokenizers
from bleuprint.typing import Tokenizer
from tests.test_kernels import both_kernels, shared_by_counter

WORDS = st.lists(st.sampled_from(["a", "b", "c", "dé", "a."]), max_size=12)


@both_kernels
@given(st.lists(WORDS, min_size=2, max_size=5), st.integers(1, 7))
@example([["a", "a", "a", "a"], ["a", "a"], ["a", "a", "a"]], 3)  # repeated on both sides
@example([[], ["a"]], 2)  # an empty hypothesis
def test_one_segment_is_counted_as_the_definition(
    kernel: ModuleType, texts: list[list[str]], max_n: int
) -> None:
    counts, singles, repeated = kernel.segment_counts(texts, None, None, max_n)
    expected_singles, expected_repeated = shared_by_counter(
        texts, [0], [list(range(1, len(texts)))], max_n
    )
    assert counts == tuple(map(len, texts))
    assert singles == expected_singles[0]
    assert repeated == expected_repeated


@both_kernels
@pytest.mark.parametrize(
    ("name", "tokenizer"),
    [
        ("whitespace", tokenizers.Whitespace()),
        ("13a", tokenizers.Mteval13a()),
        ("char", tokenizers.Chars()),
    ],
)
@given(st.lists(st.text(st.sampled_from("ab .,-\u00a0é"), max_size=20), min_size=1, max_size=4))
def test_texts_are_tokenized_as_the_tokenizer_does(
    kernel: ModuleType, name: str, tokenizer: Tokenizer, texts: list[str]
) -> None:
    tokenize = lambda given: list(map(tokenizer, given))  # noqa: E731
    as_text = kernel.segment_counts(texts, name, tokenize, 4)
    assert as_text == kernel.segment_counts(tokenize(texts), None, None, 4)


@both_kernels
def test_a_user_tokenizer_gives_the_tokens(kernel: ModuleType) -> None:
    tokenize = lambda given: [text.split(",") for text in given]  # noqa: E731
    # "a" twice in the hypothesis, once in the reference; "b" and "a b" once each
    expected = ((3, 2), [1, 1], [(0, 2, 1)])
    assert kernel.segment_counts(["a,b,a", "a,b"], None, tokenize, 2) == expected


@both_kernels
def test_orders_start_at_one(kernel: ModuleType) -> None:
    with pytest.raises(ValueError, match="max_n must be at least 1, got 0"):
        kernel.segment_counts([["a"], ["a"]], None, None, 0)
