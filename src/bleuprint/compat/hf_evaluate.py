"""Hugging Face evaluate 0.4.6's ``bleu`` metric: the TensorFlow NMT ``compute_bleu`` on
sacreBLEU's ``13a`` tokens.

The **shortest** reference length; the penalty ``exp(1 - 1/ratio)`` (:class:`NMT`), undefined
(an :class:`~bleuprint.InputError`) where the total hypothesis or reference length is 0;
``smooth=True`` adds one to every order, unigrams included.

>>> from bleuprint import BLEUScore
>>> predictions = ["hello there general kenobi", "foo bar foobar"]
>>> references = [["hello there general kenobi", "hello there!"], ["foo bar foobar"]]
>>> result = BLEUScore.hf_evaluate().corpus_score(predictions, references)
>>> result.score, result.hypothesis_length, result.reference_length
(1.0, 7, 6)
"""

from __future__ import annotations

import math
from typing import Any

import attrs
import numpy as np

from bleuprint import brevity, ngrams, smoothing, tokenizers
from bleuprint._exact import exactly
from bleuprint._signature import Part
from bleuprint.exceptions import InputError
from bleuprint.presets import Preset
from bleuprint.typing import FloatArray

__all__ = ["NMT", "PRESET", "PRESETS", "nmt_parts", "parts"]


def parts(max_order: int = 4, smooth: bool = False) -> dict[str, Any]:
    """The parts that compute evaluate's ``bleu`` with these arguments (its names, defaults)."""
    return {
        **nmt_parts(max_order, smooth),
        "reference_length": brevity.Shortest(),
        "brevity_penalty": NMT(),
    }


def nmt_parts(max_order: int, smooth: bool) -> dict[str, Any]:
    """The parts that the TF NMT definitions share (bleuscore's too): ``13a`` tokens, orders
    1..max_order, and add-one smoothing of every order (unigrams too) when asked."""
    return {
        "tokenizer": tokenizers.Mteval13a(),
        "ngrams": ngrams.Contiguous(max_order),
        "smoothing": smoothing.AddOne(unigrams=True) if smooth else smoothing.NoSmoothing(),
    }


@attrs.frozen
class NMT(Part, family="bp", name="nmt"):
    """The TensorFlow NMT ``compute_bleu`` penalty (Hugging Face evaluate's ``bleu``).

    1 when the ratio ``c / r`` exceeds 1, else ``exp(1 - 1 / (c / r))``, computed in that
    order. Where TF NMT divides by zero (a total hypothesis or reference length of 0; Hugging
    Face evaluate raises ``ZeroDivisionError``), this raises :class:`~bleuprint.InputError`.

    >>> round(brevity.penalty(NMT(), 3, 6), 4)
    0.3679
    """

    def penalty_array(
        self, hypothesis_lengths: FloatArray, reference_lengths: FloatArray
    ) -> FloatArray:
        """The penalty of each pair of lengths; the first pair with a length of 0 raises."""
        empty = (hypothesis_lengths <= 0) | (reference_lengths <= 0)
        if empty.any():
            first = int(np.argmax(empty))
            raise InputError(
                f"the total hypothesis length is {hypothesis_lengths[first]:g} and the total "
                f"reference length {reference_lengths[first]:g}: TF NMT's brevity penalty "
                "divides by both, so this definition has no score here"
            )
        ratios = hypothesis_lengths / reference_lengths
        penalties = np.ones(len(ratios))
        short = ratios <= 1.0
        penalties[short] = exactly(math.exp, 1 - 1 / ratios[short])
        return penalties


PRESET = Preset("hf-evaluate", "Hugging Face evaluate 0.4.6 bleu (TF NMT)", parts)
PRESETS = (PRESET,)
"""The presets this module adds to :data:`bleuprint.presets.PRESETS`."""
