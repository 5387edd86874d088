"""coco-caption's ``Bleu`` (pycocoevalcap 1.2), the image-captioning standard.

BLEU-``n`` on whitespace tokens against the closest reference length (ties: the shorter),
without smoothing but with two constants (:class:`CocoConstants`, :class:`CocoPenalty`): every
precision is ``(matches + 1e-15) / (totals + 1e-9)``, and the length ratio of the brevity
penalty is ``(c + 1e-15) / (r + 1e-9)``. So a segment without a 4-gram match scores a tiny
positive number, not 0. ``Bleu(4)`` reports BLEU-1 to BLEU-4 at once: :func:`orders` gives the
weights that :meth:`~bleuprint.BLEUScore.score_weights` scores them with. ``tokenizer="ptb"``
reads raw text as pycocoevalcap's ``PTBTokenizer`` does (:class:`PTBStyle`).

>>> from bleuprint import BLEUScore
>>> bleu = BLEUScore.coco()
>>> stats = bleu.count(["a cat sat on a mat"], [["a cat sat on the mat"]])
>>> [round(result.score, 4) for result in bleu.score_weights(stats, orders(4))]
[0.8333, 0.7071, 0.63, 0.5373]
>>> round(bleu.compute("a cat sat on", ["a cat sat in"]), 6)  # no 4-gram match: not 0
0.000126
"""

from __future__ import annotations

import math
import re
from typing import Any

import attrs
import numpy as np
import regex

from bleuprint import ngrams, tokenizers
from bleuprint import weights as weight_parts
from bleuprint._exact import exactly
from bleuprint._segments import SegmentStats
from bleuprint._signature import Part
from bleuprint.exceptions import ConfigurationError
from bleuprint.presets import Preset
from bleuprint.typing import BoolArray, FloatArray, Tokenizer

__all__ = [
    "PRESET",
    "PRESETS",
    "CocoConstants",
    "CocoPenalty",
    "PTBStyle",
    "orders",
    "parts",
]

TINY = 1e-15
"""Added to the matches and to the hypothesis length."""
SMALL = 1e-9
"""Added to the totals and to the reference length."""


def parts(n: int = 4, tokenizer: str | None = None) -> dict[str, Any]:
    """The parts that compute ``Bleu(n)``'s BLEU-``n``: ``tokenizer=None`` splits the strings
    on whitespace, as ``Bleu`` does with what it is given; ``"ptb"`` tokenizes raw text as
    ``PTBTokenizer`` does first."""
    if tokenizer not in (None, "ptb"):
        raise ConfigurationError(f'tokenizer must be None or "ptb", got {tokenizer!r}')
    words: Tokenizer = PTBStyle() if tokenizer == "ptb" else tokenizers.Whitespace()
    return {
        "tokenizer": words,
        "ngrams": ngrams.Contiguous(n),
        "smoothing": CocoConstants(),
        "brevity_penalty": CocoPenalty(),
    }


def orders(n: int) -> tuple[weight_parts.Explicit, ...]:
    """The weights of BLEU-1 to BLEU-``n``, which ``Bleu(n)`` reports together: pass them to
    :meth:`~bleuprint.BLEUScore.score_weights` with statistics counted up to order ``n``."""
    return tuple(weight_parts.Explicit((1 / k,) * k) for k in range(1, n + 1))


@attrs.frozen
class CocoConstants(Part, family="smooth", name="coco-constants"):
    """Quirk (coco-caption): every precision is ``(matches + 1e-15) / (totals + 1e-9)``, so
    no precision is 0 or undefined.

    >>> from bleuprint import BLEUStats
    >>> from bleuprint import smoothing
    >>> smoothing.precisions(CocoConstants(), BLEUStats((3, 0), (4, 0), 4, 4))
    [0.7499999998125002, 1e-06]
    """

    def precisions_array(self, stats: SegmentStats) -> tuple[FloatArray, BoolArray]:
        """Every row's precisions, all defined."""
        precisions = (stats.matches + TINY) / (stats.totals + SMALL)
        return precisions, np.ones(precisions.shape, np.bool_)


@attrs.frozen
class CocoPenalty(Part, family="bp", name="coco-ratio"):
    """Quirk (coco-caption): ``exp(1 - 1 / ratio)`` where the ratio
    ``(c + 1e-15) / (r + 1e-9)`` is below 1, else 1; an empty hypothesis gets 0.

    >>> from bleuprint import brevity
    >>> round(brevity.penalty(CocoPenalty(), 3, 6), 4)
    0.3679
    """

    def penalty_array(
        self, hypothesis_lengths: FloatArray, reference_lengths: FloatArray
    ) -> FloatArray:
        """The penalty of each pair of lengths."""
        ratios = (hypothesis_lengths + TINY) / (reference_lengths + SMALL)
        penalties = np.ones(len(ratios))
        short = ratios < 1
        penalties[short] = exactly(math.exp, 1 - 1 / ratios[short])
        return penalties


