"""Lengths, reference-length rules and brevity penalties (``bleuprint.brevity``)."""

from __future__ import annotations

import math

import attrs
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from nltk.translate.bleu_score import closest_ref_length
from sacrebleu.metrics import BLEU

from bleuprint import BLEUScore, ConfigurationError, InputError, brevity
from bleuprint.brevity import penalty as penalty_of
from bleuprint.brevity import reference_length
from bleuprint.typing import (
    ArrayLengthMeasure,
    BrevityPenalty,
    LengthMeasure,
    ReferenceLength,
)
from tests import oracle

LENGTH = st.integers(min_value=0, max_value=30)
REFERENCE_LENGTHS = st.lists(LENGTH, min_size=1, max_size=5)
RULES = [brevity.Closest(), brevity.Closest("first"), brevity.Shortest(), brevity.Average()]
PENALTIES = [
    brevity.Exponential(),
    brevity.Ratio(),
    brevity.Ratio(capped=True),
    brevity.NoPenalty(),
]


def test_every_part_fits_its_protocols() -> None:
    for measure in (brevity.Tokens(), brevity.Characters()):
        assert isinstance(measure, LengthMeasure)
        assert isinstance(measure, ArrayLengthMeasure)
    for rule in RULES:
        assert isinstance(rule, ReferenceLength)
        assert not callable(rule)  # one method: many segments at once
    for penalty in PENALTIES:
        assert isinstance(penalty, BrevityPenalty)
        assert not callable(penalty)


# -- lengths -----------------------------------------------------------------------------------


def test_tokens_and_characters_by_hand() -> None:
    # "a cat" is 2 tokens and 5 characters (the space counts)
    assert brevity.Tokens()("a cat", ["a", "cat"]) == 2
    assert brevity.Characters()("a cat", ["a", "cat"]) == 5
    assert brevity.Tokens()(None, ["x", "y", "z"]) == 3  # token input has no text


def test_characters_need_the_text() -> None:
    with pytest.raises(InputError, match="characters needs the segment as text"):
        brevity.Characters()(None, ["a"])
    with pytest.raises(InputError, match="characters needs the segment as text"):
        brevity.Characters().lengths_array(None, np.array([1], dtype=np.int64))


def test_length_arrays_by_their_definitions() -> None:
    counts = np.array([2, 0, 3], dtype=np.int64)
    assert brevity.Tokens().lengths_array(["a b", "", "é f g"], counts).tolist() == [2, 0, 3]
    assert brevity.Characters().lengths_array(["a b", "", "é f g"], counts).tolist() == [3, 0, 5]


# -- reference lengths -------------------------------------------------------------------------


def test_closest_by_hand() -> None:
    # hypothesis 5 against 2, 4, 7: distances 3, 1, 2, so 4
    assert reference_length(brevity.Closest(), 5, [2, 4, 7]) == 4
    # 4 and 6 are both 1 away: "shorter" takes 4, "first" takes the first listed, 6
    assert reference_length(brevity.Closest(), 5, [6, 4]) == 4
    assert reference_length(brevity.Closest("first"), 5, [6, 4]) == 6


def test_closest_refuses_an_unknown_tie_rule() -> None:
    with pytest.raises(ConfigurationError, match="ties must be one of"):
        brevity.Closest("longer")


@given(LENGTH, REFERENCE_LENGTHS)
def test_closest_is_nltks_closest_reference_length(hypothesis: int, lengths: list[int]) -> None:
    references = [["w"] * length for length in lengths]
    assert reference_length(brevity.Closest(), hypothesis, lengths) == closest_ref_length(
        references, hypothesis
    )


@given(LENGTH, REFERENCE_LENGTHS)
def test_shortest_and_average_by_their_definitions(hypothesis: int, lengths: list[int]) -> None:
    assert reference_length(brevity.Shortest(), hypothesis, lengths) == min(lengths)
    assert reference_length(brevity.Average(), hypothesis, lengths) == pytest.approx(
        sum(lengths) / len(lengths)
    )


@given(LENGTH, REFERENCE_LENGTHS)
def test_every_rule_picks_a_length_between_the_shortest_and_the_longest(
    hypothesis: int, lengths: list[int]
) -> None:
    for rule in RULES:
        assert min(lengths) <= reference_length(rule, hypothesis, lengths) <= max(lengths)


