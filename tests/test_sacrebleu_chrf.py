"""sacreBLEU's chrF and chrF++ (``bleuprint.compat.sacrebleu.chrf``) against sacreBLEU 2.6.0's
``CHRF``, run as the oracle: on WMT22 system outputs (corpus, and the statistics and score of
every segment) and on generated text over every option."""

from __future__ import annotations

import functools
import math
from pathlib import Path
from typing import Any

import attrs
import pytest
import sacrebleu
from hypothesis import given
from hypothesis import strategies as st

from bleuprint import ConfigurationError, InputError
from bleuprint.compat import sacrebleu as compat_sacrebleu
from bleuprint.compat._chrf import ChrFResult

# -- comparing with the oracle ------------------------------------------------------------------


def streams_of(references: list[list[str]]) -> list[list[str | None]]:
    """References per hypothesis as sacreBLEU's streams (``None`` where a segment has fewer)."""
    most = max(map(len, references))
    return [[refs[k] if k < len(refs) else None for refs in references] for k in range(most)]


def assert_as_sacrebleu(ours: ChrFResult, theirs: Any, metric: Any) -> None:
    """The same printed line, signature and digits, and the same score (to the last bit on
    sacreBLEU's 0-100 scale, closer than the 1e-12 asked)."""
    assert str(ours) == str(theirs)
    assert ours.signature == f"{theirs.name}|{metric.get_signature()}"
    assert ours.points == theirs.score  # sacreBLEU's operations in its order: the same float
    assert math.isclose(ours.score, theirs.score / 100, rel_tol=1e-15)


def flat(stats: Any) -> list[int]:
    """Statistics in sacreBLEU's layout: ``[hyp, ref, match]`` per order."""
    return [
        count for order in zip(stats.hypothesis, stats.reference, stats.matches) for count in order
    ]


# -- WMT22 ---------------------------------------------------------------------------------------


@functools.cache
def read_segments(path: Path) -> list[str]:
    """As the data's README says: UTF-8, a byte-order mark kept, split on "\\n" only."""
    lines = path.read_bytes().decode("utf-8").split("\n")
    return lines[:-1] if lines[-1] == "" else lines


@pytest.mark.parametrize("options", [{}, {"word_order": 2}], ids=["chrF", "chrF++"])
def test_wmt22_corpus_and_every_segment(
    shared: Any, wmt22_pair: str, options: dict[str, Any]
) -> None:
    """One system of each pair against every reference set (one, and all), corpus scores and
    each segment's statistics and sentence score."""
    folder = shared("data", "wmt22", wmt22_pair)
    reference_files = sorted(folder.glob("ref.*.txt"))
    for system_file in sorted(folder.glob("sys.*.txt"))[:1]:
        hypotheses = read_segments(system_file)
        for files in {(reference_files[0],), tuple(reference_files)}:
            streams = [read_segments(path) for path in files]
            references = [list(segment) for segment in zip(*streams)]
            metric = sacrebleu.metrics.CHRF(**options)
            chrf = compat_sacrebleu.chrf(**options)
            # sacreBLEU's corpus_score, its statistics found once (they are the cost)
            expected_rows = metric._extract_corpus_statistics(hypotheses, streams)
            expected = metric._aggregate_and_compute(expected_rows)
            assert_as_sacrebleu(chrf.corpus_score(hypotheses, references), expected, metric)
            segments = chrf.count_segments(hypotheses, references)
            assert [flat(segments[i]) for i in range(len(segments))] == expected_rows
            sentences = chrf.sentence_scores(hypotheses, references)
            for sentence, row in zip(sentences, expected_rows, strict=True):
                expected_sentence = metric._compute_score_from_stats(row)
                assert str(sentence) == str(expected_sentence)
                assert sentence.points == expected_sentence.score


# -- generated text, every option -------------------------------------------------------------

