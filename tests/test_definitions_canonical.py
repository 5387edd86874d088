"""Canonical BLEU (:mod:`bleuprint.definitions.canonical`) against hand-computed cases."""

from __future__ import annotations

import math

import pytest

import bleuprint
from bleuprint import BLEUScore


def tokens(text: str) -> list[str]:
    return text.split()


class TestCanonical:
    def test_issue_example_identical_to_one_of_two_references(self) -> None:
        hypothesis = tokens("the cat is on the mat")
        references = [tokens("the cat is on the mat"), tokens("there is a cat on the mat")]
        assert BLEUScore().compute(hypothesis, references) == 1.0

    def test_identical_six_tokens_scores_one(self) -> None:
        sentence = tokens("a b c d e f")
        assert bleuprint.bleu_score(sentence, sentence, 4) == 1.0

    def test_bigram_example(self) -> None:
        # p1 = 3/4, p2 = 1/3, BP = 1: sqrt(1/4) = 0.5.
        result = BLEUScore.canonical(max_n=2).sentence_score(
            "the cat is here", ["the cat was here"]
        )
        assert result.matches == (3, 1)
        assert result.totals == (4, 3)
        assert result.score == pytest.approx(0.5, abs=1e-15)
        assert bleuprint.bleu_score(tokens("the cat is here"), tokens("the cat was here"), 2) == (
            pytest.approx(0.5, abs=1e-15)
        )

    def test_clipping_of_repeated_words(self) -> None:
        # "the" occurs 3 times but only twice in the reference: 2 + cat + mat = 4 of 5.
        result = BLEUScore.canonical(max_n=1).sentence_score(
            "the the the cat mat", ["the cat sat on the mat"]
        )
        assert result.precisions == (pytest.approx(4 / 5),)

    def test_clipping_takes_the_maximum_over_references(self) -> None:
        # Papineni et al.'s example: "the" at most twice in any one reference: 2/7.
        result = BLEUScore.canonical(max_n=1).sentence_score(
            "the the the the the the the",
            ["the cat is on the mat", "there is a cat on the mat"],
        )
        assert result.matches == (2,)
        assert result.totals == (7,)

    def test_clipping_does_not_add_counts_across_references(self) -> None:
        # "a" once in each reference: clipped to 1, not 2.
        result = BLEUScore.canonical(max_n=1).sentence_score("a a", ["a b", "a c"])
        assert result.matches == (1,)

    def test_equally_close_reference_lengths_take_the_shorter(self) -> None:
        # c = 5 and references of 4 and 6 tokens: r = 4, so no penalty.
        result = BLEUScore.canonical(max_n=1).sentence_score(
            "a b c d e", ["a b c d", "a b c d e f"]
        )
        assert result.reference_length == 4
        assert result.brevity_penalty == 1.0
        # With 6 and 8 tokens the closest is 6: BP = exp(1 - 6/5).
        result = BLEUScore.canonical(max_n=1).sentence_score(
            "a b c d e", ["a b c d e f g h", "a b c d e f"]
        )
        assert result.reference_length == 6
        assert result.brevity_penalty == pytest.approx(math.exp(1 - 6 / 5))

    def test_candidate_shorter_than_the_order_scores_zero(self) -> None:
        assert BLEUScore().compute("a b c", ["a b c"]) == 0.0
        assert BLEUScore.canonical(max_n=3).compute("a b c", ["a b c"]) == 1.0

    @pytest.mark.parametrize("empty", ["", [], "   "])
    def test_empty_candidate_scores_zero(self, empty: str | list[str]) -> None:
        reference = "a b c d" if isinstance(empty, str) else tokens("a b c d")
        assert BLEUScore().compute(empty, [reference]) == 0.0

    def test_a_zero_precision_gives_zero(self) -> None:
        # Every unigram matches, but no bigram does.
        assert BLEUScore.canonical(max_n=2).compute("b a", ["a b"]) == 0.0

    def test_brevity_penalty_of_a_short_candidate(self) -> None:
        result = BLEUScore.canonical(max_n=1).sentence_score("a b", ["a b c d"])
        assert result.brevity_penalty == pytest.approx(math.exp(1 - 4 / 2))
        assert result.score == pytest.approx(math.exp(-1))

    def test_corpus_score_sums_statistics_before_scoring(self) -> None:
        bleu = BLEUScore.canonical(max_n=2)
        result = bleu.corpus_score(["the cat is here", "a dog"], [["the cat was here"], ["a dog"]])
        assert result.matches == (5, 2)
        assert result.totals == (6, 4)
        assert result.score == pytest.approx(math.sqrt(5 / 6 * 2 / 4))

    def test_sentence_scores_score_each_segment(self) -> None:
        bleu = BLEUScore.canonical(max_n=2)
        scores = bleu.sentence_scores(
            ["the cat is here", "a dog"], [["the cat was here"], ["a dog"]]
        )
        assert [result.score for result in scores] == [pytest.approx(0.5), 1.0]

    @pytest.mark.parametrize("max_n", [0, -1, 1.5, True])
    def test_max_n_below_one_is_a_configuration_error(self, max_n: object) -> None:
        with pytest.raises(bleuprint.ConfigurationError, match="max_n"):
            BLEUScore.canonical(max_n=max_n)  # type: ignore[arg-type]
