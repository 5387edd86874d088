"""torchmetrics' definition (:mod:`bleuprint.compat.torchmetrics`), by hand-computed cases."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bleuprint import (
    BLEUScore,
    BLEUStats,
    ConfigurationError,
    smoothing,
    tokenizers,
)
from bleuprint.compat import torchmetrics
from bleuprint.smoothing import precisions

WORD = st.sampled_from(["a", "b", "c", "the", "cat"])
SENTENCE = st.lists(WORD, max_size=8)


def test_require_all_matched_zeroes_everything() -> None:
    stats = BLEUStats((5, 3, 1, 0), (6, 5, 4, 3), 6, 6)
    assert precisions(torchmetrics.RequireAllMatched(smoothing.AddOne()), stats) == [0.0] * 4
    matched = BLEUStats((5, 3, 1, 1), (6, 5, 4, 3), 6, 6)
    expected = [5 / 6, 4 / 6, 2 / 5, 2 / 4]
    assert precisions(torchmetrics.RequireAllMatched(smoothing.AddOne()), matched) == expected


def test_signature_rebuilds_torchmetrics_sacrebleu() -> None:
    bleu = BLEUScore.torchmetrics(tokenize="intl", lowercase=True, smooth=True)
    assert BLEUScore.from_signature(str(bleu.signature())) == bleu


def test_torchmetrics_lowercases_after_tokenizing() -> None:
    # "İ" lowercases to "i" and a combining dot: two characters before tokenizing, one
    # token after it.
    after = BLEUScore.torchmetrics(tokenize="char", lowercase=True).tokenizer
    assert after("İa") == ["i\u0307", "a"]
    assert tokenizers.Lowercase(tokenizers.Chars())("İa") == ["i", "\u0307", "a"]


@given(text=st.text(alphabet=st.sampled_from(list("aB1 .,-&;()İßΣ\u00a0\t"))))
def test_lowercase_after_by_its_definition(text: str) -> None:
    inner = tokenizers.Mteval13a()
    lowered = torchmetrics.LowercaseAfter(inner)(text)
    assert lowered == [token.lower() for token in inner(text)]


def test_torchmetrics_unknown_tokenizer() -> None:
    with pytest.raises(ConfigurationError, match=r"one of none, zh, .*, flores101, flores200"):
        BLEUScore.torchmetrics(tokenize="flores300")


def test_torchmetrics_weights_must_match_the_order() -> None:
    with pytest.raises(ConfigurationError, match="one weight per order"):
        BLEUScore.torchmetrics(n_gram=2, weights=(1.0,))
