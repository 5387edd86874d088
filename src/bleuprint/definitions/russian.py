"""The Russian programming-contest BLEU.

Words are runs of letters compared without case; the n-th value is the number of distinct
n-grams shared by the two texts over the translation's n-grams with repetition (n = 1..4); the
penalty is the uncapped length ratio of the two texts in characters. ``length="words"``
measures lengths in words instead, ``capped=True`` caps the penalty at 1.

>>> from bleuprint import BLEUScore
>>> BLEUScore.russian().compute("the cat sat on the mat", ["The cat sat on the mat!"])
0.9139018012389596

That is ``22/23 * (5/6 * 1 * 1 * 1) ** (1/4)``: "the" occurs twice but counts once.
"""

from __future__ import annotations

from typing import Any

from bleuprint import brevity, matching, tokenizers
from bleuprint.definitions import canonical
from bleuprint.exceptions import ConfigurationError
from bleuprint.presets import Preset
from bleuprint.typing import LengthMeasure

__all__ = ["PRESET", "PRESETS", "parts"]


def parts(*, length: str = "chars", capped: bool = False) -> dict[str, Any]:
    """The parts of the Russian definition that differ from the engine's defaults."""
    measures: dict[str, LengthMeasure] = {
        "chars": brevity.Characters(),
        "words": brevity.Tokens(),
    }
    if length not in measures:
        raise ConfigurationError(f"length must be 'chars' or 'words', got {length!r}")
    return {
        **canonical.parts(max_n=4),
        "tokenizer": tokenizers.Letters(),
        "matching": matching.Distinct(),
        "length": measures[length],
        "brevity_penalty": brevity.Ratio(capped=capped),
    }


PRESET = Preset("russian", "Russian contest: letter words, set overlap", parts, decimals=6)
PRESETS = (PRESET,)
"""The presets this module adds to :data:`bleuprint.presets.PRESETS`."""
