"""The unigram exercise (:mod:`bleuprint.definitions.unigram`) against hand-computed cases."""

from __future__ import annotations

import math

import pytest

from bleuprint import BLEUScore


class TestUnigram:
    def test_issue_example_follows_the_formula(self) -> None:
        # c = 3, r = 6, p1 = 1: BP = e^(1 - 2) = e^-1, printed 0.3679 (not the statement's 0.6065).
        score = BLEUScore.unigram().compute("the cat sat", ["the cat sat on the mat"])
        assert score == pytest.approx(math.exp(-1))
        assert f"{score:.4f}" == "0.3679"

    def test_longer_candidate_has_no_penalty(self) -> None:
        score = BLEUScore.unigram().compute("the cat sat on the mat today", ["the cat sat"])
        assert score == pytest.approx(3 / 7)

    def test_case_sensitive(self) -> None:
        assert BLEUScore.unigram().compute("The cat", ["the cat"]) == pytest.approx(1 / 2)

    def test_empty_candidate_scores_zero(self) -> None:
        assert BLEUScore.unigram().compute("", ["the cat"]) == 0.0
