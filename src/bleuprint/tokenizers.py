"""Tokenizers: how a segment of text becomes tokens.

Each tokenizer is a frozen attrs class with a ``signature``; calling it on a string gives a list
of tokens. Token lists given to the engine are taken as they are and never re-tokenized.

>>> from bleuprint import tokenizers
>>> tokenizers.Whitespace()("The cat\\u00a0sat  on the mat.")
['The', 'cat', 'sat', 'on', 'the', 'mat.']
>>> tokenizers.Letters()("This is the wolf, isn't it?")
['this', 'is', 'the', 'wolf', 'isn', 't', 'it']
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import attrs
import regex

from bleuprint._signature import Part

__all__ = ["Letters", "Whitespace", "from_callable"]


@attrs.frozen
class Whitespace(Part, family="tok", name="whitespace"):
    """Split on runs of whitespace, as :meth:`str.split` does (every Unicode space character)."""

    def __call__(self, text: str) -> list[str]:
        return text.split()

    def tokenize_batch(self, texts: Sequence[str]) -> list[list[str]]:
        """The tokens of many texts, as calling on each gives them.

        >>> Whitespace().tokenize_batch(["a b", "", " c "])
        [['a', 'b'], [], ['c']]
        """
        return list(map(str.split, texts))


_LETTER_RUN = regex.compile(r"\p{L}[\p{L}\p{M}]*")


@attrs.frozen
class Letters(Part, family="tok", name="letters"):
    """Words are maximal runs of letters, compared without case.

    Anything that is not a letter (spaces, digits, punctuation, apostrophes) separates words.
    A letter is any Unicode letter; combining marks that follow a letter stay in its word, so
    a decomposed ``é`` does not split a word. Words are lowercased with :meth:`str.lower`.
    """

    def __call__(self, text: str) -> list[str]:
        return [word.lower() for word in _LETTER_RUN.findall(text)]


@attrs.frozen
class _CallableTokenizer:
    function: Callable[[str], list[str]]
    signature: str

    def __call__(self, text: str) -> list[str]:
        return list(self.function(text))


def from_callable(function: Callable[[str], list[str]], *, signature: str) -> _CallableTokenizer:
    """Wrap a plain function ``str -> list[str]`` as a tokenizer with the given signature.

    >>> shout = from_callable(lambda text: text.upper().split(), signature="upper")
    >>> shout("a b"), shout.signature
    (['A', 'B'], 'upper')
    """
    return _CallableTokenizer(function, signature)
