"""Corpora of any sequence or iterable, refused by name when they cannot be one (issue 16), the
reference-layout trap (issue 15), and statistics that no counting produces (issue 16).

Expected scores come from sacreBLEU, run beside bleuprint on the same texts as plain lists.
"""

from __future__ import annotations

import math
import warnings
from typing import Any, ClassVar

import numpy as np
import pandas as pd
import pytest
import sacrebleu

from bleuprint import BLEUScore, BLEUStats, InputError
from bleuprint.compat import sacrebleu as sacrebleu_definition
from bleuprint.exceptions import ConfigurationError, ReferenceLayoutWarning

HYPOTHESES = ["the cat sat on the mat today", "a dog ran in the park", "it rained all day"]
REFERENCES = ["the cat sat on a mat today", "the dog ran in a park", "it rained all the day"]
EXPECTED = sacrebleu.corpus_bleu(HYPOTHESES, [REFERENCES]).score / 100


@pytest.mark.parametrize(
    ("hypotheses", "references"),
    [
        (tuple(HYPOTHESES), tuple((reference,) for reference in REFERENCES)),
        (np.array(HYPOTHESES), np.array([[reference] for reference in REFERENCES])),
        (pd.Series(HYPOTHESES), pd.Series([[reference] for reference in REFERENCES])),
        (iter(HYPOTHESES), ([reference] for reference in REFERENCES)),
        (HYPOTHESES, [np.array([reference]) for reference in REFERENCES]),
        (pd.Series(HYPOTHESES, index=[7, 3, 5]), [[reference] for reference in REFERENCES]),
    ],
    ids=["tuples", "numpy", "pandas", "generators", "numpy-rows", "pandas-index"],
)
def test_any_sequence_or_iterable_is_a_corpus(hypotheses: Any, references: Any) -> None:
    result = BLEUScore.sacrebleu().corpus_score(hypotheses, references)
    assert result.score == pytest.approx(EXPECTED, abs=1e-12)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda bleu: bleu.corpus_score(None, [["a"]]), "hypotheses must be a list .* NoneType"),
        (lambda bleu: bleu.corpus_score("abc", ["abc"]), "hypotheses .* a single str"),
        (lambda bleu: bleu.corpus_score(["abc"], "abc"), "references .* a single str"),
        (lambda bleu: bleu.corpus_score({"a": 1}, [["a"]]), "got dict"),
        (lambda bleu: bleu.corpus_score({"a"}, [["a"]]), "got set"),
        (lambda bleu: bleu.corpus_score(3.5, [["a"]]), "got float"),
        (lambda bleu: bleu.corpus_score([b"a"], [[b"a"]]), "segment 0: the hypothesis .* bytes"),
        (lambda bleu: bleu.compute("a", None), "segment 0: references must be .* NoneType"),
        (lambda bleu: bleu.compute("a", "a"), "segment 0: references .* a single str"),
        (lambda bleu: bleu.compute(None, ["a"]), "hypothesis must be a string, .* NoneType"),
        (lambda bleu: bleu.sentence_scores(["a"], [{"a": 1}]), "references .* got dict"),
        (lambda bleu: bleu.pairwise_scores("abc"), "groups must be a list of groups"),
        (lambda bleu: bleu.pairwise_scores(["abc"]), "group 0 .* a single str"),
        (lambda bleu: bleu.pairwise_scores({"a": ["b"]}), "groups .* got dict"),
        (lambda bleu: bleu.pairwise_scores(None), "groups .* NoneType"),
        (lambda bleu: bleu.score(None), r"expected statistics \(BLEUStats\), got NoneType"),
        (lambda bleu: bleu.score({"matches": [1]}), "expected statistics .* got dict"),
        (lambda bleu: bleu.score_segments(3), "expected statistics .* got int"),
        (lambda bleu: bleu.total(None), "expected statistics .* got NoneType"),
    ],
)
def test_what_cannot_be_a_corpus_is_refused_by_name(call: Any, message: str) -> None:
    with pytest.raises(InputError, match=message):
        call(BLEUScore.canonical())


def test_a_dictionary_configuration_must_be_a_dictionary() -> None:
    with pytest.raises(ConfigurationError, match="dictionary of part signatures, got NoneType"):
        BLEUScore.from_dict(None)  # type: ignore[arg-type]


def test_a_group_of_one_string_is_not_read_as_characters() -> None:
    # The bug: ["abc"] gave a 3x3 identity matrix, one letter per candidate.
    (matrix,) = BLEUScore.canonical(max_n=1).pairwise_scores([["abc", "abd"]])
    assert matrix.tolist() == [[1.0, 0.0], [0.0, 1.0]]


