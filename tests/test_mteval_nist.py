"""mteval-v13a.pl's and mteval-v14.pl's NIST score (issue 27): bleuprint's numbers against
the scripts' own, recorded by tests/data/make_mteval_nist.py (the scripts are not part of the
repository; the recording says how they were run), on WMT22 corpora of ../shared and
hand-made cases."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bleuprint import InputError
from bleuprint.compat import mteval
from tests.conftest import REPOSITORY, require_shared

RECORDED = json.loads(
    (REPOSITORY / "tests" / "data" / "mteval_nist.json").read_text(encoding="utf-8")
)["cases"]
# The script adds an order's information in the order of Perl's hash, which changes from run
# to run, and so do its last bits.
RELATIVE = 1e-13


def _segments(case: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """The case's hypotheses, and each one's references."""
    if "wmt22" in case:
        named = case["wmt22"]
        folder = require_shared("data", "wmt22", named["pair"])
        first, last = case["lines"]
        texts = [
            (folder / file).read_text(encoding="utf-8").split("\n")[first - 1 : last]
            for file in [named["system"], *named["references"]]
        ]
        return texts[0], [list(of_segment) for of_segment in zip(*texts[1:])]
    return case["hypotheses"], [list(of_segment) for of_segment in zip(*case["references"])]


def _definition(case: dict[str, Any]) -> mteval.MtevalNIST:
    """The definition of the script and options the case was recorded with."""
    if case["script"] == "v13a":
        assert not case["international_tokenization"]
        return mteval.nist(c=case["c"])
    return mteval.nist_v14(
        c=case["c"], international_tokenization=case["international_tokenization"]
    )


@pytest.mark.parametrize("case", RECORDED, ids=[case["name"] for case in RECORDED])
def test_system_and_segment_scores_are_the_scripts(case: dict[str, Any]) -> None:
    hypotheses, references = _segments(case)
    definition = _definition(case)
    expected = case["expected"]
    if "raises" in expected:
        assert expected["raises"] == "Illegal division by zero"
        with pytest.raises(InputError, match="divides by zero"):
            definition.corpus_score(hypotheses, references)
        return
    result = definition.corpus_score(hypotheses, references)
    assert result.score == pytest.approx(expected["score"], rel=RELATIVE, abs=1e-15)
    # The script's individual values are each order's precision times the penalty.
    individual = [precision * result.penalty for precision in result.precisions]
    assert individual == pytest.approx(expected["individual"][:5], rel=RELATIVE, abs=1e-15)
    scores = definition.segment_scores(hypotheses, references)
    assert scores == pytest.approx(expected["scores"], rel=RELATIVE, abs=1e-15)


def test_the_recording_holds_every_kind_of_case() -> None:
    # Both case settings, one and two references, an empty hypothesis line, the "0" prefix
    # quirk and the script's death: a case lost from the recording fails here.
    names = {case["name"] for case in RECORDED}
    assert {"the word 0 as a prefix", "an empty hypothesis", "an empty reference segment"} <= names
    assert {case["c"] for case in RECORDED} == {True, False}
    assert sum("wmt22" in case for case in RECORDED) >= 5
    options = {(case["script"], case["c"], case["international_tokenization"]) for case in RECORDED}
    assert options == {
        ("v13a", False, False),
        ("v13a", True, False),
        ("v14", False, False),
        ("v14", True, False),
        ("v14", False, True),
        ("v14", True, True),
    }


def test_the_signature_names_the_script_and_its_options() -> None:
    assert (
        mteval.nist().signature == "mteval-v13a-nist|case:lc|tok:13a|version:mosesdecoder-34452895"
    )
    assert mteval.nist_v14().signature == (
        "mteval-v14-nist|case:lc|tok:13a|version:mosesdecoder-34452895"
    )
    assert mteval.nist_v14(c=True, international_tokenization=True).signature == (
        "mteval-v14-nist|case:mixed|tok:intl|version:mosesdecoder-34452895"
    )


def test_a_compute_is_a_corpus_of_one() -> None:
    case = next(case for case in RECORDED if case["name"] == "the docstring's example")
    hypothesis = case["hypotheses"][0]
    references = [reference[0] for reference in case["references"]]
    assert mteval.nist().compute(hypothesis, references) == pytest.approx(
        case["expected"]["score"], rel=RELATIVE
    )


@pytest.mark.parametrize(
    ("hypotheses", "references", "message"),
    [
        ("a b", [["a b"]], "the hypotheses must be a list of texts"),
        (["a b"], "a b", "the references must be a list"),
        (["a b", "c"], [["a b"]], "2 hypotheses and 1 list of references"),
        ([], [], "0 hypotheses"),
        (["a b"], [[]], "segment 0: the references must be a non-empty list"),
        (["a b"], [[1]], "segment 0: the hypothesis and its references must be texts"),
        (["a", "b"], [["a"], ["b", "c"]], "segment 1: 2 references where the first segment has 1"),
        (["a", "b"], [["a"], [""]], "segment 1: the references have no word"),
    ],
)
def test_bad_input_is_one_clear_error(hypotheses: Any, references: Any, message: str) -> None:
    with pytest.raises(InputError, match=message):
        mteval.nist().corpus_score(hypotheses, references)
