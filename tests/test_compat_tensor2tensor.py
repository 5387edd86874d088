"""tensor2tensor's bleu_hook: every case of ``circulation_vectors.json`` through the preset,
``bleu_wrapper`` as corpus scores and ``compute_bleu`` per segment."""

from __future__ import annotations

from typing import Any

import pytest

from bleuprint import BLEUScore, ConfigurationError, tokenizers
from bleuprint.brevity import penalty
from bleuprint.compat import tensor2tensor

from .conftest import CIRCULATION, circulation_cases, require_shared

# bleu_hook returns np.float32.
FLOAT32 = 1e-6


@pytest.mark.parametrize("case", circulation_cases("tensor2tensor bleu_hook"))
def test_bleu_hook(case: dict[str, Any] | None) -> None:
    if case is None:
        require_shared(*CIRCULATION)
        return
    options, expected = case["options"], case["expected"]
    hypotheses, references = case["hypotheses"], case["references"]
    if options["function"] == "bleu_wrapper":
        bleu = BLEUScore.tensor2tensor(case_sensitive=options["case_sensitive"])
        score = bleu.corpus_score(hypotheses, references).score
        assert score == pytest.approx(expected["score"], rel=FLOAT32, abs=1e-9)
    else:
        bleu = BLEUScore.tensor2tensor(
            function="compute_bleu", max_order=options["max_order"], use_bp=options["use_bp"]
        )
        scores = bleu.sentence_scores(hypotheses, references).scores.tolist()
        assert scores == pytest.approx(expected["scores"], rel=FLOAT32, abs=1e-9)


def test_options_of_the_other_function_are_refused() -> None:
    with pytest.raises(ConfigurationError, match="compute_bleu"):
        BLEUScore.tensor2tensor(max_order=2)
    with pytest.raises(ConfigurationError, match="keeps case"):
        BLEUScore.tensor2tensor(function="compute_bleu", case_sensitive=True)
    with pytest.raises(ConfigurationError, match="function must be"):
        BLEUScore.tensor2tensor(function="bleu")


def test_use_bp_false_and_empty_reference() -> None:
    short = BLEUScore.tensor2tensor(function="compute_bleu", use_bp=False)
    assert short.compute("the cat sat", ["the cat sat on the mat"]) == 1.0  # orders 1..3 match
    assert penalty(tensor2tensor.T2TPenalty(), 3, 0) == 1.0


def test_bleu_tokenize_digits() -> None:
    # "²" is a number but not a decimal digit: t2t splits the comma after it, intl does not.
    assert tensor2tensor.BleuTokenize()("²,5") == ["²", ",", "5"]
    assert tokenizers.International()("²,5") == ["²,5"]
