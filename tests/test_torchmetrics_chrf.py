"""torchmetrics' chrF (issue 27): ``compat.torchmetrics.chrf`` against torchmetrics 1.9.0's
``chrf_score`` run on the same text: the WMT22 data of every pair (corpus and every segment,
one and two references, its options), fuzzed small corpora, and its quirks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st
from torchmetrics.functional.text import chrf_score
from torchmetrics.text import CHRFScore

from bleuprint.compat import torchmetrics
from bleuprint.exceptions import ConfigurationError

PAIRS = ("cs-en", "de-en", "en-de", "en-ja", "en-zh", "zh-en")


@pytest.fixture(scope="module")
def wmt22(shared: Any) -> Path:
    return shared("data", "wmt22")  # type: ignore[no-any-return]


def _corpus(folder: Path, count: int, references: int = 1) -> tuple[list[str], list[list[str]]]:
    """A pair's first system and the references of its first ``references`` files."""
    hypotheses = sorted(folder.glob("sys.*.txt"))[0].read_text("utf-8").splitlines()[:count]
    streams = [
        path.read_text("utf-8").splitlines()[:count]
        for path in sorted(folder.glob("ref.*.txt"))[:references]
    ]
    return hypotheses, [list(segment) for segment in zip(*streams)]


def _expected(hypotheses: list[str], references: list[list[str]], **options: Any) -> Any:
    return chrf_score(hypotheses, references, return_sentence_level_score=True, **options)


@pytest.mark.parametrize("pair", PAIRS)
def test_corpus_and_segments_as_torchmetrics(wmt22: Path, pair: str) -> None:
    hypotheses, references = _corpus(wmt22 / pair, 100)
    corpus, sentences = _expected(hypotheses, references)
    engine = torchmetrics.chrf()
    assert engine.corpus_score(hypotheses, references).score == float(corpus)
    got = [result.score for result in engine.sentence_scores(hypotheses, references)]
    assert got == sentences.tolist()


OPTIONS = [
    {"n_word_order": 0},
    {"n_char_order": 3, "n_word_order": 1},
    {"beta": 1.0},
    {"beta": 0.3},
    {"lowercase": True},
    {"whitespace": True},
]


@pytest.mark.parametrize("options", OPTIONS, ids=str)
def test_options_and_two_references(wmt22: Path, options: dict[str, Any]) -> None:
    hypotheses, references = _corpus(wmt22 / "de-en", 80, references=2)
    corpus, sentences = _expected(hypotheses, references, **options)
    engine = torchmetrics.chrf(**options)
    assert engine.corpus_score(hypotheses, references).score == float(corpus)
    got = [result.score for result in engine.sentence_scores(hypotheses, references)]
    assert got == sentences.tolist()


def test_the_module_class_agrees() -> None:
    metric = CHRFScore()
    hypotheses = ["the cat is on the mat", "a dog", "x"]
    references = [["there is a cat on the mat", "a cat is on the mat"], ["a dog barks"], ["y"]]
    metric.update(hypotheses[:2], references[:2])
    metric.update(hypotheses[2:], references[2:])
    assert torchmetrics.chrf().corpus_score(hypotheses, references).score == float(metric.compute())


def test_a_segment_of_no_match_adds_no_reference_ngrams() -> None:
    # the quirk can fail: counted as the plain sums would count it, the score differs
    hypotheses, references = ["the cat sat", "qqq"], [["the cat sat down"], ["zzz zz"]]
    engine = torchmetrics.chrf()
    got = engine.corpus_score(hypotheses, references).score
    assert got == float(chrf_score(hypotheses, references))
    plain = engine.definition.corpus_points(engine.count_segments(hypotheses, references).total())
    assert plain != got


TEXT = st.text(st.sampled_from("ab c.,\t\u00a0A"), max_size=12)


@given(
    st.lists(st.tuples(TEXT, st.lists(TEXT, min_size=1, max_size=3)), min_size=1, max_size=5),
    st.integers(1, 4),
    st.integers(0, 2),
    st.booleans(),
    st.booleans(),
)
def test_small_corpora_as_torchmetrics(
    segments: list[Any], chars: int, words: int, lowercase: bool, whitespace: bool
) -> None:
    hypotheses = [hypothesis for hypothesis, _ in segments]
    references = [segment for _, segment in segments]
    options = {
        "n_char_order": chars,
        "n_word_order": words,
        "lowercase": lowercase,
        "whitespace": whitespace,
    }
    corpus, sentences = _expected(hypotheses, references, **options)
    engine = torchmetrics.chrf(**options)
    assert engine.corpus_score(hypotheses, references).score == float(corpus)
    got = [result.score for result in engine.sentence_scores(hypotheses, references)]
    assert got == torch.atleast_1d(sentences).tolist()


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"n_char_order": 0}, "n_char_order must be a whole number from 1 to 1024"),
        ({"n_word_order": -1}, "n_word_order"),
        ({"beta": -1.0}, "beta"),
    ],
)
def test_bad_options(options: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigurationError, match=message):
        torchmetrics.chrf(**options)


def test_signature() -> None:
    result = torchmetrics.chrf(lowercase=True).corpus_score(["a"], [["a"]])
    assert result.signature == "torchmetrics-chrf|nc:6|nw:2|beta:2.0|case:lc|space:no|version:1.9.0"
