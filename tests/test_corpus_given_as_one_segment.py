"""``compute``/``sentence_score`` given a corpus (issue 26): what torchmetrics users type,
``compute(preds, target)`` with lists of sentences, would read each sentence as one token and
give 0 or 1 without a word. It is an InputError that says to call corpus_score; pre-tokenized
segments and token ids are still one segment."""

from __future__ import annotations

from typing import Any

import pytest

from bleuprint import BLEUScore, InputError

PREDS = ["the cat sat on the mat", "a dog barked at the moon"]
TARGET = [["the cat sat on a mat"], ["the dog barked at the moon"]]


@pytest.mark.parametrize("preset", ["sacrebleu", "unigram", "canonical", "nltk", "torchmetrics"])
@pytest.mark.parametrize(
    ("hypothesis", "references", "what"),
    [
        (PREDS, TARGET, "the hypothesis"),  # torchmetrics' call
        (PREDS[:1], TARGET[:1], "the hypothesis"),
        ("the cat sat", [["the cat sat on a mat"]], "reference 0"),  # references one level deep
        ("the cat sat", ["the cat", ["a cat sat on", "a mat"]], "reference 1"),
        (["a b"], [["a b"]], "the hypothesis"),  # one token a sentence, one reference
    ],
)
def test_a_corpus_is_refused_with_the_way_out(
    preset: str, hypothesis: Any, references: Any, what: str
) -> None:
    bleu = getattr(BLEUScore, preset)()
    with pytest.raises(InputError, match=rf"^{what} is a list of .* holds spaces: .*corpus_score"):
        bleu.compute(hypothesis, references)
    with pytest.raises(InputError, match="corpus_score"):
        bleu.sentence_score(hypothesis, references)


def test_the_corpus_it_points_to_scores_as_sacrebleu() -> None:
    import sacrebleu  # noqa: PLC0415

    expected = sacrebleu.corpus_bleu(PREDS, [[refs[0] for refs in TARGET]]).score
    assert 100 * BLEUScore.sacrebleu().corpus_score(PREDS, TARGET).score == pytest.approx(
        expected, rel=1e-12
    )


@pytest.mark.parametrize(
    ("hypothesis", "references", "expected"),
    [
        # Pre-tokenized, one segment: 5 of 6 unigrams matched, equal lengths.
        (
            ["the", "cat", "sat", "on", "the", "mat"],
            [["the", "cat", "sat", "on", "a", "mat"]],
            5 / 6,
        ),
        # Characters, a space among them, are tokens without words inside.
        (list("ab c"), [list("ab d")], 3 / 4),
        (["cat"], [["cat"]], 1.0),  # one word: a token, not a sentence
        # A multi-word token among others: 2 of 3 tokens matched.
        (["New York", "is", "big"], [["New York", "is", "large"]], 2 / 3),
    ],
)
def test_tokens_without_spaces_between_words_are_one_segment(
    hypothesis: Any, references: Any, expected: float
) -> None:
    assert BLEUScore.unigram().compute(hypothesis, references) == pytest.approx(expected)


def test_token_ids_are_one_segment() -> None:
    assert BLEUScore.canonical(max_n=1).compute([4, 5, 6], [[4, 5, 7]]) == pytest.approx(2 / 3)
