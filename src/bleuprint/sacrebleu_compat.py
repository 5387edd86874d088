"""sacreBLEU 2.6.0 on bleuprint's engine: its options as parts, its layout, its signature.

The presets :meth:`BLEUScore.sacrebleu <bleuprint.BLEUScore.sacrebleu>` and
:meth:`BLEUScore.sacrebleu_sentence <bleuprint.BLEUScore.sacrebleu_sentence>` are built from
:func:`parts`; a result prints sacreBLEU's line with ``str(result)`` and gives its signature
with :attr:`BLEUResult.sacrebleu_signature <bleuprint.BLEUResult.sacrebleu_signature>`.

sacreBLEU takes references as *streams*, one list per reference set, each as long as the
hypotheses; bleuprint takes one list of references per hypothesis. :func:`from_streams`
converts, and refuses the inputs that sacreBLEU silently mis-scores:

>>> from bleuprint import BLEUScore, sacrebleu_compat
>>> hypotheses = ["The dog bit the man.", "It wasn't surprising."]
>>> streams = [["The dog bit the man.", "It was not unexpected."],
...            ["The dog had bit the man.", None]]
>>> references = sacrebleu_compat.from_streams(hypotheses, streams)
>>> references
[['The dog bit the man.', 'The dog had bit the man.'], ['It was not unexpected.']]
>>> result = BLEUScore.sacrebleu().corpus_score(hypotheses, references)
>>> print(result)
BLEU = 63.98 80.0/62.5/66.7/75.0 (BP = 0.905 ratio = 0.909 hyp_len = 10 ref_len = 11)
>>> result.sacrebleu_signature
'nrefs:var|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from bleuprint import brevity, matching, ngrams, smoothing, tokenizers, weights
from bleuprint._signature import parse_part
from bleuprint.exceptions import ConfigurationError, InputError
from bleuprint.typing import Smoother, Tokenizer

if TYPE_CHECKING:
    from bleuprint._result import BLEUResult

__all__ = [
    "OPTIONS",
    "SMOOTH_DEFAULTS",
    "TOKENIZERS",
    "VERSION",
    "from_streams",
    "parts",
    "signature",
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
    with these arguments (sacreBLEU's names and defaults).

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


def from_streams(
    hypotheses: Sequence[str], reference_streams: Sequence[Sequence[str | None]]
) -> list[list[str]]:
    """sacreBLEU's reference streams as bleuprint's references per hypothesis.

    ``reference_streams[k][i]`` is the k-th reference of hypothesis ``i``, or ``None`` where
    that hypothesis has fewer references. As in sacreBLEU 2.6.0, only ``None`` is dropped: an
    empty string is a reference of length 0. Where sacreBLEU silently scores something other
    than what was meant, this raises :class:`~bleuprint.InputError`: a stream of another
    length than the hypotheses (sacreBLEU drops the extra segments), a stream given as one
    string (sacreBLEU reads its characters as segments), a segment left without references.

    >>> from_streams(["a b", "c"], [["a b", "c"], ["a", ""]])
    [['a b', 'a'], ['c', '']]
    >>> from_streams(["a b", "c"], [["a b"], ["c"]])
    Traceback (most recent call last):
    ...
    bleuprint.exceptions.InputError: reference stream 0 has 1 segment but there are 2 ...
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
                f"reference stream {number} has {_segments(len(stream))} but there are "
                f"{len(hypotheses)} hypotheses: give one stream per reference set, "
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


def _segments(count: int) -> str:
    return f"{count} segment" + ("" if count == 1 else "s")


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
    names = {
        "tok": getattr(tokenizer, "sacrebleu_name", None),
        "smooth": getattr(smoother, "sacrebleu_name", None),
    }
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


def _part(family: str, text: str) -> Any:
    try:
        return parse_part(family, text)
    except ConfigurationError:  # a user's own part, unknown to bleuprint and to sacreBLEU
        raise _no_signature(family, text) from None


def _no_signature(family: str, part: str) -> ConfigurationError:
    return ConfigurationError(
        f"no sacreBLEU signature: sacreBLEU has no equivalent of the {family} part {part!r}"
    )
