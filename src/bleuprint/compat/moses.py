"""Moses' ``multi-bleu.perl`` and ``multi-bleu-detok.perl`` (mosesdecoder 34452895).

``multi-bleu.perl`` reads its files as bytes: it splits on ASCII whitespace only (a no-break
space joins two tokens: :class:`AsciiWhitespace`), and ``-lc`` lowercases A to Z only
(:class:`AsciiLowercase`). ``multi-bleu-detok.perl`` reads UTF-8, tokenizes like
``mteval-v13a.pl`` keeping the case, and lowercases with Perl's Unicode ``lc``
(:class:`CharwiseLowercase`): it is ``sacrebleu(smooth_method="none")``. These three are Perl's
string semantics, which NIST's ``mteval`` scripts share (:mod:`bleuprint.compat.mteval`). Both
score BLEU-4 without smoothing against the closest reference length (ties: the shorter), and die
dividing by zero where the whole hypothesis side is empty (:class:`MosesPenalty`).

>>> from bleuprint import BLEUScore
>>> bleu = BLEUScore.moses_multi_bleu()
>>> round(bleu.corpus_score(["the cat sat on\\u00a0the mat"], [["the cat sat on the mat"]])
...       .brevity_penalty, 4)  # 5 tokens against 6
0.8187
"""

from __future__ import annotations

import math
from typing import Any

import attrs
import numpy as np

from bleuprint import ngrams, smoothing, tokenizers
from bleuprint._exact import exactly
from bleuprint._signature import Part
from bleuprint.compat._perl import AsciiLowercase, AsciiWhitespace, CharwiseLowercase
from bleuprint.exceptions import InputError
from bleuprint.presets import Preset
from bleuprint.typing import FloatArray, Tokenizer

__all__ = [
    "DETOK_PRESET",
    "PRESET",
    "PRESETS",
    "AsciiLowercase",
    "AsciiWhitespace",
    "CharwiseLowercase",
    "MosesPenalty",
    "detok_parts",
    "parts",
]


def parts(lc: bool = False) -> dict[str, Any]:
    """The parts that compute ``multi-bleu.perl [-lc]``: ASCII-whitespace tokens, ASCII-only
    lowercasing with ``lc=True``.

    Args:
        lc: the script's ``-lc`` (lowercase A to Z).

    Returns:
        The engine's fields that differ from its defaults, by name.
    """
    tokenizer: Tokenizer = AsciiWhitespace()
    return {**_scoring(), "tokenizer": AsciiLowercase(tokenizer) if lc else tokenizer}


def detok_parts(lc: bool = False) -> dict[str, Any]:
    """The parts that compute ``multi-bleu-detok.perl [-lc]``: the ``13a`` tokens, Unicode
    lowercasing before tokenizing with ``lc=True``.

    Args:
        lc: the script's ``-lc`` (Perl's ``lc``, character by character).

    Returns:
        The engine's fields that differ from its defaults, by name.
    """
    tokenizer: Tokenizer = tokenizers.Mteval13a()
    return {**_scoring(), "tokenizer": CharwiseLowercase(tokenizer) if lc else tokenizer}


def _scoring() -> dict[str, Any]:
    return {
        "ngrams": ngrams.Contiguous(4),
        "smoothing": smoothing.NoSmoothing(),
        "brevity_penalty": MosesPenalty(),
    }


@attrs.frozen
class MosesPenalty(Part, family="bp", name="moses"):
    """Quirk (Moses' multi-bleu scripts): ``exp(1 - r / c)`` when ``c < r``, else 1; where the
    hypothesis side is empty (``c = 0 < r``) the scripts die with "Illegal division by zero",
    and so does this, with an :class:`~bleuprint.InputError`.

    >>> from bleuprint import brevity
    >>> round(brevity.penalty(MosesPenalty(), 3, 6), 4)
    0.3679
    """

    def penalty_array(
        self, hypothesis_lengths: FloatArray, reference_lengths: FloatArray
    ) -> FloatArray:
        """The penalty of each pair of lengths; the first empty hypothesis side raises."""
        short = hypothesis_lengths < reference_lengths
        empty = short & (hypothesis_lengths <= 0)
        if empty.any():
            raise InputError(
                f"the hypotheses have no token against {reference_lengths[np.argmax(empty)]:g} "
                "reference tokens: multi-bleu divides by the hypothesis length here (Illegal "
                "division by zero)"
            )
        penalties = np.ones(len(hypothesis_lengths))
        exponents = 1 - reference_lengths[short] / hypothesis_lengths[short]
        penalties[short] = exactly(math.exp, exponents)
        return penalties


# multi-bleu.perl prints "BLEU = 29.58, ...": 0-100, two decimals.
PRESET = Preset(
    "moses-multi-bleu", "Moses multi-bleu.perl (ASCII whitespace)", parts, decimals=2, scale=100
)
DETOK_PRESET = Preset(
    "moses-multi-bleu-detok",
    "Moses multi-bleu-detok.perl (13a tokens)",
    detok_parts,
    decimals=2,
    scale=100,
)
PRESETS = (PRESET, DETOK_PRESET)
"""The presets this module adds to :data:`bleuprint.presets.PRESETS`."""
