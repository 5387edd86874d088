"""BLEUResult (``bleuprint.BLEUResult``): the fields of a score and its printed line."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
import sacrebleu
from hypothesis import example, given
from hypothesis import strategies as st

from bleuprint import BLEUScore, BLEUStats, brevity
from bleuprint._result import _as_percentage, percentages


def test_fields_by_hand() -> None:
    # "the cat is here" against "the cat was here": unigrams the, cat, here match (3 of 4),
    # bigrams "the cat" only (1 of 3); equal lengths, so BP = 1 and the score is
    # sqrt(3/4 * 1/3) = sqrt(1/4) = 0.5
    result = BLEUScore.canonical(max_n=2).corpus_score(["the cat is here"], [["the cat was here"]])
    assert result.score == pytest.approx(0.5, rel=1e-15)
    assert float(result) == result.score
    assert result.precisions == pytest.approx((3 / 4, 1 / 3), rel=1e-15)
    assert result.brevity_penalty == 1.0
    assert (result.matches, result.totals) == ((3, 1), (4, 3))
    assert (result.hypothesis_length, result.reference_length) == (4, 4)
    assert result.ratio == 1.0
    # the convenience fields read the statistics
    assert result.stats.matches == result.matches
    assert result.stats.reference_length == result.reference_length


def test_printed_line_by_hand() -> None:
    # a 3-token hypothesis against a 4-token reference: unigrams the, cat, sat (3 of 3),
    # bigrams "the cat" and "cat sat" (2 of 2); BP = exp(1 - 4/3) = 0.7165, ratio 3/4;
    # score 100 * 0.7165 * sqrt(1 * 1) = 71.65
    result = BLEUScore.canonical(max_n=2).corpus_score(["the cat sat"], [["the cat sat down"]])
    assert math.exp(1 - 4 / 3) == pytest.approx(0.71653, abs=1e-5)
    assert str(result) == (
        "BLEU = 71.65 100.0/100.0 (BP = 0.717 ratio = 0.750 hyp_len = 3 ref_len = 4)"
    )
    assert result.format(width=0) == (
        "BLEU = 72 100.0/100.0 (BP = 0.717 ratio = 0.750 hyp_len = 3 ref_len = 4)"
    )


def test_a_reference_length_that_is_not_whole_prints_with_two_decimals() -> None:
    # the average of references of 2 and 3 tokens is 2.5; the hypothesis "a b" has 2 tokens:
    # BP = exp(1 - 2.5 / 2) = exp(-0.25) = 0.7788, ratio 2 / 2.5 = 0.8, unigrams 2 of 2
    bleu = BLEUScore.canonical(max_n=1, reference_length=brevity.Average())
    result = bleu.corpus_score(["a b"], [["a b", "a b c"]])
    assert str(result) == "BLEU = 77.88 100.0 (BP = 0.779 ratio = 0.800 hyp_len = 2 ref_len = 2.50)"


def test_ratio_of_an_empty_reference_is_zero() -> None:
    bleu = BLEUScore.canonical(max_n=1)
    result = bleu.score(BLEUStats((0,), (3,), 3, 0, counting=bleu.counting_signature))
    assert result.ratio == 0.0


def test_printed_line_is_sacrebleus() -> None:
    hypotheses = ["the cat sat on the mat", "a dog", "it is raining today again"]
    references = ["the cat is on the mat", "a big dog barks", "it is raining today"]
    theirs = sacrebleu.corpus_bleu(hypotheses, [references])
    ours = BLEUScore.sacrebleu().corpus_score(hypotheses, [[r] for r in references])
    assert str(ours) == str(theirs)
    for width in (0, 1, 3):
        assert ours.format(width) == theirs.format(width=width)


@given(st.integers(min_value=1, max_value=10**9), st.data())
def test_percentage_of_a_count_ratio_is_the_exact_scaled_fraction(
    total: int, data: st.DataObject
) -> None:
    # sacreBLEU prints 100 * matches / total, computed on the counts; whatever total is passed
    # (the order's own, another, or none), the float ratio gives back that exact value.
    matches = data.draw(st.integers(min_value=0, max_value=total))
    passed_total = data.draw(st.sampled_from([total, total + 1, 0]))
    expected = float(100 * Fraction(matches, total)) if total <= 10**7 else None
    found = _as_percentage(matches / total, passed_total)
    if expected is not None:
        assert found == expected
    else:  # beyond the general search's denominators: a fraction of the same float
        assert found == pytest.approx(100 * matches / total, rel=1e-15)


_RATIOS = st.one_of(
    st.tuples(st.integers(0, 10**8), st.integers(1, 10**8)).map(lambda pair: pair[0] / pair[1]),
    st.integers(0, 40).map(lambda k: 1 / 2**k),  # sacreBLEU's smoothing of an order
    st.floats(0, 1),
)
_TOTALS = st.one_of(st.integers(0, 2 * 10**7), st.floats(0, 100, allow_subnormal=False))
# Most precisions are matches over the order's own total (beyond the search's denominators too)
_OWN_TOTALS = (st.integers(1, 10**4) | st.integers(10**7 - 10, 2 * 10**7)).flatmap(
    lambda total: st.tuples(
        st.integers(0, total).map(lambda matches: matches / total), st.just(total)
    )
)
_PAIRS = st.one_of(_OWN_TOTALS, st.tuples(_RATIOS, _TOTALS))


@given(st.lists(st.lists(_PAIRS, min_size=2, max_size=2), min_size=1))
@example([[(5e-324, 1), (2.2250738585072014e-308, 0)]])  # (NLTK's floor; a subnormal)
def test_percentages_of_columns_are_those_of_each_number(
    rows: list[list[tuple[float, float]]],
) -> None:
    # The columns' way (sentence scores written in bulk) gives every number the one at a time
    # gives, whichever path the number takes; a row given fewer totals takes 0 for the rest.
    precisions = np.array([[ratio for ratio, _ in row] for row in rows])
    totals = np.array([[total for _, total in row] for row in rows])
    assert percentages(precisions, totals) == [
        [_as_percentage(ratio, total) for ratio, total in row] for row in rows
    ]
    assert percentages(precisions, totals[:, :1]) == [
        [_as_percentage(row[0][0], row[0][1]), _as_percentage(row[1][0], 0)] for row in rows
    ]
