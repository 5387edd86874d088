"""torcheval's BLEUScore: every case of ``circulation_vectors.json`` through the preset."""

from __future__ import annotations

from typing import Any

import pytest

from bleuprint import BLEUScore, InputError

from .conftest import CIRCULATION, circulation_cases, require_shared

# torcheval's counts and precisions pass through float32 tensors.
FLOAT32 = 1e-6


@pytest.mark.parametrize("case", circulation_cases("torcheval BLEUScore"))
def test_bleu_score(case: dict[str, Any] | None) -> None:
    if case is None:
        require_shared(*CIRCULATION)
        return
    bleu = BLEUScore.torcheval(n_gram=case["options"]["n_gram"])
    expected, hypotheses, references = case["expected"], case["hypotheses"], case["references"]
    if "raises" in expected:  # ValueError: the input is too short to find all n-gram matches
        with pytest.raises(InputError, match="too short"):
            bleu.corpus_score(hypotheses, references)
    else:
        result = bleu.corpus_score(hypotheses, references)
        assert result.score == pytest.approx(expected["score"], rel=FLOAT32, abs=1e-12)
        state = expected["state"]
        assert list(result.matches) == state["matches_by_order"]
        assert list(result.totals) == state["possible_matches_by_order"]
        assert result.reference_length == state["target_len"]  # the shortest reference
    if "scores" in expected:
        for index, raised in enumerate(expected["raises_per_segment"]):
            segment = hypotheses[index], references[index]
            if raised:
                with pytest.raises(InputError, match="too short"):
                    bleu.sentence_score(*segment)
            else:
                score = bleu.compute(*segment)
                assert score == pytest.approx(expected["scores"][index], rel=FLOAT32, abs=1e-12)
