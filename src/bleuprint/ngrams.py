"""N-gram extraction: which n-grams of a token sequence are counted.

>>> from bleuprint import ngrams
>>> counts = ngrams.Contiguous(2)(["the", "cat", "the", "cat"])
>>> counts[("the", "cat")], counts[("cat",)], sum(counts.values())
(2, 2, 7)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import attrs
import numpy as np

from bleuprint._signature import Part
from bleuprint._validators import ngram_order
from bleuprint.typing import IntArray, Ngram

__all__ = ["Contiguous", "order_totals"]


@attrs.frozen
class Contiguous(Part, family="ngram", name="contiguous"):
    """All runs of ``n`` adjacent tokens, for every ``n`` from 1 to ``max_n``, with repetition."""

    max_n: int = attrs.field(default=4, validator=ngram_order)

    def __call__(self, tokens: Sequence[str]) -> Counter[Ngram]:
        tokens = tuple(tokens)
        return Counter(
            tokens[start : start + n]
            for n in range(1, self.max_n + 1)
            for start in range(len(tokens) - n + 1)
        )

    def order_totals_array(self, lengths: IntArray) -> IntArray:
        """``len - n + 1`` n-grams of order n (none if shorter), for many lengths at once.

        >>> Contiguous(3).order_totals_array(np.array([0, 2, 5])).tolist()
        [[0, 0, 0], [2, 1, 0], [5, 4, 3]]
        """
        totals: IntArray = np.maximum(np.asarray(lengths)[:, None] - np.arange(self.max_n), 0)
        return totals


def order_totals(counts: Counter[Ngram], max_n: int) -> list[int]:
    """The number of n-grams of each order 1..max_n in ``counts``, counted with repetition."""
    totals = [0] * max_n
    for ngram, count in counts.items():
        totals[len(ngram) - 1] += count
    return totals