class TestReferenceLayout:
    STREAMS: ClassVar[list[list[str]]] = [
        ["the cat sat on the mat today", "a dog ran in a park", "it rained all day"],
        ["a cat sat on the mat today", "the dog ran in the park", "it rained the whole day"],
        ["the cat was on the mat today", "a dog was running", "rain all day"],
    ]

    def test_streams_as_long_as_the_corpus_warn_naming_both_layouts(self) -> None:
        with pytest.warns(ReferenceLayoutWarning) as caught:
            BLEUScore.sacrebleu().corpus_score(HYPOTHESES, self.STREAMS)
        (warning,) = caught
        text = str(warning.message)
        assert "references[i] as the references of hypothesis i" in text
        assert "3 lists of 3 references for 3 hypotheses" in text
        assert "sacreBLEU's reference streams" in text
        assert "bleuprint.compat.sacrebleu.from_streams" in text
        assert warning.filename == __file__  # the user's line, not bleuprint's

    def test_the_conversion_it_names_gives_sacrebleus_score(self) -> None:
        expected = sacrebleu.corpus_bleu(HYPOTHESES, self.STREAMS).score / 100
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            references = sacrebleu_definition.from_streams(HYPOTHESES, self.STREAMS)
            result = BLEUScore.sacrebleu().corpus_score(HYPOTHESES, references)
        assert result.score == pytest.approx(expected, abs=1e-12)

    def test_two_streams_point_to_from_streams(self) -> None:
        with pytest.raises(InputError, match=r"3 hypotheses but 2 reference lists.*from_streams"):
            BLEUScore.sacrebleu().corpus_score(HYPOTHESES, self.STREAMS[:2])

    def test_one_list_per_hypothesis_does_not_warn(self) -> None:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            BLEUScore.sacrebleu().corpus_score(HYPOTHESES, [[r, r] for r in REFERENCES])
            # Tokens per segment are lists of lists: never ambiguous.
            tokens = [reference.split() for reference in REFERENCES]
            BLEUScore().corpus_score(tokens, [[t, t, t] for t in tokens])


GOOD = {"matches": [3, 1], "totals": [4, 3], "hypothesis_length": 4, "reference_length": 4.5}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"matches": [5, 1]}, r"order 1 has more matches \(5\) than n-grams \(4\)"),
        ({"matches": [-1, 0]}, "matches of order 1 must be finite and non-negative, got -1"),
        ({"totals": [4, math.nan]}, "totals of order 2 must be finite and non-negative"),
        ({"totals": [4, math.inf]}, "totals of order 2 must be finite"),
        ({"matches": [2.5, 1]}, "matches of order 1 must be a whole count, got 2.5"),
        ({"hypothesis_length": -3}, "hypothesis_length must be finite and non-negative"),
        ({"hypothesis_length": 3.5}, "hypothesis_length must be a whole count"),
        ({"reference_length": math.nan}, "reference_length must be finite"),
        ({"reference_length": 1e400}, "reference_length must be finite"),
        ({"reference_length": "4"}, "reference_length must be a number, got '4'"),
        ({"matches": "31"}, "expected a sequence of counts"),
        ({"matches": [True, 1]}, "matches of order 1 must be a number, got True"),
        ({"segments": -1}, "segments must be finite and non-negative"),
        ({"reference_counts": [0.5]}, "reference_counts must be a whole count"),
        ({"reference_counts": 3}, "reference_counts must be a list"),
        ({"counting": 3}, "counting must be a signature string"),
    ],
)
def test_statistics_no_counting_produces_are_refused(change: dict[str, Any], message: str) -> None:
    with pytest.raises(InputError, match=message):
        BLEUStats.from_dict({**GOOD, **change})


def test_statistics_are_checked_however_they_are_built() -> None:
    with pytest.raises(InputError, match="more matches"):
        BLEUStats((3,), (2,), 2, 2)
    with pytest.raises(InputError, match="statistics must be a dictionary, got NoneType"):
        BLEUStats.from_dict(None)  # type: ignore[arg-type]


def test_an_average_reference_length_may_be_fractional() -> None:
    stats = BLEUStats.from_dict(GOOD)
    # BP = exp(1 - 4.5 / 4); precisions 3/4 and 1/3.
    expected = math.exp(1 - 4.5 / 4) * math.sqrt(3 / 4 * 1 / 3)
    assert BLEUScore.canonical(max_n=2).score(stats).score == pytest.approx(expected)
