"""Parts check their parameters when they are built, and the engine checks them against the
orders it counts, so a configuration that builds can score."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu
from sacrebleu.metrics import BLEU

from bleuprint import (
    BLEUScore,
    BLEUStats,
    ConfigurationError,
    brevity,
    ngrams,
    smoothing,
    tokenizers,
    weights,
)
from bleuprint._signature import parse_part
from bleuprint.compat import nltk, torchmetrics

NAN, INF = math.nan, math.inf
# Every order but the 4-grams matches something.
HYPOTHESIS = ["the", "cat", "sat", "in", "the", "mat"]
REFERENCE = ["the", "cat", "sat", "on", "the", "mat"]

# (how to build it, the field the error must name, the value it must show)
REFUSED: list[tuple[Callable[[], Any], str, str]] = [
    (lambda: nltk.NLTKMethod1(epsilon=-3), "epsilon", "-3"),
    (lambda: nltk.NLTKMethod1(epsilon=NAN), "epsilon", "nan"),
    (lambda: nltk.NLTKMethod1(epsilon=INF), "epsilon", "inf"),
    (lambda: nltk.NLTKMethod1(epsilon=1.5), "epsilon", "1.5"),
    (lambda: nltk.NLTKMethod1(epsilon="0.1"), "epsilon", "'0.1'"),
    (lambda: nltk.NLTKMethod4(k=-1), "k", "-1"),
    (lambda: nltk.NLTKMethod4(k=0), "k", "0"),
    (lambda: nltk.NLTKMethod4(k=NAN), "k", "nan"),
    (lambda: nltk.NLTKMethod7(k=INF), "k", "inf"),
    (lambda: nltk.NLTKMethod7(orders=0), "orders", "0"),
    (lambda: nltk.NLTKMethod5(orders=True), "orders", "True"),
    (lambda: nltk.NLTKMethod6(alpha=-5), "alpha", "-5"),
    (lambda: nltk.NLTKMethod6(alpha=NAN), "alpha", "nan"),
    (lambda: nltk.NLTKWeights((0.5, "x")), "values", "'x'"),
    (lambda: nltk.NLTKWeights((0.5, NAN)), "values", "nan"),
    (lambda: nltk.NLTKWeights((0, 0)), "values", "(0.0, 0.0)"),
    (lambda: nltk.NLTKWeights(auto_reweigh="no"), "auto_reweigh", "'no'"),
    (lambda: smoothing.ReplaceZero(value="x"), "value", "'x'"),
    (lambda: smoothing.ReplaceZero(value=2), "value", "2"),
    (lambda: smoothing.ReplaceZero(value=-1e-9), "value", "-1e-09"),
    (lambda: smoothing.Floor(INF), "value", "inf"),
    (lambda: smoothing.Floor(NAN), "value", "nan"),
    (lambda: smoothing.Floor(-1), "value", "-1"),
    (lambda: smoothing.Floor(5), "value", "5"),
    (lambda: smoothing.Floor(True), "value", "True"),
    (lambda: smoothing.AddK(k=INF), "k", "inf"),
    (lambda: smoothing.AddK(k=NAN), "k", "nan"),
    (lambda: smoothing.AddK(k=-1), "k", "-1"),
    (lambda: smoothing.AddOne(unigrams=1), "unigrams", "1"),
    (lambda: ngrams.Contiguous(0), "max_n", "0"),
    (lambda: ngrams.Contiguous(True), "max_n", "True"),
    (lambda: ngrams.Contiguous(2.0), "max_n", "2.0"),
    (lambda: brevity.Closest(ties="x"), "ties", "'x'"),
    (lambda: brevity.Ratio(capped="yes"), "capped", "'yes'"),
    (lambda: weights.Explicit("ab"), "values", "'ab'"),
    (lambda: weights.Explicit(3), "values", "3"),
    (lambda: weights.Explicit(()), "values", "()"),
    (lambda: weights.Explicit((True, 0.5)), "values", "True"),
    (lambda: weights.Explicit((0.5, -0.5)), "values", "-0.5"),
    (lambda: weights.Explicit((INF, 1)), "values", "inf"),
    (lambda: weights.Explicit((0, 0)), "values", "(0.0, 0.0)"),
    (lambda: tokenizers.Lowercase(inner=3), "inner", "3"),
    (lambda: torchmetrics.LowercaseAfter(inner="13a"), "inner", "'13a'"),
    (lambda: tokenizers.from_callable(3, signature="x"), "function", "3"),
    (lambda: tokenizers.from_callable(str.split, signature=""), "signature", "''"),
    (lambda: torchmetrics.RequireAllMatched(3), "inner", "3"),
]


@pytest.mark.parametrize(("build", "field", "shown"), REFUSED)
def test_bad_parameters_are_refused_when_built(
    build: Callable[[], Any], field: str, shown: str
) -> None:
    with pytest.raises(ConfigurationError) as caught:
        build()
    message = str(caught.value)
    assert f"{field} must be" in message
    assert shown in message.split(", got ", 1)[1]


def test_the_message_names_class_field_requirement_and_value() -> None:
    with pytest.raises(ConfigurationError) as caught:
        nltk.NLTKMethod1(epsilon=-3)
    assert str(caught.value) == "NLTKMethod1: epsilon must be a finite number from 0 to 1, got -3"


def test_a_value_above_the_range_says_what_it_would_do() -> None:
    with pytest.raises(ConfigurationError, match=r"got 5 \(above 1 .* BLEU"):
        smoothing.Floor(5)


def test_sacrebleu_scores_above_100_with_a_floor_above_1() -> None:
    # Why Floor refuses what sacreBLEU accepts: 3/3 unigrams, 1/2 bigrams, 0/1 trigrams floored
    # at 5 give (1 * 0.5 * 5) ** (1/3) = 1.357, above 100%.
    theirs = BLEU.compute_bleu(
        [3, 1, 0], [3, 2, 1], 3, 3, smooth_method="floor", smooth_value=5, max_ngram_order=3
    )
    assert theirs.score == pytest.approx(100 * 2.5 ** (1 / 3))


def test_nltk_scores_infinity_with_an_infinite_epsilon() -> None:
    # Why NLTKMethod1 refuses what NLTK accepts: the unmatched 4-gram order becomes infinite.
    hypothesis, reference = HYPOTHESIS, REFERENCE
    smoother = SmoothingFunction(epsilon=INF).method1
    assert sentence_bleu([reference], hypothesis, smoothing_function=smoother) == INF


@pytest.mark.parametrize(
    "build",
    [
        lambda: nltk.NLTKMethod1(epsilon=0),
        lambda: nltk.NLTKMethod1(epsilon=1),
        lambda: nltk.NLTKMethod6(alpha=0),
        lambda: nltk.NLTKMethod4(k=1e-3),
        lambda: nltk.NLTKWeights((1, -1, 0.5)),
        lambda: smoothing.Floor(0),
        lambda: smoothing.Floor(1),
        lambda: smoothing.AddK(0),
        lambda: smoothing.AddK(1e6),
        lambda: smoothing.ReplaceZero(0),
        lambda: smoothing.ReplaceZero(1),
        lambda: weights.Explicit([2, 0]),
        lambda: brevity.Closest("first"),
        lambda: tokenizers.Lowercase(tokenizers.from_callable(str.split, signature="split")),
    ],
)
def test_values_peers_accept_and_that_score_stay_valid(build: Callable[[], Any]) -> None:
    assert build().signature


def test_nltk_epsilon_0_scores_as_nltk_does() -> None:
    # NLTK leaves the unmatched 4-gram order (precision 0) out of the mean, unweighted again:
    # p1 = 5/6, p2 = 3/5, p3 = 1/4 at a quarter each, BP = 1.
    hypothesis, reference = HYPOTHESIS, REFERENCE
    expected = math.exp((math.log(5 / 6) + math.log(3 / 5) + math.log(1 / 4)) / 4)
    smoother = SmoothingFunction(epsilon=0).method1
    assert sentence_bleu([reference], hypothesis, smoothing_function=smoother) == pytest.approx(
        expected
    )
    ours = BLEUScore.nltk(method=1, epsilon=0).compute(hypothesis, [reference])
    assert ours == pytest.approx(expected)


# -- parts against the orders the engine counts ----------------------------------------


def test_more_weights_than_orders_fails_when_built_naming_both_parts() -> None:
    with pytest.raises(ConfigurationError) as caught:
        BLEUScore(ngrams=ngrams.Contiguous(2), weights=weights.Explicit((0.5, 0.3, 0.2)))
    message = str(caught.value)
    assert "explicit[(0.5,0.3,0.2)]" in message and "contiguous[2]" in message
    assert "3 weights given, more than the 2 orders scored" in message


def test_fewer_weights_than_orders_score_by_definition() -> None:
    # "a b c d" against "a b c e": p1 = 3/4, p2 = 2/3 at weight 1/2 each; p3, p4 weigh 0.
    bleu = BLEUScore(ngrams=ngrams.Contiguous(4), weights=weights.Explicit((0.5, 0.5)))
    assert bleu.compute("a b c d", ["a b c e"]) == pytest.approx(math.sqrt(3 / 4 * 2 / 3))


@pytest.mark.parametrize(
    ("parts", "problem"),
    [
        ({"smoothing": nltk.NLTKMethod5()}, "method5 reads the 5-gram precision"),
        ({"smoothing": nltk.NLTKMethod7()}, "method7 reads the 5-gram precision"),
        (
            {"ngrams": ngrams.Contiguous(5), "smoothing": nltk.NLTKMethod5(orders=6)},
            "scores 6 orders, but only 5 are counted",
        ),
        (
            {
                "ngrams": ngrams.Contiguous(4),
                "smoothing": torchmetrics.RequireAllMatched(nltk.NLTKMethod7()),
            },
            "method7 reads the 5-gram precision",
        ),
        (
            {"ngrams": ngrams.Contiguous(3), "weights": nltk.NLTKWeights()},
            "4 weights given, more than the 3 orders scored",
        ),
    ],
)
def test_parts_that_constrain_the_orders_fail_when_built(
    parts: dict[str, Any], problem: str
) -> None:
    with pytest.raises(ConfigurationError, match=problem) as caught:
        BLEUScore(**parts)
    counted = (parts.get("ngrams") or ngrams.Contiguous()).signature
    assert counted in str(caught.value)


def test_nltk_methods_that_fit_their_orders_build() -> None:
    assert BLEUScore(ngrams=ngrams.Contiguous(5), smoothing=nltk.NLTKMethod7(orders=5)).max_n == 5
    assert BLEUScore(ngrams=ngrams.Contiguous(3), smoothing=nltk.NLTKMethod6()).max_n == 3
    assert BLEUScore.nltk(method=5).max_n == 5


# -- properties --------------------------------------------------------------------------

unit = st.floats(0, 1)
positive_finite = st.floats(1e-300, 1e300)
non_negative_finite = st.floats(0, 1e300)
nonzero_weights = st.lists(st.floats(0, 1e6), min_size=1, max_size=8).filter(any)
signed_weights = st.lists(st.floats(-1e6, 1e6), min_size=1, max_size=8).filter(any)

valid_parts = st.one_of(
    st.builds(ngrams.Contiguous, st.integers(1, 100)),
    st.builds(brevity.Closest, st.sampled_from(["shorter", "first"])),
    st.builds(brevity.Ratio, st.booleans()),
    st.builds(smoothing.Floor, unit),
    st.builds(smoothing.AddK, non_negative_finite),
    st.builds(smoothing.AddOne, st.booleans()),
    st.builds(smoothing.ReplaceZero, unit),
    st.builds(weights.Explicit, nonzero_weights.map(tuple)),
    st.builds(nltk.NLTKWeights, signed_weights.map(tuple), st.booleans()),
    st.builds(nltk.NLTKMethod1, unit),
    st.builds(nltk.NLTKMethod4, positive_finite),
    st.builds(nltk.NLTKMethod5, st.integers(1, 100)),
    st.builds(nltk.NLTKMethod6, non_negative_finite),
    st.builds(nltk.NLTKMethod7, positive_finite, st.integers(1, 100)),
)


@given(part=valid_parts)
def test_valid_random_parameters_build_and_parse_back(part: Any) -> None:
    assert parse_part(part.family, part.signature) == part


outside_unit = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True).filter(lambda x: not 0 <= x <= 1),
    st.sampled_from([NAN, INF, -INF]),
)


@given(value=outside_unit)
def test_unit_parameters_outside_0_to_1_are_refused(value: float) -> None:
    for build in (smoothing.Floor, smoothing.ReplaceZero, nltk.NLTKMethod1):
        with pytest.raises(ConfigurationError):
            build(value)


@given(value=st.one_of(st.floats(max_value=0, exclude_max=True), st.just(NAN), st.just(INF)))
def test_negative_or_non_finite_k_and_alpha_are_refused(value: float) -> None:
    for build in (smoothing.AddK, nltk.NLTKMethod4, nltk.NLTKMethod6, nltk.NLTKMethod7):
        with pytest.raises(ConfigurationError):
            build(value)


@st.composite
def statistics(draw: st.DrawFn) -> tuple[list[int], list[int], int, int]:
    """Statistics as counting makes them: matches within totals, totals not increasing."""
    length = draw(st.integers(1, 30))
    totals = [max(length - n, 0) for n in range(4)]
    matches = [draw(st.integers(0, total)) for total in totals]
    return matches, totals, length, draw(st.integers(1, 30))


@given(stats=statistics(), value=unit, k=non_negative_finite, method=st.sampled_from("fak"))
def test_accepted_smoothing_values_score_within_0_and_1(
    stats: tuple[list[int], list[int], int, int], value: float, k: float, method: str
) -> None:
    smoother = {
        "f": smoothing.Floor(value),
        "a": smoothing.AddK(k),
        "k": smoothing.ReplaceZero(value),
    }[method]
    bleu = BLEUScore(smoothing=smoother)
    score = bleu.score(BLEUStats(*stats, counting=bleu.counting_signature)).score
    assert 0 <= score <= 1
