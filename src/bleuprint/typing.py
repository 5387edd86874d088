"""The interfaces of the engine's parts, as :class:`typing.Protocol` classes, and of the engine
as the functions that take one see it.

A part is any object with a ``signature`` (a short text naming it and its parameters) and the
method of its family: a ``__call__`` for the counting families, a method on rows of statistics
for the scoring ones (a part written for one set of statistics at a time plugs in through its
family's ``FromScalar`` adapter).
bleuprint's own parts are small frozen attrs classes; a user's part need only fit the
protocol, no subclassing required:

>>> import attrs
>>> from bleuprint import BLEUScore
>>> @attrs.frozen
... class CommaTokenizer:
...     signature = "comma"
...     def __call__(self, text: str) -> list[str]:
...         return [word.strip() for word in text.split(",") if word.strip()]
>>> BLEUScore(tokenizer=CommaTokenizer()).compute("a, b, c, d", ["a,b,c,d"])
1.0

A part of bleuprint's own mixes in :class:`Part`, which registers its name so that a signature
parses back into it; a user's part may too. Besides the protocols, this module holds the type
aliases of segments and arrays, and two functions that ask a part through a protocol:
:func:`implements` (a cached ``isinstance``) and :func:`order_problem_of`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import (
    TYPE_CHECKING,
    Any,
    Protocol,
    TypeAlias,
    TypeGuard,
    TypeVar,
    runtime_checkable,
)

import numpy as np
import numpy.typing as npt

from bleuprint._signature import Part

if TYPE_CHECKING:
    from bleuprint._result import BLEUResult
    from bleuprint._segments import SegmentStats, SentenceScores
    from bleuprint._stats import BLEUStats

__all__ = [
    "Aggregation",
    "ArrayConvertible",
    "ArrayLengthMeasure",
    "ArrayMatcher",
    "ArrayNgramExtractor",
    "BatchTokenizer",
    "BoolArray",
    "BrevityPenalty",
    "CorpusSmoother",
    "FloatArray",
    "IntArray",
    "LengthMeasure",
    "Matcher",
    "Ngram",
    "NgramCounts",
    "NgramExtractor",
    "OrderConstrained",
    "PairwiseScorer",
    "Part",
    "Precision",
    "ReferenceChoosing",
    "ReferenceLength",
    "Segment",
    "Smoother",
    "StatsScorer",
    "TokenIdSequence",
    "Tokenizer",
    "Tokens",
    "Weights",
    "implements",
    "order_problem_of",
]

Tokens: TypeAlias = Sequence[str]
"""A tokenized segment."""

_IMPLEMENTS: dict[tuple[type, type], bool] = {}
_Part = TypeVar("_Part")


def implements(part: object, protocol: type[_Part]) -> TypeGuard[_Part]:
    """``isinstance(part, protocol)`` for a runtime protocol, known per class of part.

    Checking a runtime protocol takes tens of microseconds, much of one sentence's score; the
    members it looks for (methods and fields) are alike for every part of a class.
    """
    key = (type(part), protocol)
    fit = _IMPLEMENTS.get(key)
    if fit is None:
        fit = _IMPLEMENTS[key] = isinstance(part, protocol)
    return fit


class ArrayConvertible(Protocol):
    """What converts to a numpy array through ``__array__`` (torch and JAX tensors do)."""

    def __array__(self) -> Any: ...


# Not strings, as the aliases around are: annotations naming Segment are then evaluated in
# their own module, where these names may be missing (and autodoc could not read them).
TokenIdSequence: TypeAlias = Sequence[int] | npt.NDArray[np.integer[Any]] | ArrayConvertible
"""Token ids (a list of ints, an integer array, or a tensor)."""
Segment: TypeAlias = str | Sequence[str] | TokenIdSequence
"""A segment as the user gives it (raw text, a list of tokens taken as they are, token ids)."""
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


# -- Scoring parts: they work on rows of statistics -------------------------------------------
#
# Scoring parts see many sets of statistics at once, one row each (the segments of a corpus, or
# one corpus total as a single row: scoring one set of statistics is scoring one row). A part
# written for one set of statistics at a time plugs in through its family's adapter
# (``smoothing.FromScalar``, ``weights.FromScalar``, ``brevity.PenaltyFromScalar``,
# ``brevity.ReferenceLengthFromScalar``), which calls it once per row.

#: A numpy array of 64-bit integers (counts, lengths, token ids).
IntArray: TypeAlias = "npt.NDArray[np.int64]"
#: A numpy array of 64-bit floats (precisions, scores).
FloatArray: TypeAlias = "npt.NDArray[np.float64]"
#: A numpy array of booleans (masks).
BoolArray: TypeAlias = "npt.NDArray[np.bool_]"


@runtime_checkable
class ReferenceLength(Protocol):
    """Chooses the reference length each hypothesis is compared with.

    ``reference_lengths`` lists the lengths of every segment's references one segment after
    the other; ``reference_counts[i]`` (at least 1) says how many belong to segment ``i``.
    """

    @property
    def signature(self) -> str: ...

    def reference_length_array(
        self,
        hypothesis_lengths: IntArray,
        reference_lengths: IntArray,
        reference_counts: IntArray,
        /,
    ) -> npt.NDArray[np.int64 | np.float64]:
        """The reference length of each segment.

        Args:
            hypothesis_lengths: one per segment.
            reference_lengths: the lengths of every segment's references, segment after
                segment.
            reference_counts: how many references each segment has (at least 1).

        Returns:
            One length per segment (integers, or reals for a rule such as an average).
        """
        ...


@runtime_checkable
class BrevityPenalty(Protocol):
    """The factor that penalises each hypothesis for its length against its reference
    length."""

    @property
    def signature(self) -> str: ...

    def penalty_array(
        self, hypothesis_lengths: FloatArray, reference_lengths: FloatArray, /
    ) -> FloatArray:
        """The penalty of each pair of lengths.

        Args:
            hypothesis_lengths: one per row (a segment, or a corpus total).
            reference_lengths: the reference length each is compared with.

        Returns:
            One factor per row, which multiplies the geometric mean of the precisions.
        """
        ...


@runtime_checkable
class Smoother(Protocol):
    """Turns matches and totals into precisions: one row per row of statistics, one column
    per order scored (usually every order counted), and whether each is defined (a precision
    that is not, the result reports as 0; weights decide what it does to the score)."""

    @property
    def signature(self) -> str: ...

    def precisions_array(self, stats: SegmentStats, /) -> tuple[FloatArray, BoolArray]:
        """Every row's precisions.

        Args:
            stats: rows of statistics (a corpus total is a single row).

        Returns:
            The precisions, one row per row of ``stats`` and one column per order, and
            whether each is defined, of the same shape.

        Raises:
            InputError: where the definition cannot score the statistics (a smoother that
                takes the logarithm of a zero precision, for example).
        """
        ...


@runtime_checkable
class Weights(Protocol):
    """The weight of each order's log precision in the geometric mean, row by row (the shape
    of the precisions)."""

    @property
    def signature(self) -> str: ...

    def weights_array(
        self, stats: SegmentStats, precisions: FloatArray, defined: BoolArray, /
    ) -> FloatArray:
        """Every row's weights.

        Args:
            stats: rows of statistics.
            precisions: their precisions, as the smoother gave them.
            defined: where those precisions are defined.

        Returns:
            One weight per row and order, of the shape of ``precisions``.
        """
        ...


# -- The engine as the functions that take one see it ------------------------------------------
#
# Pairwise scores, MBR decoding, self-BLEU and the accumulator are written against what they
# call of an engine, not against BLEUScore (which lives in a layer above them).

_Counting_co = TypeVar("_Counting_co", covariant=True)


class PairwiseScorer(Protocol[_Counting_co]):
    """What pairwise scores, MBR decoding and self-BLEU need of an engine
    (:class:`~bleuprint.BLEUScore` is one): to count and score many segments, and its counting
    parts (of the type it is parameterised with, which they hand on to the kernel)."""

    @property
    def counting(self) -> _Counting_co: ...

    def count_segments(
        self, hypotheses: Sequence[Segment], references: Sequence[Sequence[Segment]], /
    ) -> SegmentStats: ...

    def score_segments(self, segments: SegmentStats, /) -> SentenceScores: ...


class StatsScorer(Protocol):
    """What an :class:`~bleuprint.Accumulator` needs of an engine
    (:class:`~bleuprint.BLEUScore` is one): to count segments, sum their statistics as its
    definition sums a corpus, score a sum, and describe itself (to pickle the accumulator, the
    engine must pickle too)."""

    def count_segments(
        self, hypotheses: Sequence[Segment], references: Sequence[Sequence[Segment]], /
    ) -> SegmentStats: ...

    def total(self, segments: SegmentStats, start: BLEUStats | None = None, /) -> BLEUStats: ...

    def empty_stats(self) -> BLEUStats: ...

    def score(self, stats: BLEUStats, /) -> BLEUResult: ...

    def to_dict(self) -> dict[str, str]: ...


# -- Optional protocols: what a part needs beyond its family's call ----------------------


@runtime_checkable
class OrderConstrained(Protocol):
    """A part that works only with some n-gram orders (e.g. as many weights as orders). The
    engine asks it when it is built, so a configuration that builds can score."""

    def order_problem(self, max_n: int, /) -> str | None:
        """Why the part cannot work with orders 1..max_n, or ``None`` if it can."""
        ...


def order_problem_of(part: object, max_n: int) -> str | None:
    """Why ``part`` cannot work with orders 1..max_n, where it is :class:`OrderConstrained`
    and says so; else ``None``."""
    return part.order_problem(max_n) if isinstance(part, OrderConstrained) else None


@runtime_checkable
class CorpusSmoother(Smoother, Protocol):
    """A smoother that reads more of a corpus than the sums of its segments' statistics (as
    NLTK's do): it says how a corpus is summed for it, and the engine's ``count`` and
    ``total`` sum that way."""

    def total(self, segments: SegmentStats, start: BLEUStats, /) -> BLEUStats:
        """The corpus statistics of ``segments`` added to ``start``."""
        ...


@runtime_checkable
class Aggregation(Protocol):
    """A scoring part whose corpus result is made from its segments' own results, not only
    from the sums of their statistics (ignite's macro average is the mean of sentence scores;
    corpus GLEU divides by a per-segment maximum). The engine's ``total`` sums a corpus with
    this ``total``, which receives every segment's sentence score, and its ``score`` passes
    every result, a segment's too, through ``corpus_result``."""

    def total(self, segments: SegmentStats, scores: FloatArray, start: BLEUStats, /) -> BLEUStats:
        """The corpus statistics of ``segments`` (whose sentence scores are ``scores``) added
        to ``start``."""
        ...

    def corpus_result(self, result: BLEUResult, /) -> BLEUResult:
        """The result of ``result.stats`` under this aggregation."""
        ...


