"""sacreBLEU 2.6.0's whole recipe: its options as parts, its names, its signature, its layout of
references, and its own arithmetic for the drop-in command.

The presets :meth:`BLEUScore.sacrebleu <bleuprint.BLEUScore.sacrebleu>` (corpus BLEU, as
``sacrebleu.corpus_bleu`` and the ``sacrebleu`` command compute it) and
:meth:`BLEUScore.sacrebleu_sentence <bleuprint.BLEUScore.sacrebleu_sentence>`
(``sacrebleu.sentence_bleu``) are built from :func:`parts`. A result prints sacreBLEU's line
with ``str(result)``, and :func:`signature` gives sacreBLEU's signature of it.
:func:`from_streams` turns sacreBLEU's reference streams into references per hypothesis.

>>> from bleuprint import BLEUScore
>>> from bleuprint.compat import sacrebleu
>>> bleu = BLEUScore.sacrebleu()
>>> result = bleu.corpus_score(["The cat sat on the mat."], [["The cat sat on a mat."]])
>>> print(result)
BLEU = 48.89 85.7/66.7/40.0/25.0 (BP = 1.000 ratio = 1.000 hyp_len = 7 ref_len = 7)
>>> sacrebleu.signature(result)
'nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0'

**Why sacreBLEU's arithmetic is written here a second time.** The engine scores every
definition with the same array operations, on the [0, 1] scale: its scores agree with
sacreBLEU's to about the fifteenth digit, and its printed line, which rounds, is sacreBLEU's
byte for byte. The drop-in command ``bleuprint sacrebleu`` also prints numbers sacreBLEU leaves
unrounded (the JSON of its paired tests: scores, means, intervals, p-values), and those agree to
the last bit only when they are computed with sacreBLEU's own floating-point operations, in its
order and on its number types: ``BLEU._compute_score_from_stats`` on the 0-100 scale, its
bootstrap on ``float32`` statistics, its paired tests on ``int64`` ones. :class:`Arithmetic` is
that code, on the counts bleuprint's engine makes, and :class:`ChrFArithmetic` chrF's (whose
bootstrap scores are ``float32`` numbers in sacreBLEU); nothing but the command uses them.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

import attrs
import numpy as np
import numpy.typing as npt

from bleuprint import brevity, matching, ngrams, smoothing, tokenizers, weights
from bleuprint._engine import BLEUScore
from bleuprint._resampling import (
    Rows,
    Scores,
    SegmentRows,
    bootstrap_sums,
    column_sums,
    mean_and_ci,
    p_value,
    swapped_sums,
)
from bleuprint._result import BLEUResult, Signature
from bleuprint._segments import SegmentStats
from bleuprint._signature import Part, parse_part
from bleuprint._validators import boolean, fits, ngram_order_or_zero, non_negative
from bleuprint.compat._chrf import ChrF, ChrFSegments, ChrFStats, Definition, counting_engines
from bleuprint.exceptions import ConfigurationError, InputError, counted
from bleuprint.presets import Preset
from bleuprint.typing import BoolArray, FloatArray, IntArray, Smoother, Tokenizer

__all__ = [
    "CORPUS_PRESET",
    "MAX_NGRAM_ORDER",
    "OPTIONS",
    "PRESETS",
    "SENTENCEPIECE_TOKENIZERS",
    "SENTENCE_PRESET",
    "SMOOTH_DEFAULTS",
    "TOKENIZERS",
    "VERSION",
    "AnyAddK",
    "AnyFloor",
    "Arithmetic",
    "ChrFArithmetic",
    "ChrFWords",
    "PairedResult",
    "RightStripped",
    "SacreBLEUChrF",
    "Score",
    "chrf",
    "from_streams",
    "parts",
    "sentence_parts",
    "signature",
    "smoother_name",
    "tokenizer_name",
]

# -- sacreBLEU's names and defaults ------------------------------------------------------------

VERSION = "2.6.0"
"""The sacreBLEU version whose numbers, signature and printed line are reproduced."""

MAX_NGRAM_ORDER = 4
"""sacreBLEU's n-gram order when none is given (its command line has no option for it)."""

TOKENIZERS: Mapping[str, Callable[[], Tokenizer]] = MappingProxyType(
    {
        "none": tokenizers.Whitespace,
        "zh": tokenizers.Chinese,
        "13a": tokenizers.Mteval13a,
        "intl": tokenizers.International,
        "char": tokenizers.Chars,
        "ja-mecab": tokenizers.JapaneseMecab,
        "ko-mecab": tokenizers.KoreanMecab,
    }
)
"""sacreBLEU's ``tokenize`` names, in its order, and the tokenizers that reproduce them."""

SENTENCEPIECE_TOKENIZERS: Mapping[str, str] = MappingProxyType(
    {
        "spm": "flores101",
        "flores101": "flores101",
        "flores200": "flores200",
        "spBLEU-1K": "spBLEU-1K",
    }
)
"""sacreBLEU's other ``tokenize`` names, its SentencePiece tokenizers (spBLEU), and the model
each reads (``spm`` is sacreBLEU's old name of ``flores101``): a
:class:`~bleuprint.tokenizers.SentencePiece` of that model, its file read from ``spm_model``
or from where sacreBLEU keeps it (bleuprint never downloads it)."""

SMOOTH_DEFAULTS: Mapping[str, float | None] = MappingProxyType(
    {"none": None, "floor": 0.1, "add-k": 1, "exp": None}
)
"""sacreBLEU's ``smooth_method`` names and the ``smooth_value`` each uses when given none
(``None``: the method takes no value)."""

# sacreBLEU picks the tokenizer from the target language when ``tokenize`` is not given.
_LANGUAGE_TOKENIZERS = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}


OPTIONS = (
    "tokenize",
    "lowercase",
    "smooth_method",
    "smooth_value",
    "max_ngram_order",
    "effective_order",
    "trg_lang",
)
"""The keyword arguments of ``sacrebleu.metrics.BLEU`` that change its numbers."""

# -- the parts ---------------------------------------------------------------------------------


