"""fairseq's ``bleu`` scorer (``fairseq/scoring/bleu.py`` ``Scorer`` with ``libbleu.cpp``).

fairseq scores token ids, one reference per hypothesis, BLEU-4 with uniform weights and the
exponential brevity penalty on corpus sums; ``one_init=True`` (``reset(one_init=True)``)
starts the matches and totals of orders 2 to 4 at 1. Its quirks, as parts of this module:

- each sequence loses its leading ``pad`` ids and its trailing ``eos`` and ``pad`` ids, but
  never its first position, so an empty line (only ``eos``) keeps that ``eos`` as a token
  (:class:`FairseqTrimmed`, :class:`FairseqLength`);
- an ``unk`` id in a reference never matches; n-grams are matched by a 64-bit FNV hash of
  their ids' bytes, each byte read as a signed char, so some distinct n-grams match
  (:class:`FairseqHashMatching`: ids 32510 and 32768 do).

The ids are given as tokens written in decimal (``["5", "6", "2"]``), or as text of such tokens
(``"5 6 2"``); :func:`as_tokens` writes a list or tensor of ids so.

>>> from bleuprint import BLEUScore
>>> bleu = BLEUScore.fairseq()
>>> hypothesis, reference = as_tokens([1, 5, 6, 7, 8, 9, 2, 1]), as_tokens([5, 6, 7, 8, 9, 2])
>>> bleu.compute(hypothesis, [reference])  # the padding and eos are trimmed
1.0
>>> BLEUScore.fairseq().compute("32510 5 2", ["32768 5 2"])  # a hash collision; no trigram
0.0
>>> BLEUScore.fairseq(one_init=True).compute("32510 5 2", ["32768 5 2"])
1.0
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

import attrs

from bleuprint import ngrams, smoothing
from bleuprint._signature import Part
from bleuprint._token_ids import NEVER_MATCHING
from bleuprint.exceptions import ConfigurationError, InputError
from bleuprint.presets import Preset
from bleuprint.typing import Ngram, NgramCounts, Smoother

__all__ = [
    "PRESET",
    "PRESETS",
    "FairseqHashMatching",
    "FairseqLength",
    "FairseqTrimmed",
    "as_tokens",
    "fnv_hash",
    "parts",
]

ORDER = 4
"""fairseq's ``BleuStat`` has four orders."""
UNK_IN_REFERENCE = -999
"""What fairseq writes over a reference's ``unk`` ids before matching."""
_MASK = (1 << 64) - 1
_FNV_OFFSET = 14695981039346656037
_FNV_PRIME = 0x100000001B3


