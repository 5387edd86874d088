"""Perl's string semantics, as the scripts of Moses (``multi-bleu.perl``,
``multi-bleu-detok.perl``) and NIST (``mteval-v13a.pl``, ``mteval-v14.pl``) apply them: what
their tokens are, and how they lowercase.

A script that reads its input as bytes splits on ASCII whitespace only
(:class:`AsciiWhitespace`) and lowercases the letters A to Z only (:class:`AsciiLowercase`);
one that reads UTF-8 lowercases with ``lc``, one character at a time
(:class:`CharwiseLowercase`). Each of them differs from Python's :meth:`str.split` or
:meth:`str.lower` on some text, which is why they are parts of their own.
"""

from __future__ import annotations

import re

import attrs

from bleuprint._signature import Part
from bleuprint.typing import Tokenizer

__all__ = ["AsciiLowercase", "AsciiWhitespace", "CharwiseLowercase"]

# Perl's ``split`` on a string read as bytes: space, tab, line feed, vertical tab, form feed,
# carriage return. Nothing else splits (a no-break space, U+2009, U+3000 join their neighbours).
_ASCII_WHITESPACE = re.compile("[ \t\n\v\f\r]+")
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


@attrs.frozen
class AsciiWhitespace(Part, family="tok", name="ascii-whitespace"):
    """Split on runs of ASCII whitespace only (space, tab, ``\\n``, ``\\v``, ``\\f``, ``\\r``).

    What a script that reads its input as bytes sees: a no-break space or any other Unicode
    space is part of a token, where :class:`~bleuprint.tokenizers.Whitespace` splits on it.

    >>> AsciiWhitespace()("the cat\\u00a0sat\\ton the\\u3000mat")
    ['the', 'cat\\xa0sat', 'on', 'the\\u3000mat']
    """

    def __call__(self, text: str) -> list[str]:
        return [token for token in _ASCII_WHITESPACE.split(text) if token]


@attrs.frozen
class AsciiLowercase(Part, family="tok", name="ascii-lowercase"):
    """Lowercase the letters A to Z only, then tokenize with ``inner``: ``É``, ``Ä`` or ``Д``
    keep their case (Perl's ``lc`` on bytes, ``tr/[A-Z]/[a-z]/``).

    Args:
        inner: the tokenizer of the lowercased text.

    >>> AsciiLowercase(AsciiWhitespace())("École ÉTÉ Cat")
    ['École', 'ÉtÉ', 'cat']
    """

    inner: Tokenizer

    def __call__(self, text: str) -> list[str]:
        return self.inner(text.translate(_ASCII_LOWER))


@attrs.frozen
class CharwiseLowercase(Part, family="tok", name="charwise-lowercase"):
    """Lowercase each character on its own, then tokenize with ``inner``: Perl's ``lc``.

    :meth:`str.lower` applies Unicode's one context rule, the final sigma (a capital sigma
    that ends a word becomes the final small sigma); a character on its own has no context, so
    here a capital sigma always becomes the medial small sigma. Every other character
    lowercases as :meth:`str.lower` does (``İ`` is two code points).

    Args:
        inner: the tokenizer of the lowercased text.

    >>> from bleuprint import tokenizers
    >>> CharwiseLowercase(tokenizers.Whitespace())("ΟΔΟΣ İ")
    ['οδοσ', 'i̇']
    """

    inner: Tokenizer

    def __call__(self, text: str) -> list[str]:
        lowered = text.lower()
        if "Σ" in text:  # the only character whose lowercase depends on its context
            lowered = "".join(character.lower() for character in text)
        return self.inner(lowered)
