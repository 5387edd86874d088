"""Additive BLEU statistics: what counting produces and scoring consumes."""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from bleuprint.exceptions import InputError, StatisticsMismatchError

__all__ = ["BLEUStats"]


def _numbers(values: Iterable[float]) -> tuple[float, ...]:
    return tuple(values)


def _counts(values: Iterable[int]) -> tuple[int, ...]:
    return tuple(values)


@attrs.frozen
class BLEUStats:
    """The sufficient statistics of BLEU for one segment or many.

    ``matches[n-1]`` and ``totals[n-1]`` are the matched and the counted hypothesis n-grams of
    order ``n``; ``hypothesis_length`` and ``reference_length`` feed the brevity penalty;
    ``reference_counts`` is the set of reference counts seen per segment. ``counting`` is the
    signature of the counting configuration that made them: statistics add with ``+`` and
    ``sum()`` only when it agrees.

    Two fields serve definitions that read more than the sums (NLTK's): ``segments_without_ngrams``
    counts, per order, the segments whose hypothesis has no n-gram of that order (NLTK counts
    each such segment's denominator as 1), and :attr:`last_segment` gives the statistics of the
    final segment added (NLTK's corpus-level smoothing methods 5 to 7 read only that one).
    Neither takes part in equality.

    >>> a = BLEUStats((3, 1), (4, 3), 4, 4, segments=1, reference_counts=frozenset({1}))
    >>> b = BLEUStats((2, 0), (2, 1), 2, 3, segments=1, reference_counts=frozenset({1}))
    >>> total = sum([a, b])
    >>> total.matches, total.totals, total.hypothesis_length, total.segments
    ((5, 1), (6, 4), 6, 2)
    """

    matches: tuple[float, ...] = attrs.field(converter=_numbers)
    totals: tuple[float, ...] = attrs.field(converter=_numbers)
    hypothesis_length: float
    reference_length: float
    segments: int = 1
    reference_counts: frozenset[int] = frozenset()
    counting: str = ""
    segments_without_ngrams: tuple[int, ...] = attrs.field(default=(), converter=_counts, eq=False)
    final_segment: BLEUStats | None = attrs.field(default=None, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        if len(self.matches) != len(self.totals):
            raise InputError(
                f"matches has {len(self.matches)} orders but totals has {len(self.totals)}"
            )
        if not self.segments_without_ngrams:
            # Statistics built by hand: assume no segment lacks an order.
            object.__setattr__(self, "segments_without_ngrams", (0,) * len(self.totals))
        elif len(self.segments_without_ngrams) != len(self.totals):
            raise InputError(
                f"segments_without_ngrams has {len(self.segments_without_ngrams)} orders "
                f"but totals has {len(self.totals)}"
            )

    @property
    def last_segment(self) -> BLEUStats | None:
        """The statistics of the final segment added (itself for one segment; None for none)."""
        if self.final_segment is not None:
            return self.final_segment
        return self if self.segments == 1 else None

    @property
    def max_n(self) -> int:
        """The number of n-gram orders counted."""
        return len(self.totals)

    @classmethod
    def empty(cls, max_n: int, counting: str = "") -> BLEUStats:
        """Statistics of no segments at all: the neutral value of ``+``."""
        return cls((0,) * max_n, (0,) * max_n, 0, 0, segments=0, counting=counting)

    def __add__(self, other: BLEUStats) -> BLEUStats:
        if not isinstance(other, BLEUStats):
            return NotImplemented
        if other.counting != self.counting or other.max_n != self.max_n:
            raise StatisticsMismatchError(
                "cannot add statistics from different counting configurations: "
                f"{self.counting or '?'} with {self.max_n} orders and "
                f"{other.counting or '?'} with {other.max_n} orders"
            )
        return BLEUStats(
            tuple(a + b for a, b in zip(self.matches, other.matches)),
            tuple(a + b for a, b in zip(self.totals, other.totals)),
            self.hypothesis_length + other.hypothesis_length,
            self.reference_length + other.reference_length,
            segments=self.segments + other.segments,
            reference_counts=self.reference_counts | other.reference_counts,
            counting=self.counting,
            segments_without_ngrams=tuple(
                a + b for a, b in zip(self.segments_without_ngrams, other.segments_without_ngrams)
            ),
            final_segment=other.last_segment if other.segments else self.last_segment,
        )

    def __radd__(self, other: object) -> BLEUStats:
        # ``sum()`` starts from the integer 0.
        if other == 0:
            return self
        return NotImplemented
