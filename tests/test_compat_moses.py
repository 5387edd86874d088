"""Moses' multi-bleu scripts: every case of ``circulation_vectors.json`` through the presets."""

from __future__ import annotations

import math
from typing import Any

import pytest

from bleuprint import BLEUScore, InputError, tokenizers
from bleuprint.compat import moses

from .conftest import CIRCULATION, circulation_cases, require_shared


def _check(bleu: BLEUScore, case: dict[str, Any] | None) -> None:
    if case is None:
        require_shared(*CIRCULATION)
        return
    expected = case["expected"]
    if "raises" in expected:  # the script died: "Illegal division by zero"
        with pytest.raises(InputError, match="division by zero"):
            bleu.corpus_score(case["hypotheses"], case["references"])
        return
    result = bleu.corpus_score(case["hypotheses"], case["references"])
    assert math.isclose(result.score * 100, expected["score"], rel_tol=1e-12, abs_tol=1e-12)
    assert [precision * 100 for precision in result.precisions] == pytest.approx(
        expected["precisions"], rel=1e-12, abs=1e-12
    )
    assert result.brevity_penalty == pytest.approx(expected["bp"], rel=1e-12)
    assert (result.hypothesis_length, result.reference_length) == (
        expected["hyp_len"],
        expected["ref_len"],
    )


@pytest.mark.parametrize("case", circulation_cases("moses multi-bleu.perl"))
def test_multi_bleu(case: dict[str, Any] | None) -> None:
    lc = case["options"]["lc"] if case else False
    _check(BLEUScore.moses_multi_bleu(lc=lc), case)


@pytest.mark.parametrize("case", circulation_cases("moses multi-bleu-detok.perl"))
def test_multi_bleu_detok(case: dict[str, Any] | None) -> None:
    lc = case["options"]["lc"] if case else False
    _check(BLEUScore.moses_multi_bleu_detok(lc=lc), case)


def test_detok_is_sacrebleu_without_smoothing() -> None:
    hypotheses = ["The cat, it sat.", "Nothing here"]
    references = [["The cat sat."], ["Something else"]]
    detok = BLEUScore.moses_multi_bleu_detok().corpus_score(hypotheses, references)
    sacre = BLEUScore.sacrebleu(smooth_method="none").corpus_score(hypotheses, references)
    assert detok.score == sacre.score


def test_ascii_whitespace_and_lowercase() -> None:
    # Hand-checked: U+00A0 joins, tab splits; only A-Z lowercase.
    assert moses.AsciiWhitespace()("a\u00a0b\tc") == ["a\u00a0b", "c"]
    assert moses.AsciiLowercase(tokenizers.Whitespace())("ÉCOLE Cat") == ["École", "cat"]
    assert BLEUScore.moses_multi_bleu(lc=True).compute("ÉTÉ", ["été"]) == 0.0


@pytest.mark.parametrize(
    "bleu",
    [
        BLEUScore.moses_multi_bleu(lc=True),
        BLEUScore.moses_multi_bleu_detok(lc=True),
        BLEUScore.mteval_v13a(),
        BLEUScore.mteval_v14(international_tokenization=True),
    ],
    ids=["multi-bleu-lc", "detok-lc", "mteval-v13a", "mteval-v14-intl"],
)
def test_perl_s_tokenizers_rebuild_from_their_signatures(bleu: BLEUScore) -> None:
    signature = str(bleu.signature())
    assert "ascii-" in signature or "charwise-lowercase" in signature
    assert BLEUScore.from_signature(signature) == bleu
