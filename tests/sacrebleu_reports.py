"""A bleuprint result beside what sacreBLEU 2.6.0 reports for the same input: the one comparison
of the sacreBLEU tests (the WMT22 conformance, the shared vectors, the random differential
tests and raw statistics), whether sacreBLEU's report is a ``BLEUScore`` it returned just now
or a dictionary it wrote to ``../shared`` earlier."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
from sacrebleu.metrics.bleu import BLEUScore as SacreBLEUScore

from bleuprint import BLEUResult

SCORE_TOLERANCE = 1e-9  # on sacreBLEU's 0-100 scale


def reported(theirs: SacreBLEUScore) -> dict[str, Any]:
    """sacreBLEU's ``BLEUScore`` as its recorded reports hold it (``../shared``'s keys)."""
    return {
        "score": theirs.score,
        "counts": list(theirs.counts),
        "totals": list(theirs.totals),
        "sys_len": theirs.sys_len,
        "ref_len": theirs.ref_len,
        "precisions": theirs.precisions,
        "bp": theirs.bp,
        "ratio": theirs.ratio,
        "str": str(theirs),
    }


def reported_counts(result: BLEUResult, options: Mapping[str, Any]) -> tuple[list[Any], list[Any]]:
    """The counts and totals as sacreBLEU reports them. With add-k, sacreBLEU adds k to the
    counts and totals of every order above 1 in the lists it returns, unless nothing matched
    (it returns before smoothing) or there are no unigrams (its loop stops at the first order
    without n-grams, before adding anything); bleuprint's statistics keep the counted values."""
    matches, totals = list(result.matches), list(result.totals)
    if options.get("smooth_method") == "add-k" and any(matches) and totals[0]:
        k = 1 if options.get("smooth_value") is None else options["smooth_value"]
        matches = matches[:1] + [count + k for count in matches[1:]]
        totals = totals[:1] + [count + k for count in totals[1:]]
    return matches, totals


def assert_as_sacrebleu(
    result: BLEUResult,
    theirs: SacreBLEUScore | Mapping[str, Any],
    options: Mapping[str, Any],
    where: str = "",
) -> None:
    """``result`` is what sacreBLEU reported, computed with sacreBLEU's keyword arguments
    ``options``: the score (to 1e-9 on the 0-100 scale), the counts and totals, the lengths,
    the precisions, the brevity penalty, and the ratio and printed line where the report has
    them."""
    expected = reported(theirs) if isinstance(theirs, SacreBLEUScore) else theirs
    assert abs(100 * result.score - expected["score"]) <= SCORE_TOLERANCE, where
    assert reported_counts(result, options) == (expected["counts"], expected["totals"]), where
    assert result.hypothesis_length == expected["sys_len"], where
    assert result.reference_length == expected["ref_len"], where
    assert [100 * p for p in result.precisions] == pytest.approx(expected["precisions"]), where
    assert result.brevity_penalty == pytest.approx(expected["bp"]), where
    if "ratio" in expected:
        assert result.ratio == pytest.approx(expected["ratio"]), where
    if "str" in expected:
        assert str(result) == expected["str"], where