def parts(
    *,
    tokenize: str | None = None,
    lowercase: bool = False,
    smooth_method: str = "exp",
    smooth_value: float | None = None,
    max_ngram_order: int = MAX_NGRAM_ORDER,
    effective_order: bool = False,
    trg_lang: str = "",
    spm_model: str | None = None,
) -> dict[str, Any]:
    """The parts of :class:`~bleuprint.BLEUScore` that compute ``sacrebleu.metrics.BLEU``
    with these arguments (sacreBLEU's names and defaults): ``tokenize`` (``"13a"``, or chosen
    by ``trg_lang``: ``zh``, ``ja-mecab``, ``ko-mecab``; or one of
    :data:`SENTENCEPIECE_TOKENIZERS`, its model file read from ``spm_model`` if given, else
    from where sacreBLEU keeps it), ``lowercase=False``,
    ``smooth_method="exp"`` (``none``, ``floor``, ``add-k``), ``smooth_value`` (``None``: 0.1
    for floor, 1 for add-k), ``max_ngram_order=4``, ``effective_order=False``,
    ``trg_lang=""``. The references of each hypothesis are a list, as everywhere in
    bleuprint; for sacreBLEU's reference streams see :func:`from_streams`.

    >>> sorted(parts(tokenize="intl", smooth_method="floor").items())
    [('ngrams', Contiguous(max_n=4)), ('smoothing', Floor(value=0.1)),
     ('tokenizer', International()), ('weights', Uniform())]
    """
    tokenizer = _tokenizer(
        tokenize if tokenize is not None else _default_tokenize(trg_lang), spm_model
    )
    return {
        "tokenizer": tokenizers.Lowercase(tokenizer) if lowercase else tokenizer,
        "ngrams": ngrams.Contiguous(max_ngram_order),
        "smoothing": _smoother(smooth_method, smooth_value),
        "weights": weights.EffectiveOrder() if effective_order else weights.Uniform(),
    }


sentence_parts = functools.partial(parts, effective_order=True)
"""``sacrebleu.sentence_bleu``: :func:`parts` with ``effective_order=True``.

>>> from bleuprint import BLEUScore
>>> result = BLEUScore.sacrebleu_sentence().sentence_score("The cat sat.", ["The cat sat."])
>>> print(result)
BLEU = 100.00 100.0/100.0/100.0/100.0 (BP = 1.000 ratio = 1.000 hyp_len = 4 ref_len = 4)
>>> signature(result)
'nrefs:1|case:mixed|eff:yes|tok:13a|smooth:exp|version:2.6.0'
"""


def _default_tokenize(trg_lang: str) -> str:
    return _LANGUAGE_TOKENIZERS.get(trg_lang, "13a")


def _tokenizer(name: str, spm_model: str | None) -> Tokenizer:
    if name in SENTENCEPIECE_TOKENIZERS:
        return RightStripped(
            tokenizers.SentencePiece(SENTENCEPIECE_TOKENIZERS[name], path=spm_model)
        )
    if spm_model is not None:
        raise ConfigurationError(
            f"spm_model is the model of a SentencePiece tokenizer "
            f"({', '.join(SENTENCEPIECE_TOKENIZERS)}), not of tokenize={name!r}"
        )
    if name not in TOKENIZERS:
        raise ConfigurationError(
            f"unknown sacreBLEU tokenize {name!r}; choose one of "
            f"{', '.join([*TOKENIZERS, *SENTENCEPIECE_TOKENIZERS])}"
        )
    return TOKENIZERS[name]()


@attrs.frozen
class RightStripped(Part, family="tok", name="rstrip"):
    """Quirk (sacreBLEU's BLEU): the text's trailing whitespace is dropped before ``inner``
    tokenizes it. Its own tokenizers drop it anyway; a SentencePiece model may not (one
    trained without normalization keeps it as a piece), so its SentencePiece tokenizers are
    wrapped in this.

    >>> RightStripped(tokenizers.Whitespace())("a b  ")
    ['a', 'b']
    """

    inner: Tokenizer = attrs.field(validator=fits(Tokenizer))

    def __call__(self, text: str) -> list[str]:
        return self.inner(text.rstrip())

    def tokenize_batch(self, texts: Sequence[str]) -> Iterable[list[str]]:
        """The tokens of many texts, in one call where the inner tokenizer offers one."""
        return tokenizers.tokenize_texts(self.inner, [text.rstrip() for text in texts])


def _smoother(method: str, value: float | None) -> Smoother:
    if method not in SMOOTH_DEFAULTS:
        raise ConfigurationError(
            f"unknown sacreBLEU smooth_method {method!r}; "
            f"choose one of {', '.join(SMOOTH_DEFAULTS)}"
        )
    default = SMOOTH_DEFAULTS[method]
    if default is None:  # sacreBLEU ignores a smooth_value given to 'none' and 'exp'
        return smoothing.Exp() if method == "exp" else smoothing.NoSmoothing()
    given = default if value is None else value
    general, wide = (smoothing.Floor, AnyFloor) if method == "floor" else (smoothing.AddK, AnyAddK)
    try:
        return general(given)
    except ConfigurationError:  # beyond the general part's range: sacreBLEU takes it
        return wide(given)


