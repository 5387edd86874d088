"""The torchmetrics preset against torchmetrics 1.9.0 itself (the test extra installs it), on
WMT22 systems from ../shared: ``BLEUScore`` and ``SacreBLEUScore`` under each of their options,
at corpus level and segment by segment."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

torchmetrics_text = pytest.importorskip("torchmetrics.text")

from bleuprint import BLEUScore  # noqa: E402

OPTIONS = [
    {},
    {"smooth": True},
    {"n_gram": 2, "weights": [0.7, 0.3]},
    {"tokenize": "13a"},
    {"tokenize": "intl", "lowercase": True},
    {"tokenize": "char", "smooth": True},
    {"tokenize": "zh"},
]


def _peer(options: dict[str, Any]) -> Any:
    if "tokenize" in options:
        return torchmetrics_text.SacreBLEUScore(**options)
    return torchmetrics_text.BLEUScore(**options)


@pytest.fixture(scope="module")
def corpus(shared: Callable[..., Path]) -> tuple[list[str], list[list[str]]]:
    folder = shared("data", "wmt22", "de-en")
    hypotheses = (folder / "sys.Online-A.txt").read_text(encoding="utf-8").splitlines()[:400]
    first = (folder / "ref.A.txt").read_text(encoding="utf-8").splitlines()[:400]
    second = (folder / "ref.B.txt").read_text(encoding="utf-8").splitlines()[:400]
    return hypotheses, [list(pair) for pair in zip(first, second)]


@pytest.mark.parametrize("options", OPTIONS, ids=lambda options: str(options) or "defaults")
def test_corpus_and_segments_are_torchmetrics(
    options: dict[str, Any], corpus: tuple[list[str], list[list[str]]]
) -> None:
    hypotheses, references = corpus
    bleu = BLEUScore.torchmetrics(**options)
    # torchmetrics computes in float32 tensors: agreement to its precision.
    expected = float(_peer(options)(hypotheses, references))
    assert bleu.corpus_score(hypotheses, references).score == pytest.approx(expected, rel=1e-6)
    ours = bleu.sentence_scores(hypotheses[:60], references[:60]).scores
    for index, (hypothesis, refs) in enumerate(zip(hypotheses[:60], references[:60])):
        theirs = float(_peer(options)([hypothesis], [refs]))
        assert ours[index] == pytest.approx(theirs, rel=1e-6, abs=1e-7), index
