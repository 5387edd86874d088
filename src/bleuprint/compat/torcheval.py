"""torcheval 0.0.7's ``BLEUScore`` and ``bleu_score``.

Whitespace tokens (``str.split``), clipped matches, uniform weights, and the **shortest**
reference length. Quirk (:class:`RequireEveryOrder`): where an order has no n-gram at all in
what is scored (a hypothesis, or a whole corpus, shorter than ``n_gram`` tokens) torcheval
raises ``ValueError``, and bleuprint an :class:`~bleuprint.InputError`; where an order has no
match the score is 0, with no smoothing.

>>> from bleuprint import BLEUScore
>>> bleu = BLEUScore.torcheval(n_gram=2)
>>> round(bleu.compute("the cat sat", ["the cat sat down", "the cat sat on a mat"]), 4)
0.7165
"""

from __future__ import annotations

from typing import Any

import attrs
import numpy as np

from bleuprint import brevity, ngrams, smoothing
from bleuprint._segments import SegmentStats
from bleuprint._signature import Part
from bleuprint.exceptions import InputError
from bleuprint.presets import Preset
from bleuprint.typing import BoolArray, FloatArray

__all__ = ["PRESET", "PRESETS", "RequireEveryOrder", "parts"]


def parts(n_gram: int = 4) -> dict[str, Any]:
    """The parts that compute ``BLEUScore(n_gram=n_gram)`` (torcheval's name and default)."""
    return {
        "ngrams": ngrams.Contiguous(n_gram),
        "reference_length": brevity.Shortest(),
        "smoothing": RequireEveryOrder(),
    }


@attrs.frozen
class RequireEveryOrder(Part, family="smooth", name="every-order"):
    """Quirk (torcheval): an order without any n-gram is an :class:`~bleuprint.InputError`
    (torcheval: "the input is too short to find all n-gram matches"); otherwise every
    precision is 0 if an order has no match, else the plain ratio.

    >>> from bleuprint import BLEUStats
    >>> smoothing.precisions(RequireEveryOrder(), BLEUStats((3, 0), (4, 3), 4, 4))
    [0.0, 0.0]
    """

    def precisions_array(self, stats: SegmentStats) -> tuple[FloatArray, BoolArray]:
        """Every row's precisions; the first row with an order without n-grams raises."""
        short = (stats.totals == 0).any(axis=1)
        if short.any():
            raise InputError(
                f"the hypotheses are too short for {stats.max_n}-grams (an order has no "
                f"n-gram: {stats[int(np.argmax(short))].totals}): torcheval raises ValueError "
                "here"
            )
        precisions, defined = smoothing.NoSmoothing().precisions_array(stats)
        unmatched = (stats.matches == 0).any(axis=1, keepdims=True)
        return np.where(unmatched, 0.0, precisions), defined | unmatched


PRESET = Preset("torcheval", "torcheval 0.0.7 BLEUScore", parts)
PRESETS = (PRESET,)
"""The presets this module adds to :data:`bleuprint.presets.PRESETS`."""
