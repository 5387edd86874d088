"""Hugging Face evaluate 0.4.6's ``google_bleu``: GLEU (:mod:`bleuprint.compat.gleu`, whose
recipe :func:`~bleuprint.compat.gleu.google_bleu` it is) on sacreBLEU's ``13a`` tokens.

>>> from bleuprint import BLEUScore
>>> BLEUScore.google_bleu().compute("a cat.", ["a cat ."])
1.0
"""

from __future__ import annotations

from bleuprint.compat import gleu
from bleuprint.presets import Preset

__all__ = ["PRESET", "PRESETS"]

PRESET = Preset("google-bleu", "Hugging Face evaluate google_bleu", gleu.google_bleu)
PRESETS = (PRESET,)
"""The presets this module adds to :data:`bleuprint.presets.PRESETS`."""
