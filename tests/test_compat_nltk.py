"""NLTK 3.10.4's definition (:mod:`bleuprint.compat.nltk`): its quirk parts pinned by hand-computed
cases, its corpus sums, and the law that keeps its quirks out of the canonical definition."""

from __future__ import annotations

import sys
import warnings
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from nltk.translate.bleu_score import sentence_bleu

from bleuprint import (
    BLEUScore,
    BLEUStats,
    ConfigurationError,
    InputError,
    StatisticsMismatchError,
    brevity,
)
from bleuprint.brevity import penalty
from bleuprint.compat import nltk
from bleuprint.smoothing import precisions as smoothed
from bleuprint.weights import order_weights

from .conftest import CIRCULATION, circulation_cases, require_shared

WORD = st.sampled_from(["a", "b", "c", "the", "cat"])
SENTENCE = st.lists(WORD, max_size=8)


def test_segments_without_ngrams_add_up() -> None:
    bleu = BLEUScore.nltk(weights=(1 / 3,) * 3)
    stats = bleu.count([["a", "b"], ["a"], ["a", "b", "c"]], [[["a"]], [["a"]], [["a"]]])
    # Orders 2 and 3: "a" has neither, "a b" has no trigram.
    assert isinstance(stats, nltk.NLTKStats)
    assert stats.empty_orders == (0, 1, 2)


def test_last_segment_is_the_final_one_added() -> None:
    bleu = BLEUScore.nltk(weights=(0.5, 0.5))
    _, second = bleu.count_segments([["a"], ["b", "c"]], [[["a"]], [["b"]]])
    both = bleu.count([["a"], ["b", "c"]], [[["a"]], [["b"]]])
    assert both.last == second
    assert (both + bleu.empty_stats()).last == second
    assert (bleu.empty_stats() + both).last == second
    alone = bleu.count([["a"]], [[["a"]]])
    assert (alone + bleu.count([["b", "c"]], [[["b"]]])).last == second


def test_the_extra_fields_do_not_change_equality() -> None:
    bleu = BLEUScore.nltk(weights=(0.5, 0.5))
    # The same sums, but the last segment and the segments without bigrams differ.
    one_way = bleu.count([["a", "b"], ["c"]], [[["a", "b"]], [["c"]]])
    other_way = bleu.count([["c"], ["a", "b"]], [[["c"]], [["a", "b"]]])
    assert one_way.last != other_way.last
    assert one_way == other_way


def test_plain_sums_of_several_segments_are_refused() -> None:
    bleu = BLEUScore.nltk(weights=(0.5, 0.5))
    plain = bleu.count_segments([["a"], ["b"]], [[["a"]], [["b"]]]).total()
    with pytest.raises(StatisticsMismatchError, match="nltk preset"):
        bleu.score(plain)


def test_nltk_weights_accept_negative_values_and_drop_undefined_orders() -> None:
    stats = BLEUStats((2, 1, 0), (3, 2, 1), 3, 3)
    assert order_weights(nltk.NLTKWeights((1, -1, 0.5)), stats, [2 / 3, 0.5, None]) == [
        1.0,
        -1.0,
        0.0,
    ]


def test_auto_reweigh_only_the_default_and_only_below_four_tokens() -> None:
    short = BLEUStats((3, 2, 1, 0), (3, 2, 1, 0), 3, 3)
    long = BLEUStats((4, 3, 2, 1), (4, 3, 2, 1), 4, 4)
    precisions = [1.0, 1.0, 1.0, 0.1]
    third = 1 / 3
    assert order_weights(nltk.NLTKWeights(auto_reweigh=True), short, precisions) == [
        third,
        third,
        third,
        0.0,
    ]
    assert order_weights(nltk.NLTKWeights(auto_reweigh=True), long, precisions) == [0.25] * 4
    custom = nltk.NLTKWeights((0.4, 0.3, 0.2, 0.1), auto_reweigh=True)
    assert order_weights(custom, short, precisions) == [0.4, 0.3, 0.2, 0.1]


