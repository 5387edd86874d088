"""bleuscore 0.2.0's ``compute``: the Hugging Face evaluate definition
(:mod:`bleuprint.compat.hf_evaluate`) with the exponential penalty, which scores empty text
instead of dividing by zero, and ``ref_len_method`` ``"shortest"`` (or ``"hf"``) or
``"closest"`` (or ``"sacrebleu"``: ties to the shorter).

>>> from bleuprint import BLEUScore
>>> bleu = BLEUScore.bleuscore(ref_len_method="closest")
>>> round(bleu.compute("a b c d", ["a b c d e", "a"]), 6)
0.778801
"""

from __future__ import annotations

from typing import Any

from bleuprint import brevity
from bleuprint.compat.hf_evaluate import nmt_parts
from bleuprint.exceptions import ConfigurationError
from bleuprint.presets import Preset
from bleuprint.typing import ReferenceLength

__all__ = ["PRESET", "PRESETS", "parts"]


def parts(
    max_order: int = 4, smooth: bool = False, ref_len_method: str = "shortest"
) -> dict[str, Any]:
    """The parts that compute bleuscore's ``compute`` with these arguments."""
    rules: dict[str, ReferenceLength] = {
        "shortest": brevity.Shortest(),
        "hf": brevity.Shortest(),
        "closest": brevity.Closest(),
        "sacrebleu": brevity.Closest(),
    }
    if ref_len_method not in rules:
        raise ConfigurationError(
            f"ref_len_method must be one of {', '.join(rules)}, got {ref_len_method!r}"
        )
    return {**nmt_parts(max_order, smooth), "reference_length": rules[ref_len_method]}


PRESET = Preset("bleuscore", "bleuscore 0.2.0 compute (TF NMT, 13a)", parts)
PRESETS = (PRESET,)
"""The presets this module adds to :data:`bleuprint.presets.PRESETS`."""
