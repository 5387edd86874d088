"""NIST's ``mteval-v13a.pl`` and ``mteval-v14.pl`` (mosesdecoder 34452895), BLEU only (``-b``).

Both tokenize as sacreBLEU's ``13a`` does (``mteval-v14.pl --international-tokenization``: as
its ``intl``, after undoing the escapes ``&quot; &amp; &lt; &gt; &apos;``). Without ``-c`` they
lowercase: ``mteval-v13a.pl`` the letters A to Z only (``tr/[A-Z]/[a-z]/``,
:class:`~bleuprint.compat.moses.AsciiLowercase`), ``mteval-v14.pl --international-tokenization``
every letter (Perl's ``lc``, :class:`~bleuprint.compat.moses.CharwiseLowercase`): Perl's string
semantics, which Moses' scripts share. The score is BLEU-4 against the
closest reference length (ties: the shorter), smoothed as
:class:`~bleuprint.smoothing.ExpUnzeroed` says: every order with n-grams but no match is halved,
even in a segment without any match, which sacreBLEU scores 0. The corpus score sums the
segments' statistics; a segment's score (``-d 2``) is the sentence score.

>>> from bleuprint import BLEUScore
>>> bleu = BLEUScore.mteval_v13a(c=True)
>>> # no match at all: p1 = 1/(2*2), p2 = 1/(4*1), no 3- or 4-grams; BP = exp(1 - 4/2)
>>> round(bleu.compute("Many thanks", ["Thank you very much"]), 4)
0.1839
"""

from __future__ import annotations

from typing import Any

import attrs

from bleuprint import ngrams, smoothing, tokenizers
from bleuprint._signature import Part
from bleuprint.compat._perl import AsciiLowercase, CharwiseLowercase
from bleuprint.presets import Preset
from bleuprint.typing import Tokenizer

__all__ = [
    "PRESETS",
    "V13A_PRESET",
    "V14_PRESET",
    "InternationalUnescaped",
    "v13a_parts",
    "v14_parts",
]


def v13a_parts(c: bool = False) -> dict[str, Any]:
    """The parts that compute ``mteval-v13a.pl -b [-c]``.

    Args:
        c: the script's ``-c``: keep the case (else A to Z are lowercased).

    Returns:
        The engine's fields that differ from its defaults, by name.
    """
    tokenizer: Tokenizer = tokenizers.Mteval13a()
    return {
        **_scoring(),
        "tokenizer": tokenizer if c else AsciiLowercase(tokenizer),
    }


def v14_parts(c: bool = False, international_tokenization: bool = False) -> dict[str, Any]:
    """The parts that compute ``mteval-v14.pl -b [-c] [--international-tokenization]``.

    Args:
        c: the script's ``-c``: keep the case.
        international_tokenization: the script's ``--international-tokenization`` (which
            also lowercases every letter, with Perl's ``lc``, where ``c`` is not given).

    Returns:
        The engine's fields that differ from its defaults, by name.
    """
    if international_tokenization:
        intl: Tokenizer = InternationalUnescaped()
        tokenizer = intl if c else CharwiseLowercase(intl)
    else:
        plain: Tokenizer = tokenizers.Mteval13a()
        tokenizer = plain if c else AsciiLowercase(plain)
    return {**_scoring(), "tokenizer": tokenizer}


def _scoring() -> dict[str, Any]:
    return {"ngrams": ngrams.Contiguous(4), "smoothing": smoothing.ExpUnzeroed()}


_ENTITIES = (("&quot;", '"'), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"), ("&apos;", "'"))


@attrs.frozen
class InternationalUnescaped(Part, family="tok", name="mteval-intl"):
    """Quirk (``mteval-v14.pl --international-tokenization``): the escapes ``&quot; &amp;
    &lt; &gt; &apos;`` are undone one after the other, then the text is tokenized as
    sacreBLEU's ``intl`` (:class:`~bleuprint.tokenizers.International`), which leaves them.

    >>> InternationalUnescaped()("AT&amp;T said &quot;yes&quot;")
    ['AT', '&', 'T', 'said', '"', 'yes', '"']
    """

    def __call__(self, text: str) -> list[str]:
        if "&" in text:
            for escape, character in _ENTITIES:
                text = text.replace(escape, character)
        return tokenizers.International()(text)


# The scripts print "BLEU score = 0.2345": [0, 1], four decimals.
V13A_PRESET = Preset("mteval-v13a", "NIST mteval-v13a.pl -b", v13a_parts, decimals=4)
V14_PRESET = Preset("mteval-v14", "NIST mteval-v14.pl -b", v14_parts, decimals=4)
PRESETS = (V13A_PRESET, V14_PRESET)
"""The presets this module adds to :data:`bleuprint.presets.PRESETS`."""
