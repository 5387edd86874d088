"""NLTK's NIST (issue 27): ``compat.nltk.nist`` against NLTK 3.10.4's ``corpus_nist`` and
``sentence_nist``, run on the same tokens: the WMT22 data of every pair (corpus and every
segment, one and two references, several orders), fuzzed small corpora, and what NLTK
refuses."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from nltk.translate.nist_score import corpus_nist, sentence_nist

from bleuprint.compat import nltk
from bleuprint.exceptions import ConfigurationError, InputError

PAIRS = ("cs-en", "de-en", "en-de", "en-ja", "en-zh", "zh-en")


@pytest.fixture(scope="module")
def wmt22(shared: Any) -> Path:
    return shared("data", "wmt22")  # type: ignore[no-any-return]


def _lines(path: Path, count: int) -> list[list[str]]:
    return [line.split() for line in path.read_text("utf-8").splitlines()[:count]]


def _corpus(folder: Path, count: int, references: int = 1) -> tuple[list[Any], list[Any]]:
    """A pair's first system and the references of its first ``references`` files."""
    hypotheses = _lines(sorted(folder.glob("sys.*.txt"))[0], count)
    streams = [_lines(path, count) for path in sorted(folder.glob("ref.*.txt"))[:references]]
    return hypotheses, [list(segment) for segment in zip(*streams)]


@pytest.mark.parametrize("pair", PAIRS)
def test_corpus_and_segments_as_nltk(wmt22: Path, pair: str) -> None:
    # Chinese is not split on whitespace: as words, it has lines of one "word", and a corpus
    # of them with no 4-gram, where NLTK divides by zero; as characters, it is scored
    hypotheses, references = _corpus(wmt22 / pair, 500)
    if pair == "en-zh":
        with pytest.raises(ZeroDivisionError):
            corpus_nist(references, hypotheses)
        with pytest.raises(InputError, match="no hypothesis has an n-gram of order 4"):
            nltk.nist().corpus_score(hypotheses, references)
        hypotheses = [list("".join(tokens)) for tokens in hypotheses]
        references = [[list("".join(tokens)) for tokens in segment] for segment in references]
    got = nltk.nist().corpus_score(hypotheses, references)
    assert got.score == corpus_nist(references, hypotheses)
    for hypothesis, segment in zip(hypotheses[:150], references[:150]):
        if len(hypothesis) >= 5:  # shorter: NLTK divides by zero (tested below)
            assert nltk.nist().compute(hypothesis, segment) == sentence_nist(segment, hypothesis)


@pytest.mark.parametrize("n", [1, 2, 3, 4, 6, 9])
def test_two_references_and_other_orders(wmt22: Path, n: int) -> None:
    # each order chooses its reference on its own, and the lengths follow the choices
    hypotheses, references = _corpus(wmt22 / "de-en", 400, references=2)
    assert all(len(segment) == 2 for segment in references)
    got = nltk.nist(n).corpus_score(hypotheses, references)
    assert got.score == corpus_nist(references, hypotheses, n)
    assert len(got.precisions) == n
    assert got.signature == f"nltk-nist|n:{n}|version:3.10.4"


def test_text_is_split_on_whitespace() -> None:
    hypothesis = "the cat sat on the mat today"
    references = ["the cat sat on a mat today", "a cat\tsat  on the mat"]
    expected = sentence_nist([reference.split() for reference in references], hypothesis.split())
    assert nltk.nist().compute(hypothesis, references) == expected


WORDS = st.sampled_from(["a", "b", "c", "d", "the"])
SEGMENT = st.lists(WORDS, max_size=9)


@given(
    st.lists(st.tuples(SEGMENT, st.lists(SEGMENT, min_size=1, max_size=3)), min_size=1, max_size=6),
    st.integers(1, 5),
)
def test_small_corpora_as_nltk(segments: list[Any], n: int) -> None:
    hypotheses = [hypothesis for hypothesis, _ in segments]
    references = [segment for _, segment in segments]
    try:
        expected = corpus_nist(references, hypotheses, n)
    except ZeroDivisionError:
        with pytest.raises(InputError, match="NLTK's NIST divides by zero"):
            nltk.nist(n).corpus_score(hypotheses, references)
        return
    assert nltk.nist(n).corpus_score(hypotheses, references).score == expected


@pytest.mark.parametrize(
    ("hypotheses", "references", "message"),
    [
        ([["a"]], [[["a"]]], "no hypothesis has an n-gram of order 2 \\(of n=2\\)"),
        ([["a", "b"]], [[[]]], "the references have no word"),
        ([["a"], ["b"]], [[["a"]]], "2 hypotheses but 1 list of references"),
        ([["a"]], [[]], "segment 0: the references must be a non-empty list"),
        ([["a"]], ["a"], "segment 0: the references must be a non-empty list"),
        ([["a", 1]], [[["a"]]], "segment 0: the hypothesis must be a string or a list of"),
        ([["a"]], [[["a"], None]], "segment 0: reference 1 must be a string or a list of"),
        ("a b", [[["a"]]], "the hypotheses must be a list of segments, got a str"),
    ],
)
def test_what_nltk_refuses_is_an_input_error(
    hypotheses: Any, references: Any, message: str
) -> None:
    with pytest.raises(InputError, match=message):
        nltk.nist(2 if "order 2" in message else 1).corpus_score(hypotheses, references)


def test_the_order_is_checked() -> None:
    with pytest.raises(ConfigurationError, match="n must be a whole number from 1 to 1024"):
        nltk.nist(0)


def test_printed_and_as_a_number(wmt22: Path) -> None:
    hypotheses, references = _corpus(wmt22 / "en-de", 50)
    result = nltk.nist().corpus_score(hypotheses, references)
    assert float(result) == result.score
    assert str(result).startswith(f"NLTK NIST = {result.score:.4f} ")
    assert result.score == pytest.approx(sum(result.precisions) * result.penalty, rel=1e-15)