# Letters of both cases (and ones whose lowercase is longer), digits, sacreBLEU's punctuation,
# whitespace of several kinds, and characters beyond the Basic Multilingual Plane.
ALPHABET = "aAbBcC\u0130\xdf\u03a3\u03c31.,!()'\"-/ \t\u3000\xa0\xe9\u5b57\U0001f600"
TEXT = st.text(alphabet=ALPHABET, max_size=24)
WORDS = st.lists(st.sampled_from(["a", "b", "ab", "a.", ",b", "(a)", "A", "ß"]), max_size=8).map(
    " ".join
)
SEGMENT = st.one_of(TEXT, WORDS, st.just(""))
REFERENCES = st.lists(SEGMENT, min_size=1, max_size=3)
OPTIONS = st.fixed_dictionaries(
    {
        "char_order": st.integers(0, 7),
        "word_order": st.integers(0, 3),
        "beta": st.sampled_from([0, 1, 2, 3, 0.5]),
        "lowercase": st.booleans(),
        "whitespace": st.booleans(),
        "eps_smoothing": st.booleans(),
    }
).filter(lambda options: options["char_order"] + options["word_order"] > 0)


@given(
    options=OPTIONS,
    corpus=st.lists(st.tuples(SEGMENT, REFERENCES), min_size=1, max_size=5),
)
def test_generated_corpora_and_sentences(
    options: dict[str, Any], corpus: list[tuple[str, list[str]]]
) -> None:
    hypotheses = [hypothesis for hypothesis, _ in corpus]
    references = [refs for _, refs in corpus]
    chrf = compat_sacrebleu.chrf(**options)
    metric = sacrebleu.metrics.CHRF(**options)
    expected = metric.corpus_score(hypotheses, streams_of(references))
    assert_as_sacrebleu(chrf.corpus_score(hypotheses, references), expected, metric)
    for hypothesis, refs in corpus:
        oracle = sacrebleu.metrics.CHRF(**options)
        expected_sentence = oracle.sentence_score(hypothesis, refs)
        assert_as_sacrebleu(chrf.sentence_score(hypothesis, refs), expected_sentence, oracle)


@given(text=st.one_of(TEXT, WORDS))
def test_chrf_words_are_sacrebleus(text: str) -> None:
    assert compat_sacrebleu.ChrFWords()(text) == sacrebleu.metrics.CHRF()._remove_punctuation(text)


def test_statistics_add_and_score_as_the_corpus() -> None:
    chrf = compat_sacrebleu.chrf(word_order=2)
    hypotheses, references = ["the cat sat", "a dog", ""], [["the cat sat"], ["a cat"], ["x"]]
    segments = chrf.count_segments(hypotheses, references)
    summed = sum(segments[i] for i in range(len(segments)))
    assert summed == chrf.count(hypotheses, references) == segments.total()
    assert chrf.score(summed) == chrf.corpus_score(hypotheses, references)


def test_a_segment_counts_against_its_best_reference() -> None:
    chrf = compat_sacrebleu.chrf()
    hypothesis, worse, best = "the cat sat", "the cat", "the cat sat"
    chosen = chrf.count_segments([hypothesis], [[worse, best, worse]])[0]
    alone = chrf.count([hypothesis], [[best]])
    assert chosen == attrs.evolve(alone, reference_counts=frozenset({3}))
    assert chrf.compute(hypothesis, [worse, best]) == 1.0


# -- errors ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"char_order": -1}, "char_order must be a whole number from 0 to 1024, got -1"),
        ({"word_order": True}, "word_order must be a whole number from 0 to 1024, got True"),
        ({"beta": -1}, "beta must be a finite number of at least 0, got -1"),
        ({"lowercase": "yes"}, "lowercase must be True or False, got 'yes'"),
        ({"char_order": 0}, "chrF needs at least one order"),
    ],
)
def test_bad_options_are_refused_by_name(options: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigurationError, match=message):
        compat_sacrebleu.chrf(**options)


@pytest.mark.parametrize(
    ("hypotheses", "references", "message"),
    [
        (["a"], [], "1 hypothesis but 0 lists of references"),
        ([], [], "the corpus is empty"),
        ("a b", [["a b"]], "hypotheses must be a list"),
        (["a", 3], [["a"], ["b"]], "segment 1: the hypothesis must be a string, got int"),
        (["a", "b"], [["a"], []], "segment 1: the references must be a non-empty list"),
        (["a", "b"], [["a"], "b"], "segment 1: the references must be a non-empty list"),
        (["a"], [["a", None]], "segment 0: reference 1 must be a string, got NoneType"),
    ],
)
def test_bad_input_is_refused_with_its_segment(
    hypotheses: Any, references: Any, message: str
) -> None:
    with pytest.raises(InputError, match=message):
        compat_sacrebleu.chrf().corpus_score(hypotheses, references)