def test_nltk_denominators_count_a_segment_without_ngrams_as_one() -> None:
    bleu = BLEUScore.nltk()
    stats = bleu.count([["a", "b"], ["a", "b", "c", "d"]], [[["a", "b"]], [["a", "b", "c"]]])
    # Trigrams: none in "a b" (counts 1) and 2 in "a b c d": denominator 3.
    assert nltk.nltk_fractions(stats) == [(5, 6), (3, 4), (1, 3), (0, 2)]


def test_nltk_method0_gives_the_smallest_float_not_zero() -> None:
    stats = BLEUStats((2, 1, 0), (2, 1, 0), 2, 2)
    with pytest.warns(UserWarning, match="0 counts of 3-gram overlaps"):
        assert smoothed(nltk.NLTKMethod0(), stats) == [1.0, 1.0, sys.float_info.min]


def test_nltk_methods_give_zero_when_no_unigram_matches() -> None:
    stats = BLEUStats((0, 0, 0, 0, 0), (4, 3, 2, 1, 0), 4, 4)
    for method in range(8):
        assert smoothed(nltk.nltk_method(method), stats) == [0.0] * (4 if method in (5, 7) else 5)


def test_nltk_method3_halves_per_unmatched_order() -> None:
    stats = BLEUStats((6, 2, 0, 0), (9, 8, 7, 6), 9, 9)
    assert smoothed(nltk.NLTKMethod3(), stats) == [6 / 9, 2 / 8, 1 / 14, 1 / 24]


def test_nltk_method4_with_one_token_leaves_unmatched_orders_out() -> None:
    stats = BLEUStats((1, 0), (1, 0), 1, 3)  # one segment, without bigrams
    assert smoothed(nltk.NLTKMethod4(), stats) == [1.0, None]


def test_nltk_method5_averages_with_neighbours() -> None:
    # One segment, p = (1, 1/2, 0/1, 0/1) and 5-gram 0/1: previous starts at p1 + 1 = 2.
    stats = BLEUStats(
        (2, 1, 0, 0, 0),
        (2, 2, 0, 0, 0),
        2,
        2,  # one segment, without 3- to 5-grams
    )
    first = (2 + 1 + 0.5) / 3
    second = (first + 0.5 + 0) / 3
    third = (second + 0 + 0) / 3
    assert smoothed(nltk.NLTKMethod5(), stats) == [first, second, third, third / 3]


def test_nltk_method5_needs_five_counted_orders() -> None:
    with pytest.raises(InputError, match="reads 5-gram counts"):
        smoothed(nltk.NLTKMethod5(), BLEUStats((1, 1, 1, 1), (1, 1, 1, 1), 4, 4))


def test_nltk_method6_needs_a_trigram_match() -> None:
    stats = BLEUStats((6, 2, 0, 0), (9, 8, 7, 6), 9, 9)
    with pytest.raises(InputError, match="nonzero trigram precision"):
        smoothed(nltk.NLTKMethod6(), stats)


def test_unknown_nltk_method() -> None:
    with pytest.raises(ConfigurationError, match=r"0\.\.7"):
        nltk.nltk_method("method8")


def test_nltk_penalty_of_an_empty_hypothesis() -> None:
    assert penalty(nltk.NLTKExponential(), 0, 0) == 0.0
    assert penalty(nltk.NLTKExponential(), 3, 6) == penalty(brevity.Exponential(), 3, 6)


def test_nltk_counts_five_orders_for_methods_5_and_7() -> None:
    assert BLEUScore.nltk(method=5).max_n == 5
    assert BLEUScore.nltk((0.5, 0.5), method=7).max_n == 5
    assert BLEUScore.nltk((0.5, 0.5), method=4).max_n == 2


