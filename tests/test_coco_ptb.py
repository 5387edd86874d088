"""coco-caption's tokenizer (issue 27): ``compat.coco.PTBStyle`` against Stanford CoreNLP
3.4.1's PTBTokenizer itself, run as pycocoevalcap runs it (its bundled jar, ``-preserveLines
-lowerCase``, then its punctuation filter): on hand-made cases of each rule, whose tokens are
recorded (``data/coco_ptb_tokens.json``, made by ``data/make_coco_ptb_tokens.py``) so that
machines without Java check them too, and, with the jar, on the recorded texts again and on a
quarter of the distinct lines of the WMT22 data. The jar needs Java: without it those tests
skip, except in CI (``CI=true``), whose script installs a JRE."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from bleuprint.compat import coco
from tests.conftest import require_shared

RECORDED = json.loads(
    (Path(__file__).parent / "data" / "coco_ptb_tokens.json").read_text(encoding="utf-8")
)["cases"]

# Every fourth of the distinct, not blank lines of ../shared's WMT22 data (every file, in
# order), and how many of them PTBStyle tokenizes as CoreNLP does: all 19,049 when this was
# written (76,188 of all 76,194: the 6 others look past their line's end, none of them in this
# quarter). A change of the rules that loses lines fails here.
WMT22_STRIDE = 4
AGREEING_WMT22_LINES = 19_049


def test_each_rule_gives_the_recorded_tokens() -> None:
    tokenizer = coco.PTBStyle()
    differing = [
        (case["rule"], tokenizer(case["text"]), case["tokens"])
        for case in RECORDED
        if tokenizer(case["text"]) != case["tokens"]
    ]
    assert not differing


@pytest.fixture(scope="module")
def corenlp() -> Any:
    """pycocoevalcap's ``PTBTokenizer``: a function of texts to their token lists."""
    if shutil.which("java") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("java is not installed: CI's script installs a JRE for this test")
        pytest.skip("needs java to run CoreNLP's PTBTokenizer (pycocoevalcap's jar)")
    tokenizer = pytest.importorskip("pycocoevalcap.tokenizer.ptbtokenizer").PTBTokenizer()

    def tokenize(texts: list[str]) -> list[list[str]]:
        captions = {number: [{"caption": text}] for number, text in enumerate(texts)}
        tokens = tokenizer.tokenize(captions)
        return [tokens[number][0].split() for number in range(len(texts))]

    return tokenize


def test_the_recordings_are_corenlps(corenlp: Any) -> None:
    # as the generator ran it: every case in one run, a last caption after them
    texts = [case["text"] for case in RECORDED]
    assert corenlp([*texts, "end"])[:-1] == [case["tokens"] for case in RECORDED]


def test_wmt22_lines_but_a_known_few_are_tokenized_as_corenlp(corenlp: Any) -> None:
    folder = require_shared("data", "wmt22")
    lines: dict[str, None] = {}
    for path in sorted(Path(folder).glob("*/*.txt")):
        lines.update(dict.fromkeys(path.read_text(encoding="utf-8").split("\n")))
    texts = [line for line in lines if line.strip()][::WMT22_STRIDE]
    tokenizer = coco.PTBStyle()
    agreeing = sum(
        tokenizer(text) == expected for text, expected in zip(texts, corenlp(texts), strict=True)
    )
    assert len(texts) == 19_049
    assert agreeing >= AGREEING_WMT22_LINES, f"{agreeing} of {len(texts)} lines agree"
