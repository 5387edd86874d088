"""Every case of ``../shared/vectors/sacrebleu_vectors.json`` and the ``compute_bleu`` cases of
``sacrebleu_stats_vectors.json``: what sacreBLEU 2.6.0 printed and returned, reproduced."""

from __future__ import annotations

from typing import Any

import pytest

from bleuprint import BLEUScore, BLEUStats, InputError
from bleuprint.compat import sacrebleu as sacrebleu_definition
from tests.sacrebleu_reports import assert_as_sacrebleu


def options_of(kwargs: dict[str, Any]) -> dict[str, Any]:
    """sacreBLEU's keyword arguments without ``force``, which only silences a warning."""
    return {key: value for key, value in kwargs.items() if key != "force"}


def misplaced_streams(case: dict[str, Any]) -> bool:
    """References not in sacreBLEU's layout: a stream that is one string, or a stream whose
    length differs from the hypotheses' (sacreBLEU zips them and silently drops the rest)."""
    return any(
        isinstance(stream, str) or len(stream) != len(case["hypotheses"])
        for stream in case["references"]
    )


def test_sacrebleu_vector(shared: Any, sacrebleu_vector: dict[str, Any] | None) -> None:
    if sacrebleu_vector is None:
        shared("vectors", "sacrebleu_vectors.json")  # skips, or fails where the data must be
        return
    case = sacrebleu_vector
    tokenize = case["kwargs"].get("tokenize") or {"ja": "ja-mecab", "ko": "ko-mecab"}.get(
        case["kwargs"].get("trg_lang", "")
    )
    if tokenize == "ja-mecab":
        pytest.importorskip("MeCab")
    if tokenize == "ko-mecab":
        pytest.importorskip("mecab_ko")
    options = options_of(case["kwargs"])
    bleu = BLEUScore.sacrebleu(**options)
    hypotheses = case["hypotheses"]

    if misplaced_streams(case):
        # sacreBLEU scores these silently (see the case's notes); bleuprint refuses them.
        assert case.get("quirk")
        with pytest.raises(InputError, match="reference stream"):
            sacrebleu_definition.from_streams(hypotheses, case["references"])
        return

    references = sacrebleu_definition.from_streams(hypotheses, case["references"])
    if case["level"] == "sentence":
        result = bleu.sentence_score(hypotheses[0], references[0])
    else:
        result = bleu.corpus_score(hypotheses, references)
    assert_as_sacrebleu(result, {**case["expected"], "str": case["verbose"]}, options)
    assert sacrebleu_definition.signature(result) == case["signature"]
    # sacreBLEU's tokenizers return a string that BLEU splits on whitespace.
    tokenized = case["tokenized"]
    assert [bleu.tokenizer(text) for text in hypotheses] == [
        text.split() for text in tokenized["hypotheses"]
    ]
    for stream, expected_stream in zip(case["references"], tokenized["references"]):
        for text, expected_text in zip(stream, expected_stream):
            assert (text is None and expected_text is None) or (
                bleu.tokenizer(text) == expected_text.split()
            )


def test_compute_bleu_vector(shared: Any, sacrebleu_stats_vector: dict[str, Any] | None) -> None:
    """Scoring raw statistics, as ``BLEU.compute_bleu`` does (its default smoothing: none)."""
    if sacrebleu_stats_vector is None:
        shared("vectors", "sacrebleu_stats_vectors.json")
        return
    case = sacrebleu_stats_vector
    options = {"smooth_method": "none", **case["kwargs"]}
    bleu = BLEUScore.sacrebleu(**options)
    given = case["input"]
    stats = BLEUStats(
        given["correct"],
        given["total"],
        given["sys_len"],
        given["ref_len"],
        reference_counts=frozenset({1}),
        counting=bleu.counting_signature,
    )
    assert_as_sacrebleu(bleu.score(stats), case["expected"], options)
