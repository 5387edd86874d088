"""The general tokenizers (``bleuprint.tokenizers``): each against its definition, worked by hand,
and the sacreBLEU ones against sacreBLEU 2.6.0's own on random multi-character text.

Single code points and known edge cases against sacreBLEU are in test_sacrebleu_tokenizers.py;
batch against one-by-one in test_batch_tokenizers.py.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
from sacrebleu.tokenizers.tokenizer_char import TokenizerChar
from sacrebleu.tokenizers.tokenizer_intl import TokenizerV14International
from sacrebleu.tokenizers.tokenizer_none import NoneTokenizer
from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh

from bleuprint import tokenizers
from bleuprint.typing import BatchTokenizer, Tokenizer

GENERAL = [
    tokenizers.Whitespace(),
    tokenizers.Mteval13a(),
    tokenizers.International(),
    tokenizers.Chars(),
    tokenizers.Chinese(),
    tokenizers.ChineseFixed(),
    tokenizers.Letters(),
    tokenizers.Codepoints(),
    tokenizers.Lowercase(tokenizers.Mteval13a()),
]

# Characters whose neighbours change what the rules do: digits, periods and commas (13a's and
# intl's number rules), dashes, escapes, Unicode punctuation and symbols, CJK, line breaks.
TRICKY = st.text(
    alphabet=st.sampled_from(list("ab1 2.,-&;ltgampquo<>\"'\n\t()«»€%$数学。“”İß\u00a0\u3000")),
    max_size=30,
)

# sacreBLEU right-strips a segment, tokenizes it, then splits the result on whitespace.
SACREBLEU: list[tuple[Tokenizer, Callable[[str], str]]] = [
    (tokenizers.Whitespace(), NoneTokenizer()),
    (tokenizers.Mteval13a(), Tokenizer13a()),
    (tokenizers.International(), TokenizerV14International()),
    (tokenizers.Chars(), TokenizerChar()),
    (tokenizers.Chinese(), TokenizerZh()),
]


@pytest.mark.parametrize("tokenizer", GENERAL, ids=lambda tokenizer: type(tokenizer).__name__)
def test_every_general_tokenizer_fits_the_protocol(tokenizer: Tokenizer) -> None:
    assert isinstance(tokenizer, Tokenizer)
    assert isinstance(tokenizer.signature, str)
    assert tokenizer.signature


@pytest.mark.parametrize(("ours", "theirs"), SACREBLEU, ids=lambda part: type(part).__name__)
@given(text=TRICKY)
def test_sacrebleu_tokenizers_on_random_text(
    ours: Tokenizer, theirs: Callable[[str], str], text: str
) -> None:
    assert ours(text) == theirs(text.rstrip()).split()


@pytest.mark.parametrize(("ours", "theirs"), SACREBLEU, ids=lambda part: type(part).__name__)
@given(text=TRICKY)
def test_sacrebleu_tokenizers_lowercased_on_random_text(
    ours: Tokenizer, theirs: Callable[[str], str], text: str
) -> None:
    # sacreBLEU's lowercase=True lowercases the segment before anything else.
    assert tokenizers.Lowercase(ours)(text) == theirs(text.lower().rstrip()).split()


def test_whitespace_splits_on_every_unicode_space() -> None:
    # tab, no-break space, ideographic space and line break all separate; runs count once
    assert tokenizers.Whitespace()(" a\tb\u00a0c\u3000\u3000d\n") == ["a", "b", "c", "d"]


def test_mteval13a_by_its_rules() -> None:
    # "&lt;" unescapes to "<", a symbol, split off; the comma and the final period follow a
    # non-digit and are split off; "2.5" keeps its period (digits on both sides); the dash
    # after the digit 3 is split off.
    assert tokenizers.Mteval13a()("&lt;a, 2.5 3-4.") == ["<", "a", ",", "2.5", "3", "-", "4", "."]


def test_international_separates_unicode_punctuation_and_symbols() -> None:
    # « » are punctuation (split), € is a symbol (split), the comma between digits stays.
    assert tokenizers.International()("«x» 1,5€") == ["«", "x", "»", "1,5", "€"]


def test_chars_drop_only_whitespace() -> None:
    assert tokenizers.Chars()("ab c\u00a0!") == ["a", "b", "c", "!"]


def test_chinese_characters_become_tokens_and_the_rest_is_13a() -> None:
    # 数 and 学 are CJK Unified Ideographs, 。 is CJK punctuation (U+3002); "ab." ends in a
    # period after a non-digit, split off as 13a does.
    assert tokenizers.Chinese()("数学。ab.") == ["数", "学", "。", "ab", "."]


def test_chinese_fixed_differs_from_chinese_only_on_the_misread_ranges() -> None:
    # U+2014 (em dash) is inside the range sacreBLEU wrote by mistake (U+2001..U+2A6D): zh
    # splits it off, zh-fixed leaves it to 13a, which keeps it (it is not ASCII punctuation).
    # U+20000 is CJK Extension B: zh-fixed splits it, zh keeps it joined to its neighbour.
    assert tokenizers.Chinese()("a\u2014b") == ["a", "\u2014", "b"]
    assert tokenizers.ChineseFixed()("a\u2014b") == ["a\u2014b"]
    assert tokenizers.Chinese()("\U00020000x") == ["\U00020000x"]
    assert tokenizers.ChineseFixed()("\U00020000x") == ["\U00020000", "x"]
    assert tokenizers.ChineseFixed()("数学") == tokenizers.Chinese()("数学") == ["数", "学"]


def test_letters_are_lowercased_runs_of_letters() -> None:
    # digits, the apostrophe, the comma and the space separate; É is lowercased
    assert tokenizers.Letters()("Élan's 42nd, x") == ["élan", "s", "nd", "x"]


def test_codepoints_are_every_character() -> None:
    assert tokenizers.Codepoints()("a b\n") == ["a", " ", "b", "\n"]


def test_lowercase_tokenizes_what_lowering_adds() -> None:
    # "İ".lower() is "i" + U+0307 (combining dot above): two characters, so char tokenization
    # after lowercasing sees two tokens (torchmetrics' LowercaseAfter keeps one).
    chars = tokenizers.Chars()
    assert "İ".lower() == "i\u0307"
    assert tokenizers.Lowercase(chars)("İx") == ["i", "\u0307", "x"]


@given(text=TRICKY)
def test_lowercase_by_its_definition(text: str) -> None:
    inner = tokenizers.Mteval13a()
    assert tokenizers.Lowercase(inner)(text) == inner(text.lower())


@pytest.mark.parametrize(
    ("name", "module"),
    [
        ("AsciiWhitespace", "moses"),
        ("AsciiLowercase", "moses"),
        ("CharwiseLowercase", "moses"),
        ("LowercaseAfter", "torchmetrics"),
    ],
)
def test_a_peer_quirk_that_moved_out_is_still_found_here_with_a_warning(
    name: str, module: str
) -> None:
    moved = rf"tokenizers\.{name} is deprecated: use bleuprint\.compat\.{module}\.{name}"
    with pytest.deprecated_call(match=moved):
        old = getattr(tokenizers, name)
    assert old is getattr(importlib.import_module(f"bleuprint.compat.{module}"), name)
    assert name not in tokenizers.__all__
    with pytest.raises(AttributeError, match="has no attribute 'Nothing'"):
        tokenizers.Nothing  # noqa: B018


def test_lowercase_keeps_the_inner_batch_path() -> None:
    lowered = tokenizers.Lowercase(tokenizers.Whitespace())
    assert isinstance(lowered, BatchTokenizer)
    assert list(lowered.tokenize_batch(["A B", "", "C"])) == [["a", "b"], [], ["c"]]
    # an inner tokenizer without a batch method is called text by text
    plain = tokenizers.Lowercase(tokenizers.Letters())
    assert list(plain.tokenize_batch(["A-B", "C"])) == [["a", "b"], ["c"]]


def test_from_callable_wraps_a_function_with_its_signature() -> None:
    comma = tokenizers.from_callable(lambda text: text.split(","), signature="comma")
    assert isinstance(comma, Tokenizer)
    assert comma("a,b,,c") == ["a", "b", "", "c"]
    assert comma.signature == "comma"


def test_from_callable_returns_a_list_whatever_the_function_returns() -> None:
    pairs = tokenizers.from_callable(lambda text: iter(text.split()), signature="iter")
    assert pairs("x y") == ["x", "y"]
