"""bleuprint's sacreBLEU configurations against sacreBLEU 2.6.0 itself, on random text.

The text mixes ASCII and Unicode letters, digits, punctuation and symbols, HTML escapes, every
kind of whitespace, byte-order marks, line breaks and empty segments, drawn from a small
vocabulary so that n-grams match often. Each test runs sacreBLEU and bleuprint on the same
input with the same options and compares everything sacreBLEU reports.
"""

from __future__ import annotations

import importlib.util
import logging
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu import sentence_bleu
from sacrebleu.metrics import BLEU

from bleuprint import BLEUScore
from bleuprint.compat.sacrebleu import from_streams
from bleuprint.compat.sacrebleu import signature as sacrebleu_signature
from tests.sacrebleu_reports import assert_as_sacrebleu

logging.getLogger("sacrebleu").setLevel(logging.ERROR)  # its advice on options is not news

FRAGMENTS = (
    "the", "The", "cat", "CAT", "über", "Straße", "İstanbul", "Ж", "жук", "é", "e\u0301",
    "中", "文", "数学", "\U00020000", "\U0002f800", "日本語", "です", "한국어", "는",
    "1", "2020", "3.5", "1,000", "-", "--", ".", ",", "'", "\"", "!", "?", "(", ")", "[", "]",
    "{", "}", "/", "\\", "$", "%", "&", ";", ":", "@", "#", "*", "+", "=", "<", ">", "^", "_",
    "`", "|", "~", "&amp;", "&quot;", "&lt;", "&gt;", "&amp;lt;", "&apos;", "<skipped>",
    "“", "”", "«", "»", "—", "–", "…", "€", "©", "±", "→", "、", "。", "，", "！", "・", "\u200b",  # noqa: RUF001
    " ", " ", " ", "  ", "\t", "\u00a0", "\u3000", "\u2009", "\u2028", "\u0085", "\x1c",
    "\ufeff", "\n", "-\n", "\r",
)  # fmt: skip

fragment_lists = st.lists(st.sampled_from(FRAGMENTS), max_size=14)
segments = fragment_lists.map("".join)

TOKENIZERS = [
    name
    for name, module in (
        ("none", None), ("13a", None), ("intl", None), ("char", None), ("zh", None),
        ("ja-mecab", "MeCab"), ("ko-mecab", "mecab_ko"),
    )
    if module is None or importlib.util.find_spec(module) is not None
]  # fmt: skip

options = st.fixed_dictionaries(
    {
        "tokenize": st.sampled_from(TOKENIZERS),
        "lowercase": st.booleans(),
        "smooth_method": st.sampled_from(["none", "floor", "add-k", "exp"]),
        "smooth_value": st.sampled_from([None, 0, 0.01, 0.5, 2]),  # a floor of 2: above 100
        "max_ngram_order": st.integers(1, 5),
        "effective_order": st.booleans(),
    }
)


@st.composite
def variant(draw: st.DrawFn, base: list[str]) -> str:
    """``base`` with some fragments left out, so that variants of one base share n-grams."""
    kept = draw(st.lists(st.booleans(), min_size=len(base), max_size=len(base)))
    return "".join(fragment for fragment, keep in zip(base, kept) if keep)


@st.composite
def corpora(draw: st.DrawFn) -> tuple[list[str], list[list[str | None]]]:
    """Hypotheses and 1 to 4 reference streams, each segment a variant of a common base; a
    reference may be missing (None), but every segment keeps its first."""
    bases = draw(st.lists(fragment_lists, min_size=1, max_size=5))
    hypotheses = [draw(variant(base)) for base in bases]
    extra_streams = draw(st.integers(0, 3))
    streams: list[list[str | None]] = [
        [draw(variant(base)) for base in bases],
        *([draw(st.none() | variant(base)) for base in bases] for _ in range(extra_streams)),
    ]
    return hypotheses, streams


def assert_same(ours: Any, theirs: Any, chosen: dict[str, Any]) -> None:
    assert_as_sacrebleu(ours, theirs, chosen)
    for width in (0, 1, 4):
        assert ours.format(width) == theirs.format(width)


@pytest.mark.parametrize("lowercase", [False, True])
@pytest.mark.parametrize("tokenize", TOKENIZERS)
@settings(max_examples=60)
@given(text=segments)
def test_tokenizers_agree(tokenize: str, lowercase: bool, text: str) -> None:
    theirs = BLEU(tokenize=tokenize, lowercase=lowercase)._preprocess_segment(text).split()
    ours = BLEUScore.sacrebleu(tokenize=tokenize, lowercase=lowercase).tokenizer(text)
    assert ours == theirs


@settings(max_examples=100)
@given(corpus=corpora(), chosen=options)
def test_corpus_scores_agree(
    corpus: tuple[list[str], list[list[str | None]]], chosen: dict[str, Any]
) -> None:
    hypotheses, streams = corpus
    metric = BLEU(**chosen)
    theirs = metric.corpus_score(hypotheses, streams)
    bleu = BLEUScore.sacrebleu(**chosen)
    ours = bleu.corpus_score(hypotheses, from_streams(hypotheses, streams))
    assert_same(ours, theirs, chosen)
    assert sacrebleu_signature(ours) == str(metric.get_signature())


@settings(max_examples=100)
@given(corpus=corpora(), chosen=options)
def test_sentence_scores_agree(
    corpus: tuple[list[str], list[list[str | None]]], chosen: dict[str, Any]
) -> None:
    hypothesis = corpus[0][0]
    references = [stream[0] for stream in corpus[1] if stream[0] is not None]
    sentence_options = {key: value for key, value in chosen.items() if key != "max_ngram_order"}
    effective = sentence_options.pop("effective_order")
    theirs = sentence_bleu(
        hypothesis, references, use_effective_order=effective, **sentence_options
    )
    bleu = BLEUScore.sacrebleu_sentence(effective_order=effective, **sentence_options)
    assert_same(bleu.sentence_score(hypothesis, references), theirs, chosen)
