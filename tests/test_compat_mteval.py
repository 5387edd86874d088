"""NIST's mteval scripts: every case of ``circulation_vectors.json`` through the presets,
corpus scores, each order's smoothed precision and, at ``-d 2``, every segment's score."""

from __future__ import annotations

import math
from typing import Any

import pytest

from bleuprint import BLEUScore
from bleuprint.smoothing import precisions as smoothed

from .conftest import CIRCULATION, circulation_cases, require_shared

# mteval-v13a.pl dies ("Can't take log of 0") printing the length ratio of a corpus whose
# hypotheses have no token. The engine's scoring parts see the same statistics for such a
# corpus and for one empty segment, which the script scores 0 at -d 2; bleuprint follows the
# segments and scores 0 (docs/definitions/compared.md, "mteval").
V13A_DIES = "Can't take log of 0"


def _check(bleu: BLEUScore, case: dict[str, Any]) -> None:
    expected = case["expected"]
    hypotheses, references = case["hypotheses"], case["references"]
    result = bleu.corpus_score(hypotheses, references)
    if "raises" in expected:
        assert V13A_DIES in expected["raises"]["message"]
        assert result.score == 0.0
        return
    assert math.isclose(result.score, expected["score"], rel_tol=1e-12, abs_tol=1e-15)
    stats = bleu.score(result.stats)
    assert stats.score == result.score
    # 'individual' holds the smoothed precision of orders 1..9: the first four are scored.
    # Without any n-gram the script prints exp(0) = 1 where bleuprint's are undefined (None);
    # both score 0.
    precisions = smoothed(bleu.smoothing, result.stats)
    assert [1.0 if p is None else p for p in precisions] == pytest.approx(
        expected["individual"][:4], rel=1e-12
    )
    if "document_info" in expected:
        info = expected["document_info"]
        assert list(result.matches) == info["match"][:4]
        assert list(result.totals) == info["tst"][:4]
    if "hyp_len" in expected:
        assert (result.hypothesis_length, result.reference_length) == (
            expected["hyp_len"],
            expected["ref_len"],
        )
    if "scores" in expected:
        scores = bleu.sentence_scores(hypotheses, references).scores
        assert scores.tolist() == pytest.approx(expected["scores"], rel=1e-12, abs=1e-15)
        segments = bleu.count_segments(hypotheses, references)
        assert segments.hypothesis_lengths.tolist() == expected["words"]


@pytest.mark.parametrize("case", circulation_cases("NIST mteval-v13a.pl"))
def test_mteval_v13a(case: dict[str, Any] | None) -> None:
    if case is None:
        require_shared(*CIRCULATION)
        return
    _check(BLEUScore.mteval_v13a(c="-c" in case["options"]["args"]), case)


@pytest.mark.parametrize("case", circulation_cases("NIST mteval-v14.pl"))
def test_mteval_v14(case: dict[str, Any] | None) -> None:
    if case is None:
        require_shared(*CIRCULATION)
        return
    args = case["options"]["args"]
    bleu = BLEUScore.mteval_v14(
        c="-c" in args, international_tokenization="--international-tokenization" in args
    )
    _check(bleu, case)


def test_no_match_is_smoothed_not_zero() -> None:
    # "Many Thanks" against "many thanks" without -c... and with it: nothing matches, so
    # p1 = 1/(2*2), p2 = 1/(4*1), orders 3 and 4 have no n-gram (precision 1):
    # (1/4 * 1/4) ** (1/4) = 0.5, no penalty (2 tokens each).
    bleu = BLEUScore.mteval_v13a(c=True)
    assert bleu.compute("Many Thanks", ["many thanks"]) == pytest.approx(0.5, rel=1e-15)
    assert BLEUScore.mteval_v13a().compute("Many Thanks", ["many thanks"]) == 1.0
    assert BLEUScore.sacrebleu(lowercase=False).compute("Many Thanks", ["many thanks"]) == 0.0


def test_v13a_lowercases_ascii_only() -> None:
    assert BLEUScore.mteval_v13a().compute("ÉTÉ", ["été"]) < 1.0
    assert BLEUScore.mteval_v14(international_tokenization=True).compute("ÉTÉ", ["été"]) == 1.0