@pytest.mark.parametrize("case", circulation_cases("nltk bleu_score"))
def test_method6_with_one_or_two_weights_is_nltks(case: dict[str, Any] | None) -> None:
    # NLTK gives 0 where no unigram matches (before smoothing) and fails (IndexError) where
    # one does: bleuprint gives the 0 and raises its own error.
    if case is None:
        require_shared(*CIRCULATION)
        return
    assert case["options"]["smoothing_function"] == "method6"
    bleu = BLEUScore.nltk(tuple(case["options"]["weights"]), method=6)
    expected = case["expected"]
    raised = expected.get("raises_per_segment") or [None] * len(expected["scores"])
    segments = zip(case["hypotheses"], case["references"], expected["scores"], raised, strict=True)
    for hypothesis, references, score, error in segments:
        tokens, reference_tokens = hypothesis.split(), [ref.split() for ref in references]
        if error is not None:
            assert error["type"] == "IndexError"
            with pytest.raises(InputError, match="method6 needs at least 3 orders"):
                bleu.compute(tokens, reference_tokens)
        else:
            assert bleu.compute(tokens, reference_tokens) == score


def _warned(call: Callable[[], object]) -> list[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    return [str(warning.message) for warning in caught if issubclass(warning.category, UserWarning)]


@given(SENTENCE, st.lists(SENTENCE, min_size=1, max_size=3), st.integers(1, 5))
def test_the_nltk_preset_warns_where_nltk_warns(
    hypothesis: list[str], references: list[list[str]], orders: int
) -> None:
    weights = (1 / orders,) * orders
    theirs = _warned(lambda: sentence_bleu(references, hypothesis, weights))
    ours = _warned(lambda: BLEUScore.nltk(weights).compute(hypothesis, references))
    assert ours == theirs
    # a smoothing method never warns, in NLTK or here
    assert _warned(lambda: BLEUScore.nltk(weights, method=1).compute(hypothesis, references)) == []


@pytest.mark.parametrize(
    "call",
    [
        lambda bleu: bleu.compute("a b c d", ["a b d c"]),
        lambda bleu: bleu.corpus_score(["a b c d"], [["a b d c"]]),
        lambda bleu: bleu.sentence_scores(["a b c d", "a b"], [["a b d c"], ["a b"]]),
    ],
    ids=["compute", "corpus_score", "sentence_scores"],
)
def test_the_zero_overlap_warning_names_the_users_line(call: Callable[[Any], object]) -> None:
    with pytest.warns(nltk.ZeroOverlapWarning) as caught:
        call(BLEUScore.nltk())
    assert {warning.filename for warning in caught} == {__file__}


def test_other_presets_never_warn_of_zero_precisions() -> None:
    assert _warned(lambda: BLEUScore.canonical().compute("a b c", ["a c b"])) == []


def test_score_weights_equals_scoring_with_each() -> None:
    bleu = BLEUScore.nltk(method=2)
    stats = bleu.count([["a", "b", "c", "d"]], [[["a", "b", "c", "e"]]])
    sets = [nltk.NLTKWeights((0.5, 0.5)), nltk.NLTKWeights((1 / 3,) * 3), nltk.NLTKWeights()]
    results = bleu.score_weights(stats, sets)
    for part, result in zip(sets, results, strict=True):
        alone = BLEUScore.nltk(part.values, method=2, ngrams=bleu.ngrams).score(stats)
        assert result == alone
        assert f"weights:{part.signature}" in str(result.signature)


@given(SENTENCE, st.lists(SENTENCE, min_size=1, max_size=3))
def test_canonical_precisions_are_untouched_by_the_nltk_quirks(
    hypothesis: list[str], references: list[list[str]]
) -> None:
    """The canonical preset's precisions are the plain ratios, undefined orders stay None,
    and a zero precision makes the score exactly 0 (never NLTK's tiny number)."""
    bleu = BLEUScore.canonical()
    stats = bleu.count_segments([hypothesis], [references])[0]
    precisions = smoothed(bleu.smoothing, stats)
    assert precisions == [m / t if t else None for m, t in zip(stats.matches, stats.totals)]
    if not all(precisions):
        assert bleu.score(stats).score == 0.0
