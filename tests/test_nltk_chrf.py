"""NLTK's chrF (``bleuprint.compat.nltk.chrf``) against NLTK 3.10.4's ``sentence_chrf`` and
``corpus_chrf``, run as the oracle: on WMT22 system outputs (the corpus and every segment) and
on generated text over every option."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from nltk.translate import chrf_score

from bleuprint import ConfigurationError, InputError, StatisticsMismatchError
from bleuprint.compat import nltk as compat_nltk


def read_segments(path: Path) -> list[str]:
    """As the data's README says: UTF-8, a byte-order mark kept, split on "\\n" only."""
    lines = path.read_bytes().decode("utf-8").split("\n")
    return lines[:-1] if lines[-1] == "" else lines


def same(ours: float, theirs: float) -> bool:
    """The same float: NLTK's operations, in its order (closer than the 1e-12 asked)."""
    return ours == theirs


def test_wmt22_corpus_and_every_segment(shared: Any, wmt22_pair: str) -> None:
    """One system of each pair against the first reference."""
    folder = shared("data", "wmt22", wmt22_pair)
    hypotheses = read_segments(sorted(folder.glob("sys.*.txt"))[0])
    references = read_segments(sorted(folder.glob("ref.*.txt"))[0])
    chrf = compat_nltk.chrf()
    result = chrf.corpus_score(hypotheses, [[reference] for reference in references])
    assert same(result.score, chrf_score.corpus_chrf(references, hypotheses))
    sentences = chrf.sentence_scores(hypotheses, [[reference] for reference in references])
    for sentence, hypothesis, reference in zip(sentences, hypotheses, references, strict=True):
        assert same(sentence.score, chrf_score.sentence_chrf(reference, hypothesis))


ALPHABET = "aAbBc\u0130\xdf1.,!() \t\n\x1c\x1f\u3000\xa0\xe9\u5b57\U0001f600"
TEXT = st.text(alphabet=ALPHABET, max_size=20)
TOKENS = st.lists(st.sampled_from(["a", "b", "ab", "a.", "(a)", "\xdf"]), max_size=6)
SEGMENT = st.one_of(TEXT, TOKENS, st.just(""))
ORDERS = st.integers(1, 4).flatmap(lambda low: st.tuples(st.just(low), st.integers(low, 7)))
OPTIONS = st.fixed_dictionaries(
    {
        "beta": st.sampled_from([0, 1, 3.0, 0.5]),
        "ignore_whitespace": st.booleans(),
    }
)


@given(
    orders=ORDERS,
    options=OPTIONS,
    corpus=st.lists(st.tuples(SEGMENT, SEGMENT), min_size=1, max_size=5),
)
def test_generated_corpora_and_sentences(
    orders: tuple[int, int], options: dict[str, Any], corpus: list[tuple[Any, Any]]
) -> None:
    min_len, max_len = orders
    chrf = compat_nltk.chrf(min_len, max_len, **options)
    hypotheses = [hypothesis for hypothesis, _ in corpus]
    references = [reference for _, reference in corpus]
    expected = chrf_score.corpus_chrf(references, hypotheses, min_len, max_len, **options)
    assert same(chrf.corpus_score(hypotheses, [[ref] for ref in references]).score, expected)
    for hypothesis, reference in corpus:
        expected_sentence = chrf_score.sentence_chrf(
            reference, hypothesis, min_len, max_len, **options
        )
        assert same(chrf.compute(hypothesis, [reference]), expected_sentence)


@given(text=TEXT)
def test_characters_are_nltks(text: str) -> None:
    assert compat_nltk.NLTKChars()(text) == list(chrf_score._preprocess(text, True))


def test_statistics_add_as_the_corpus_sums() -> None:
    chrf = compat_nltk.chrf()
    hypotheses, references = ["the cat sat", "a dog", ""], [["the cat sat"], ["a cat"], ["x"]]
    segments = chrf.count_segments(hypotheses, references)
    rows = [segments.take(np.array([row])) for row in range(len(segments))]
    by_segment = sum(chrf.definition.total(row) for row in rows)
    assert by_segment == chrf.count(hypotheses, references)
    assert chrf.score(by_segment) == chrf.corpus_score(hypotheses, references)
    with pytest.raises(StatisticsMismatchError, match="summed without NLTK's sums"):
        chrf.score(segments.total())


def test_one_reference_per_hypothesis() -> None:
    with pytest.raises(InputError, match="segment 1: NLTK's chrF takes one reference"):
        compat_nltk.chrf().corpus_score(["a", "b"], [["a"], ["b", "c"]])


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"min_len": 3, "max_len": 2}, "min_len 3 is above max_len 2"),
        ({"min_len": 0}, "min_len must be a whole number from 1 to 1024, got 0"),
        ({"beta": -1}, "beta must be a finite number of at least 0, got -1"),
        ({"ignore_whitespace": 1}, "ignore_whitespace must be True or False, got 1"),
    ],
)
def test_bad_options_are_refused_by_name(options: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigurationError, match=message):
        compat_nltk.chrf(**options)
