"""torchmetrics 1.9.0's ``BLEUScore`` and ``bleu_score``; with ``tokenize`` and ``lowercase``,
its ``SacreBLEUScore`` and ``sacre_bleu_score``.

Whitespace tokens (or sacreBLEU's tokenizer, lowercased after tokenizing:
:class:`LowercaseAfter`); the closest reference length with ties going to the first listed;
``smooth=True`` adds one to the counts of orders 2 and up. Quirk (:class:`RequireAllMatched`):
the score is 0 whenever an order has no match, before any smoothing and whatever its weight.
``weights`` must have ``n_gram`` entries (default uniform).

>>> from bleuprint import BLEUScore
>>> bleu = BLEUScore.torchmetrics()
>>> round(bleu.compute("the cat sat on a mat", ["the cat sat on the mat"]), 6)
0.537285
>>> BLEUScore.torchmetrics(smooth=True).compute("the cat sat", ["the cat sat on the mat"])
0.0
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs
import numpy as np

from bleuprint import brevity, ngrams, smoothing, tokenizers

# ``parts`` takes torchmetrics' ``weights`` argument, which would shadow the module.
from bleuprint import weights as weight_parts
from bleuprint._segments import SegmentStats
from bleuprint._signature import Part
from bleuprint._validators import fits
from bleuprint.compat import sacrebleu
from bleuprint.exceptions import ConfigurationError
from bleuprint.presets import Preset
from bleuprint.typing import BoolArray, FloatArray, Smoother, Tokenizer, order_problem_of

__all__ = [
    "FLORES_FOLDER",
    "FLORES_TOKENIZERS",
    "PRESET",
    "PRESETS",
    "LowercaseAfter",
    "RequireAllMatched",
    "parts",
]


def parts(
    n_gram: int = 4,
    smooth: bool = False,
    weights: Sequence[float] | None = None,
    tokenize: str | None = None,
    lowercase: bool = False,
    *,
    spm_model: str | None = None,
) -> dict[str, Any]:
    """The parts that compute torchmetrics' BLEU with these arguments (its names and defaults).

    Args:
        n_gram: the highest order.
        smooth: add one to the counts of orders 2 and up.
        weights: one weight per order (default uniform).
        tokenize: a sacreBLEU tokenizer's name (``SacreBLEUScore``), ``flores101`` or
            ``flores200`` among them; ``None``: whitespace.
        lowercase: lowercase the tokens after tokenizing (``SacreBLEUScore``).
        spm_model: the model file of ``flores101`` or ``flores200`` (bleuprint's argument);
            ``None``: the file torchmetrics downloads it to, in its folder
            (:data:`FLORES_FOLDER`), which bleuprint reads and never downloads.

    Returns:
        The engine's fields that differ from its defaults, by name.

    Raises:
        ConfigurationError: ``weights`` is not one per order, or ``tokenize`` is not a
            tokenizer bleuprint has.
    """
    if weights is not None and len(weights) != n_gram:
        raise ConfigurationError(
            f"torchmetrics needs one weight per order: {len(weights)} weights for n_gram={n_gram}"
        )
    inner = smoothing.AddOne() if smooth else smoothing.NoSmoothing()
    return {
        "tokenizer": _tokenizer(tokenize, lowercase, spm_model),
        "ngrams": ngrams.Contiguous(n_gram),
        "reference_length": brevity.Closest(ties="first"),
        "smoothing": RequireAllMatched(inner),
        "weights": weight_parts.Uniform() if weights is None else weight_parts.Explicit(weights),
    }


FLORES_TOKENIZERS = ("flores101", "flores200")
"""The names of torchmetrics' SentencePiece tokenizers (sacreBLEU's, read without its
stripping of trailing whitespace)."""

FLORES_FOLDER = Path(tempfile.gettempdir()) / "torchmetrics-flores"
"""Where torchmetrics keeps the FLORES models it downloads, under sacreBLEU's file names."""


def _flores_file(tokenize: str) -> str:
    return str(FLORES_FOLDER / tokenizers.SACREBLEU_MODEL_FILES[tokenize])


