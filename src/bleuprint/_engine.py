"""The engine: :class:`BLEUScore`, one part of each family, and its preset constructors."""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import Any

import attrs

from bleuprint import (
    brevity,
    matching,
    ngrams,
    sacrebleu_compat,
    smoothing,
    tokenizers,
    weights,
)
from bleuprint._result import BLEUResult, Signature
from bleuprint._signature import parse_part
from bleuprint._stats import BLEUStats
from bleuprint.exceptions import ConfigurationError, InputError
from bleuprint.typing import (
    BrevityPenalty,
    LengthMeasure,
    Matcher,
    NgramExtractor,
    Precision,
    ReferenceLength,
    Segment,
    Smoother,
    Tokenizer,
    Weights,
)

__all__ = ["BLEUScore"]

# Engine field -> signature key, in the order a signature names them.
_FIELD_OF_FAMILY = {
    "tok": "tokenizer",
    "ngram": "ngrams",
    "match": "matching",
    "len": "length",
    "ref": "reference_length",
    "bp": "brevity_penalty",
    "smooth": "smoothing",
    "weights": "weights",
}
_COUNTING_FAMILIES = ("tok", "ngram", "match", "len", "ref")


def _fits(protocol: type) -> Any:
    def check(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
        if not isinstance(value, protocol):
            raise ConfigurationError(
                f"{attribute.name} must fit the {protocol.__name__} protocol "
                f"(a signature and a __call__), got {value!r}"
            )

    return check


@attrs.frozen(kw_only=True)
class BLEUScore:
    """BLEU as one configuration of parts.

    The default is canonical BLEU-4 (Papineni et al., 2002) on whitespace tokens:

    >>> bleu = BLEUScore()
    >>> bleu.compute("the cat is on the mat".split(),
    ...              ["the cat is on the mat".split(), "there is a cat on the mat".split()])
    1.0

    Counting turns text into additive :class:`~bleuprint.BLEUStats`; scoring turns statistics
    into a :class:`~bleuprint.BLEUResult`. A corpus score sums the statistics of all segments
    and scores once; sentence scores score each segment's statistics.
    """

    tokenizer: Tokenizer = attrs.field(factory=tokenizers.Whitespace, validator=_fits(Tokenizer))
    ngrams: NgramExtractor = attrs.field(factory=ngrams.Contiguous, validator=_fits(NgramExtractor))
    matching: Matcher = attrs.field(factory=matching.Clipped, validator=_fits(Matcher))
    length: LengthMeasure = attrs.field(factory=brevity.Tokens, validator=_fits(LengthMeasure))
    reference_length: ReferenceLength = attrs.field(
        factory=brevity.Closest, validator=_fits(ReferenceLength)
    )
    brevity_penalty: BrevityPenalty = attrs.field(
        factory=brevity.Exponential, validator=_fits(BrevityPenalty)
    )
    smoothing: Smoother = attrs.field(factory=smoothing.NoSmoothing, validator=_fits(Smoother))
    weights: Weights = attrs.field(factory=weights.Uniform, validator=_fits(Weights))

    # -- presets ---------------------------------------------------------------------------

    @classmethod
    def canonical(cls, max_n: int = 4, **parts: Any) -> BLEUScore:
        """Papineni et al. (2002), as textbooks state it.

        Clipped n-gram precisions for n = 1..max_n, the exponential brevity penalty against
        the closest reference length (ties: the shorter), their unweighted geometric mean;
        0 when any precision is 0 or undefined. Any part can be overridden by keyword.

        >>> round(BLEUScore.canonical(max_n=2).compute("the cat is here", ["the cat was here"]), 12)
        0.5
        """
        return cls(ngrams=ngrams.Contiguous(max_n), **parts)

    @classmethod
    def unigram(cls, **parts: Any) -> BLEUScore:
        """The "BLEU Score (Unigram)" exercise: ``BP * p1`` on case-sensitive whitespace tokens.

        >>> round(BLEUScore.unigram().compute("the cat sat", ["the cat sat on the mat"]), 4)
        0.3679
        """
        return cls.canonical(max_n=1, **parts)

    @classmethod
    def russian(cls, *, length: str = "chars", capped: bool = False, **parts: Any) -> BLEUScore:
        """The Russian programming-contest BLEU.

        Words are runs of letters compared without case; the n-th value is the number of
        distinct n-grams shared by the two texts over the translation's n-grams with
        repetition (n = 1..4); the penalty is the uncapped length ratio of the two texts in
        characters. ``length="words"`` measures lengths in words instead, ``capped=True``
        caps the penalty at 1.

        >>> BLEUScore.russian().compute("the cat sat on the mat", ["The cat sat on the mat!"])
        0.9139018012389596

        That is ``22/23 * (5/6 * 1 * 1 * 1) ** (1/4)``: "the" occurs twice but counts once.
        """
        measures: dict[str, LengthMeasure] = {
            "chars": brevity.Characters(),
            "words": brevity.Tokens(),
        }
        if length not in measures:
            raise ConfigurationError(f"length must be 'chars' or 'words', got {length!r}")
        russian = {
            "tokenizer": tokenizers.Letters(),
            "matching": matching.Distinct(),
            "length": measures[length],
            "brevity_penalty": brevity.Ratio(capped=capped),
        }
        return cls.canonical(max_n=4, **{**russian, **parts})

    @classmethod
    def sacrebleu(cls, **options: Any) -> BLEUScore:
        """sacreBLEU 2.6.0's corpus BLEU: ``sacrebleu.metrics.BLEU(**options).corpus_score``,
        which ``sacrebleu.corpus_bleu`` and the ``sacrebleu`` command compute.

        The options are sacreBLEU's, with its defaults: ``tokenize`` (``"13a"``, or chosen by
        ``trg_lang``: ``zh``, ``ja-mecab``, ``ko-mecab``), ``lowercase=False``,
        ``smooth_method="exp"`` (``none``, ``floor``, ``add-k``), ``smooth_value`` (``None``:
        0.1 for floor, 1 for add-k), ``max_ngram_order=4``, ``effective_order=False``,
        ``trg_lang=""``. Any part can be given too, by its engine name, and wins. The
        references of each hypothesis are a list, as everywhere in bleuprint; for sacreBLEU's
        reference streams see :func:`bleuprint.sacrebleu_compat.from_streams`.

        >>> bleu = BLEUScore.sacrebleu()
        >>> result = bleu.corpus_score(["The cat sat on the mat."], [["The cat sat on a mat."]])
        >>> print(result)
        BLEU = 48.89 85.7/66.7/40.0/25.0 (BP = 1.000 ratio = 1.000 hyp_len = 7 ref_len = 7)
        >>> result.sacrebleu_signature
        'nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0'
        """
        chosen = {key: options.pop(key) for key in sacrebleu_compat.OPTIONS if key in options}
        return cls(**{**sacrebleu_compat.parts(**chosen), **options})

    @classmethod
    def sacrebleu_sentence(cls, **options: Any) -> BLEUScore:
        """``sacrebleu.sentence_bleu``: :meth:`sacrebleu` with ``effective_order=True``.

        Score each segment with :meth:`sentence_score` or :meth:`sentence_scores`.

        >>> result = BLEUScore.sacrebleu_sentence().sentence_score("The cat sat.", ["The cat sat."])
        >>> print(result)
        BLEU = 100.00 100.0/100.0/100.0/100.0 (BP = 1.000 ratio = 1.000 hyp_len = 4 ref_len = 4)
        >>> result.sacrebleu_signature
        'nrefs:1|case:mixed|eff:yes|tok:13a|smooth:exp|version:2.6.0'
        """
        return cls.sacrebleu(**{"effective_order": True, **options})

    @classmethod
    def from_signature(cls, text: str) -> BLEUScore:
        """Rebuild the configuration that a result's signature names.

        >>> bleu = BLEUScore.russian(length="words")
        >>> signature = str(bleu.sentence_score("a b c d", ["a b c d"]).signature)
        >>> BLEUScore.from_signature(signature) == bleu
        True
        """
        signature = Signature.parse(text)
        parts = {
            _FIELD_OF_FAMILY[family]: parse_part(family, part)
            for family, part in signature.parts.items()
        }
        return cls(**parts)

    # -- configuration ---------------------------------------------------------------------

    @property
    def max_n(self) -> int:
        """The highest n-gram order counted."""
        return self.ngrams.max_n

    @functools.cached_property
    def counting_signature(self) -> str:
        """The signature of the parts that counting depends on; statistics carry it."""
        return "|".join(f"{family}:{self._part(family).signature}" for family in _COUNTING_FAMILIES)

    def _part(self, family: str) -> Any:
        return getattr(self, _FIELD_OF_FAMILY[family])

    def signature(self, stats: BLEUStats | None = None) -> Signature:
        """The signature of this configuration (with the reference counts of ``stats``)."""
        parts = {family: self._part(family).signature for family in _FIELD_OF_FAMILY}
        return Signature(parts, stats.reference_counts if stats else frozenset())

    # -- scoring ---------------------------------------------------------------------------

    def compute(self, hypothesis: Segment, references: Sequence[Segment]) -> float:
        """The score in [0, 1] of one hypothesis against its references."""
        return self.sentence_score(hypothesis, references).score

    def sentence_score(self, hypothesis: Segment, references: Sequence[Segment]) -> BLEUResult:
        """The full result for one hypothesis against its references."""
        return self.score(self._count_segment(0, hypothesis, references))

    def corpus_score(
        self, hypotheses: Sequence[Segment], references: Sequence[Sequence[Segment]]
    ) -> BLEUResult:
        """Corpus BLEU: the statistics of every segment summed, then scored once.

        ``references[i]`` lists the references of ``hypotheses[i]`` (one or more).

        >>> bleu = BLEUScore.canonical(max_n=2)
        >>> hypotheses = ["the cat is here", "a dog"]
        >>> result = bleu.corpus_score(hypotheses, [["the cat was here"], ["a dog"]])
        >>> result.matches, result.totals, round(result.score, 4)  # sqrt(5/6 * 2/4)
        ((5, 2), (6, 4), 0.6455)
        """
        return self.score(self.count(hypotheses, references))

    def sentence_scores(
        self, hypotheses: Sequence[Segment], references: Sequence[Sequence[Segment]]
    ) -> list[BLEUResult]:
        """The sentence-level result of every segment of a corpus."""
        return [self.score(stats) for stats in self.count_segments(hypotheses, references)]

    def count(
        self, hypotheses: Sequence[Segment], references: Sequence[Sequence[Segment]]
    ) -> BLEUStats:
        """The summed statistics of a corpus, ready to score, merge or store."""
        return sum(self.count_segments(hypotheses, references), self.empty_stats())

    def empty_stats(self) -> BLEUStats:
        """Statistics of no segment, for this configuration: the start of a running sum."""
        return BLEUStats.empty(self.max_n, self.counting_signature)

    def count_segments(
        self, hypotheses: Sequence[Segment], references: Sequence[Sequence[Segment]]
    ) -> list[BLEUStats]:
        """The statistics of each segment of a corpus."""
        if isinstance(hypotheses, str) or isinstance(references, str):
            raise InputError("hypotheses and references must be lists of segments, not a string")
        if len(hypotheses) != len(references):
            raise InputError(
                f"{len(hypotheses)} hypotheses but {len(references)} reference lists: "
                "give one list of references per hypothesis"
            )
        if not hypotheses:
            raise InputError("the corpus is empty: there is nothing to score")
        return [
            self._count_segment(index, hypothesis, refs)
            for index, (hypothesis, refs) in enumerate(zip(hypotheses, references))
        ]

    def _count_segment(
        self, index: int, hypothesis: Segment, references: Sequence[Segment]
    ) -> BLEUStats:
        hypothesis_text, hypothesis_tokens = self._tokenize(index, "hypothesis", hypothesis)
        if isinstance(references, str) or not isinstance(references, Sequence):
            raise InputError(
                f"segment {index}: references must be a list of references, "
                f"got {type(references).__name__}"
            )
        if not references:
            raise InputError(f"segment {index}: no references")
        tokenized_refs = [
            self._tokenize(index, f"reference {k}", ref) for k, ref in enumerate(references)
        ]
        for k, (ref_text, _) in enumerate(tokenized_refs):
            if (ref_text is None) != (hypothesis_text is None):
                raise InputError(
                    f"segment {index}: the hypothesis is {_kind(hypothesis_text)} but "
                    f"reference {k} is {_kind(ref_text)}; give both as text or both as tokens"
                )
        hypothesis_ngrams = self.ngrams(hypothesis_tokens)
        reference_ngrams = [self.ngrams(tokens) for _, tokens in tokenized_refs]
        hypothesis_length = self.length(hypothesis_text, hypothesis_tokens)
        reference_lengths = [self.length(text, tokens) for text, tokens in tokenized_refs]
        return BLEUStats(
            self.matching(hypothesis_ngrams, reference_ngrams, self.max_n),
            ngrams.order_totals(hypothesis_ngrams, self.max_n),
            hypothesis_length,
            self.reference_length(hypothesis_length, reference_lengths),
            segments=1,
            reference_counts=frozenset({len(references)}),
            counting=self.counting_signature,
        )

    def _tokenize(self, index: int, role: str, segment: Segment) -> tuple[str | None, list[str]]:
        if isinstance(segment, str):
            return segment, self.tokenizer(segment)
        if isinstance(segment, Sequence) and all(isinstance(token, str) for token in segment):
            return None, list(segment)
        raise InputError(
            f"segment {index}: the {role} must be a string or a list of string tokens, "
            f"got {type(segment).__name__}"
        )

    def score(self, stats: BLEUStats) -> BLEUResult:
        """Score statistics: smoothing, weights, geometric mean, brevity penalty."""
        if stats.max_n != self.max_n:
            raise InputError(
                f"statistics have {stats.max_n} orders; this engine scores {self.max_n}"
            )
        precisions = self.smoothing(stats)
        order_weights = self.weights(stats, precisions)
        penalty = self.brevity_penalty(stats.hypothesis_length, stats.reference_length)
        return BLEUResult(
            score=penalty * _weighted_geometric_mean(precisions, order_weights),
            precisions=tuple(precision or 0.0 for precision in precisions),
            brevity_penalty=penalty,
            stats=stats,
            signature=self.signature(stats),
        )


def _kind(text: str | None) -> str:
    return "tokens" if text is None else "text"


def _weighted_geometric_mean(
    precisions: Sequence[Precision], order_weights: Sequence[float]
) -> float:
    """``exp(sum w_n log p_n)`` over the orders of positive weight; 0 if any of them is 0 or
    undefined, or if no order has weight."""
    total = 0.0
    weighted = False
    for precision, weight in zip(precisions, order_weights):
        if weight <= 0:
            continue
        if not precision:
            return 0.0
        total += weight * math.log(precision)
        weighted = True
    return math.exp(total) if weighted else 0.0
