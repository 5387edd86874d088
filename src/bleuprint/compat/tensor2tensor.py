"""tensor2tensor's ``bleu_hook`` (bafdc1b6): ``bleu_wrapper`` and ``compute_bleu``.

Tokens are ``bleu_tokenize``'s (:class:`BleuTokenize`: every Unicode punctuation mark split
off unless between digits, every symbol split off); ``bleu_wrapper(case_sensitive=False)``
lowercases first with :meth:`str.lower`. Orders with n-grams but no match are halved as in
``mteval`` (:class:`~bleuprint.smoothing.ExpUnzeroed`), an order without n-grams is left out of
the log sum but keeps its weight, and the penalty is :class:`T2TPenalty`. ``bleu_wrapper``
scores the files as one corpus; ``compute_bleu`` scores what it is given (here, one call per
segment: sentence scores). Both return float32: compare at float32 precision.

>>> from bleuprint import BLEUScore
>>> bleu = BLEUScore.tensor2tensor(function="compute_bleu")
>>> round(bleu.compute("the cat sat", ["the cat sat on the mat"]), 6)
0.367879
"""

from __future__ import annotations

import functools
import math
import re
import sys
import unicodedata
from typing import Any

import attrs
import numpy as np

from bleuprint import brevity, ngrams, smoothing, tokenizers
from bleuprint._exact import exactly
from bleuprint._signature import Part
from bleuprint.exceptions import ConfigurationError
from bleuprint.presets import Preset
from bleuprint.typing import BrevityPenalty, FloatArray, Tokenizer

__all__ = ["PRESET", "PRESETS", "BleuTokenize", "T2TPenalty", "parts"]

FUNCTIONS = ("bleu_wrapper", "compute_bleu")
"""The two entry points of ``bleu_hook``."""


def parts(
    function: str = "bleu_wrapper",
    case_sensitive: bool = False,
    max_order: int = 4,
    use_bp: bool = True,
) -> dict[str, Any]:
    """The parts that compute ``bleu_wrapper(..., case_sensitive)`` or ``compute_bleu(...,
    max_order, use_bp)`` on ``bleu_tokenize`` tokens (``bleu_wrapper`` always uses order 4 and
    the penalty; ``compute_bleu`` never lowercases)."""
    if function not in FUNCTIONS:
        raise ConfigurationError(f"function must be one of {FUNCTIONS}, got {function!r}")
    tokenizer: Tokenizer = BleuTokenize()
    if function == "bleu_wrapper":
        if (max_order, use_bp) != (4, True):
            raise ConfigurationError(
                "bleu_wrapper always scores max_order=4 with use_bp=True; "
                'choose function="compute_bleu" for other values'
            )
        if not case_sensitive:
            tokenizer = tokenizers.Lowercase(tokenizer)
    elif case_sensitive:
        raise ConfigurationError("case_sensitive is bleu_wrapper's option; compute_bleu keeps case")
    penalty: BrevityPenalty = T2TPenalty() if use_bp else brevity.NoPenalty()
    return {
        "tokenizer": tokenizer,
        "ngrams": ngrams.Contiguous(max_order),
        "reference_length": brevity.Shortest(),
        "smoothing": smoothing.ExpUnzeroed(),
        "brevity_penalty": penalty,
    }


@functools.cache
def _bleu_tokenize_rules() -> tuple[tuple[re.Pattern[str], str], ...]:
    """``bleu_tokenize``'s patterns: its character classes hold every code point whose
    category (from this Python's :mod:`unicodedata`) is punctuation or a symbol, and ``\\d``
    is Python's (decimal digits), where sacreBLEU's ``intl`` uses every number."""

    def category(prefix: str) -> str:
        return "".join(
            re.escape(chr(point))
            for point in range(sys.maxunicode)
            if unicodedata.category(chr(point)).startswith(prefix)
        )

    punctuation, symbols = category("P"), category("S")
    return (
        (re.compile(rf"([^\d])([{punctuation}])"), r"\1 \2 "),
        (re.compile(rf"([{punctuation}])([^\d])"), r" \1 \2"),
        (re.compile(rf"([{symbols}])"), r" \1 "),
    )


@attrs.frozen
class BleuTokenize(Part, family="tok", name="t2t-tokenize"):
    """Quirk (tensor2tensor's ``bleu_tokenize``): punctuation split off unless it stands
    between digits, and every symbol split off, on Python's Unicode categories; then a
    whitespace split. It differs from sacreBLEU's ``intl`` where a number is not a decimal
    digit (``²``, ``½``), and in the Unicode version of the classes.

    >>> BleuTokenize()("Hello, world! It costs $3.50.")  # a final mark after a digit stays
    ['Hello', ',', 'world', '!', 'It', 'costs', '$', '3.50.']
    """

    def __call__(self, text: str) -> list[str]:
        for pattern, replacement in _bleu_tokenize_rules():
            text = pattern.sub(replacement, text)
        return text.split()


@attrs.frozen
class T2TPenalty(Part, family="bp", name="t2t"):
    """Quirk (tensor2tensor's ``compute_bleu``): with the ratio ``c / r``, 1 when there is no
    reference token or the ratio is at least 1, 0 when there is no hypothesis token, else
    ``exp(1 - 1 / ratio)``.

    >>> [round(brevity.penalty(T2TPenalty(), c, r), 4) for c, r in [(3, 6), (3, 0), (0, 6)]]
    [0.3679, 1.0, 0.0]
    """

    def penalty_array(
        self, hypothesis_lengths: FloatArray, reference_lengths: FloatArray
    ) -> FloatArray:
        """The penalty of each pair of lengths."""
        referenced = reference_lengths != 0
        ratios = hypothesis_lengths / np.where(referenced, reference_lengths, 1)
        penalties = np.where(referenced & (ratios <= 0), 0.0, 1.0)
        short = referenced & (ratios > 0) & (ratios < 1)
        penalties[short] = exactly(math.exp, 1 - 1 / ratios[short])
        return penalties


PRESET = Preset("tensor2tensor", "tensor2tensor bleu_hook (bleu_wrapper, compute_bleu)", parts)
PRESETS = (PRESET,)
"""The presets this module adds to :data:`bleuprint.presets.PRESETS`."""
