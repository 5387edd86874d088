"""Every case of ``../shared/vectors/peer_vectors.json`` through bleuprint's compatibility presets.

Each case records what a peer (NLTK, torchmetrics, Hugging Face evaluate, bleuscore, fast-bleu,
distancia) returned or raised for a call. ``run`` translates the call into bleuprint's
vocabulary (the peer's input layout into hypotheses and reference lists, its options into the
preset's) and nothing else: the numbers come from the presets. Where the peer returned a value
for input that bleuprint rejects on purpose, the case is listed in ``REJECTED`` with the reason
that the docs give; where the peer raised, bleuprint must raise one of its own clear errors.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from typing import Any

import pytest

from bleuprint import (
    BLEUError,
    BLEUScore,
    BLEUStats,
    ConfigurationError,
    InputError,
    brevity,
)
from bleuprint.compat import nltk

from .conftest import require_shared, shared_path

PATH = ("vectors", "peer_vectors.json")


def _load_cases() -> list[dict[str, Any]]:
    root = shared_path()
    path = root.joinpath(*PATH) if root else None
    if path is None or not path.exists():
        return []
    cases: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))["cases"]
    return cases


CASES = _load_cases()

# Input a peer scores silently but bleuprint rejects with a clear error (see the docs'
# comparison page, "Where bleuprint refuses").
REJECTED: dict[str, type[BLEUError]] = {
    # bleuscore silently drops the references beyond the hypotheses.
    "bleuscore-029-length-mismatch-truncates": InputError,
    # Order 0 gives NaN in bleuscore.
    "bleuscore-030-max_order-0": ConfigurationError,
    # torchmetrics' class reads a bare string as one reference per character.
    "torchmetrics-033-class-str-target-pitfall": InputError,
}

# A peer limitation that bleuprint does not share: tested on its own below.
NOT_A_LIMITATION = {"torchmetrics-032-merge-state"}


def _words(segment: Any) -> list[str]:
    """The tokens NLTK, fast-bleu and distancia read from a segment, as bleuprint takes them:
    a string is iterated as characters, and tokens are strings (NLTK also takes integers)."""
    return [str(token) for token in segment]


# -- NLTK ---------------------------------------------------------------------------------


def _nltk_engine(kwargs: dict[str, Any], longest: Sequence[float]) -> BLEUScore:
    method = kwargs.get("smoothing_function", "method0")
    return BLEUScore.nltk(longest, method, **kwargs.get("smoothing_params", {}))


def _nltk_bleu(case: dict[str, Any], hypotheses: list[Any], references: list[Any]) -> Any:
    kwargs = case["kwargs"]
    given = kwargs.get("weights", (0.25, 0.25, 0.25, 0.25))
    container = kwargs.get("weights_container", "tuple")
    # NLTK re-weighs only weights equal to the tuple (0.25,)*4: a list never compares equal.
    auto_reweigh = kwargs.get("auto_reweigh", False) and container != "list"
    weight_sets = given if container == "list_of_tuples" else [given]
    bleu = _nltk_engine(kwargs, max(weight_sets, key=len))
    stats = bleu.count(
        [_words(hypothesis) for hypothesis in hypotheses],
        [[_words(reference) for reference in refs] for refs in references],
    )
    parts = [nltk.NLTKWeights(tuple(weight_set), auto_reweigh) for weight_set in weight_sets]
    scores = [result.score for result in bleu.score_weights(stats, parts)]
    return scores if container == "list_of_tuples" else scores[0]


def _nltk(case: dict[str, Any]) -> Any:
    call, kwargs = case["call"], case["kwargs"]
    if call == "sentence_bleu":
        return _nltk_bleu(case, [case["hypothesis"]], [case["references"]])
    if call == "corpus_bleu":
        return _nltk_bleu(case, case["hypotheses"], case["references"])
    if call == "modified_precision":
        order = kwargs["n"]
        stats = BLEUScore.nltk((1 / order,) * order).count(
            [_words(case["hypothesis"])], [[_words(ref) for ref in case["references"]]]
        )
        numerator, denominator = nltk.nltk_fractions(stats)[order - 1]
        assert [numerator, denominator] == case["expected_fraction"]
        return numerator / denominator
    if call == "brevity_penalty":
        return brevity.penalty(nltk.NLTKExponential(), kwargs["hyp_len"], kwargs["closest_ref_len"])
    if call == "closest_ref_length":
        lengths = [len(ref) for ref in case["references"]]
        return brevity.reference_length(brevity.Closest(), kwargs["hyp_len"], lengths)
    raise AssertionError(f"unknown NLTK call {call}")


# -- torchmetrics -------------------------------------------------------------------------


def _as_list(value: Any) -> list[Any]:
    return [value] if isinstance(value, str) else list(value)


def _torchmetrics(case: dict[str, Any]) -> Any:
    call, kwargs = case["call"], dict(case["kwargs"])
    if call.startswith("functional.sacre_bleu_score") or call.startswith("SacreBLEUScore"):
        kwargs.setdefault("tokenize", "13a")
    bleu = BLEUScore.torchmetrics(**kwargs)
    if call.startswith("functional."):
        # The functional form wraps a bare string prediction and bare string targets.
        references = [_as_list(target) for target in case["references"]]
        return bleu.corpus_score(_as_list(case["hypotheses"]), references).score
    batches = [bleu.count(update["preds"], update["target"]) for update in case["updates"]]
    if call == "BLEUScore.forward(batch2)":
        return bleu.score(batches[-1]).score
    if call == "BLEUScore.update+reset+compute":
        return bleu.score(bleu.empty_stats()).score
    return bleu.score(sum(batches, bleu.empty_stats())).score


# -- Hugging Face evaluate and bleuscore (the TF NMT definition) ----------------------------


def _nmt_references(references: list[Any]) -> list[list[str]]:
    # Both accept a flat list of strings as one reference per prediction.
    return [_as_list(refs) for refs in references]


def _hf_evaluate(case: dict[str, Any]) -> Any:
    bleu = BLEUScore.hf_evaluate(**case["kwargs"])
    return bleu.corpus_score(case["hypotheses"], _nmt_references(case["references"])).score


def _bleuscore(case: dict[str, Any]) -> Any:
    bleu = BLEUScore.bleuscore(**case["kwargs"])
    return bleu.corpus_score(case["hypotheses"], _nmt_references(case["references"])).score


# -- fast-bleu and distancia ----------------------------------------------------------------

_PICK = re.compile(r"\['(?P<key>\w+)'\]\[(?P<index>\d+)\]$")


def _fast_bleu(case: dict[str, Any]) -> Any:
    call, kwargs = case["call"], case["kwargs"]
    weight_sets = kwargs["weights"]
    pick = _PICK.search(call)
    key = pick["key"] if pick else next(iter(weight_sets))
    index = int(pick["index"]) if pick else 0
    # fast-bleu has no auto_reweight behaviour to reproduce: it ignores the option.
    bleu = BLEUScore.fast_bleu(weight_sets[key], kwargs.get("smoothing_func", 1))
    references = [_words(reference) for reference in case["references"]]
    if call.startswith("SelfBLEU"):
        # Self-BLEU: each reference against all the others.
        others = references[:index] + references[index + 1 :]
        return bleu.compute(references[index], others)
    hypotheses = case.get("hypotheses", [case.get("hypothesis")])
    # Every hypothesis is scored against the one shared reference set.
    return bleu.compute(_words(hypotheses[index]), references)


def _distancia(case: dict[str, Any]) -> Any:
    bleu = BLEUScore.distancia(**case["kwargs"]["init"])
    return bleu.compute(_words(case["hypothesis"]), [_words(ref) for ref in case["references"]])


RUNNERS = {
    "nltk": _nltk,
    "torchmetrics": _torchmetrics,
    "hf_evaluate": _hf_evaluate,
    "bleuscore": _bleuscore,
    "fast_bleu": _fast_bleu,
    "distancia": _distancia,
}


def run(case: dict[str, Any]) -> Any:
    return RUNNERS[case["peer"]](case)


def _close(actual: float, expected: Any, case: dict[str, Any]) -> bool:
    if isinstance(expected, str):
        return math.isnan(actual) if expected == "NaN" else actual == float(expected)
    return math.isclose(actual, expected, rel_tol=case["rel_tolerance"], abs_tol=case["tolerance"])


def test_the_vectors_are_there() -> None:
    require_shared(*PATH)
    assert len(CASES) == 262


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize(
    "case",
    [case for case in CASES if case["id"] not in NOT_A_LIMITATION],
    ids=lambda case: case["id"],
)
def test_case(case: dict[str, Any]) -> None:
    if case["id"] in REJECTED:
        with pytest.raises(REJECTED[case["id"]]):
            run(case)
        return
    if case["raises"]:
        # The peer crashed or refused: bleuprint refuses too, with its own clear error.
        with pytest.raises(BLEUError):
            run(case)
        return
    actual = run(case)
    expected = case["expected"]
    if isinstance(expected, list):
        assert len(actual) == len(expected)
        assert all(_close(a, e, case) for a, e in zip(actual, expected)), (actual, expected)
    else:
        assert _close(actual, expected, case), (actual, expected)


def test_statistics_merge_where_torchmetrics_merge_state_refuses() -> None:
    """torchmetrics' ``merge_state`` raises for BLEUScore; bleuprint's statistics just add,
    and the merged score is the score of both updates (the value torchmetrics gives for two
    updates of one metric)."""
    by_id = {case["id"]: case for case in CASES}
    if not by_id:
        require_shared(*PATH)
    merge = by_id["torchmetrics-032-merge-state"]
    two_updates = by_id["torchmetrics-028-two-updates"]
    assert merge["updates"] == two_updates["updates"]
    bleu = BLEUScore.torchmetrics(**merge["kwargs"])
    first, second = (bleu.count(u["preds"], u["target"]) for u in merge["updates"])
    merged: BLEUStats = first + second
    assert math.isclose(
        bleu.score(merged).score,
        two_updates["expected"],
        rel_tol=two_updates["rel_tolerance"],
        abs_tol=two_updates["tolerance"],
    )
