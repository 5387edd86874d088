"""The sacreBLEU tokenizers, against sacreBLEU 2.6.0's own, over every Unicode code point."""

from __future__ import annotations

import sys

import pytest
from sacrebleu.metrics import BLEU

from bleuprint import BLEUScore, ConfigurationError, tokenizers
from bleuprint.compat import sacrebleu as sacrebleu_definition
from bleuprint.tokenizers import _mecab_tagger
from tests.conftest import untraced

# Every code point of the Basic Multilingual Plane, the edges of the supplementary CJK ranges,
# and a sample of the other planes.
CODE_POINTS = [
    chr(code_point)
    for code_point in sorted(
        {
            *range(0x10000),
            *range(0x10000, sys.maxunicode + 1, 61),
            *(edge + step for edge in (0x20000, 0x2A6D6, 0x2F800, 0x2FA1D) for step in (-1, 0, 1)),
        }
    )
]


def sacrebleu_tokens(tokenize: str, text: str, lowercase: bool = False) -> list[str]:
    """What sacreBLEU's BLEU counts n-grams over: its pre-processed segment, split."""
    preprocess = BLEU(tokenize=tokenize, lowercase=lowercase)._preprocess_segment
    return untraced(preprocess, text).split()


@pytest.mark.parametrize("tokenize", ["none", "13a", "intl", "char", "zh"])
def test_every_code_point(tokenize: str) -> None:
    """Each character between letters, digits, periods and an escape, in one long segment."""
    text = "|".join(f"a{c}b 1{c}2 .{c}, &amp{c};{c}" for c in CODE_POINTS)
    ours = BLEUScore.sacrebleu(tokenize=tokenize).tokenizer(text)
    assert ours == sacrebleu_tokens(tokenize, text)


@pytest.mark.parametrize("tokenize", ["13a", "intl", "char", "zh"])
def test_every_code_point_lowercased(tokenize: str) -> None:
    text = " x".join(CODE_POINTS)
    ours = BLEUScore.sacrebleu(tokenize=tokenize, lowercase=True).tokenizer(text)
    assert ours == sacrebleu_tokens(tokenize, text, lowercase=True)


@pytest.mark.parametrize(
    "text",
    [
        "a-\n",  # 13a joins a hyphen at a line break, but not after the segment is right-stripped
        "x-\ny",
        "in 2020. ",  # intl: a trailing space separates the final period
        "in 2020.",
        "&amp;lt;b&amp;gt;",  # unescaped twice by 13a
        "<skipped> word",
        "\ufeffBOM",
        "",
        " \t\u3000 ",
    ],
)
@pytest.mark.parametrize("tokenize", ["13a", "intl", "zh", "char", "none"])
def test_edges(tokenize: str, text: str) -> None:
    assert BLEUScore.sacrebleu(tokenize=tokenize).tokenizer(text) == sacrebleu_tokens(
        tokenize, text
    )


def test_13a_edges_by_definition() -> None:
    tokenize = tokenizers.Mteval13a()
    assert tokenize("a-\n") == ["a-"]  # right-stripped first, so "-\n" is not there to remove
    assert tokenize("x-\ny") == ["xy"]
    assert tokenize("&amp;lt;b&amp;gt;") == ["<", "b", ">"]
    assert tokenize("&apos;") == ["&", "apos", ";"]


def test_zh_reproduces_the_range_bug() -> None:
    """sacreBLEU's zh splits general punctuation off (U+2001..U+2A6D) and keeps CJK
    Extension B together; the fixed variant does the opposite."""
    chinese, fixed = tokenizers.Chinese(), tokenizers.ChineseFixed()
    dashed = "a\u2013b"  # an en dash
    assert chinese(dashed) == ["a", "\u2013", "b"] == sacrebleu_tokens("zh", dashed)
    assert fixed(dashed) == [dashed]
    extension_b = "\U00020000\U00020001"
    assert chinese(extension_b) == [extension_b] == sacrebleu_tokens("zh", extension_b)
    assert fixed(extension_b) == ["\U00020000", "\U00020001"]
    assert chinese("\u2a6d\u2a6e") == ["\u2a6d", "\u2a6e"]  # the last one split, the next not
    assert fixed("中文") == chinese("中文") == ["中", "文"]


@pytest.mark.parametrize(
    ("tokenizer", "text", "expected"),
    [
        (tokenizers.JapaneseMecab, "今日は良い天気ですね。", "ja-mecab"),
        (tokenizers.KoreanMecab, "오늘은 날씨가 좋습니다.", "ko-mecab"),
    ],
)
def test_mecab(tokenizer: type, text: str, expected: str) -> None:
    pytest.importorskip({"ja-mecab": "MeCab", "ko-mecab": "mecab_ko"}[expected])
    assert tokenizer()(f"  {text} ") == sacrebleu_tokens(expected, f"  {text} ")
    sacrebleu_name = BLEU(tokenize=expected).tokenizer.signature()
    assert sacrebleu_definition.tokenizer_name(tokenizer()) == sacrebleu_name


@pytest.mark.parametrize(
    ("tokenizer", "module", "extra"),
    [(tokenizers.JapaneseMecab, "MeCab", "ja"), (tokenizers.KoreanMecab, "mecab_ko", "ko")],
)
def test_mecab_missing(
    monkeypatch: pytest.MonkeyPatch, tokenizer: type, module: str, extra: str
) -> None:
    """Without the extra, building the tokenizer says what to install."""
    monkeypatch.setitem(sys.modules, module, None)  # makes ``import module`` fail
    _mecab_tagger.cache_clear()
    try:
        with pytest.raises(
            ConfigurationError, match=rf"pip install '\.\[{extra}\]' \(from the repository's root\)"
        ):
            tokenizer()
    finally:
        _mecab_tagger.cache_clear()


def test_lowercase_wraps_any_tokenizer() -> None:
    lowercase = tokenizers.Lowercase(tokenizers.Whitespace())
    assert lowercase("The CAT") == ["the", "cat"]
    assert lowercase.signature == "lowercase[whitespace[]]"
    assert sacrebleu_definition.tokenizer_name(lowercase) == "none"
    assert sacrebleu_definition.tokenizer_name(tokenizers.Lowercase(tokenizers.Letters())) is None
