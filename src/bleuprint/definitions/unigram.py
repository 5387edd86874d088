"""The "BLEU Score (Unigram)" exercise: ``BP * p1`` on case-sensitive whitespace tokens.

It is canonical BLEU with one order.

>>> from bleuprint import BLEUScore
>>> round(BLEUScore.unigram().compute("the cat sat", ["the cat sat on the mat"]), 4)
0.3679
"""

from __future__ import annotations

from typing import Any

from bleuprint.definitions import canonical
from bleuprint.presets import Preset

__all__ = ["PRESET", "PRESETS", "parts"]


def parts() -> dict[str, Any]:
    """The parts of the unigram definition that differ from the engine's defaults."""
    return canonical.parts(max_n=1)


PRESET = Preset("unigram", "BP x clipped unigram precision", parts, decimals=4)
PRESETS = (PRESET,)
"""The presets this module adds to :data:`bleuprint.presets.PRESETS`."""