@given(st.lists(st.tuples(LENGTH, REFERENCE_LENGTHS), min_size=1, max_size=6))
def test_reference_length_arrays_are_the_oracles(
    segments: list[tuple[int, list[int]]],
) -> None:
    hypotheses = np.array([hypothesis for hypothesis, _ in segments], dtype=np.int64)
    lengths = np.array([length for _, some in segments for length in some], dtype=np.int64)
    counts = np.array([len(some) for _, some in segments], dtype=np.int64)
    for rule in RULES:
        expected = [
            oracle.reference_length(rule, hypothesis, some) for hypothesis, some in segments
        ]
        assert rule.reference_length_array(hypotheses, lengths, counts).tolist() == expected


# -- penalties ---------------------------------------------------------------------------------


def test_exponential_by_hand() -> None:
    # c = 3 against r = 6: exp(1 - 6/3) = exp(-1); c >= r: 1; an empty hypothesis: 0
    assert penalty_of(brevity.Exponential(), 3, 6) == pytest.approx(math.exp(-1))
    assert penalty_of(brevity.Exponential(), 6, 6) == 1.0
    assert penalty_of(brevity.Exponential(), 7, 6) == 1.0
    assert penalty_of(brevity.Exponential(), 0, 6) == 0.0


@given(LENGTH, LENGTH)
def test_exponential_is_sacrebleus_brevity_penalty(hypothesis: int, reference: int) -> None:
    theirs = BLEU.compute_bleu([1], [1], hypothesis, reference, max_ngram_order=1).bp
    assert penalty_of(brevity.Exponential(), hypothesis, reference) == pytest.approx(
        theirs, rel=1e-15
    )


@given(LENGTH, LENGTH)
def test_penalties_lie_in_the_unit_interval_and_are_one_without_shortness(
    hypothesis: int, reference: int
) -> None:
    for penalty in (brevity.Exponential(), brevity.Ratio(capped=True)):
        value = penalty_of(penalty, hypothesis, reference)
        assert 0 <= value <= 1
        if hypothesis >= reference > 0:
            assert value == 1.0


def test_ratio_by_hand() -> None:
    # 12 / 10 = 1.2 uncapped, 1 capped; 5 / 10 = 0.5 either way; r = 0 gives 0
    assert penalty_of(brevity.Ratio(), 12, 10) == pytest.approx(1.2)
    assert penalty_of(brevity.Ratio(capped=True), 12, 10) == 1.0
    assert (
        penalty_of(brevity.Ratio(), 5, 10) == penalty_of(brevity.Ratio(capped=True), 5, 10) == 0.5
    )
    assert penalty_of(brevity.Ratio(), 3, 0) == 0.0


@given(st.lists(st.tuples(LENGTH, LENGTH), min_size=1, max_size=8))
def test_penalty_arrays_are_the_oracles(pairs: list[tuple[int, int]]) -> None:
    hypotheses = np.array([c for c, _ in pairs], dtype=np.float64)
    references = np.array([r for _, r in pairs], dtype=np.float64)
    for penalty in PENALTIES:
        expected = [oracle.penalty(penalty, c, r) for c, r in pairs]
        assert penalty.penalty_array(hypotheses, references).tolist() == expected


# -- rules and penalties written for one hypothesis at a time ---------------------------------


def test_reference_length_from_scalar_calls_the_rule_with_each_segment_s_references() -> None:
    longest = brevity.ReferenceLengthFromScalar(
        lambda c, lengths: max(lengths), signature="longest"
    )
    assert isinstance(longest, ReferenceLength) and longest.signature == "longest"
    picked = longest.reference_length_array(
        np.array([5, 1]), np.array([3, 7, 9, 2]), np.array([3, 1])
    )
    assert picked.tolist() == [9, 2]
    assert (
        longest.reference_length_array(
            np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64)
        ).tolist()
        == []
    )


def test_penalty_from_scalar_calls_the_penalty_with_each_pair_of_lengths() -> None:
    linear = brevity.PenaltyFromScalar(lambda c, r: min(1.0, c / r), signature="linear")
    assert isinstance(linear, BrevityPenalty) and linear.signature == "linear"
    assert linear.penalty_array(np.array([3.0, 8.0]), np.array([6.0, 4.0])).tolist() == [0.5, 1.0]
    # "a b" against "a b c d": every unigram matches, BP = 2/4
    engine = BLEUScore.canonical(max_n=1, brevity_penalty=linear)
    assert engine.compute("a b", ["a b c d"]) == 0.5


def test_a_bare_scalar_penalty_is_refused_pointing_to_its_adapter() -> None:
    @attrs.frozen
    class Linear:
        signature = "linear"

        def __call__(self, c: float, r: float) -> float:
            return min(1.0, c / r)

    with pytest.raises(ConfigurationError, match=r"plugs in as brevity\.PenaltyFromScalar"):
        BLEUScore(brevity_penalty=Linear())  # type: ignore[arg-type]
