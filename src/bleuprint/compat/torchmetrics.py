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

import functools
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs
import numpy as np
import numpy.typing as npt

from bleuprint import brevity, ngrams, smoothing, tokenizers

# ``parts`` takes torchmetrics' ``weights`` argument, which would shadow the module.
from bleuprint import weights as weight_parts
from bleuprint._engine import BLEUScore
from bleuprint._segments import SegmentStats
from bleuprint._signature import Part
from bleuprint._validators import boolean, fits, ngram_order, ngram_order_or_zero, non_negative
from bleuprint.compat import sacrebleu
from bleuprint.compat._chrf import ChrF, ChrFSegments, ChrFStats, Definition, counting_engines
from bleuprint.exceptions import ConfigurationError, counted
from bleuprint.presets import Preset
from bleuprint.typing import BoolArray, FloatArray, Smoother, Tokenizer, order_problem_of

__all__ = [
    "FLORES_FOLDER",
    "FLORES_TOKENIZERS",
    "PRESET",
    "PRESETS",
    "LowercaseAfter",
    "RequireAllMatched",
    "TorchmetricsChars",
    "TorchmetricsChrF",
    "chrf",
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
            f"torchmetrics needs one weight per order: {counted(len(weights), 'weight')} for "
            f"n_gram={n_gram}"
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


# -- chrF ------------------------------------------------------------------------------------


def chrf(
    n_char_order: int = 6,
    n_word_order: int = 2,
    beta: float = 2.0,
    lowercase: bool = False,
    whitespace: bool = False,
) -> ChrF:
    """torchmetrics 1.9.0's ``CHRFScore`` and ``chrf_score`` with these arguments (its names
    and defaults: chrF++): ``corpus_score(preds, target).score`` is ``chrf_score(preds,
    target)``, and each of ``sentence_scores(preds, target)`` its sentence-level score
    (``return_sentence_level_score=True``), on the 0-1 scale. Its quirks are
    :class:`TorchmetricsChrF`'s.

    >>> torchmetrics_chrf = chrf()
    >>> result = torchmetrics_chrf.corpus_score(
    ...     ["the cat is on the mat"], [["there is a cat on the mat", "a cat is on the mat"]]
    ... )
    >>> round(result.score, 4)
    0.864
    """
    return ChrF(TorchmetricsChrF(n_char_order, n_word_order, beta, lowercase, whitespace))


@attrs.frozen
class TorchmetricsChars(Part, family="tok", name="torchmetrics-chars"):
    """Quirk (torchmetrics' chrF): the characters of the text stripped at both ends, its
    spaces (U+0020 only) removed; a tab or a no-break space inside is a character.

    >>> TorchmetricsChars()(" a b\\tc ")
    ['a', 'b', '\\t', 'c']
    """

    def __call__(self, text: str) -> list[str]:
        return list(text.strip().replace(" ", ""))


_EPS_SMOOTHING = np.float32(1e-16)  # torchmetrics' floor of an F-score's denominator


@attrs.frozen
class TorchmetricsChrF(Definition):
    """torchmetrics 1.9.0's chrF definition (see :func:`chrf`), which
    :class:`~bleuprint.compat._chrf.ChrF` counts and scores: character n-grams of orders 1 to
    ``n_char_order`` (:class:`TorchmetricsChars`, or every character with ``whitespace``),
    then sacreBLEU's chrF++ words (:class:`~bleuprint.compat.sacrebleu.ChrFWords`) of orders
    1 to ``n_word_order``, of the text lowercased where ``lowercase``. Its quirks:

    - arithmetic in ``float32``: each order's F-score is ``(1 + beta**2) * P * R /
      max(beta**2 * P + R, 1e-16)`` (P or R 0 where its count is 0), and a score is the sum
      of the orders' F-scores (characters', then words') over the number of orders, every
      order counting;
    - with several references, a segment counts against the first of highest score; where
      every reference scores 0, its reference n-grams and matches count as 0 in the corpus
      sums (its hypothesis n-grams still count).

    The corpus sums are exact here; torchmetrics adds them in ``float32``, which agrees while
    each order's sum stays below 2**24 (16,777,216) n-grams.
    """

    n_char_order: int = attrs.field(default=6, validator=ngram_order)
    n_word_order: int = attrs.field(default=2, validator=ngram_order_or_zero)
    beta: float = attrs.field(default=2.0, validator=non_negative)
    lowercase: bool = attrs.field(default=False, validator=boolean)
    whitespace: bool = attrs.field(default=False, validator=boolean)

    @property
    def name(self) -> str:
        """``torchmetrics chrF``."""
        return "torchmetrics chrF"

    @functools.cached_property
    def counters(self) -> tuple[BLEUScore, ...]:
        """A counting engine of characters, then one of words (chrF++)."""
        characters = tokenizers.Codepoints() if self.whitespace else TorchmetricsChars()
        kinds = [(characters, self.n_char_order), (sacrebleu.ChrFWords(), self.n_word_order)]
        return counting_engines(kinds, self.lowercase)

    def points(self, rows: ChrFSegments) -> FloatArray:
        """Each row's score, with torchmetrics' ``float32`` operations in its order."""
        factor, plus_one = np.float32(self.beta**2), np.float32(1 + self.beta**2)
        matches, hypothesis, reference = (
            counts.astype(np.float32) for counts in (rows.matches, rows.hypothesis, rows.reference)
        )
        precision = np.divide(matches, hypothesis, out=np.zeros_like(matches), where=hypothesis > 0)
        recall = np.divide(matches, reference, out=np.zeros_like(matches), where=reference > 0)
        denominator = np.maximum(factor * precision + recall, _EPS_SMOOTHING)
        fscores = plus_one * precision * recall / denominator
        characters, words = fscores[:, : self.n_char_order], fscores[:, self.n_char_order :]
        summed = _added_in_order(characters) + _added_in_order(words)
        points: FloatArray = (summed / np.float32(self.n_char_order + self.n_word_order)).astype(
            np.float64
        )  # (float32's values, exactly)
        return points

    def total(self, segments: ChrFSegments) -> ChrFStats:
        """The sums, a segment of no reference above 0 adding no reference n-gram or match."""
        matched = self.points(segments) > 0
        return attrs.evolve(
            segments,
            reference=np.where(matched[:, None], segments.reference, 0),
            matches=np.where(matched[:, None], segments.matches, 0),
        ).total()

    def signature(self, stats: ChrFStats) -> str:
        """The options, and the torchmetrics version reproduced."""
        return (
            f"torchmetrics-chrf|nc:{self.n_char_order}|nw:{self.n_word_order}|beta:{self.beta}|"
            f"case:{'lc' if self.lowercase else 'mixed'}|"
            f"space:{'yes' if self.whitespace else 'no'}|version:1.9.0"
        )


def _added_in_order(columns: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """Each row's columns added left to right in ``float32``, as Python's ``sum`` adds
    tensors (numpy's own sum adds pairwise)."""
    total = np.zeros(len(columns), np.float32)
    for column in columns.T:
        total = total + column
    return total


PRESET = Preset("torchmetrics", "torchmetrics 1.9.0 BLEUScore", parts)
PRESETS = (PRESET,)
"""The presets this module adds to :data:`bleuprint.presets.PRESETS`."""
