"""fast-bleu 0.0.90's ``BLEU`` (sentence BLEU of each hypothesis).

NLTK's sentence BLEU with ``method1`` (``smoothing_func=1``, the default) or without smoothing
(``smoothing_func=0``, where an unmatched order gives 0, not NLTK's tiny number). As fast-bleu
requires, ``weights`` has at least 2 entries and sums to 1. Quirk (:class:`SpaceJoined`):
n-grams are compared as their tokens joined by spaces.

>>> from bleuprint import BLEUScore
>>> bleu = BLEUScore.fast_bleu(weights=(0.5, 0.5))
>>> round(bleu.compute(["the", "cat", "is", "here"], [["the", "cat", "was", "here"]]), 12)
0.5
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from typing import Any

import attrs

from bleuprint import matching, ngrams, smoothing
from bleuprint import weights as weight_parts
from bleuprint._signature import Part
from bleuprint.compat.nltk import NLTKExponential, NLTKMethod1
from bleuprint.exceptions import ConfigurationError, counted
from bleuprint.presets import Preset
from bleuprint.typing import Ngram, NgramCounts, Smoother

__all__ = ["PRESET", "PRESETS", "SpaceJoined", "parts"]


def parts(
    weights: Sequence[float] = (0.25, 0.25, 0.25, 0.25), smoothing_func: int = 1
) -> dict[str, Any]:
    """The parts that compute fast-bleu's ``BLEU`` with these arguments."""
    if len(weights) < 2:
        raise ConfigurationError(
            f"fast-bleu scores 2 or more orders, got {counted(len(weights), 'weight')}"
        )
    if not math.isclose(math.fsum(weights), 1.0, rel_tol=0, abs_tol=1e-12):
        raise ConfigurationError(f"fast-bleu's weights must sum to 1, got {tuple(weights)}")
    methods: dict[int, Smoother] = {0: smoothing.NoSmoothing(), 1: NLTKMethod1()}
    if smoothing_func not in methods:
        raise ConfigurationError(f"smoothing_func must be 0 or 1, got {smoothing_func!r}")
    return {
        "ngrams": ngrams.Contiguous(len(weights)),
        "matching": SpaceJoined(),
        "brevity_penalty": NLTKExponential(),
        "smoothing": methods[smoothing_func],
        "weights": weight_parts.Explicit(weights),
    }


@attrs.frozen
class SpaceJoined(Part, family="match", name="space-joined"):
    """Quirk (fast-bleu): clipped matching of n-grams compared as their tokens joined by a
    space, so ``("a", "b c")`` and ``("a b", "c")`` are the same bigram.

    >>> from collections import Counter
    >>> from bleuprint import matching
    >>> hypothesis, reference = Counter({("a", "b c"): 1}), Counter({("a b", "c"): 1})
    >>> SpaceJoined()(hypothesis, [reference], 2), matching.Clipped()(hypothesis, [reference], 2)
    ([0, 1], [0, 0])
    """

    def __call__(
        self, hypothesis: NgramCounts, references: Sequence[NgramCounts], max_n: int
    ) -> list[int]:
        return matching.Clipped()(
            _joined(hypothesis), [_joined(reference) for reference in references], max_n
        )


def _joined(counts: NgramCounts) -> Counter[Ngram]:
    """The counts re-keyed by joined text; the key keeps its order as its length."""
    joined: Counter[Ngram] = Counter()
    for ngram, count in counts.items():
        joined[(" ".join(ngram),) * len(ngram)] += count
    return joined


PRESET = Preset("fast-bleu", "fast-bleu 0.0.90 BLEU (sentence level)", parts)
PRESETS = (PRESET,)
"""The presets this module adds to :data:`bleuprint.presets.PRESETS`."""
