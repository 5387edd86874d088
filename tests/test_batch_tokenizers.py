"""Batch tokenization: ``tokenize_batch`` gives, text by text, sacreBLEU's tokens for the
tokenizers sacreBLEU has, and what calling on each text gives for bleuprint's own."""

from __future__ import annotations

import itertools
import re
import sys
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sacrebleu.metrics import BLEU

from bleuprint import tokenizers
from bleuprint.typing import BatchTokenizer
from tests.conftest import untraced

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


# sacreBLEU's options for the tokenizers it has: (tokenize, lowercase).
SACREBLEU = {
    "whitespace": ("none", False),
    "13a": ("13a", False),
    "intl": ("intl", False),
    "char": ("char", False),
    "zh": ("zh", False),
    "lowercase[13a[]]": ("13a", True),
}


def _sacrebleus(tokenize: str, lowercase: bool, texts: list[str]) -> list[list[str]]:
    preprocess = BLEU(tokenize=tokenize, lowercase=lowercase)._preprocess_segment
    return [preprocess(text).split() for text in texts]


def assert_batch_is_per_text(tokenizer: Any, texts: list[str]) -> None:
    """The batch gives sacreBLEU's tokens of each text where sacreBLEU has the tokenizer,
    else (bleuprint's own tokenizers) what calling the tokenizer on each text gives."""
    assert isinstance(tokenizer, BatchTokenizer)
    if tokenizer.signature in SACREBLEU:
        expected = untraced(_sacrebleus, *SACREBLEU[tokenizer.signature], texts)
    else:
        expected = [tokenizer(text) for text in texts]
    assert list(tokenizer.tokenize_batch(texts)) == expected


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
    # Every second line: test_kernels.py gives the kernel's tokenizers every distinct line, and
    # sacreBLEU's tokens (what takes the time here) are no surer for twice the lines.
    folder = shared("data", "wmt22", wmt22_pair)
    files = [*sorted(folder.glob("ref.*.txt")), sorted(folder.glob("sys.*.txt"))[0]]
    for path in files:
        texts = path.read_text(encoding="utf-8").split("\n")[:-1][::2]
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
            assert marks.sub(tokenizers._spaced_after_non_digit, text) == expected, text
