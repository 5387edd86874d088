"""Lengths, reference-length choice and brevity penalties.

Three small families meet here. A *length measure* says what the length of a segment is
(tokens or characters); a *reference length* rule picks the one reference length a hypothesis
is compared with; a *brevity penalty* turns the two lengths into a factor.

>>> from bleuprint import brevity
>>> brevity.Closest()(5, [3, 7, 9])  # 3 and 7 are equally close: the shorter wins
3
>>> round(brevity.Exponential()(3, 6), 4)
0.3679
>>> brevity.Ratio()(12, 10), brevity.Ratio(capped=True)(12, 10)
(1.2, 1.0)
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import attrs
import numpy as np

from bleuprint._exact import exactly
from bleuprint._signature import Part
from bleuprint._validators import boolean, one_of
from bleuprint.exceptions import InputError
from bleuprint.typing import FloatArray, IntArray

__all__ = [
    "Average",
    "Characters",
    "Closest",
    "Exponential",
    "NoPenalty",
    "Ratio",
    "Shortest",
    "Tokens",
]


@attrs.frozen
class Tokens(Part, family="len", name="tokens"):
    """A segment's length is its number of tokens."""

    def __call__(self, text: str | None, tokens: Sequence[str]) -> int:
        return len(tokens)

    def lengths_array(self, texts: Sequence[str] | None, token_counts: IntArray) -> IntArray:
        """The lengths of many segments: their token counts."""
        return token_counts


_CHARACTERS_NEED_TEXT = "a length in characters needs the segment as text, not as tokens"


@attrs.frozen
class Characters(Part, family="len", name="chars"):
    """A segment's length is the number of characters of its text as given."""

    def __call__(self, text: str | None, tokens: Sequence[str]) -> int:
        if text is None:
            raise InputError(_CHARACTERS_NEED_TEXT)
        return len(text)

    def lengths_array(self, texts: Sequence[str] | None, token_counts: IntArray) -> IntArray:
        """The lengths of many segments in characters."""
        if texts is None:
            raise InputError(_CHARACTERS_NEED_TEXT)
        return np.fromiter(map(len, texts), np.int64, len(texts))


@attrs.frozen
class Closest(Part, family="ref", name="closest"):
    """The reference length closest to the hypothesis length.

    ``ties="shorter"`` (Papineni et al., sacreBLEU, NLTK) breaks a tie between a shorter and a
    longer reference towards the shorter; ``ties="first"`` keeps the first listed.
    """

    ties: str = attrs.field(default="shorter", validator=one_of(("shorter", "first")))

    def __call__(self, hypothesis_length: int, reference_lengths: Sequence[int]) -> float:
        def distance(length: int) -> tuple[int, int]:
            return abs(length - hypothesis_length), (length if self.ties == "shorter" else 0)

        return min(reference_lengths, key=distance)

    def reference_length_array(
        self,
        hypothesis_lengths: IntArray,
        reference_lengths: IntArray,
        reference_counts: IntArray,
    ) -> IntArray:
        """The closest reference length of many segments at once.

        >>> hypotheses, references = np.array([5, 5]), np.array([3, 7, 7, 3])
        >>> counts = np.array([2, 2])  # two references each
        >>> Closest().reference_length_array(hypotheses, references, counts).tolist()
        [3, 3]
        >>> Closest("first").reference_length_array(hypotheses, references, counts).tolist()
        [3, 7]
        """
        segment, first = _segment_layout(reference_counts)
        distance = np.abs(reference_lengths - hypothesis_lengths[segment])
        is_closest = distance == np.minimum.reduceat(distance, first)[segment]
        if self.ties == "shorter":
            closest_lengths = np.where(is_closest, reference_lengths, reference_lengths.max())
            return np.minimum.reduceat(closest_lengths, first)
        index = np.where(is_closest, np.arange(len(segment)), len(segment))
        return reference_lengths[np.minimum.reduceat(index, first)]


def _segment_layout(reference_counts: IntArray) -> tuple[IntArray, IntArray]:
    """For references listed segment after segment: each one's segment, and where each
    segment's references start."""
    segment = np.repeat(np.arange(len(reference_counts)), reference_counts)
    return segment, np.cumsum(reference_counts) - reference_counts


