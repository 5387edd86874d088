"""Matching: how hypothesis n-grams are credited against the references.

>>> from collections import Counter
>>> from bleuprint import matching
>>> hypothesis = Counter({("the",): 3, ("cat",): 1})
>>> references = [Counter({("the",): 2, ("cat",): 1}), Counter({("the",): 1})]
>>> matching.Clipped()(hypothesis, references, 1)
[3]
>>> matching.Distinct()(hypothesis, references, 1)
[2]
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs
import numpy as np

from bleuprint._signature import Part
from bleuprint.typing import IntArray, Ngram, NgramCounts

__all__ = ["Clipped", "Distinct"]


@attrs.frozen
class Clipped(Part, family="match", name="clipped"):
    """Papineni et al.'s modified precision: each n-gram is credited at most as often as it
    occurs in the one reference where it occurs most."""

    def __call__(
        self, hypothesis: NgramCounts, references: Sequence[NgramCounts], max_n: int
    ) -> list[int]:
        ceilings = _most_in_one_reference(references)
        matches = [0] * max_n
        for ngram, count in hypothesis.items():
            most = ceilings.get(ngram)
            if most:
                matches[len(ngram) - 1] += min(count, most)
        return matches

    def credit_array(self, hypothesis_counts: IntArray, reference_counts: IntArray) -> IntArray:
        """The credit of many distinct n-grams: ``min(hypothesis count, reference count)``."""
        return np.minimum(hypothesis_counts, reference_counts)


def _most_in_one_reference(references: Sequence[NgramCounts]) -> NgramCounts:
    """How often each n-gram occurs in the reference where it occurs most.

    Merged once per segment, so each hypothesis n-gram is looked up once, not once per
    reference.
    """
    if len(references) == 1:
        return references[0]
    ceilings: dict[Ngram, int] = {}
    for reference in references:
        for ngram, count in reference.items():
            if count > ceilings.get(ngram, 0):
                ceilings[ngram] = count
    return ceilings


@attrs.frozen
class Distinct(Part, family="match", name="distinct"):
    """Set overlap: the number of distinct hypothesis n-grams found in any reference.

    Repetitions count once, on both sides; the totals they are divided by still count the
    hypothesis n-grams with repetition (as the Russian contest statement defines it).
    """

    def __call__(
        self, hypothesis: NgramCounts, references: Sequence[NgramCounts], max_n: int
    ) -> list[int]:
        matches = [0] * max_n
        for ngram in hypothesis:
            if any(ngram in reference for reference in references):
                matches[len(ngram) - 1] += 1
        return matches

    def credit_array(self, hypothesis_counts: IntArray, reference_counts: IntArray) -> IntArray:
        """The credit of many distinct n-grams: 1 where both counts are positive, else 0."""
        return ((hypothesis_counts > 0) & (reference_counts > 0)).astype(np.int64)
