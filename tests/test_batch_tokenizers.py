"""Batch tokenization: ``tokenize_batch`` gives exactly what calling on each text gives."""

from __future__ import annotations

import itertools
import re
import sys
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bleuprint import tokenizers
from bleuprint._kernels import _python
from bleuprint.typing import BatchTokenizer

BATCH_TOKENIZERS = [
    tokenizers.Whitespace(),
    tokenizers.Mteval13a(),
    tokenizers.International(),
    tokenizers.Chars(),
    tokenizers.Chinese(),
    tokenizers.ChineseFixed(),
    tokenizers.Lowercase(tokenizers.Mteval13a()),
    tokenizers.Lowercase(tokenizers.Letters()),  # an inner tokenizer without a batch method
]
IDS = [tokenizer.signature for tokenizer in BATCH_TOKENIZERS]


def assert_batch_is_per_text(tokenizer: Any, texts: list[str]) -> None:
    assert isinstance(tokenizer, BatchTokenizer)
    assert list(tokenizer.tokenize_batch(texts)) == [tokenizer(text) for text in texts]


# Characters whose neighbours decide what the rules do: digits, periods, commas, dashes,
# punctuation and symbols, line breaks (in the middle, at either end), spaces of all kinds.
EDGES = [
    "-5",
    "5-",
    ".a",
    "a.",
    ",1",
    "1,",
    "«Ça",
    "x»",
    "in 2020.",
    "in 2020. ",
    "&amp;lt;b",
    "a-\n",
    "x-\ny",
    "\n",
    "\n.",
    ".\n",
    "-\n5",
    "中.",
    ".中",
    "$1,000.50 - 20%!",
    "",
    " ",
    "\u3000.\u3000",
    "\ufeff.",
    "a\u2028.",
    "\r\n",
    "<skipped>-",
    "1.\n2",
    "\U00020000.",
]


@pytest.mark.parametrize("tokenizer", BATCH_TOKENIZERS, ids=IDS)
def test_edges_one_after_another(tokenizer: Any) -> None:
    assert_batch_is_per_text(tokenizer, EDGES)
    assert_batch_is_per_text(tokenizer, [edge for edge in EDGES if "\n" not in edge])
    assert_batch_is_per_text(tokenizer, [])


@pytest.mark.parametrize("tokenizer", BATCH_TOKENIZERS, ids=IDS)
def test_every_code_point_on_both_sides_of_a_line_end(tokenizer: Any) -> None:
    # Each character starts a line and ends the line before, beside digits, periods and dashes.
    code_points = [chr(c) for c in range(0x10000) if c != 0x0A] + [
        chr(c) for c in range(0x10000, sys.maxunicode + 1, 61)
    ]
    texts = [f"{c}1.{c}-{c}" for c in code_points]
    assert_batch_is_per_text(tokenizer, texts)


ALPHABET = st.sampled_from(
    [
        "a",
        "É",
        "1",
        "9",
        ".",
        ",",
        "-",
        "'",
        "«",
        "€",
        "&",
        "amp;",
        "quot;",
        " ",
        "\t",
        "\n",
        "\u00a0",
        "\u2028",
        "\r",
        "中",
        "。",
        "\U00020000",
        "<skipped>",
        "ß",
        "Σ",
    ]
)
TEXTS = st.lists(st.lists(ALPHABET, max_size=12).map("".join), max_size=8)


@given(TEXTS)
def test_random_texts(texts: list[str]) -> None:
    for tokenizer in BATCH_TOKENIZERS:
        assert_batch_is_per_text(tokenizer, texts)


def test_wmt22_data(shared: Any, wmt22_pair: str) -> None:
    folder = shared("data", "wmt22", wmt22_pair)
    files = [*sorted(folder.glob("ref.*.txt")), sorted(folder.glob("sys.*.txt"))[0]]
    for path in files:
        texts = path.read_text(encoding="utf-8").split("\n")[:-1]
        for tokenizer in BATCH_TOKENIZERS:
            assert_batch_is_per_text(tokenizer, texts)


def test_13a_period_rule_without_regex_is_the_regex_everywhere() -> None:
    # Every text of up to 6 characters from the ones the rule looks at: exactly the same
    # string as the line-bounded regular expression gives.
    rule = re.compile(r"([^0-9\n])([.,])")
    marks = re.compile(r"[.,]+")  # the rule visits each run of marks once
    for length in range(7):
        for characters in itertools.product("a1., \n", repeat=length):
            text = "".join(characters)
            expected = rule.sub(r"\1 \2 ", text)
            assert marks.sub(_python._spaced_after_non_digit, text) == expected, text
