"""pytorch-ignite 0.5.5's ``ignite.metrics.Bleu``.

Whitespace tokens, clipped matches, the closest reference length (ties: the shorter), the
exponential brevity penalty and uniform weights, as NLTK; the score is 0 where no unigram
matches, and, without smoothing, where any order has no match. ``average="macro"`` (ignite's
default) makes the corpus score the mean of the sentence scores
(:class:`~bleuprint.aggregation.SentenceMean`); ``"micro"`` scores the summed statistics.
Its four smoothings are :class:`IgniteSmoothing` (quirk: ``nltk_smooth2`` is NLTK's
``method2`` for one sentence but not for a corpus, whose totals ignite floors at 1 where NLTK
counts each segment without n-grams of an order as 1).

>>> from bleuprint import BLEUScore
>>> bleu = BLEUScore.ignite(smooth="smooth1")
>>> round(bleu.compute("the the the the the the the",
...                    ["the cat is on the mat", "there is a cat on the mat"]), 4)
0.0393
>>> hypotheses, references = ["a b c d", "x a y b"], [["a b c d"], ["a b c d"]]
>>> BLEUScore.ignite(ngram=2).corpus_score(hypotheses, references).score  # (1 + 0) / 2
0.5
>>> micro = BLEUScore.ignite(ngram=2, average="micro")
>>> round(micro.corpus_score(hypotheses, references).score, 4)  # sqrt(6/8 * 3/6)
0.6124
"""

from __future__ import annotations

from typing import Any

import attrs
import numpy as np

from bleuprint import ngrams
from bleuprint._segments import SegmentStats
from bleuprint._signature import Part
from bleuprint._validators import one_of
from bleuprint.aggregation import SentenceMean
from bleuprint.exceptions import ConfigurationError
from bleuprint.presets import Preset
from bleuprint.typing import BoolArray, FloatArray, Smoother

__all__ = ["PRESET", "PRESETS", "IgniteSmoothing", "parts"]

SMOOTHINGS = ("no_smooth", "smooth1", "nltk_smooth2", "smooth2")
"""ignite's ``smooth`` values."""


def parts(ngram: int = 4, smooth: str = "no_smooth", average: str = "macro") -> dict[str, Any]:
    """The parts that compute ``Bleu(ngram=ngram, smooth=smooth, average=average)``."""
    if average not in ("macro", "micro"):
        raise ConfigurationError(f'average must be "macro" or "micro", got {average!r}')
    smoothing: Smoother = IgniteSmoothing(smooth)
    return {
        "ngrams": ngrams.Contiguous(ngram),
        "smoothing": SentenceMean(smoothing) if average == "macro" else smoothing,
    }


@attrs.frozen
class IgniteSmoothing(Part, family="smooth", name="ignite"):
    """Quirk (ignite): its four smoothings, with its zero rules. Every precision is 0 where
    no unigram matches, and for ``no_smooth`` where any order has no match; otherwise, with
    ``d`` the totals at least 1:

    - ``no_smooth``: ``matches / d``;
    - ``smooth1``: ``matches / d``, and ``0.1 / d`` for an order without a match;
    - ``nltk_smooth2``: unigrams ``matches / d``, the other orders ``(matches + 1) / (d + 1)``
      (so an order without n-grams gets 1/2);
    - ``smooth2``: as ``nltk_smooth2`` on the totals as counted (an order without n-grams
      gets 1).

    >>> from bleuprint import smoothing
    >>> from bleuprint import BLEUStats
    >>> stats = BLEUStats((3, 1, 0), (4, 3, 0), 4, 4)
    >>> [smoothing.precisions(IgniteSmoothing(method), stats)
    ...  for method in ("smooth1", "nltk_smooth2", "smooth2")]
    [[0.75, 0.3333333333333333, 0.1], [0.75, 0.5, 0.5], [0.75, 0.5, 1.0]]
    """

    method: str = attrs.field(default="no_smooth", validator=one_of(SMOOTHINGS))

    def precisions_array(self, stats: SegmentStats) -> tuple[FloatArray, BoolArray]:
        """Every row's precisions, all defined."""
        matches, totals = stats.matches, stats.totals
        zero = matches[:, 0] == 0
        if self.method == "no_smooth":
            zero |= (matches == 0).any(axis=1)
        floored = totals if self.method == "smooth2" else np.maximum(totals, 1)
        with np.errstate(divide="ignore", invalid="ignore"):  # rows that are zeroed
            if self.method in ("nltk_smooth2", "smooth2"):
                precisions = (matches + 1) / (floored + 1)
                precisions[:, 0] = matches[:, 0] / floored[:, 0]
            else:
                epsilon = 0.1 if self.method == "smooth1" else 0.0
                precisions = np.where(matches != 0, matches, epsilon) / floored
        precisions = np.where(zero[:, None], 0.0, precisions)
        return precisions, np.ones(precisions.shape, np.bool_)


PRESET = Preset("ignite", "pytorch-ignite 0.5.5 Bleu", parts)
PRESETS = (PRESET,)
"""The presets this module adds to :data:`bleuprint.presets.PRESETS`."""