@attrs.frozen
class Shortest(Part, family="ref", name="shortest"):
    """The shortest reference length (the original IBM BLEU script)."""

    def __call__(self, hypothesis_length: int, reference_lengths: Sequence[int]) -> float:
        return min(reference_lengths)

    def reference_length_array(
        self,
        hypothesis_lengths: IntArray,
        reference_lengths: IntArray,
        reference_counts: IntArray,
    ) -> IntArray:
        """The shortest reference length of many segments at once."""
        return np.minimum.reduceat(reference_lengths, _segment_layout(reference_counts)[1])


@attrs.frozen
class Average(Part, family="ref", name="average"):
    """The mean of the reference lengths (a real number)."""

    def __call__(self, hypothesis_length: int, reference_lengths: Sequence[int]) -> float:
        return sum(reference_lengths) / len(reference_lengths)

    def reference_length_array(
        self,
        hypothesis_lengths: IntArray,
        reference_lengths: IntArray,
        reference_counts: IntArray,
    ) -> FloatArray:
        """The mean reference length of many segments at once (whole-number sums, then one
        division, as for one segment)."""
        sums = np.add.reduceat(reference_lengths, _segment_layout(reference_counts)[1])
        return np.asarray(sums / reference_counts, np.float64)


@attrs.frozen
class Exponential(Part, family="bp", name="exp"):
    """Papineni et al.: 1 when ``c >= r``, else ``exp(1 - r / c)``; 0 for an empty hypothesis."""

    def __call__(self, hypothesis_length: float, reference_length: float) -> float:
        if hypothesis_length >= reference_length:
            return 1.0
        if hypothesis_length <= 0:
            return 0.0
        return math.exp(1 - reference_length / hypothesis_length)

    def penalty_array(
        self, hypothesis_lengths: FloatArray, reference_lengths: FloatArray
    ) -> FloatArray:
        """The penalty of many pairs of lengths at once.

        >>> penalties = Exponential().penalty_array(np.array([3.0, 6, 0]), np.array([6.0, 3, 2]))
        >>> penalties.round(4).tolist()
        [0.3679, 1.0, 0.0]
        """
        penalties = np.ones(len(hypothesis_lengths))
        short = hypothesis_lengths < reference_lengths
        penalties[short & (hypothesis_lengths <= 0)] = 0.0
        scaled = short & (hypothesis_lengths > 0)
        exponents = 1 - reference_lengths[scaled] / hypothesis_lengths[scaled]
        penalties[scaled] = exactly(math.exp, exponents)
        return penalties


@attrs.frozen
class Ratio(Part, family="bp", name="ratio"):
    """The length ratio ``c / r`` itself, uncapped unless ``capped=True`` (then ``min(1, c/r)``).

    An empty reference (``r = 0``) gives 0.
    """

    capped: bool = attrs.field(default=False, validator=boolean)

    def __call__(self, hypothesis_length: float, reference_length: float) -> float:
        if reference_length <= 0:
            return 0.0
        ratio = hypothesis_length / reference_length
        return min(ratio, 1.0) if self.capped else ratio

    def penalty_array(
        self, hypothesis_lengths: FloatArray, reference_lengths: FloatArray
    ) -> FloatArray:
        """The penalty of many pairs of lengths at once."""
        positive = reference_lengths > 0
        ratios = np.zeros(len(hypothesis_lengths))
        ratios[positive] = hypothesis_lengths[positive] / reference_lengths[positive]
        return np.minimum(ratios, 1.0) if self.capped else ratios


@attrs.frozen
class NoPenalty(Part, family="bp", name="no-penalty"):
    """No brevity penalty: the factor is always 1 (tensor2tensor's ``use_bp=False``).

    >>> NoPenalty()(3, 6)
    1.0
    """

    def __call__(self, hypothesis_length: float, reference_length: float) -> float:
        return 1.0

    def penalty_array(
        self, hypothesis_lengths: FloatArray, reference_lengths: FloatArray
    ) -> FloatArray:
        """The penalty of many pairs of lengths at once: ones."""
        return np.ones(len(hypothesis_lengths))