@runtime_checkable
class ReferenceChoosing(Matcher, Protocol):
    """A matcher that counts each segment against one of its references only, which it
    chooses (NLTK's GLEU takes the reference with the best score): counting then takes the
    matches and the reference length of that reference alone."""

    def choose(self, hypothesis: NgramCounts, references: Sequence[NgramCounts], /) -> int:
        """The index of the reference that counts."""
        ...


# -- Optional array protocols for counting: the fast path ------------------------------------
#
# A counting part that also fits one of these lets the kernel count for it, a whole batch of
# segments or one (``bleuprint._counting``). Every array method must give exactly what calling
# the part once per segment gives; an engine with any counting part lacking its protocol calls
# its parts once per segment.


@runtime_checkable
class BatchTokenizer(Tokenizer, Protocol):
    """A tokenizer that also tokenizes many segments in one call (faster than one by one).
    The token lists, one per text and in order, may come one at a time (an iterator)."""

    def tokenize_batch(self, texts: Sequence[str], /) -> Iterable[list[str]]: ...


@runtime_checkable
class ArrayNgramExtractor(NgramExtractor, Protocol):
    """An extractor whose n-grams of order n are the runs of n adjacent tokens, which the fast
    path finds on arrays of token ids; it gives the totals of many segments at once."""

    def order_totals_array(self, lengths: IntArray, /) -> IntArray:
        """The number of n-grams of each order (columns) in sequences of these lengths (rows)."""
        ...


@runtime_checkable
class ArrayMatcher(Matcher, Protocol):
    """A matcher whose credit for one distinct hypothesis n-gram depends only on its count in
    the hypothesis and its largest count in any one reference, and is 0 when either is 0."""

    def credit_array(
        self, hypothesis_counts: IntArray, reference_counts: IntArray, /
    ) -> IntArray: ...


@runtime_checkable
class ArrayLengthMeasure(LengthMeasure, Protocol):
    """A length measure for many segments at once (``texts`` is ``None`` for token input)."""

    def lengths_array(self, texts: Sequence[str] | None, token_counts: IntArray, /) -> IntArray: ...
