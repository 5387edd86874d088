"""distancia 0.0.85's ``BLEUScore`` (sentence level).

Clipped precisions of orders 1..n_gram, uniform weights, NLTK's brevity penalty. With
``smoothing=True`` (the default) a zero or undefined precision becomes ``1e-9``; without, it is
an :class:`~bleuprint.InputError` (distancia crashes there).

>>> from bleuprint import BLEUScore
>>> BLEUScore.distancia().compute(["x", "y"], [["a", "b"]])
1.0000000000000007e-09
"""

from __future__ import annotations

from typing import Any

from bleuprint import ngrams
from bleuprint import smoothing as smoothers
from bleuprint.compat.nltk import NLTKExponential
from bleuprint.presets import Preset

__all__ = ["PRESET", "PRESETS", "parts"]


def parts(n_gram: int = 4, smoothing: bool = True) -> dict[str, Any]:
    """The parts that compute distancia's ``BLEUScore`` with these arguments."""
    return {
        "ngrams": ngrams.Contiguous(n_gram),
        "brevity_penalty": NLTKExponential(),
        "smoothing": smoothers.ReplaceZero(1e-9) if smoothing else smoothers.RejectZero(),
    }


PRESET = Preset("distancia", "distancia 0.0.85 BLEUScore (sentence level)", parts)
PRESETS = (PRESET,)
"""The presets this module adds to :data:`bleuprint.presets.PRESETS`."""
