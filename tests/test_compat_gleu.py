"""GLEU: every case of ``circulation_vectors.json`` through the preset, and NLTK's
``gleu_score`` run on random corpora and on WMT22 data, several references included."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from nltk.translate.gleu_score import corpus_gleu, sentence_gleu

from bleuprint import BLEUScore, ConfigurationError, StatisticsMismatchError

from .conftest import CIRCULATION, circulation_cases, require_shared

# NLTK divides whole numbers once; bleuprint too, so the results are equal.
EXACT = 0.0


@pytest.mark.parametrize("case", circulation_cases("nltk gleu_score"))
def test_gleu_score(case: dict[str, Any] | None) -> None:
    if case is None:
        require_shared(*CIRCULATION)
        return
    options, expected = case["options"], case["expected"]
    gleu = BLEUScore.gleu(min_len=options["min_len"], max_len=options["max_len"])
    hypotheses, references = case["hypotheses"], case["references"]
    if options["function"] == "corpus_gleu":
        assert gleu.corpus_score(hypotheses, references).score == expected["score"]
    else:
        scores = gleu.sentence_scores(hypotheses, references).scores.tolist()
        assert scores == expected["scores"]
        singles = [gleu.compute(*segment) for segment in zip(hypotheses, references)]
        assert singles == expected["scores"]


WORDS = st.lists(st.sampled_from(["a", "b", "c", "d"]), max_size=7)
SEGMENT = st.tuples(WORDS, st.lists(WORDS, min_size=1, max_size=3))


@given(st.lists(SEGMENT, min_size=1, max_size=6), st.integers(1, 3), st.integers(0, 2))
def test_nltk_on_random_corpora(
    corpus: list[tuple[list[str], list[list[str]]]], min_len: int, extra: int
) -> None:
    """Empty hypotheses and references, ties between references and repeats included."""
    max_len = min_len + extra
    gleu = BLEUScore.gleu(min_len=min_len, max_len=max_len)
    hypotheses = [hypothesis for hypothesis, _ in corpus]
    references = [refs for _, refs in corpus]
    expected = corpus_gleu(references, hypotheses, min_len=min_len, max_len=max_len)
    assert gleu.corpus_score(hypotheses, references).score == expected
    for hypothesis, refs in corpus:
        expected = sentence_gleu(refs, hypothesis, min_len=min_len, max_len=max_len)
        assert gleu.compute(hypothesis, refs) == expected


def test_nltk_on_wmt22_with_two_references() -> None:
    folder = require_shared("data", "wmt22", "en-de")
    read = lambda name: (folder / name).read_text(encoding="utf-8").splitlines()  # noqa: E731
    systems = sorted(path.name for path in folder.glob("sys.*.txt"))
    hypotheses = [line.split() for line in read(systems[0])[:400]]
    references = [
        [a.split(), b.split()] for a, b in zip(read("ref.A.txt")[:400], read("ref.B.txt")[:400])
    ]
    gleu = BLEUScore.gleu()
    expected = corpus_gleu(references, hypotheses)
    assert gleu.corpus_score(hypotheses, references).score == expected
    rows = random.Random(13).sample(range(len(hypotheses)), 40)
    for row in rows:
        assert gleu.compute(hypotheses[row], references[row]) == sentence_gleu(
            references[row], hypotheses[row]
        )


def test_the_corpus_total_survives_running_sums_and_storage() -> None:
    gleu = BLEUScore.gleu(max_len=2)
    hypotheses, references = ["a b c", "a", "b c d e"], [["a b d"], ["a b"], ["b c", "d e"]]
    # per segment (matches, larger count): (3, 5), (1, 3), (3, 7) against "b c" or "d e"
    expected = (3 + 1 + 3) / (5 + 3 + 7)
    assert gleu.corpus_score(hypotheses, references).score == expected
    segments = gleu.count_segments(hypotheses, references)
    assert gleu.score(gleu.total(segments[:1]) + gleu.total(segments[1:])).score == expected
    assert gleu.score(gleu.total(segments[1:], gleu.total(segments[:1]))).score == expected
    with pytest.raises(StatisticsMismatchError, match="per-segment"):
        gleu.score(segments.total())


def test_google_bleu_reads_text_with_13a() -> None:
    """evaluate's google_bleu: corpus_gleu on 13a tokens (its documented example 1: 0.44)."""
    predictions = [
        "It is a guide to action which ensures that the rubber duck always disobeys the "
        "commands of the cat",
        "he read the book because he was interested in world history",
    ]
    references = [
        [
            "It is the guiding principle which guarantees the rubber duck forces never being "
            "under the command of the cat"
        ],
        ["he was interested in world history because he read the book"],
    ]
    result = BLEUScore.google_bleu().corpus_score(predictions, references)
    assert round(result.score, 2) == 0.44
    expected = corpus_gleu(
        [[r.split() for r in refs] for refs in references], [p.split() for p in predictions]
    )
    assert result.score == expected  # nothing for 13a to split here
    assert BLEUScore.google_bleu().compute("a cat.", ["a cat ."]) == 1.0
    assert BLEUScore.gleu().compute("a cat.", ["a cat ."]) < 1.0


def test_min_len_above_max_len_is_refused() -> None:
    with pytest.raises(ConfigurationError, match="min_len 3 is above the highest order 2"):
        BLEUScore.gleu(min_len=3, max_len=2)


def test_token_ids_score_as_the_same_tokens_written_out() -> None:
    """Ids reach the reference-choosing matcher as tokens (its own path, not the arrays')."""
    gleu = BLEUScore.gleu()
    ids = [[5, 6, 7], [5, 9]], [[[5, 6, 7, 8]], [[5, 9], [4]]]
    text = ["5 6 7", "5 9"], [["5 6 7 8"], ["5 9", "4"]]
    assert gleu.corpus_score(*ids).score == gleu.corpus_score(*text).score == (6 + 3) / (10 + 3)
