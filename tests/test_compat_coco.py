"""coco-caption's Bleu: every case of ``circulation_vectors.json`` through the preset, BLEU-1
to BLEU-4 for the corpus and for every segment, and the PTB-style tokenizer against the
recorded PTBTokenizer tokens."""

from __future__ import annotations

import math
from typing import Any

import pytest

from bleuprint import BLEUScore
from bleuprint.compat import coco

from .conftest import CIRCULATION, circulation_cases, require_shared

CASES = circulation_cases("pycocoevalcap Bleu")

# Raw texts where PTBStyle's tokens differ from CoreNLP 3.4.1's: none since issue 27 (9 before;
# tests/test_coco_ptb.py compares with the lexer itself on hand-made cases and WMT22 lines).
PTB_DIFFERENCES = 0


def _segments(case: dict[str, Any]) -> tuple[list[Any], list[Any]]:
    """The segments as ``Bleu`` scored them: with the PTB tokenizer, the recorded tokens
    (which are shifted against the segments where the input holds line separators: the
    recorded numbers are those of the shifted lines)."""
    if case["options"]["tokenizer"] is None:
        return case["hypotheses"], case["references"]
    tokens = case["expected"]["ptb_tokens"]
    hypotheses = [line.split() for line in tokens["hypotheses"]]
    references = [[line.split() for line in lines] for lines in tokens["references"]]
    return hypotheses, references


@pytest.mark.parametrize("case", CASES)
def test_bleu_1_to_4(case: dict[str, Any] | None) -> None:
    if case is None:
        require_shared(*CIRCULATION)
        return
    expected, n = case["expected"], case["options"]["n"]
    bleu = BLEUScore.coco(n=n)
    hypotheses, references = _segments(case)
    stats = bleu.count(hypotheses, references)
    scores = [result.score for result in bleu.score_weights(stats, coco.orders(n))]
    assert scores == pytest.approx(expected["bleu"], rel=1e-12)
    assert bleu.score(stats).score == pytest.approx(expected["score"], rel=1e-12)
    assert list(stats.matches) == expected["correct"]
    assert list(stats.totals) == expected["guess"]
    assert (stats.hypothesis_length, stats.reference_length) == (
        expected["testlen"],
        expected["reflen"],
    )
    if "scores" in expected:
        segments = bleu.count_segments(hypotheses, references)
        by_order = [
            [result.score for result in bleu.score_weights(row, coco.orders(n))] for row in segments
        ]
        assert [list(order) for order in zip(*by_order)] == [
            pytest.approx(order, rel=1e-12) for order in expected["scores_by_order"]
        ]
        assert bleu.sentence_scores(hypotheses, references).scores.tolist() == pytest.approx(
            expected["scores"], rel=1e-12
        )


def test_ptb_style_tokens() -> None:
    cases = [case.values[0] for case in CASES]
    if cases == [None]:
        require_shared(*CIRCULATION)
    tokenizer = coco.PTBStyle()
    recorded: dict[str, list[str]] = {}
    for case in cases:
        if case["options"]["tokenizer"] is None or (
            case.get("quirk") and any("shift" in note for note in case["quirk"])
        ):
            continue  # shifted lines: a raw text and its recorded line do not correspond
        tokens = case["expected"]["ptb_tokens"]
        pairs = list(zip(case["hypotheses"], tokens["hypotheses"]))
        for raw, lines in zip(case["references"], tokens["references"]):
            pairs += list(zip(raw, lines))
        recorded.update((text, line.split()) for text, line in pairs)
    differing = [text for text, tokens in recorded.items() if tokenizer(text) != tokens]
    assert len(recorded) > 700
    assert len(differing) <= PTB_DIFFERENCES, differing


def test_ptb_preset_tokenizes_raw_text() -> None:
    bleu = BLEUScore.coco(n=2, tokenizer="ptb")
    # PTB lowercases and drops the comma and the final period: three tokens each, all match.
    precisions = [(3 + 1e-15) / (3 + 1e-9), (2 + 1e-15) / (2 + 1e-9)]
    penalty = math.exp(1 - (3 + 1e-9) / (3 + 1e-15))  # the ratio is just below 1
    expected = (precisions[0] * precisions[1]) ** 0.5 * penalty
    assert bleu.compute("A dog, running.", ["a dog running"]) == pytest.approx(expected, rel=1e-14)


def test_constants_keep_a_segment_above_zero() -> None:
    # "a b c x" against "a b c y", from the definition: (m + 1e-15) / (t + 1e-9) per order,
    # and the ratio (4 + 1e-15) / (4 + 1e-9) < 1 in the penalty.
    precisions = [(m + 1e-15) / (t + 1e-9) for m, t in ((3, 4), (2, 3), (1, 2), (0, 1))]
    ratio = (4 + 1e-15) / (4 + 1e-9)
    product = precisions[0] * precisions[1] * precisions[2] * precisions[3]
    expected = product**0.25 * math.exp(1 - 1 / ratio)
    score = BLEUScore.coco().compute("a b c x", ["a b c y"])
    assert score == pytest.approx(expected, rel=1e-12)
    assert BLEUScore.canonical().compute("a b c x", ["a b c y"]) == 0.0
