"""Differential tests: ``BLEUScore.nltk`` against NLTK 3.10.4 itself, on generated input.

All eight smoothing methods with their parameters, random weights (one set or several at
once), auto_reweigh, one to four references, at sentence and at corpus level. Where NLTK
fails (method 6 on too little input, or with fewer than 3 weights where a unigram matches),
bleuprint must raise one of its own errors; where it gives a number, bleuprint the same.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Sequence
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu, sentence_bleu

from bleuprint import BLEUError, BLEUScore
from bleuprint.compat import nltk as nltk_compat

# A small vocabulary, so that n-grams of every order match often enough to matter.
WORD = st.sampled_from(["a", "b", "c", "d", "the", "cat"])
SENTENCE = st.lists(WORD, max_size=9)
REFERENCES = st.lists(SENTENCE, min_size=1, max_size=4)
SEGMENT = st.tuples(SENTENCE, REFERENCES)
WEIGHT_SET = st.lists(
    st.floats(0, 1, allow_nan=False).map(lambda w: round(w, 3)), min_size=1, max_size=5
).filter(any)
WEIGHTS = st.one_of(st.just((0.25, 0.25, 0.25, 0.25)), WEIGHT_SET.map(tuple))
SMOOTHING = st.fixed_dictionaries(
    {
        "method": st.integers(0, 7),
        "epsilon": st.floats(0.01, 1),
        "alpha": st.integers(0, 10) | st.floats(0.1, 10),
        "k": st.floats(0.5, 10),
    }
)


def _nltk(call: Callable[[], Any]) -> tuple[Any, type[BaseException] | None]:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return call(), None
    except (AssertionError, IndexError, ZeroDivisionError) as error:
        return None, type(error)


def _bleuprint(
    weight_sets: Sequence[tuple[float, ...]],
    options: dict[str, Any],
    auto_reweigh: bool,
    segments: Sequence[tuple[list[str], list[list[str]]]],
) -> list[float]:
    bleu = BLEUScore.nltk(max(weight_sets, key=len), **options)
    parts = [nltk_compat.NLTKWeights(weight_set, auto_reweigh) for weight_set in weight_sets]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # compared with NLTK's in tests/test_compat_nltk.py
        stats = bleu.count([hyp for hyp, _ in segments], [refs for _, refs in segments])
        return [result.score for result in bleu.score_weights(stats, parts)]


def _agree(
    nltk_call: Callable[[], Any],
    weight_sets: Sequence[tuple[float, ...]],
    options: dict[str, Any],
    auto_reweigh: bool,
    segments: Sequence[tuple[list[str], list[list[str]]]],
) -> None:
    expected, nltk_error = _nltk(nltk_call)
    if nltk_error is not None:
        try:
            _bleuprint(weight_sets, options, auto_reweigh, segments)
        except BLEUError:
            return
        raise AssertionError(f"NLTK raised {nltk_error.__name__}; bleuprint did not")
    actual = _bleuprint(weight_sets, options, auto_reweigh, segments)
    expected = expected if isinstance(expected, list) else [expected]
    for got, want in zip(actual, expected, strict=True):
        assert math.isclose(got, want, rel_tol=1e-9, abs_tol=1e-15), (actual, expected)


def _smoother(options: dict[str, Any]) -> Any:
    chencherry = SmoothingFunction(options["epsilon"], options["alpha"], options["k"])
    return getattr(chencherry, f"method{options['method']}")


@settings(max_examples=100)
@given(SEGMENT, WEIGHTS, SMOOTHING, st.booleans())
def test_sentence_bleu(
    segment: tuple[list[str], list[list[str]]],
    weight_set: tuple[float, ...],
    options: dict[str, Any],
    auto_reweigh: bool,
) -> None:
    hypothesis, references = segment
    _agree(
        lambda: sentence_bleu(references, hypothesis, weight_set, _smoother(options), auto_reweigh),
        [weight_set],
        options,
        auto_reweigh,
        [segment],
    )


@settings(max_examples=100)
@given(st.lists(SEGMENT, min_size=1, max_size=4), WEIGHTS, SMOOTHING, st.booleans())
def test_corpus_bleu(
    segments: list[tuple[list[str], list[list[str]]]],
    weight_set: tuple[float, ...],
    options: dict[str, Any],
    auto_reweigh: bool,
) -> None:
    hypotheses = [hypothesis for hypothesis, _ in segments]
    references = [refs for _, refs in segments]
    _agree(
        lambda: corpus_bleu(references, hypotheses, weight_set, _smoother(options), auto_reweigh),
        [weight_set],
        options,
        auto_reweigh,
        segments,
    )


@settings(max_examples=60)
@given(
    st.lists(SEGMENT, min_size=1, max_size=3),
    st.lists(WEIGHTS, min_size=2, max_size=4),
    SMOOTHING,
    st.booleans(),
)
def test_several_weight_sets_at_once(
    segments: list[tuple[list[str], list[list[str]]]],
    weight_sets: list[tuple[float, ...]],
    options: dict[str, Any],
    auto_reweigh: bool,
) -> None:
    hypotheses = [hypothesis for hypothesis, _ in segments]
    references = [refs for _, refs in segments]
    _agree(
        lambda: corpus_bleu(references, hypotheses, weight_sets, _smoother(options), auto_reweigh),
        weight_sets,
        options,
        auto_reweigh,
        segments,
    )
