"""sacreBLEU 2.6.0 on bleuprint's engine: its options as parts, its names, its signature.

The presets :meth:`BLEUScore.sacrebleu <bleuprint.BLEUScore.sacrebleu>` (corpus BLEU, as
``sacrebleu.corpus_bleu`` and the ``sacrebleu`` command compute it) and
:meth:`BLEUScore.sacrebleu_sentence <bleuprint.BLEUScore.sacrebleu_sentence>`
(``sacrebleu.sentence_bleu``) are built from :func:`parts`. A result prints sacreBLEU's line
with ``str(result)``, and :func:`signature` gives sacreBLEU's signature of it. For sacreBLEU's
layout of references as streams, see :func:`bleuprint.sacrebleu_compat.from_streams`.

>>> from bleuprint import BLEUScore
>>> from bleuprint.compat import sacrebleu
>>> bleu = BLEUScore.sacrebleu()
>>> result = bleu.corpus_score(["The cat sat on the mat."], [["The cat sat on a mat."]])
>>> print(result)
BLEU = 48.89 85.7/66.7/40.0/25.0 (BP = 1.000 ratio = 1.000 hyp_len = 7 ref_len = 7)
>>> sacrebleu.signature(result)
'nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0'
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from bleuprint import brevity, matching, ngrams, smoothing, tokenizers, weights
from bleuprint._result import BLEUResult
from bleuprint._signature import parse_part
from bleuprint.exceptions import ConfigurationError
from bleuprint.presets import Preset
from bleuprint.typing import Smoother, Tokenizer

__all__ = [
    "CORPUS_PRESET",
    "OPTIONS",
    "PRESETS",
    "SENTENCE_PRESET",
    "SMOOTH_DEFAULTS",
    "TOKENIZERS",
    "VERSION",
    "parts",
    "sentence_parts",
    "signature",
    "smoother_name",
    "tokenizer_name",
]

VERSION = "2.6.0"
"""The sacreBLEU version whose numbers, signature and printed line are reproduced."""

TOKENIZERS: Mapping[str, Callable[[], Tokenizer]] = MappingProxyType(
    {
        "none": tokenizers.Whitespace,
        "13a": tokenizers.Mteval13a,
        "intl": tokenizers.International,
        "char": tokenizers.Chars,
        "zh": tokenizers.Chinese,
        "ja-mecab": tokenizers.JapaneseMecab,
        "ko-mecab": tokenizers.KoreanMecab,
    }
)
"""sacreBLEU's ``tokenize`` names and the tokenizers that reproduce them."""

SMOOTH_DEFAULTS: Mapping[str, float | None] = MappingProxyType(
    {"none": None, "floor": 0.1, "add-k": 1, "exp": None}
)
"""sacreBLEU's ``smooth_method`` names and the ``smooth_value`` each uses when given none."""

# sacreBLEU picks the tokenizer from the target language when ``tokenize`` is not given.
_LANGUAGE_TOKENIZERS = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}
_UNSUPPORTED_TOKENIZERS = ("spm", "flores101", "flores200", "spBLEU-1K")


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


def parts(
    *,
    tokenize: str | None = None,
    lowercase: bool = False,
    smooth_method: str = "exp",
    smooth_value: float | None = None,
    max_ngram_order: int = 4,
    effective_order: bool = False,
    trg_lang: str = "",
) -> dict[str, Any]:
    """The parts of :class:`~bleuprint.BLEUScore` that compute ``sacrebleu.metrics.BLEU``
    with these arguments (sacreBLEU's names and defaults): ``tokenize`` (``"13a"``, or chosen
    by ``trg_lang``: ``zh``, ``ja-mecab``, ``ko-mecab``), ``lowercase=False``,
    ``smooth_method="exp"`` (``none``, ``floor``, ``add-k``), ``smooth_value`` (``None``: 0.1
    for floor, 1 for add-k), ``max_ngram_order=4``, ``effective_order=False``,
    ``trg_lang=""``. The references of each hypothesis are a list, as everywhere in
    bleuprint; for sacreBLEU's reference streams see
    :func:`bleuprint.sacrebleu_compat.from_streams`.

    >>> sorted(parts(tokenize="intl", smooth_method="floor").items())
    [('ngrams', Contiguous(max_n=4)), ('smoothing', Floor(value=0.1)),
     ('tokenizer', International()), ('weights', Uniform())]
    """
    tokenizer = _tokenizer(tokenize if tokenize is not None else _default_tokenize(trg_lang))
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


def _tokenizer(name: str) -> Tokenizer:
    if name in _UNSUPPORTED_TOKENIZERS:
        raise ConfigurationError(
            f"tokenize={name!r} (SentencePiece) is not supported by bleuprint; "
            f"choose one of {', '.join(TOKENIZERS)}"
        )
    if name not in TOKENIZERS:
        raise ConfigurationError(
            f"unknown sacreBLEU tokenize {name!r}; choose one of {', '.join(TOKENIZERS)}"
        )
    return TOKENIZERS[name]()


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
    return smoothing.Floor(given) if method == "floor" else smoothing.AddK(given)


# The parts sacreBLEU always uses, whatever its options.
_FIXED_PARTS = {
    "match": matching.Clipped(),
    "len": brevity.Tokens(),
    "ref": brevity.Closest("shorter"),
    "bp": brevity.Exponential(),
}


def signature(result: BLEUResult) -> str:
    """sacreBLEU's signature for a result whose configuration sacreBLEU can compute.

    sacreBLEU's signature does not name the n-gram order. A configuration sacreBLEU cannot
    compute (another tokenizer, matching, brevity penalty, ...) raises
    :class:`~bleuprint.ConfigurationError`.
    """
    configured = {family: _part(family, text) for family, text in result.signature.parts.items()}
    for family, part in _FIXED_PARTS.items():
        if configured[family] != part:
            raise _no_signature(family, result.signature.parts[family])
    if not isinstance(configured["ngram"], ngrams.Contiguous):
        raise _no_signature("ngram", result.signature.parts["ngram"])
    tokenizer, smoother = configured["tok"], configured["smooth"]
    names = {"tok": tokenizer_name(tokenizer), "smooth": smoother_name(smoother)}
    for family, name in names.items():
        if name is None:
            raise _no_signature(family, result.signature.parts[family])
    if not isinstance(configured["weights"], (weights.Uniform, weights.EffectiveOrder)):
        raise _no_signature("weights", result.signature.parts["weights"])
    fields = {
        "nrefs": result.signature.nrefs,
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
        return f"{tokenizer.name}-{tokenizer.mecab_version}"
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


CORPUS_PRESET = Preset("sacrebleu", "sacreBLEU 2.6.0 corpus BLEU (13a, exp)", parts)
SENTENCE_PRESET = Preset(
    "sacrebleu-sentence", "sacreBLEU 2.6.0 sentence BLEU (effective order)", sentence_parts
)
PRESETS = (
    CORPUS_PRESET,
    SENTENCE_PRESET,
)
"""The presets this module adds to :data:`bleuprint.presets.PRESETS`."""