def _any_number(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    """Any int or float, as sacreBLEU's ``smooth_value`` (``-sv`` is read as a float)."""
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        raise ConfigurationError(
            f"{type(instance).__name__}: {attribute.name} must be a number, got {value!r}"
        )


def _as_sacrebleu_scores(
    smoother: Smoother, stats: SegmentStats, precisions: FloatArray, defined: BoolArray
) -> tuple[FloatArray, BoolArray]:
    """The precisions, where sacreBLEU gives a finite score from them; else an InputError.

    sacreBLEU takes the log of each defined precision: a negative one stops it with a math
    domain error, and an infinite or NaN one makes its score infinite or NaN. (Rows without a
    match are 0 before smoothing, and score 0.)
    """
    used = defined & np.any(stats.matches, axis=1, keepdims=True)
    wrong = used & ~(np.isfinite(100 * precisions) & (precisions >= 0))
    if wrong.any():
        row, order = (int(index) for index in np.argwhere(wrong)[0])
        what = "sacreBLEU stops with a math domain error"
        if not precisions[row, order] < 0:
            what = f"sacreBLEU's score is {float(100 * precisions[row, order])}"
        raise InputError(
            f"sacreBLEU's smoothing {smoother_name(smoother)} makes the {order + 1}-gram "
            f"precision {float(precisions[row, order])!r} (statistics row {row}): {what}; "
            "bleuprint gives no score"
        )
    return precisions, defined


@attrs.frozen
class AnyFloor(smoothing.Floor, family="smooth", name="sacrebleu-floor"):
    """sacreBLEU's ``floor`` with any ``value``, as sacreBLEU takes it: above 1 an unmatched
    order's precision exceeds 1, and the score can exceed 100. The sacreBLEU presets use it
    for the values :class:`~bleuprint.smoothing.Floor` refuses. Where sacreBLEU gives no
    finite score (a negative value floors an order, NaN or infinity does), scoring raises
    :class:`~bleuprint.InputError`.

    >>> from bleuprint import BLEUScore
    >>> bleu = BLEUScore.sacrebleu(smooth_method="floor", smooth_value=2)
    >>> print(bleu.corpus_score(["a b x d y"], [["a b c d e"]]))
    BLEU = 56.23 60.0/25.0/66.7/100.0 (BP = 1.000 ratio = 1.000 hyp_len = 5 ref_len = 5)
    """

    value: float = attrs.field(default=0.1, validator=_any_number)

    def precisions_array(self, stats: SegmentStats) -> tuple[FloatArray, BoolArray]:
        """Every segment's precisions at once, and where they are defined."""
        with np.errstate(invalid="ignore", over="ignore"):  # NaN and infinity are refused
            computed = super().precisions_array(stats)
        return _as_sacrebleu_scores(self, stats, *computed)


@attrs.frozen
class AnyAddK(smoothing.AddK, family="smooth", name="sacrebleu-add-k"):
    """sacreBLEU's ``add-k`` with any ``k``, as sacreBLEU takes it (a negative one included).
    The sacreBLEU presets use it for the values :class:`~bleuprint.smoothing.AddK` refuses.
    Where sacreBLEU gives no finite score, scoring raises :class:`~bleuprint.InputError`."""

    k: float = attrs.field(default=1.0, validator=_any_number)

    def precisions_array(self, stats: SegmentStats) -> tuple[FloatArray, BoolArray]:
        """Every segment's precisions at once, and where they are defined."""
        with np.errstate(invalid="ignore", over="ignore"):  # NaN and infinity are refused
            computed = super().precisions_array(stats)
        return _as_sacrebleu_scores(self, stats, *computed)


# -- the signature -----------------------------------------------------------------------------

# The parts sacreBLEU always uses, whatever its options.
_FIXED_PARTS = {
    "match": matching.Clipped(),
    "len": brevity.Tokens(),
    "ref": brevity.Closest("shorter"),
    "bp": brevity.Exponential(),
}


def signature(of: BLEUResult | Signature) -> str:
    """sacreBLEU's signature of a configuration sacreBLEU can compute: a result's, or a
    configuration's own, without scoring anything: bleuprint's :class:`~bleuprint.Signature`
    (the parts of :meth:`BLEUScore.signature <bleuprint.BLEUScore.signature>`) with the
    number of references of each segment (sacreBLEU's ``nrefs``).

    >>> from bleuprint import BLEUScore, Signature
    >>> bleu = BLEUScore.sacrebleu(smooth_method="floor")
    >>> signature(Signature(bleu.signature().parts, reference_counts=frozenset({2})))
    'nrefs:2|case:mixed|eff:no|tok:13a|smooth:floor[0.10]|version:2.6.0'

    sacreBLEU's signature does not name the n-gram order. A configuration sacreBLEU cannot
    compute (another tokenizer, matching, brevity penalty, ...) raises
    :class:`~bleuprint.ConfigurationError`.
    """
    named = of.signature if isinstance(of, BLEUResult) else of
    configured = {family: _part(family, text) for family, text in named.parts.items()}
    for family, part in _FIXED_PARTS.items():
        if configured[family] != part:
            raise _no_signature(family, named.parts[family])
    if not isinstance(configured["ngram"], ngrams.Contiguous):
        raise _no_signature("ngram", named.parts["ngram"])
    tokenizer, smoother = configured["tok"], configured["smooth"]
    names = {"tok": tokenizer_name(tokenizer), "smooth": smoother_name(smoother)}
    for family, name in names.items():
        if name is None:
            raise _no_signature(family, named.parts[family])
    if not isinstance(configured["weights"], (weights.Uniform, weights.EffectiveOrder)):
        raise _no_signature("weights", named.parts["weights"])
    fields = {
        "nrefs": named.nrefs,
        "case": "lc" if isinstance(tokenizer, tokenizers.Lowercase) else "mixed",
        "eff": "yes" if isinstance(configured["weights"], weights.EffectiveOrder) else "no",
        "tok": names["tok"],
        "smooth": names["smooth"],
        "version": VERSION,
    }
    return "|".join(f"{key}:{value}" for key, value in fields.items())


def tokenizer_name(tokenizer: Tokenizer) -> str | None:
    """sacreBLEU's name of a tokenizer (lowercasing is its ``case`` field), if it has one."""
    if isinstance(tokenizer, tokenizers.Lowercase):
        tokenizer = tokenizer.inner
    if isinstance(tokenizer, (tokenizers.JapaneseMecab, tokenizers.KoreanMecab)):
        # sacreBLEU names these with MeCab's version, e.g. ``ja-mecab-0.996-IPA``.
        return f"{tokenizer.name}-{tokenizer.version}"
    if isinstance(tokenizer, RightStripped) and isinstance(
        tokenizer.inner, tokenizers.SentencePiece
    ):
        model = tokenizer.inner.model
        return model if model in SENTENCEPIECE_TOKENIZERS else None
    return next((name for name, kind in TOKENIZERS.items() if type(tokenizer) is kind), None)


def smoother_name(smoother: Smoother) -> str | None:
    """sacreBLEU's name of a smoother, with its value as sacreBLEU prints it, if it has one."""
    if isinstance(smoother, smoothing.Floor):
        return f"floor[{smoother.value:.2f}]"
    if isinstance(smoother, smoothing.AddK):
        return f"add-k[{smoother.k:.2f}]"
    plain: dict[type, str] = {smoothing.NoSmoothing: "none", smoothing.Exp: "exp"}
    return plain.get(type(smoother))


def _part(family: str, text: str) -> Any:
    try:
        return parse_part(family, text)
    except ConfigurationError:  # a user's own part, unknown to bleuprint and to sacreBLEU
        raise _no_signature(family, text) from None


def _no_signature(family: str, part: str) -> ConfigurationError:
    return ConfigurationError(
        f"no sacreBLEU signature: sacreBLEU has no equivalent of the {family} part {part!r}"
    )


# -- chrF and chrF++: sacreBLEU's CHRF ---------------------------------------------------------


def chrf(
    *,
    char_order: int = 6,
    word_order: int = 0,
    beta: float = 2,
    lowercase: bool = False,
    whitespace: bool = False,
    eps_smoothing: bool = False,
) -> ChrF:
    """``sacrebleu.metrics.CHRF`` with these arguments (sacreBLEU's names and defaults): chrF
    (Popović, 2015), or chrF++ with ``word_order=2`` (Popović, 2017). Its
    ``corpus_score`` is sacreBLEU's ``corpus_score`` and its ``sentence_score`` sacreBLEU's
    ``sentence_score``; a result prints sacreBLEU's line, and its ``signature`` is sacreBLEU's
    (with the metric's name in front, as the ``sacrebleu`` command prints it).

    >>> chrf_plus_plus = chrf(word_order=2)
    >>> result = chrf_plus_plus.corpus_score(["The cat sat on the mat."], [["The cat sat."]])
    >>> print(result)
    chrF2++ = 74.39
    >>> result.signature
    'chrF2++|nrefs:1|case:mixed|eff:yes|nc:6|nw:2|space:no|version:2.6.0'
    """
    return ChrF(SacreBLEUChrF(char_order, word_order, beta, lowercase, whitespace, eps_smoothing))


_PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")


@attrs.frozen
class ChrFWords(Part, family="tok", name="chrf-words"):
    """Quirk (sacreBLEU's chrF++ words): the text split on whitespace, then one ASCII
    punctuation character split off each word of two characters or more, at its end if it
    ends with one, else at its start (so ``"(hi)"`` gives ``"(hi"`` and ``")"``).

    >>> ChrFWords()("(hi) there, 'you.")
    ['(hi', ')', 'there', ',', "'you", '.']
    """

    def __call__(self, text: str) -> list[str]:
        words: list[str] = []
        for word in text.split():
            if len(word) > 1 and word[-1] in _PUNCTUATION:
                words += (word[:-1], word[-1])
            elif len(word) > 1 and word[0] in _PUNCTUATION:
                words += (word[0], word[1:])
            else:
                words.append(word)
        return words


_EPS = 1e-16  # sacreBLEU's stand-in for an undefined precision or recall


@attrs.frozen
class SacreBLEUChrF(Definition):
    """sacreBLEU 2.6.0's chrF definition (see :func:`chrf`), which
    :class:`~bleuprint.compat._chrf.ChrF` counts and scores: character n-grams of orders 1
    to ``char_order`` (of the text without its whitespace, unless ``whitespace``), then
    :class:`ChrFWords` n-grams of orders 1 to ``word_order``, lowercased where ``lowercase``
    says so. Its quirks:

    - a hypothesis's n-grams of an order the reference has none of are recorded as 0;
    - with several references, a segment counts against the one of best chrF, the first of
      equals (``CHRF._compute_segment_statistics``);
    - the score (``CHRF._compute_f_score``) is the F-beta of the precisions and recalls
      averaged over the orders both sides have, or, with ``eps_smoothing``, the mean over all
      orders of each order's F-beta, 1e-16 standing for what is undefined.
    """

    char_order: int = attrs.field(default=6, validator=ngram_order_or_zero)
    word_order: int = attrs.field(default=0, validator=ngram_order_or_zero)
    beta: float = attrs.field(default=2, validator=non_negative)
    lowercase: bool = attrs.field(default=False, validator=boolean)
    whitespace: bool = attrs.field(default=False, validator=boolean)
    eps_smoothing: bool = attrs.field(default=False, validator=boolean)

    scale = 100  # sacreBLEU's scores are on the 0-100 scale

    def __attrs_post_init__(self) -> None:
        if self.char_order + self.word_order == 0:
            raise ConfigurationError("chrF needs at least one order: char_order + word_order is 0")

    @property
    def name(self) -> str:
        """``chrF<beta>``, with a ``+`` per word order."""
        return f"chrF{self.beta}" + "+" * self.word_order

    @functools.cached_property
    def counters(self) -> tuple[BLEUScore, ...]:
        """A counting engine of characters, then one of words (chrF++)."""
        characters = tokenizers.Codepoints() if self.whitespace else tokenizers.Chars()
        return counting_engines(
            [(characters, self.char_order), (ChrFWords(), self.word_order)], self.lowercase
        )

    def recorded(self, pairs: ChrFSegments) -> ChrFSegments:
        """Quirk: where the reference has no n-gram of an order, the hypothesis's count 0."""
        return attrs.evolve(pairs, hypothesis=np.where(pairs.reference > 0, pairs.hypothesis, 0))

    def points(self, stats: ChrFSegments) -> FloatArray:
        """``CHRF._compute_f_score`` of every row, with its operations in its order."""
        factor = self.beta**2
        rows = len(stats)
        score, average_precision, average_recall = np.zeros((3, rows))
        effective = np.zeros(rows, np.int64)
        for order in range(stats.matches.shape[1]):
            hypothesis, reference = stats.hypothesis[:, order], stats.reference[:, order]
            precision = _ratio_or_eps(stats.matches[:, order], hypothesis)
            recall = _ratio_or_eps(stats.matches[:, order], reference)
            denominator = factor * precision + recall
            f_beta = (1 + factor) * precision * recall / np.where(denominator > 0, denominator, 1)
            score += np.where(denominator > 0, f_beta, _EPS)
            both = (hypothesis > 0) & (reference > 0)
            average_precision += np.where(both, precision, 0.0)
            average_recall += np.where(both, recall, 0.0)
            effective += both
        if self.eps_smoothing:
            points: FloatArray = 100 * score / stats.matches.shape[1]
            return points
        counted = np.where(effective > 0, effective, 1)
        average_precision = np.where(effective > 0, average_precision / counted, 0.0)
        average_recall = np.where(effective > 0, average_recall / counted, 0.0)
        summed = factor * average_precision + average_recall
        any_defined = (average_precision + average_recall) != 0
        f_score = (1 + factor) * average_precision * average_recall
        f_score = f_score / np.where(any_defined, summed, 1)
        return np.where(any_defined, 100 * f_score, 0.0)

    def signature(self, stats: ChrFStats) -> str:
        """sacreBLEU's signature, with the metric's name in front (as its command prints it)."""
        counts = stats.reference_counts
        fields = {
            "nrefs": "var" if len(counts) > 1 else next(iter(counts), 0),
            "case": "lc" if self.lowercase else "mixed",
            "eff": "no" if self.eps_smoothing else "yes",
            "nc": self.char_order,
            "nw": self.word_order,
            "space": "yes" if self.whitespace else "no",
            "version": VERSION,
        }
        return "|".join([self.name, *(f"{key}:{value}" for key, value in fields.items())])


def _ratio_or_eps(numerators: IntArray, denominators: IntArray) -> FloatArray:
    """``numerator / denominator`` where the denominator is positive, else 1e-16."""
    ratios: FloatArray = np.where(
        denominators > 0, numerators / np.where(denominators > 0, denominators, 1), _EPS
    )
    return ratios


# -- the layout of references ------------------------------------------------------------------


def from_streams(
    hypotheses: Sequence[str], reference_streams: Sequence[Sequence[str | None]]
) -> list[list[str]]:
    """sacreBLEU's reference streams as bleuprint's references per hypothesis.

    sacreBLEU takes references as *streams*, one list per reference set, each as long as the
    hypotheses: ``reference_streams[k][i]`` is the k-th reference of hypothesis ``i``, or
    ``None`` where that hypothesis has fewer references. As in sacreBLEU 2.6.0, only ``None``
    is dropped: an empty string is a reference of length 0. Where sacreBLEU silently scores
    something other than what was meant, this raises :class:`~bleuprint.InputError`: a stream
    of another length than the hypotheses (sacreBLEU drops the extra segments), a stream given
    as one string (sacreBLEU reads its characters as segments), a segment left without
    references.

    >>> from_streams(["a b", "c"], [["a b", "c"], ["a", ""]])
    [['a b', 'a'], ['c', '']]
    >>> from_streams(["a b", "c"], [["a b"], ["c"]])
    Traceback (most recent call last):
    ...
    bleuprint.exceptions.InputError: reference stream 0 has 1 segment for 2 hypotheses: ...
    """
    _check_segments("hypotheses", hypotheses, allow_none=False)
    if isinstance(reference_streams, str) or not isinstance(reference_streams, Sequence):
        raise InputError(
            "references must be a list of reference streams (lists of strings), "
            f"got {type(reference_streams).__name__}"
        )
    if not reference_streams:
        raise InputError("no reference stream given")
    for number, stream in enumerate(reference_streams):
        _check_segments(f"reference stream {number}", stream, allow_none=True)
        if len(stream) != len(hypotheses):
            raise InputError(
                f"reference stream {number} has {counted(len(stream), 'segment')} for "
                f"{counted(len(hypotheses), 'hypothesis', 'hypotheses')}: give one stream per "
                "reference set, "
                "each as long as the hypotheses"
            )
    references = [
        [reference for reference in segment if reference is not None]
        for segment in zip(*reference_streams)
    ]
    for index, segment in enumerate(references):
        if not segment:
            raise InputError(f"segment {index}: every reference stream has None there")
    return references


def _check_segments(what: str, segments: object, *, allow_none: bool) -> None:
    if isinstance(segments, str):
        # for a reference stream: the usual slip is passing one stream without its list
        hint = " (one reference per hypothesis is one stream: pass [references])"
        raise InputError(
            f"{what} is a single string; it must be a list of strings, one per segment"
            + (hint if allow_none else "")
        )
    if not isinstance(segments, Sequence):
        raise InputError(
            f"{what} must be a list of strings, one per segment, got {type(segments).__name__}"
        )
    for index, segment in enumerate(segments):
        if not isinstance(segment, str) and not (allow_none and segment is None):
            raise InputError(
                f"{what}, segment {index}: expected a string, got {type(segment).__name__}"
            )


# -- sacreBLEU's own arithmetic, for the drop-in command (see the module's docstring) ----------


@attrs.frozen
class Score:
    """One BLEU score as sacreBLEU's ``BLEUScore`` holds it (0-100 scale)."""

    score: float
    precisions: list[float]
    bp: float
    sys_len: int
    ref_len: int

    @property
    def verbose(self) -> str:
        """The details printed after the score (precisions, BP, ratio, lengths)."""
        ratio = self.sys_len / self.ref_len if self.ref_len else 0
        precisions = "/".join(f"{p:.1f}" for p in self.precisions)
        return (
            f"{precisions} (BP = {self.bp:.3f} ratio = {ratio:.3f} hyp_len = {self.sys_len:d} "
            f"ref_len = {self.ref_len:d})"
        )


@attrs.frozen
class PairedResult:
    """One system's outcome of a paired test (sacreBLEU's ``significance.Result``)."""

    score: float
    p_value: float | None = None
    mean: float | None = None
    ci: float | None = None

    def as_json(self) -> dict[str, Any]:
        """The fields of sacreBLEU's JSON for this system."""
        return {"score": self.score, "p_value": self.p_value, "mean": self.mean, "ci": self.ci}


class _Tests:
    """sacreBLEU's bootstrap intervals and paired tests (its ``significance`` module) on the
    rows of a metric's whole-number statistics, one row per segment. A metric gives the score
    of a corpus (:meth:`value`, from the rows summed in Python integers, as sacreBLEU sums its
    lists) and of each row of an array of summed statistics (:meth:`scores`: ``float32``
    ones for the bootstrap, ``int64`` ones for approximate randomization, as sacreBLEU makes
    them)."""

    def value(self, rows: Rows | SegmentRows) -> float:
        """The corpus score of ``rows``."""
        raise NotImplementedError

    def scores(self, stats: npt.NDArray[Any]) -> Scores:
        """The score of each row of summed statistics, as sacreBLEU scores a row of a numpy
        array."""
        raise NotImplementedError

    def resampled(
        self,
        systems: Sequence[SegmentRows],
        seed: int | None,
        resamples: int,
        progress: Callable[[int], object] | None = None,
    ) -> list[Scores]:
        """Each system's score on each bootstrap resample (all drawn alike, from ``seed``), a
        block of resamples at a time, on the ``float32`` sums sacreBLEU makes of them."""
        rng = np.random.default_rng(seed)
        scores: list[list[Scores]] = [[] for _ in systems]
        for sums in bootstrap_sums(rng, systems, resamples, single=True):
            for number, part in enumerate(sums):
                scores[number].append(self.scores(part))
            if progress is not None:
                progress(len(sums[0]) * len(systems))
        return [np.concatenate(system) for system in scores]

    def interval(
        self,
        rows: SegmentRows,
        resamples: int,
        seed: int | None,
        progress: Callable[[int], object] | None = None,
    ) -> tuple[float, float]:
        """The mean and half the 95% interval of ``corpus_score(..., n_bootstrap=resamples)``
        (``Score.estimate_ci``): ``statistics.mean`` of the sorted scores, each the number
        sacreBLEU holds (a Python float, or a numpy ``float32`` for chrF)."""
        # Imported here: it imports fractions and decimal, which scoring without a test (a
        # plain ``bleuprint score``, whose default preset is this module's) does without.
        import statistics  # noqa: PLC0415

        scores = self.resampled([rows], seed, resamples, progress)[0]
        ordered = sorted(scores.tolist() if scores.dtype == np.float64 else list(scores))
        lower = len(ordered) // 40
        half = 0.5 * (ordered[len(ordered) - lower - 1] - ordered[lower])
        return float(statistics.mean(ordered)), float(half)

    def paired(
        self,
        systems: Sequence[SegmentRows],
        *,
        test: str,
        samples: int,
        seed: int | None,
        baseline_seed: int | None,
        progress: Callable[[int], object] | None = None,
    ) -> list[PairedResult]:
        """``PairedTest``: the baseline first (with its bootstrap interval under ``bs``, drawn
        with ``baseline_seed``), then each system against it."""
        baseline = systems[0]
        baseline_score = self.value(baseline)
        if test != "bs":
            results = [PairedResult(baseline_score)]
            for system in systems[1:]:
                system_score = self.value(system)
                rng = np.random.default_rng(seed)
                first_scores, second_scores = self._swapped(
                    rng, samples, baseline, system, progress
                )
                p = p_value(
                    np.abs(first_scores - second_scores), abs(baseline_score - system_score)
                )
                results.append(PairedResult(system_score, p))
            return results
        interval, pairs = self._bootstrap(systems, samples, seed, baseline_seed, progress)
        results = [PairedResult(baseline_score, None, *mean_and_ci(interval))]
        for system, (baseline_scores, system_scores) in zip(systems[1:], pairs):
            system_score = self.value(system)
            sample_differences = np.abs(system_scores - baseline_scores)
            centred = sample_differences - sample_differences.mean()
            p = p_value(centred, abs(baseline_score - system_score))
            results.append(PairedResult(system_score, p, *mean_and_ci(system_scores)))
        return results

    def _bootstrap(
        self,
        systems: Sequence[SegmentRows],
        samples: int,
        seed: int | None,
        baseline_seed: int | None,
        progress: Callable[[int], object] | None,
    ) -> tuple[Scores, list[tuple[Scores, Scores]]]:
        """The baseline's resampled scores for its interval, and for each other system both
        systems' scores on the resamples of its test."""

        if seed is not None and seed == baseline_seed:
            # Every test draws from a generator seeded alike, so the same resamples: they are
            # drawn and summed once, for every system at once (progress counts the corpora
            # sacreBLEU scores: the baseline's once per test).
            count = len(systems)
            counted = None if progress is None else _scaled(progress, 2 * count - 1, count)
            every = self.resampled(systems, seed, samples, counted)
            return every[0], [(every[0], scores) for scores in every[1:]]
        (interval,) = self.resampled(systems[:1], baseline_seed, samples, progress)
        pairs = []
        for system in systems[1:]:
            first, second = self.resampled([systems[0], system], seed, samples, progress)
            pairs.append((first, second))
        return interval, pairs

    def _swapped(
        self,
        rng: np.random.Generator,
        trials: int,
        first: SegmentRows,
        second: SegmentRows,
        progress: Callable[[int], object] | None,
    ) -> tuple[Scores, Scores]:
        """The scores of each trial's two pseudo-systems, of whole-number statistics
        (``numpy.int64``) as sacreBLEU makes them: one takes ``first``'s segment where the coin
        says so and ``second``'s elsewhere, the other the rest."""
        scores: tuple[list[Scores], list[Scores]] = ([], [])
        for sums in swapped_sums(rng, first, second, trials):
            for side, side_sums in enumerate(sums):
                scores[side].append(self.scores(side_sums))
            if progress is not None:
                progress(2 * len(sums[0]))
        return np.concatenate(scores[0]), np.concatenate(scores[1])


@attrs.frozen
class Arithmetic(_Tests):
    """sacreBLEU's ``BLEU._compute_score_from_stats`` and its tests, with the order, smoothing
    and effective order of sacreBLEU's options (:data:`SMOOTH_DEFAULTS` names the methods)."""

    max_ngram_order: int
    smooth_method: str
    smooth_value: float | None
    effective_order: bool

    def rows(self, segments: SegmentStats) -> Rows:
        """The counts of each segment in sacreBLEU's layout, as whole numbers."""
        columns = [
            np.asarray(segments.hypothesis_lengths).reshape(-1, 1),
            np.asarray(segments.reference_lengths).reshape(-1, 1),
            np.asarray(segments.matches).reshape(len(segments), -1),
            np.asarray(segments.totals).reshape(len(segments), -1),
        ]
        rows: Rows = np.rint(np.hstack(columns)).astype(np.int64)
        return rows

    def corpus(self, rows: Rows | SegmentRows) -> Score:
        """The corpus score, summed in Python integers as sacreBLEU sums its lists."""
        return self.score([int(value) for value in column_sums(rows)])

    def value(self, rows: Rows | SegmentRows) -> float:
        """The corpus score of ``rows``."""
        return self.corpus(rows).score

    def score(self, stats: Sequence[Any]) -> Score:
        """``BLEU._compute_score_from_stats``: the numbers keep the type they come in
        (``int``, ``numpy.int64`` or ``numpy.float32``), as they do in sacreBLEU."""
        order = self.max_ngram_order
        correct, total = list(stats[2 : 2 + order]), list(stats[2 + order :])
        sys_len, ref_len = int(stats[0]), int(stats[1])
        value = self.smooth_value
        if value is None:
            value = SMOOTH_DEFAULTS[self.smooth_method]
        bp = 1.0
        if sys_len < ref_len:
            bp = math.exp(1 - ref_len / sys_len) if sys_len > 0 else 0.0
        precisions = [0.0] * order
        if not any(correct):
            return Score(0.0, precisions, bp, sys_len, ref_len)
        smooth_mteval = 1.0
        effective = order
        for n in range(1, order + 1):
            if self.smooth_method == "add-k" and n > 1:
                correct[n - 1] += value
                total[n - 1] += value
            if total[n - 1] == 0:
                break
            if self.effective_order:
                effective = n
            if correct[n - 1] == 0:
                if self.smooth_method == "exp":
                    smooth_mteval *= 2
                    precisions[n - 1] = 100.0 / (smooth_mteval * total[n - 1])
                elif self.smooth_method == "floor":
                    precisions[n - 1] = 100.0 * value / total[n - 1]  # type: ignore[operator]
            else:
                precisions[n - 1] = 100.0 * correct[n - 1] / total[n - 1]
        score = bp * math.exp(sum(self._logs(precisions[:effective])) / effective)
        if not math.isfinite(score):
            raise self._no_score(f"sacreBLEU's score {score}")
        return Score(score, precisions, bp, sys_len, ref_len)

    def _logs(self, precisions: list[float]) -> list[float]:
        if any(precision < 0 for precision in precisions):
            raise self._no_score("a negative precision: sacreBLEU stops with a math domain error")
        return [_log(precision) for precision in precisions]

    def _no_score(self, what: str) -> InputError:
        value = (
            SMOOTH_DEFAULTS[self.smooth_method] if self.smooth_value is None else self.smooth_value
        )
        return InputError(
            f"-s {self.smooth_method} -sv {value} makes {what}; bleuprint gives no score"
        )

    def scores(self, stats: npt.NDArray[Any]) -> Scores:
        """:meth:`score` of each row of ``stats``, as sacreBLEU scores a row of a numpy array
        (its resampled corpora): the same operations, a column at a time, so the same bits.

        numpy computes on the type a Python float meets ``stats``' type in (``float32`` for
        ``float32`` statistics under numpy 2, otherwise ``float64``), as in sacreBLEU's scalar
        code; add-k's counts are stored back into the array's type (sacreBLEU adds to a slice
        of the array); the logarithms, exponentials and the sum of the logarithms are
        Python's own (numpy's vector ``log`` may differ from ``math.log`` in the last bit).
        """
        order, count = self.max_ngram_order, len(stats)
        kind = type(1.0 * stats.dtype.type(1))
        correct, total = stats[:, 2 : 2 + order].copy(), stats[:, 2 + order :].copy()
        scored = np.any(correct != 0, axis=1)  # no match at all: 0 before any smoothing
        effective = np.full(count, order)
        precisions = np.zeros((count, order), dtype=kind)
        with np.errstate(all="ignore"):  # what is not finite ends in an InputError below
            self._precisions(stats, correct, total, precisions, effective, scored)
        return self._combined(stats, precisions[scored], effective[scored], scored)

    def _precisions(  # noqa: PLR0917 - the arrays of one call of scores
        self,
        stats: npt.NDArray[Any],
        correct: npt.NDArray[Any],
        total: npt.NDArray[Any],
        precisions: npt.NDArray[Any],
        effective: IntArray,
        scored: BoolArray,
    ) -> None:
        """sacreBLEU's loop over the orders, for every row at once: fills ``precisions`` and
        ``effective`` (add-k adds to ``correct`` and ``total``)."""
        order, kind = self.max_ngram_order, precisions.dtype.type
        value = (
            SMOOTH_DEFAULTS[self.smooth_method] if self.smooth_value is None else self.smooth_value
        )
        alive = np.ones(len(stats), dtype=bool)  # rows whose loop over the orders goes on
        halvings = np.ones(len(stats), dtype=kind)  # the exp method's smooth_mteval
        for n in range(1, order + 1):
            i = n - 1
            if self.smooth_method == "add-k" and n > 1:
                if stats.dtype.kind != "f" and not math.isfinite(value) and scored.any():  # type: ignore[arg-type]
                    raise self._no_score("whole-number counts that are not finite: sacreBLEU stops")
                correct[:, i] = correct[:, i].astype(kind) + kind(value)
                total[:, i] = total[:, i].astype(kind) + kind(value)
            alive &= total[:, i] != 0
            if self.effective_order:
                effective[alive] = n
            matched, unmatched = alive & (correct[:, i] != 0), alive & (correct[:, i] == 0)
            denominators = total[:, i].astype(kind)
            precisions[matched, i] = (
                kind(100.0) * correct[matched, i].astype(kind) / denominators[matched]
            )
            if self.smooth_method == "exp":
                halvings[unmatched] *= 2
                precisions[unmatched, i] = kind(100.0) / (
                    halvings[unmatched] * denominators[unmatched]
                )
            elif self.smooth_method == "floor":
                precisions[unmatched, i] = kind(100.0 * value) / denominators[unmatched]  # type: ignore[operator]

    def _combined(
        self,
        stats: npt.NDArray[Any],
        precisions: npt.NDArray[Any],
        effective: IntArray,
        scored: BoolArray,
    ) -> Scores:
        """The scores of the rows with a match, from their precisions and brevity penalty."""
        used = np.arange(precisions.shape[1]) < effective[:, None]
        if np.any(precisions[used] < 0):
            raise self._no_score("a negative precision: sacreBLEU stops with a math domain error")
        order = precisions.shape[1]
        logs = list(map(_log, precisions.ravel().tolist()))
        sums = [
            sum(logs[start : start + size])
            for start, size in zip(range(0, len(logs), order), effective.tolist())
        ]
        exponentials = np.array(
            [math.exp(total / size) for total, size in zip(sums, effective.tolist())]
        )
        scores = np.zeros(len(stats))
        scores[scored] = _brevity_penalties(stats[scored]) * exponentials
        if not np.all(np.isfinite(scores)):
            raise self._no_score(f"sacreBLEU's score {scores[~np.isfinite(scores)][0]}")
        return scores


@attrs.frozen
class ChrFArithmetic(_Tests):
    """sacreBLEU's ``CHRF._compute_f_score`` as its command computes it, and its tests. On
    whole-number statistics (a corpus's, a segment's, approximate randomization's ``int64``
    sums) it computes in double precision, as :meth:`SacreBLEUChrF.points` does. On the
    ``float32`` sums of the bootstrap, sacreBLEU's scalar code computes in ``float32`` wherever
    a count enters an operation and in double precision where only its stand-in 1e-16 does
    (under numpy 2 a Python number takes the type of the numpy number it meets): so does
    :meth:`scores`, whose scores are then ``float32`` numbers, as sacreBLEU's."""

    definition: SacreBLEUChrF

    def rows(self, segments: ChrFSegments) -> Rows:
        """The counts of each segment: the hypothesis's n-grams of each order, then the
        reference's, then the matches."""
        rows: Rows = np.hstack([segments.hypothesis, segments.reference, segments.matches])
        return rows.astype(np.int64)

    def value(self, rows: Rows | SegmentRows) -> float:
        """The corpus score of ``rows``."""
        return float(self.scores(column_sums(rows)[None])[0])

    def scores(self, stats: npt.NDArray[Any]) -> Scores:
        """The score of each row: ``float32`` numbers for ``float32`` statistics (double
        precision ones in the array where sacreBLEU's is of double precision too: a row it
        scores without a single ``float32`` operation, when nothing matched)."""
        hypothesis, reference, matches = np.hsplit(stats, 3)
        if stats.dtype != np.float32:
            counts = np.ones(len(stats), np.int64)
            points: Scores = self.definition.points(
                ChrFSegments(hypothesis, reference, matches, counts)
            )
            return points
        value = self._single_precision(hypothesis, reference, matches)
        return value.value.astype(np.float32) if value.single.all() else value.value

    def _single_precision(
        self, hypothesis: FloatArray, reference: FloatArray, matches: FloatArray
    ) -> _Typed:
        """``_compute_f_score``'s operations, in its order, on ``float32`` counts."""
        rows, orders = hypothesis.shape
        definition = self.definition

        def python(value: float | IntArray) -> _Typed:
            return _Typed(
                np.broadcast_to(np.asarray(value, np.float64), (rows,)), np.zeros(rows, bool)
            )

        def count(array: FloatArray, order: int) -> _Typed:
            return _Typed(array[:, order].astype(np.float64), np.ones(rows, bool))

        eps, zero = python(_EPS), python(0.0)
        factor = definition.beta**2
        score, average_precision, average_recall = zero, zero, zero
        effective = np.zeros(rows, np.int64)
        for order in range(orders):
            hyp, ref, match = (count(side, order) for side in (hypothesis, reference, matches))
            precision = _Typed.where(hyp.value > 0, match / hyp, eps)
            recall = _Typed.where(ref.value > 0, match / ref, eps)
            denominator = precision * factor + recall
            f_beta = precision * (1 + factor) * recall / denominator
            score += _Typed.where(denominator.value > 0, f_beta, eps)
            both = (hyp.value > 0) & (ref.value > 0)
            average_precision = _Typed.where(both, average_precision + precision, average_precision)
            average_recall = _Typed.where(both, average_recall + recall, average_recall)
            effective += both
        if definition.eps_smoothing:
            return score * 100 / python(orders)
        counted = python(np.maximum(effective, 1))
        average_precision = _Typed.where(effective > 0, average_precision / counted, zero)
        average_recall = _Typed.where(effective > 0, average_recall / counted, zero)
        f_score = average_precision * (1 + factor) * average_recall
        f_score /= average_precision * factor + average_recall
        return _Typed.where((average_precision + average_recall).value != 0, f_score * 100, zero)


@attrs.frozen
class _Typed:
    """Numbers of many rows as sacreBLEU's scalar code holds them: each row's value, and
    whether it is a numpy ``float32`` (else a Python number). An operation gives a ``float32``
    where either operand is one (the Python number rounded to ``float32`` first), else a
    double. Python numbers operate from the right (``score * 100``) with the same result as
    from the left, the operations being commutative."""

    value: FloatArray
    single: BoolArray

    @staticmethod
    def where(condition: BoolArray, chosen: _Typed, other: _Typed) -> _Typed:
        """``chosen`` where ``condition`` holds, else ``other``."""
        return _Typed(
            np.where(condition, chosen.value, other.value),
            np.where(condition, chosen.single, other.single),
        )

    def _operation(self, other: _Typed | float, operation: Callable[[Any, Any], Any]) -> _Typed:
        if not isinstance(other, _Typed):
            other = _Typed(np.full(len(self.value), other), np.zeros(len(self.value), bool))
        single = self.single | other.single
        with np.errstate(all="ignore"):  # both are computed; the other type's is dropped
            doubles = operation(self.value, other.value)
            singles = operation(self.value.astype(np.float32), other.value.astype(np.float32))
        return _Typed(np.where(single, singles.astype(np.float64), doubles), single)

    def __add__(self, other: _Typed | float) -> _Typed:
        return self._operation(other, np.add)

    def __mul__(self, other: _Typed | float) -> _Typed:
        return self._operation(other, np.multiply)

    def __truediv__(self, other: _Typed | float) -> _Typed:
        return self._operation(other, np.true_divide)


def _scaled(progress: Callable[[int], object], times: int, per: int) -> Callable[[int], object]:
    """``progress``, told ``times`` units for every ``per`` done."""
    return lambda done: progress(done // per * times)


def _brevity_penalties(stats: npt.NDArray[Any]) -> Scores:
    """sacreBLEU's brevity penalty of each row, from its whole-number lengths."""
    hypotheses, references = stats[:, 0].astype(np.float64), stats[:, 1].astype(np.float64)
    penalties = np.ones(len(stats))
    short = hypotheses < references
    penalties[short & (hypotheses == 0)] = 0.0
    exponents = 1 - references[short & (hypotheses > 0)] / hypotheses[short & (hypotheses > 0)]
    penalties[short & (hypotheses > 0)] = [math.exp(exponent) for exponent in exponents.tolist()]
    return penalties


def _log(value: float) -> float:
    return -9999999999 if value == 0.0 else math.log(value)


# sacreBLEU's command prints 0-100 with one decimal (its -w 1).
CORPUS_PRESET = Preset(
    "sacrebleu", "sacreBLEU 2.6.0 corpus BLEU (13a, exp)", parts, decimals=1, scale=100
)
SENTENCE_PRESET = Preset(
    "sacrebleu-sentence",
    "sacreBLEU 2.6.0 sentence BLEU (effective order)",
    sentence_parts,
    decimals=1,
    scale=100,
)
PRESETS = (
    CORPUS_PRESET,
    SENTENCE_PRESET,
)
"""The presets this module adds to :data:`bleuprint.presets.PRESETS`."""
