"""The interfaces of the engine's parts, as :class:`typing.Protocol` classes.

A part is any object with a ``signature`` (a short text naming it and its parameters) and the
``__call__`` of its family. bleuprint's own parts are small frozen attrs classes; a user's part
need only fit the protocol, no subclassing required:

>>> import attrs
>>> from bleuprint import BLEUScore
>>> @attrs.frozen
... class CommaTokenizer:
...     signature = "comma"
...     def __call__(self, text: str) -> list[str]:
...         return [word.strip() for word in text.split(",") if word.strip()]
>>> BLEUScore(tokenizer=CommaTokenizer()).compute("a, b, c, d", ["a,b,c,d"])
1.0
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Protocol, TypeAlias, runtime_checkable

if TYPE_CHECKING:
    from bleuprint._stats import BLEUStats

Tokens: TypeAlias = Sequence[str]
"""A tokenized segment."""
Segment: TypeAlias = "str | Sequence[str]"
"""A segment as the user gives it: raw text, or a list of tokens taken as they are."""
Ngram: TypeAlias = tuple[str, ...]
NgramCounts: TypeAlias = Mapping[Ngram, int]
"""How often each n-gram of every counted order occurs in one segment."""
Precision: TypeAlias = "float | None"
"""A per-order precision in [0, 1], or ``None`` where the order is undefined (no n-grams)."""


@runtime_checkable
class Tokenizer(Protocol):
    """Turns one segment of text into tokens."""

    @property
    def signature(self) -> str: ...

    def __call__(self, text: str, /) -> list[str]: ...


@runtime_checkable
class NgramExtractor(Protocol):
    """Counts the n-grams of orders 1 to ``max_n`` in a token sequence."""

    @property
    def max_n(self) -> int: ...

    @property
    def signature(self) -> str: ...

    def __call__(self, tokens: Tokens, /) -> Counter[Ngram]: ...


@runtime_checkable
class Matcher(Protocol):
    """Credits the hypothesis n-grams against the references: matches per order."""

    @property
    def signature(self) -> str: ...

    def __call__(
        self, hypothesis: NgramCounts, references: Sequence[NgramCounts], max_n: int, /
    ) -> list[int]: ...


@runtime_checkable
class LengthMeasure(Protocol):
    """The length of a segment for the brevity penalty: tokens, characters, ..."""

    @property
    def signature(self) -> str: ...

    def __call__(self, text: str | None, tokens: Tokens, /) -> int: ...


@runtime_checkable
class ReferenceLength(Protocol):
    """Chooses the reference length one hypothesis is compared with."""

    @property
    def signature(self) -> str: ...

    def __call__(self, hypothesis_length: int, reference_lengths: Sequence[int], /) -> float: ...


@runtime_checkable
class BrevityPenalty(Protocol):
    """The factor that penalises a hypothesis for its length against the reference length."""

    @property
    def signature(self) -> str: ...

    def __call__(self, hypothesis_length: float, reference_length: float, /) -> float: ...


@runtime_checkable
class Smoother(Protocol):
    """Turns matches and totals into per-order precisions (``None`` where undefined)."""

    @property
    def signature(self) -> str: ...

    def __call__(self, stats: BLEUStats, /) -> list[Precision]: ...


@runtime_checkable
class Weights(Protocol):
    """The weight of each order's log precision in the geometric mean."""

    @property
    def signature(self) -> str: ...

    def __call__(self, stats: BLEUStats, precisions: Sequence[Precision], /) -> list[float]: ...
