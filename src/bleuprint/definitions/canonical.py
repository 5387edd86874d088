"""Canonical BLEU (Papineni et al., 2002), as textbooks state it.

Clipped n-gram precisions for n = 1..max_n, the exponential brevity penalty against the closest
reference length (ties: the shorter), their unweighted geometric mean; 0 when any precision is 0
or undefined. These are the engine's default parts: only the order is chosen here.

>>> from bleuprint import BLEUScore
>>> round(BLEUScore.canonical(max_n=2).compute("the cat is here", ["the cat was here"]), 12)
0.5
"""

from __future__ import annotations

from typing import Any

from bleuprint import ngrams
from bleuprint.presets import Preset

__all__ = ["PRESET", "PRESETS", "parts"]


def parts(max_n: int = 4) -> dict[str, Any]:
    """The parts of canonical BLEU-``max_n`` that differ from the engine's defaults.

    >>> parts(max_n=2)
    {'ngrams': Contiguous(max_n=2)}
    """
    return {"ngrams": ngrams.Contiguous(max_n)}


# bleuprint's own definition prints as bleuprint's commands print BLEU: 0-100, one decimal.
PRESET = Preset("canonical", "Papineni et al. (2002), BLEU-4", parts, decimals=1, scale=100)
PRESETS = (PRESET,)
"""The presets this module adds to :data:`bleuprint.presets.PRESETS`."""