def parts(pad: int = 1, eos: int = 2, unk: int = 3, one_init: bool = False) -> dict[str, Any]:
    """The parts that compute ``Scorer(BleuConfig(pad, eos, unk))`` after
    ``reset(one_init)`` (fairseq's names and defaults), with ``score(order=4) / 100``."""
    for name, value in (("pad", pad), ("eos", eos), ("unk", unk)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ConfigurationError(f"{name} must be an integer id, got {value!r}")
    if not isinstance(one_init, bool):
        raise ConfigurationError(f"one_init must be True or False, got {one_init!r}")
    smoother: Smoother = smoothing.AddOne() if one_init else smoothing.NoSmoothing()
    return {
        "ngrams": FairseqTrimmed(pad, eos),
        "matching": FairseqHashMatching(unk),
        "length": FairseqLength(pad, eos),
        "smoothing": smoother,
    }


def as_tokens(ids: Iterable[Any]) -> list[str]:
    """A sequence of ids (a list, a numpy array, a tensor) as the decimal tokens that the
    fairseq parts read.

    >>> as_tokens([4, 5, 2])
    ['4', '5', '2']
    """
    tolist = getattr(ids, "tolist", None)
    values = tolist() if callable(tolist) else list(ids)
    return [str(_id(value)) for value in values]


def _id(value: object) -> int:
    """A token as fairseq's ``IntTensor`` holds it: a 32-bit signed integer."""
    try:
        number = int(value) if isinstance(value, (int, str)) else None
    except ValueError:
        number = None
    if isinstance(value, str) and value.startswith(NEVER_MATCHING):
        raise InputError(
            "the fairseq preset handles unk itself: give BLEUScore.fairseq(unk=...) the id, "
            "not TokenIds(..., unk=...)"
        )
    if number is None or isinstance(value, bool) or not -(1 << 31) <= number < 1 << 31:
        raise InputError(
            f"fairseq scores 32-bit integer token ids; got the token {value!r} "
            "(give ids as decimal tokens: compat.fairseq.as_tokens(ids))"
        )
    return number


def _trimmed(tokens: Sequence[str], pad: int, eos: int) -> list[int]:
    """libbleu's ``bleu_trim``: leading pads off, then trailing eos and pads, never index 0."""
    ids = [_id(token) for token in tokens]
    start = 0
    while start < len(ids) and ids[start] == pad:
        start += 1
    ids = ids[start:]
    end = len(ids) - 1
    while end > 0 and ids[end] in (eos, pad):
        end -= 1
    return ids[: end + 1]


@attrs.frozen
class FairseqTrimmed(Part, family="ngram", name="fairseq-trimmed"):
    """Quirk (fairseq): the contiguous n-grams of orders 1 to 4 of a sequence of ids trimmed
    as ``libbleu.cpp`` trims: leading ``pad`` ids, then trailing ``eos`` and ``pad`` ids, but
    never the first position (an ``eos`` alone stays). fairseq leaves a sequence of padding
    only undefined (it reads before its buffer); here it has no n-gram.

    >>> sorted(FairseqTrimmed(pad=1, eos=2)(["1", "5", "2", "6", "2", "1"]))
    [('2',), ('2', '6'), ('5',), ('5', '2'), ('5', '2', '6'), ('6',)]
    >>> FairseqTrimmed(pad=1, eos=2)(["2"])
    Counter({('2',): 1})
    """

    pad: int = 1
    eos: int = 2

    @property
    def max_n(self) -> int:
        """fairseq counts orders 1 to 4."""
        return ORDER

    def __call__(self, tokens: Sequence[str]) -> Counter[Ngram]:
        return ngrams.Contiguous(ORDER)([str(i) for i in _trimmed(tokens, self.pad, self.eos)])


@attrs.frozen
class FairseqLength(Part, family="len", name="fairseq-length"):
    """Quirk (fairseq): a sequence's length after :class:`FairseqTrimmed`'s trimming.

    >>> FairseqLength(pad=1, eos=2)(None, ["1", "5", "6", "2", "1"])
    2
    """

    pad: int = 1
    eos: int = 2

    def __call__(self, text: str | None, tokens: Sequence[str]) -> int:
        return len(_trimmed(tokens, self.pad, self.eos))


def fnv_hash(ids: Sequence[int]) -> int:
    """libbleu's ``bleu_hash``: 64-bit FNV-1a over the ids' bytes (32-bit little-endian), each
    byte sign-extended as a signed char.

    >>> fnv_hash([32510]) == fnv_hash([32768]), fnv_hash([5]) == fnv_hash([6])
    (True, False)
    """
    value = _FNV_OFFSET
    for number in ids:
        for byte in (number & 0xFFFFFFFF).to_bytes(4, "little"):
            value ^= (byte - 256 if byte >= 128 else byte) & _MASK
            value = (value * _FNV_PRIME) & _MASK
    return value


@attrs.frozen
class FairseqHashMatching(Part, family="match", name="fairseq-hash"):
    """Quirk (fairseq): one reference per hypothesis; its ``unk`` ids become -999, so they
    never match; a reference n-gram matches a hypothesis n-gram of the same
    :func:`fnv_hash`, each hypothesis n-gram at most once (clipped counts by hash, so two
    distinct n-grams can match).

    >>> from collections import Counter
    >>> hypothesis = Counter({("32510",): 1, ("3",): 1})
    >>> FairseqHashMatching()(hypothesis, [Counter({("32768",): 1, ("3",): 1})], 1)
    [1]
    """

    unk: int = 3

    def __call__(
        self, hypothesis: NgramCounts, references: Sequence[NgramCounts], max_n: int
    ) -> list[int]:
        if len(references) != 1:
            raise InputError(
                f"fairseq's scorer takes one reference per hypothesis, got {len(references)}"
            )
        in_hypothesis = _by_hash(hypothesis.items(), None)
        in_reference = _by_hash(references[0].items(), self.unk)
        matches = [0] * max_n
        for (order, value), count in in_hypothesis.items():
            matches[order - 1] += min(count, in_reference.get((order, value), 0))
        return matches


def _by_hash(counts: Iterable[tuple[Ngram, int]], unk: int | None) -> Counter[tuple[int, int]]:
    """The counts of n-grams by order and hash; ``unk`` ids (a reference's) written as -999."""
    summed: Counter[tuple[int, int]] = Counter()
    for ngram, count in counts:
        ids = [UNK_IN_REFERENCE if number == unk else number for number in map(_id, ngram)]
        summed[len(ngram), fnv_hash(ids)] += count
    return summed


# Its result_string prints "BLEU4 = 29.13, ...": 0-100, two decimals.
PRESET = Preset(
    "fairseq", "fairseq bleu scorer (libbleu)", parts, decimals=2, takes="token ids", scale=100
)
PRESETS = (PRESET,)
"""The presets this module adds to :data:`bleuprint.presets.PRESETS`."""