# -- PTBTokenizer ------------------------------------------------------------------------------
#
# pycocoevalcap runs Stanford CoreNLP 3.4.1's PTBTokenizer (-preserveLines -lowerCase), then
# drops the tokens in its PUNCTUATIONS list. The rules below are the Penn Treebank conventions
# that tokenizer follows on everyday text; CoreNLP's full lexer has many more (abbreviations,
# URLs, emoticons, "americanize" spellings, currency normalisation), which these do not copy.

# pycocoevalcap's PUNCTUATIONS: the bracket tokens are upper-case there while the tokenizer's
# output is lower-case, so -lrb- and -rrb- stay.
_DROPPED = frozenset(
    [
        "''",
        "'",
        "``",
        "`",
        "-LRB-",
        "-RRB-",
        "-LCB-",
        "-RCB-",
        ".",
        "?",
        "!",
        ",",
        ":",
        "-",
        "--",
        "...",
        ";",
    ]
)
_PTB_BRACKETS = {"(": "-lrb-", ")": "-rrb-", "[": "-lsb-", "]": "-rsb-", "{": "-lcb-", "}": "-rcb-"}
_PTB_QUOTES = {
    '"': "''",
    "\u201c": "``",
    "\u201d": "''",
    "\u2018": "`",
    "\u2019": "'",
    "\u300c": "``",
    "\u300d": "''",
}
_PTB_RULES = (
    (re.compile(r"\.\.\.|\u2026"), " ... "),
    (re.compile(r"--+|[\u2013\u2014]"), " -- "),
    (re.compile(r"-/"), " - / "),  # a hyphen before a slash ("Ein-/Aus-Taste")
    (re.compile(r"[\u20ac\u00a5]"), " $ "),  # CoreNLP's lossy currency normalisation
    (re.compile(r"\u00a3"), " # "),
    (re.compile(r"([()\[\]{}\"\u201c\u201d\u2018\u201e?!;$%&*+=<>@^~|\\_])"), r" \1 "),
    (regex.compile(r"([^\x00-\x7f\u2019\u201a\u201e](?<=[\p{P}\p{S}]))"), r" \1 "),
    (re.compile(r"[\u200b\ufeff]"), " "),  # zero-width spaces separate words
    (re.compile(r"#(?!\w)"), " # "),  # a hash sign, unless it starts a word (#name)
    # a colon or a comma, unless between digits (1:1, 1,000)
    (re.compile(r"(?<![0-9])([:,])|([:,])(?![0-9])"), r" \1\2 "),
    (re.compile(r"(\w)-(?=\s|$)"), r"\1 - "),  # a hyphen that ends a word ("Finanz- und")
    (re.compile(r"(?:^|(?<=\s))-(?=[^\W\d])"), " - "),  # one that starts a word (not -22)
    # contractions: n't, 's, 're, 've, 'll, 'd, 'm, with a straight apostrophe
    (re.compile(r"(\w)n['\u2019]t\b"), r"\1 n't"),
    (re.compile(r"(\w)['\u2019](s|re|ve|ll|d|m)\b"), r"\1 '\2"),
    # an opening single quote that is not a contraction, and a closing one
    (re.compile(r"(?:^|(?<=\s))(['\u2019])(?!(?:s|re|ve|ll|d|m|t)\b)(?=\w)"), r"\1 "),
    (re.compile(r"(?<=\w)(['\u2019])(?=\s|$)"), r" \1"),
    # a period that ends a word, unless the word is an abbreviation (u.s., etc., no., y.)
    (
        re.compile(r"(?:^|(?<=\s))(?!(?:etc|no|vs|mr|mrs|dr|st|jr|[a-z])\.)([^\s.]+)\.(?=\s|$)"),
        r"\1 .",
    ),
    (re.compile(r"(?<=\w)\.\.(?=\s|$)"), ". ."),  # "etc.." ends an abbreviation and a sentence
)


@attrs.frozen
class PTBStyle(Part, family="tok", name="ptb-style"):
    """Penn-Treebank-style tokens, lowercased, without the punctuation tokens pycocoevalcap
    drops: what coco-caption's ``PTBTokenizer`` gives on everyday text.

    Brackets become ``-lrb-`` ``-rrb-`` (which stay: pycocoevalcap drops them only in upper
    case), quotes, commas, colons, semicolons, ``?``, ``!``, dashes, ellipses and a final
    period are split off and dropped, and contractions split (``does n't``). It is a
    rule-based approximation of CoreNLP 3.4.1's lexer: ``docs/definitions/compared.md`` says
    where it and the recorded tokens differ.

    >>> PTBStyle()("A man (left) doesn't ride a horse, does he?")
    ['a', 'man', '-lrb-', 'left', '-rrb-', 'does', "n't", 'ride', 'a', 'horse', 'does', 'he']
    """

    def __call__(self, text: str) -> list[str]:
        text = text.lower().strip()
        for pattern, replacement in _PTB_RULES:
            text = pattern.sub(replacement, text)
        words = text.split()
        tokens = (_PTB_QUOTES.get(word, _PTB_BRACKETS.get(word, word)) for word in words)
        return [token for token in tokens if token not in _DROPPED]


PRESET = Preset("coco", "coco-caption (pycocoevalcap 1.2) Bleu", parts)
PRESETS = (PRESET,)
"""The presets this module adds to :data:`bleuprint.presets.PRESETS`."""
