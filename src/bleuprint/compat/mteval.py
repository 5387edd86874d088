"""NIST's ``mteval-v13a.pl`` and ``mteval-v14.pl`` (mosesdecoder 34452895): BLEU (``-b``) and NIST.

Both tokenize as sacreBLEU's ``13a`` does (``mteval-v14.pl --international-tokenization``: as
its ``intl``, after undoing the escapes ``&quot; &amp; &lt; &gt; &apos;``). Without ``-c`` they
lowercase: ``mteval-v13a.pl`` the letters A to Z only (``tr/[A-Z]/[a-z]/``,
:class:`~bleuprint.compat.moses.AsciiLowercase`), ``mteval-v14.pl --international-tokenization``
every letter (Perl's ``lc``, :class:`~bleuprint.compat.moses.CharwiseLowercase`): Perl's string
semantics, which Moses' scripts share. The score is BLEU-4 against the
closest reference length (ties: the shorter), smoothed as
:class:`~bleuprint.smoothing.ExpUnzeroed` says: every order with n-grams but no match is halved,
even in a segment without any match, which sacreBLEU scores 0. The corpus score sums the
segments' statistics; a segment's score (``-d 2``) is the sentence score.

The NIST score that the scripts print beside BLEU is :func:`nist` (``mteval-v13a.pl``) and
:func:`nist_v14` (``mteval-v14.pl``), both :class:`MtevalNIST`.

>>> from bleuprint import BLEUScore
>>> bleu = BLEUScore.mteval_v13a(c=True)
>>> # no match at all: p1 = 1/(2*2), p2 = 1/(4*1), no 3- or 4-grams; BP = exp(1 - 4/2)
>>> round(bleu.compute("Many thanks", ["Thank you very much"]), 4)
0.1839
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from typing import Any

import attrs

from bleuprint import ngrams, smoothing, tokenizers
from bleuprint._signature import Part
from bleuprint.compat._nist import NISTResult
from bleuprint.compat._perl import AsciiLowercase, CharwiseLowercase
from bleuprint.exceptions import InputError, counted
from bleuprint.presets import Preset
from bleuprint.typing import Ngram, Tokenizer

__all__ = [
    "PRESETS",
    "V13A_PRESET",
    "V14_PRESET",
    "InternationalUnescaped",
    "MtevalNIST",
    "nist",
    "nist_v14",
    "v13a_parts",
    "v14_parts",
]


def v13a_parts(c: bool = False) -> dict[str, Any]:
    """The parts that compute ``mteval-v13a.pl -b [-c]``.

    Args:
        c: the script's ``-c``: keep the case (else A to Z are lowercased).

    Returns:
        The engine's fields that differ from its defaults, by name.
    """
    tokenizer: Tokenizer = tokenizers.Mteval13a()
    return {
        **_scoring(),
        "tokenizer": tokenizer if c else AsciiLowercase(tokenizer),
    }


def v14_parts(c: bool = False, international_tokenization: bool = False) -> dict[str, Any]:
    """The parts that compute ``mteval-v14.pl -b [-c] [--international-tokenization]``.

    Args:
        c: the script's ``-c``: keep the case.
        international_tokenization: the script's ``--international-tokenization`` (which
            also lowercases every letter, with Perl's ``lc``, where ``c`` is not given).

    Returns:
        The engine's fields that differ from its defaults, by name.
    """
    if international_tokenization:
        intl: Tokenizer = InternationalUnescaped()
        tokenizer = intl if c else CharwiseLowercase(intl)
    else:
        plain: Tokenizer = tokenizers.Mteval13a()
        tokenizer = plain if c else AsciiLowercase(plain)
    return {**_scoring(), "tokenizer": tokenizer}


def _scoring() -> dict[str, Any]:
    return {"ngrams": ngrams.Contiguous(4), "smoothing": smoothing.ExpUnzeroed()}


_ENTITIES = (("&quot;", '"'), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"), ("&apos;", "'"))


@attrs.frozen
class InternationalUnescaped(Part, family="tok", name="mteval-intl"):
    """Quirk (``mteval-v14.pl --international-tokenization``): the escapes ``&quot; &amp;
    &lt; &gt; &apos;`` are undone one after the other, then the text is tokenized as
    sacreBLEU's ``intl`` (:class:`~bleuprint.tokenizers.International`), which leaves them.

    >>> InternationalUnescaped()("AT&amp;T said &quot;yes&quot;")
    ['AT', '&', 'T', 'said', '"', 'yes', '"']
    """

    def __call__(self, text: str) -> list[str]:
        if "&" in text:
            for escape, character in _ENTITIES:
                text = text.replace(escape, character)
        return tokenizers.International()(text)


# -- NIST ------------------------------------------------------------------------------------


def nist(c: bool = False) -> MtevalNIST:
    """The NIST score of ``mteval-v13a.pl [-c]`` (its ``-n``, or the first number of its
    ``NIST score = ... BLEU score = ...`` line): ``nist().corpus_score(hypotheses,
    references).score`` is the system score, ``nist().segment_scores(...)`` what ``-d 2``
    prints for each segment, ``nist().compute(hypothesis, references)`` the score of a corpus
    of that one segment. ``references`` holds each hypothesis's list of references, as many for
    every segment (the script's reference sets); texts are tokenized as for its BLEU
    (:func:`v13a_parts`). Its quirks are :class:`MtevalNIST`'s.

    Args:
        c: the script's ``-c``: keep the case (else A to Z are lowercased).

    Returns:
        The definition, to score with.

    >>> hypothesis = "It is a guide to action which ensures that the military always obeys"
    >>> references = ["It is a guide to action that ensures that the military will heed",
    ...               "It is the guiding principle which guarantees the military forces"]
    >>> round(nist().compute(hypothesis, references), 6)
    3.704339
    """
    return MtevalNIST(v13a_parts(c)["tokenizer"], c)


def nist_v14(c: bool = False, international_tokenization: bool = False) -> MtevalNIST:
    """The NIST score of ``mteval-v14.pl [-c] [--international-tokenization]``, as
    :func:`nist` gives ``mteval-v13a.pl``'s: the two scripts compute it alike, and differ only
    in the tokenizer the option chooses (:func:`v14_parts`).

    Args:
        c: the script's ``-c``: keep the case.
        international_tokenization: the script's ``--international-tokenization`` (which
            also lowercases every letter, with Perl's ``lc``, where ``c`` is not given).

    Returns:
        The definition, to score with.

    >>> hypothesis, references = "Über 3,5 Äpfel!", ["über 3,5 äpfel !"]
    >>> nist_v14().compute(hypothesis, references)  # Ü and Ä kept: 2 words of 4 match
    1.0
    >>> nist_v14(international_tokenization=True).compute(hypothesis, references)
    2.0
    """
    tokenizer = v14_parts(c, international_tokenization)["tokenizer"]
    tok = "intl" if international_tokenization else "13a"
    return MtevalNIST(tokenizer, c, script="v14", tok=tok)


# The penalty's constants, as the script names them: a hypothesis 1.5 times shorter than the
# references' average is penalized by half.
_RATIO_X, _SCORE_X = 1.5, 0.5
_ORDERS = 5  # the script computes orders 1 to 9 and reports the sum of the first five


@attrs.frozen
class MtevalNIST:
    """The NIST score of ``mteval-v13a.pl`` (:func:`nist`) and ``mteval-v14.pl``
    (:func:`nist_v14`), which compute it alike: each matched n-gram counts the information it
    carries in every reference of the corpus, ``-log(count(w1..wn) / count(w1..wn-1)) / log
    2``; each order's matched information is divided by the hypotheses' n-grams of that order,
    the orders 1 to 5 are added, and the sum is multiplied by a penalty on the length ratio,
    the hypotheses' words over the references' average words. ``script`` and ``tok`` name the
    script and its tokenizer in the signature. Its quirks:

    - a hypothesis n-gram's count is clipped to its largest count in any one reference, and
      its information is summed that many times;
    - the penalty is ``exp(-beta * log(ratio) * log(ratio))`` with ``beta = -log(0.5) /
      log(1.5) / log(1.5)``, in that order of operations, 1 from a ratio of 1 up;
    - an n-gram whose first n - 1 words are the single word ``0`` takes its information from
      all reference words, as a unigram does (Perl's ``"0"`` is false);
    - a corpus, or any of its segments, whose references have no word makes the script die
      ("Illegal division by zero"): here an :class:`~bleuprint.InputError` names the segment.

    The script adds an order's information in the order of Perl's hash, which changes from run
    to run: its last bits do too, and so may this sum's, by about 1e-15.
    """

    tokenizer: Tokenizer
    c: bool = False
    script: str = "v13a"
    tok: str = "13a"

    def compute(self, hypothesis: object, references: object) -> float:
        """The script's system score of a corpus of this one segment."""
        return self.sentence_score(hypothesis, references).score

    def sentence_score(self, hypothesis: object, references: object) -> NISTResult:
        """The script's result for a corpus of this one segment."""
        return self.corpus_score([hypothesis], [references])

    def corpus_score(self, hypotheses: object, references: object) -> NISTResult:
        """The script's system score of the corpus, and what it is made of."""
        return self._scored(self._counted(hypotheses, references))

    def segment_scores(self, hypotheses: object, references: object) -> list[float]:
        """What ``-d 2`` prints for each segment: its score with the corpus's information."""
        return [self._scored([segment]).score for segment in self._counted(hypotheses, references)]

    @property
    def signature(self) -> str:
        case = "mixed" if self.c else "lc"
        return f"mteval-{self.script}-nist|case:{case}|tok:{self.tok}|version:mosesdecoder-34452895"

    def _counted(self, hypotheses: object, references: object) -> list[_SegmentInformation]:
        """Each segment's matched information and counts, with the corpus's weights."""
        segments = _checked_segments(hypotheses, references)
        hypothesis_tokens = [self.tokenizer(hypothesis) for hypothesis, _ in segments]
        reference_tokens = [
            [self.tokenizer(reference) for reference in of_segment] for _, of_segment in segments
        ]
        count = ngrams.Contiguous(_ORDERS)
        everywhere: Counter[Ngram] = Counter()
        for of_segment in reference_tokens:
            for tokens in of_segment:
                everywhere.update(count(tokens))
        words = sum(len(tokens) for of_segment in reference_tokens for tokens in of_segment)
        weights = _information(everywhere, words)
        counted = []
        for index, (tokens, of_segment) in enumerate(zip(hypothesis_tokens, reference_tokens)):
            reference_words = sum(len(reference) for reference in of_segment)
            if reference_words == 0:
                raise InputError(
                    "the references have no word: mteval's NIST divides by zero (the script "
                    "dies: Illegal division by zero)",
                    segment=index,
                )
            most: Counter[Ngram] = Counter()
            for reference in of_segment:
                most |= count(reference)
            matched = [0.0] * _ORDERS
            for ngram, times in count(tokens).items():
                if ngram in most:
                    matched[len(ngram) - 1] += weights[ngram] * min(times, most[ngram])
            counted.append(
                _SegmentInformation(
                    matched,
                    [max(len(tokens) - order, 0) for order in range(_ORDERS)],
                    reference_words,
                    len(of_segment),
                )
            )
        return counted

    def _scored(self, segments: list[_SegmentInformation]) -> NISTResult:
        """The score of the segments' sums, as the script's ``nist_score``."""
        matched = [0.0] * _ORDERS
        totals = [0] * _ORDERS
        for segment in segments:  # the script's sums, segment by segment
            for order in range(_ORDERS):
                matched[order] += segment.matched[order]
                totals[order] += segment.totals[order]
        reference_words = sum(segment.reference_words for segment in segments)
        ratio = totals[0] / (reference_words / segments[0].references)
        penalty = _length_penalty(ratio)
        precisions = [bits / max(total, 1) for bits, total in zip(matched, totals)]
        added = 0.0
        for precision in precisions:
            added += precision
        return NISTResult(
            added * penalty,
            tuple(precisions),
            penalty,
            ratio,
            name="NIST",
            signature=self.signature,
        )


@attrs.frozen
class _SegmentInformation:
    """A segment's matched information and hypothesis n-grams by order, its references'
    words and their number."""

    matched: list[float]
    totals: list[int]
    reference_words: int
    references: int


def _information(reference_counts: Counter[Ngram], total_words: int) -> dict[Ngram, float]:
    """Each reference n-gram's information, as the script computes it (its order of
    operations, and its Perl truth: a prefix that is the word ``0`` is no prefix)."""
    weights = {}
    for ngram, count in reference_counts.items():
        prefix = ngram[:-1]
        above = reference_counts[prefix] if prefix and prefix != ("0",) else total_words
        weights[ngram] = -math.log(count / above) / math.log(2)
    return weights


def _length_penalty(ratio: float) -> float:
    """The script's ``nist_length_penalty``, its operations in its order."""
    if ratio >= 1:
        return 1.0
    if ratio <= 0:
        return 0.0
    beta = -math.log(_SCORE_X) / math.log(_RATIO_X) / math.log(_RATIO_X)
    return math.exp(-beta * math.log(ratio) * math.log(ratio))


def _checked_segments(hypotheses: object, references: object) -> list[tuple[str, list[str]]]:
    """The (hypothesis, references) text of each segment, checked: texts, and as many
    references for every segment (the script reads whole reference sets)."""
    if isinstance(hypotheses, str) or not isinstance(hypotheses, Sequence):
        raise InputError(f"the hypotheses must be a list of texts, got {type(hypotheses).__name__}")
    if isinstance(references, str) or not isinstance(references, Sequence):
        raise InputError(
            "the references must be a list of each hypothesis's references, got "
            f"{type(references).__name__}"
        )
    if len(hypotheses) != len(references) or not hypotheses:
        raise InputError(
            f"{counted(len(hypotheses), 'hypothesis', 'hypotheses')} and "
            f"{counted(len(references), 'list')} of references: give each "
            "of at least one hypothesis its list"
        )
    segments = []
    for index, (hypothesis, of_segment) in enumerate(zip(hypotheses, references)):
        if isinstance(of_segment, str) or not isinstance(of_segment, Sequence) or not of_segment:
            raise InputError("the references must be a non-empty list of texts", segment=index)
        if not all(isinstance(text, str) for text in [hypothesis, *of_segment]):
            raise InputError("the hypothesis and its references must be texts", segment=index)
        if len(of_segment) != len(references[0]):
            raise InputError(
                f"{counted(len(of_segment), 'reference')} where the first segment has "
                f"{len(references[0])}: "
                "the script reads whole sets of references, one text for every segment",
                segment=index,
            )
        segments.append((hypothesis, list(of_segment)))
    return segments


# The scripts print "BLEU score = 0.2345": [0, 1], four decimals.
V13A_PRESET = Preset("mteval-v13a", "NIST mteval-v13a.pl -b", v13a_parts, decimals=4)
V14_PRESET = Preset("mteval-v14", "NIST mteval-v14.pl -b", v14_parts, decimals=4)
PRESETS = (V13A_PRESET, V14_PRESET)
"""The presets this module adds to :data:`bleuprint.presets.PRESETS`."""
