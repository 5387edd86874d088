"""Hugging Face evaluate's and bleuscore's definitions (:mod:`bleuprint.compat.hf_evaluate`,
:mod:`bleuprint.compat.bleuscore`), by hand-computed cases."""

from __future__ import annotations

import math

import pytest
from hypothesis import strategies as st

from bleuprint import (
    BLEUScore,
    InputError,
)
from bleuprint.brevity import penalty
from bleuprint.compat import hf_evaluate

WORD = st.sampled_from(["a", "b", "c", "the", "cat"])
SENTENCE = st.lists(WORD, max_size=8)


def test_nmt_penalty_refuses_zero_lengths() -> None:
    assert penalty(hf_evaluate.NMT(), 4, 4) == 1.0
    assert penalty(hf_evaluate.NMT(), 2, 6) == pytest.approx(math.exp(-2), rel=1e-15)
    for lengths in [(0, 3), (3, 0)]:
        with pytest.raises(InputError, match="divides by both"):
            penalty(hf_evaluate.NMT(), *lengths)


def test_hf_evaluate_and_bleuscore_differ_on_empty_text() -> None:
    with pytest.raises(InputError, match="divides by both"):
        BLEUScore.hf_evaluate().compute("", ["test"])
    assert BLEUScore.bleuscore().compute("", ["test"]) == 0.0


def test_hf_evaluate_uses_the_shortest_reference() -> None:
    # 4 tokens against references of 5 and 1: the shortest (1) means no penalty.
    assert BLEUScore.hf_evaluate(max_order=1).compute("a b c d", ["a b c d e", "a"]) == 1.0
