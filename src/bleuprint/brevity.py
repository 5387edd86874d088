"""Lengths, reference-length choice and brevity penalties.

Three small families meet here. A *length measure* says what the length of a segment is
(tokens or characters); a *reference length* rule picks the one reference length a hypothesis
is compared with; a *brevity penalty* turns the two lengths into a factor.

Reference lengths and penalties work on many segments (or corpora) at once, see
:class:`bleuprint.typing.ReferenceLength` and :class:`bleuprint.typing.BrevityPenalty`;
:func:`reference_length` and :func:`penalty` give those of one:

>>> from bleuprint import brevity
>>> brevity.reference_length(brevity.Closest(), 5, [3, 7, 9])  # 3 and 7 tie: the shorter wins
3
>>> round(brevity.penalty(brevity.Exponential(), 3, 6), 4)
0.3679
>>> brevity.penalty(brevity.Ratio(), 12, 10), brevity.penalty(brevity.Ratio(capped=True), 12, 10)
(1.2, 1.0)

Rules and penalties written for one hypothesis at a time, or plain functions, plug in through
:class:`ReferenceLengthFromScalar` and :class:`PenaltyFromScalar`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import attrs
import numpy as np
import numpy.typing as npt

from bleuprint._exact import exactly
from bleuprint._scalar_parts import ScalarPartAdapter
from bleuprint._signature import Part
from bleuprint._validators import boolean, one_of
from bleuprint.exceptions import InputError
from bleuprint.typing import BrevityPenalty, FloatArray, IntArray, ReferenceLength

__all__ = [
    "Average",
    "Characters",
    "Closest",
    "Exponential",
    "NoPenalty",
    "PenaltyFromScalar",
    "Ratio",
    "ReferenceLengthFromScalar",
    "Shortest",
    "Tokens",
    "penalty",
    "reference_length",
]


def reference_length(
    rule: ReferenceLength, hypothesis_length: int, reference_lengths: Sequence[int]
) -> float:
    """The reference length ``rule`` picks for one hypothesis.

    Args:
        rule: any reference-length rule (a part with ``reference_length_array``).
        hypothesis_length: the hypothesis's length.
        reference_lengths: the lengths of its references (at least one).

    Returns:
        The length the hypothesis is compared with (a real number for :class:`Average`).
    """
    picked: float = rule.reference_length_array(
        np.array([hypothesis_length]),
        np.array(reference_lengths, np.int64),
        np.array([len(reference_lengths)]),
    )[0].item()
    return picked


def penalty(part: BrevityPenalty, hypothesis_length: float, reference_length: float) -> float:
    """The brevity penalty of one pair of lengths.

    Args:
        part: any brevity penalty (a part with ``penalty_array``).
        hypothesis_length: the hypothesis's length ``c``.
        reference_length: the reference length ``r`` it is compared with.

    Returns:
        The factor the geometric mean of the precisions is multiplied by.
    """
    factor: float = part.penalty_array(
        np.array([hypothesis_length], np.float64), np.array([reference_length], np.float64)
    )[0].item()
    return factor


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

    Args:
        ties: ``"shorter"`` or ``"first"``.

    Raises:
        ConfigurationError: ``ties`` is neither.
    """

    ties: str = attrs.field(default="shorter", validator=one_of(("shorter", "first")))

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
        if (reference_counts == 1).all():  # one reference each: it is the closest
            return reference_lengths
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
        if not short.any():  # no masks to build (a corpus, or a long enough segment)
            return penalties
        penalties[short & (hypothesis_lengths <= 0)] = 0.0
        scaled = short & (hypothesis_lengths > 0)
        exponents = 1 - reference_lengths[scaled] / hypothesis_lengths[scaled]
        penalties[scaled] = exactly(math.exp, exponents)
        return penalties


@attrs.frozen
class Ratio(Part, family="bp", name="ratio"):
    """The length ratio ``c / r`` itself, uncapped unless ``capped=True`` (then ``min(1, c/r)``).

    An empty reference (``r = 0``) gives 0.

    Args:
        capped: whether the ratio is capped at 1.

    Raises:
        ConfigurationError: ``capped`` is not ``True`` or ``False``.
    """

    capped: bool = attrs.field(default=False, validator=boolean)

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

    >>> penalty(NoPenalty(), 3, 6)
    1.0
    """

    def penalty_array(
        self, hypothesis_lengths: FloatArray, reference_lengths: FloatArray
    ) -> FloatArray:
        """The penalty of many pairs of lengths at once: ones."""
        return np.ones(len(hypothesis_lengths))


# -- parts written for one hypothesis at a time -------------------------------------------


@attrs.frozen
class ReferenceLengthFromScalar(ScalarPartAdapter[Callable[[int, Sequence[int]], float]]):
    """A reference-length rule written for one hypothesis at a time, on many segments: it calls
    ``part`` once per segment.

    Args:
        part: a callable (a part, or a plain function) taking a hypothesis length and the
            lengths of its references and returning the one it is compared with.
        signature: the signature results name it by; by default ``part.signature``.

    Raises:
        ConfigurationError: ``part`` is not callable, or has no signature and none is given.

    >>> longest = ReferenceLengthFromScalar(lambda c, lengths: max(lengths), signature="longest")
    >>> reference_length(longest, 5, [3, 7, 9])
    9
    """

    def reference_length_array(
        self,
        hypothesis_lengths: IntArray,
        reference_lengths: IntArray,
        reference_counts: IntArray,
    ) -> npt.NDArray[np.int64 | np.float64]:
        """The part's reference length of each segment."""
        ends = np.cumsum(reference_counts).tolist()
        lengths = reference_lengths.tolist()
        picked = [
            self.part(hypothesis, lengths[end - count : end])
            for hypothesis, end, count in zip(
                hypothesis_lengths.tolist(), ends, reference_counts.tolist()
            )
        ]
        return np.array(picked) if picked else np.zeros(0, np.int64)


@attrs.frozen
class PenaltyFromScalar(ScalarPartAdapter[Callable[[float, float], float]]):
    """A brevity penalty written for one pair of lengths at a time, on many pairs: it calls
    ``part`` once per pair.

    Args:
        part: a callable (a part, or a plain function) taking a hypothesis length ``c`` and a
            reference length ``r`` and returning the penalty.
        signature: the signature results name it by; by default ``part.signature``.

    Raises:
        ConfigurationError: ``part`` is not callable, or has no signature and none is given.

    >>> linear = PenaltyFromScalar(lambda c, r: min(1.0, c / r), signature="linear")
    >>> penalty(linear, 3, 6)
    0.5
    """

    def penalty_array(
        self, hypothesis_lengths: FloatArray, reference_lengths: FloatArray
    ) -> FloatArray:
        """The part's penalty of each pair."""
        pairs = zip(hypothesis_lengths.tolist(), reference_lengths.tolist())
        return np.array([self.part(c, r) for c, r in pairs], np.float64)
