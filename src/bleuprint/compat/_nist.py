"""The NIST score (Doddington, 2002), what its definitions share: each matched n-gram counts
the information it carries in the references, the orders' precisions are added (an
arithmetic mean, times the number of orders), and a length penalty forgives small
differences in length. The definitions in circulation differ in how they choose a reference
and sum lengths; each is written in its peer's module (NLTK's: :func:`bleuprint.compat.nltk.nist`).

>>> from collections import Counter
>>> weights = information_weights(Counter({("a",): 2, ("b",): 1, ("a", "b"): 1}), 3)
>>> [round(weights[ngram], 6) for ngram in [("a",), ("b",), ("a", "b")]]
[0.584963, 1.584963, 1.0]
>>> length_penalty(1.0), round(length_penalty(2 / 3), 12)
(1.0, 0.5)
"""

from __future__ import annotations

import math
from collections import Counter

import attrs

from bleuprint.typing import Ngram

__all__ = ["NISTResult", "information_weights", "length_penalty"]


def information_weights(reference_counts: Counter[Ngram], total_words: int) -> dict[Ngram, float]:
    """Each reference n-gram's information in bits, ``log2(count(w1..wn-1) / count(w1..wn))``
    over all the references, the prefix of a unigram counting every reference word.

    (Computed as ``math.log(x, 2)`` of the ratio, as NLTK does, so that the bits agree.)
    """
    weights = {}
    for ngram, count in reference_counts.items():
        prefix = ngram[:-1]
        above = reference_counts[prefix] if prefix and prefix in reference_counts else total_words
        weights[ngram] = math.log(above / count, 2)
    return weights


# The penalty's beta: a hypothesis 2/3 as long as its references is penalized by half.
_SHORT_RATIO, _ITS_PENALTY = 1.5, 0.5


def length_penalty(ratio: float) -> float:
    """``exp(beta * log(ratio)**2)`` for a length ratio (hypothesis over references) below 1,
    with ``beta = log(0.5) / log(1.5)**2``; 1 from a ratio of 1 up, 0 at 0."""
    if 0 < ratio < 1:
        beta = math.log(_ITS_PENALTY) / math.log(_SHORT_RATIO) ** 2
        return math.exp(beta * math.log(ratio) ** 2)
    return max(min(ratio, 1.0), 0.0)


@attrs.frozen
class NISTResult:
    """A NIST score and what it is made of.

    ``score`` is the sum of ``precisions`` (each order's matched information per hypothesis
    n-gram) times ``penalty``, the length penalty of ``ratio`` (the hypotheses' length over
    the references', as the definition measures them). ``name`` is what it is printed as,
    ``signature`` the definition and its options.
    """

    score: float
    precisions: tuple[float, ...]
    penalty: float
    ratio: float
    name: str
    signature: str

    def __float__(self) -> float:
        return self.score

    def __str__(self) -> str:
        orders = "/".join(f"{precision:.4f}" for precision in self.precisions)
        return (
            f"{self.name} = {self.score:.4f} {orders} "
            f"(penalty = {self.penalty:.4f} ratio = {self.ratio:.4f})"
        )