def _tokenizer(tokenize: str | None, lowercase: bool, spm_model: str | None) -> Tokenizer:
    """Whitespace for ``BLEUScore``; sacreBLEU's tokenizer for ``SacreBLEUScore``, which
    lowercases the tokens after tokenizing."""
    if spm_model is not None and tokenize not in FLORES_TOKENIZERS:
        raise ConfigurationError(
            f"spm_model is the model of tokenize={' or '.join(FLORES_TOKENIZERS)}, "
            f"not of tokenize={tokenize!r}"
        )
    if tokenize is None:
        tokenizer: Tokenizer = tokenizers.Whitespace()
    elif tokenize in sacrebleu.TOKENIZERS:
        tokenizer = sacrebleu.TOKENIZERS[tokenize]()
    elif tokenize in FLORES_TOKENIZERS:
        tokenizer = tokenizers.SentencePiece(tokenize, path=spm_model or _flores_file(tokenize))
    else:
        raise ConfigurationError(
            f"tokenize must be one of {', '.join([*sacrebleu.TOKENIZERS, *FLORES_TOKENIZERS])}, "
            f"got {tokenize!r}"
        )
    return LowercaseAfter(tokenizer) if lowercase else tokenizer


@attrs.frozen
class LowercaseAfter(Part, family="tok", name="lowercase-after"):
    """Quirk (torchmetrics' ``SacreBLEUScore(lowercase=True)``): tokenize with ``inner``, then
    lowercase each token, where sacreBLEU (:class:`~bleuprint.tokenizers.Lowercase`) lowercases
    before; the two differ only where lowercasing changes what a tokenizer sees
    (``"İ".lower()`` is two code points, for example).

    Args:
        inner: the tokenizer whose tokens are lowercased.

    Raises:
        ConfigurationError: ``inner`` is not a tokenizer.

    >>> LowercaseAfter(tokenizers.Mteval13a())("The EU's GDP.")
    ['the', "eu's", 'gdp', '.']
    """

    inner: Tokenizer = attrs.field(validator=fits(Tokenizer))

    def __call__(self, text: str) -> list[str]:
        return [token.lower() for token in self.inner(text)]


@attrs.frozen
class RequireAllMatched(Part, family="smooth", name="all-matched"):
    """Quirk (torchmetrics): every precision is 0 unless every order has at least one match;
    only then does the ``inner`` smoother run. So smoothing never rescues a hypothesis with
    an unmatched order, and neither does a weight of 0 for that order.

    Args:
        inner: the smoother of the rows where every order has a match.

    Raises:
        ConfigurationError: ``inner`` is not a smoother.

    >>> from bleuprint import smoothing
    >>> from bleuprint import BLEUStats
    >>> stats = BLEUStats((3, 1, 0), (4, 3, 2), 4, 4)
    >>> smoothing.precisions(RequireAllMatched(smoothing.AddOne()), stats)
    [0.0, 0.0, 0.0]
    """

    inner: Smoother = attrs.field(
        factory=smoothing.NoSmoothing, validator=fits(Smoother, adapter="smoothing.FromScalar")
    )

    def order_problem(self, max_n: int) -> str | None:
        """Whatever the ``inner`` smoother needs of the orders."""
        return order_problem_of(self.inner, max_n)

    def precisions_array(self, stats: SegmentStats) -> tuple[FloatArray, BoolArray]:
        """Every row's precisions: 0 in every order of a row with an unmatched order, else
        the ``inner`` smoother's."""
        unmatched = (stats.matches == 0).any(axis=1)
        if not unmatched.any():
            return self.inner.precisions_array(stats)
        precisions, defined = np.zeros(stats.matches.shape), np.ones(stats.matches.shape, bool)
        matched = np.flatnonzero(~unmatched)
        if len(matched):  # the inner smoother sees only these rows, as it would one by one
            precisions[matched], defined[matched] = self.inner.precisions_array(stats.take(matched))
        return precisions, defined


PRESET = Preset("torchmetrics", "torchmetrics 1.9.0 BLEUScore", parts)
PRESETS = (PRESET,)
"""The presets this module adds to :data:`bleuprint.presets.PRESETS`."""
