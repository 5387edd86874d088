"""The Russian contest BLEU (:mod:`bleuprint.definitions.russian`) against hand-computed cases."""

from __future__ import annotations

import pytest

import bleuprint
from bleuprint import BLEUScore, brevity


class TestRussian:
    def test_issue_example_first_value(self) -> None:
        # s1 = "This is the wolf.", s2 = "The the the the the.": "the" is shared, 1 of 5.
        result = BLEUScore.russian().sentence_score("The the the the the.", ["This is the wolf."])
        assert result.precisions[0] == pytest.approx(0.2)
        assert result.matches[0] == 1 and result.totals[0] == 5
        # No bigram is shared, so the score is 0.
        assert result.score == 0.0

    def test_case_and_punctuation_separate_and_fold_words(self) -> None:
        # Both texts have the words hello world it s fine; BP = 21 / 24 characters.
        score = BLEUScore.russian().compute("hello world it s fine", ["Hello, World! It's fine."])
        assert score == pytest.approx(21 / 24)

    def test_penalty_is_not_capped_by_default(self) -> None:
        score = BLEUScore.russian().compute("Hello, World! It's fine.", ["hello world it s fine"])
        assert score == pytest.approx(24 / 21)
        assert BLEUScore.russian(capped=True).compute(
            "Hello, World! It's fine.", ["hello world it s fine"]
        ) == pytest.approx(1.0)

    def test_length_in_words_is_one_switch_away(self) -> None:
        bleu = BLEUScore.russian(length="words")
        assert bleu.length == brevity.Tokens()
        assert bleu.compute("hello world it s fine", ["Hello, World! It's fine."]) == 1.0

    def test_distinct_ngrams_count_once(self) -> None:
        # s2 words: a a b b c; shared distinct unigrams a, b, c = 3 of 5 ...
        result = BLEUScore.russian(length="words").sentence_score("a a b b c", ["a b c a b"])
        assert result.matches[0] == 3 and result.totals[0] == 5
        # ... bigrams aa ab bb bc: only "a b" and "b c" are in s1 = 2 of 4.
        assert result.matches[1] == 2 and result.totals[1] == 4

    def test_fewer_words_than_the_order_scores_zero(self) -> None:
        assert BLEUScore.russian().compute("one two three", ["one two three"]) == 0.0

    def test_empty_original_scores_zero(self) -> None:
        assert BLEUScore.russian().compute("one two three four", [""]) == 0.0

    def test_unicode_letters_are_words(self) -> None:
        score = BLEUScore.russian(length="words").compute(
            "Это был серый волк", ["это БЫЛ серый волк!"]
        )
        assert score == 1.0

    def test_unknown_length_is_a_configuration_error(self) -> None:
        with pytest.raises(bleuprint.ConfigurationError, match="length"):
            BLEUScore.russian(length="bytes")

    def test_characters_need_text(self) -> None:
        with pytest.raises(bleuprint.InputError, match="characters"):
            BLEUScore.russian().compute(["a", "b"], [["a", "b"]])
