"""The engine: :class:`BLEUScore`, one part of each family, and its preset constructors."""

from __future__ import annotations

import functools
import math
import os
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs

from bleuprint import (
    _arrays,
    _streaming,
    brevity,
    matching,
    ngrams,
    sacrebleu_compat,
    smoothing,
    tokenizers,
    weights,
)

# Presets take their peers' option names (``weights``, ``smoothing``), which shadow these
# module names inside them.
from bleuprint import smoothing as smoothers
from bleuprint import weights as weightings
from bleuprint._exact import weighted_geometric_mean
from bleuprint._result import BLEUResult, Signature
from bleuprint._segments import SegmentStats, SentenceScores
from bleuprint._signature import parse_part
from bleuprint._stats import BLEUStats
from bleuprint.exceptions import ConfigurationError, InputError
from bleuprint.typing import (
    BrevityPenalty,
    FloatArray,
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

    # -- compatibility presets: other implementations' definitions, quirks included ---------
    # Each quirk is a named part (see docs/definitions/compared.md); none reaches the
    # canonical presets above.

    @classmethod
    def nltk(
        cls,
        weights: Sequence[float] = (0.25, 0.25, 0.25, 0.25),
        method: int | str = 0,
        *,
        auto_reweigh: bool = False,
        epsilon: float = 0.1,
        alpha: float = 5,
        k: float = 5,
        **parts: Any,
    ) -> BLEUScore:
        """NLTK 3.10.4's ``sentence_bleu`` and ``corpus_bleu``.

        ``weights`` and ``auto_reweigh`` are NLTK's; ``method=n`` with ``epsilon``, ``alpha``
        and ``k`` stands for ``smoothing_function=SmoothingFunction(epsilon, alpha, k).method<n>``
        (``method=0``, no smoothing, is NLTK's default). Quirks, each in a named part: a zero
        precision without smoothing becomes a tiny positive number, sentences without n-grams
        of an order count 1 in its denominator, no unigram match gives 0 before smoothing,
        non-positive smoothed precisions are left out of the mean, and methods 5 to 7 read the
        last sentence of a corpus. Give token lists, as to NLTK; text is split on whitespace
        (NLTK would read a string as characters: ``tokenizer=tokenizers.Codepoints()`` does
        that). For several weight sets at once, see :meth:`score_weights`.

        >>> hypothesis = "the cat sat in the mat".split()
        >>> reference = "the cat sat on the mat".split()
        >>> BLEUScore.nltk().compute(hypothesis, [reference])
        7.262123179505913e-78
        >>> round(BLEUScore.nltk(method=1).compute(hypothesis, [reference]), 6)
        0.254066
        """
        orders = len(weights)
        smoother = smoothers.nltk_method(method, epsilon=epsilon, alpha=alpha, k=k, orders=orders)
        if isinstance(smoother, smoothers.NLTKMethod6) and orders < 3:
            raise ConfigurationError(
                f"NLTK's method6 needs at least 3 orders, got {orders} weights "
                "(NLTK fails with an IndexError)"
            )
        reads_fifth_order = isinstance(smoother, (smoothers.NLTKMethod5, smoothers.NLTKMethod7))
        nltk = {
            "ngrams": ngrams.Contiguous(max(orders, 5) if reads_fifth_order else orders),
            "brevity_penalty": brevity.NLTKExponential(),
            "smoothing": smoother,
            "weights": weightings.NLTK(tuple(weights), auto_reweigh),
        }
        return cls(**{**nltk, **parts})

    @classmethod
    def torchmetrics(
        cls,
        n_gram: int = 4,
        smooth: bool = False,
        weights: Sequence[float] | None = None,
        tokenize: str | None = None,
        lowercase: bool = False,
        **parts: Any,
    ) -> BLEUScore:
        """torchmetrics 1.9.0's ``BLEUScore`` and ``bleu_score``; with ``tokenize`` (``"13a"``,
        ``"intl"``, ``"zh"``, ``"char"``, ``"none"``, ...) and ``lowercase``, its
        ``SacreBLEUScore`` and ``sacre_bleu_score``.

        Whitespace tokens (or sacreBLEU's tokenizer, lowercased after tokenizing); the closest
        reference length with ties going to the first listed; ``smooth=True`` adds one to the
        counts of orders 2 and up. Quirk: the score is 0 whenever an order has no match,
        before any smoothing and whatever its weight. ``weights`` must have ``n_gram``
        entries (default uniform).

        >>> bleu = BLEUScore.torchmetrics()
        >>> round(bleu.compute("the cat sat on a mat", ["the cat sat on the mat"]), 6)
        0.537285
        >>> BLEUScore.torchmetrics(smooth=True).compute("the cat sat", ["the cat sat on the mat"])
        0.0
        """
        if weights is not None and len(weights) != n_gram:
            raise ConfigurationError(
                f"torchmetrics needs one weight per order: {len(weights)} weights for "
                f"n_gram={n_gram}"
            )
        inner = smoothers.AddOne() if smooth else smoothers.NoSmoothing()
        torchmetrics = {
            "tokenizer": _torchmetrics_tokenizer(tokenize, lowercase),
            "ngrams": ngrams.Contiguous(n_gram),
            "reference_length": brevity.Closest(ties="first"),
            "smoothing": smoothers.RequireAllMatched(inner),
            "weights": weightings.Uniform() if weights is None else weightings.Explicit(weights),
        }
        return cls(**{**torchmetrics, **parts})

    @classmethod
    def fast_bleu(
        cls,
        weights: Sequence[float] = (0.25, 0.25, 0.25, 0.25),
        smoothing_func: int = 1,
        **parts: Any,
    ) -> BLEUScore:
        """fast-bleu 0.0.90's ``BLEU`` (sentence BLEU of each hypothesis).

        NLTK's sentence BLEU with ``method1`` (``smoothing_func=1``, the default) or without
        smoothing (``smoothing_func=0``, where an unmatched order gives 0, not NLTK's tiny
        number). As fast-bleu requires, ``weights`` has at least 2 entries and sums to 1.
        Quirk: n-grams are compared as their tokens joined by spaces.

        >>> bleu = BLEUScore.fast_bleu(weights=(0.5, 0.5))
        >>> round(bleu.compute(["the", "cat", "is", "here"], [["the", "cat", "was", "here"]]), 12)
        0.5
        """
        if len(weights) < 2:
            raise ConfigurationError(
                f"fast-bleu scores 2 or more orders, got {len(weights)} weights"
            )
        if not math.isclose(math.fsum(weights), 1.0, rel_tol=0, abs_tol=1e-12):
            raise ConfigurationError(f"fast-bleu's weights must sum to 1, got {tuple(weights)}")
        methods: dict[int, Smoother] = {0: smoothers.NoSmoothing(), 1: smoothers.NLTKMethod1()}
        if smoothing_func not in methods:
            raise ConfigurationError(f"smoothing_func must be 0 or 1, got {smoothing_func!r}")
        fast_bleu = {
            "ngrams": ngrams.Contiguous(len(weights)),
            "matching": matching.SpaceJoined(),
            "brevity_penalty": brevity.NLTKExponential(),
            "smoothing": methods[smoothing_func],
            "weights": weightings.Explicit(weights),
        }
        return cls(**{**fast_bleu, **parts})

    @classmethod
    def distancia(cls, n_gram: int = 4, smoothing: bool = True, **parts: Any) -> BLEUScore:
        """distancia 0.0.85's ``BLEUScore`` (sentence level).

        Clipped precisions of orders 1..n_gram, uniform weights, NLTK's brevity penalty.
        With ``smoothing=True`` (the default) a zero or undefined precision becomes ``1e-9``;
        without, it is an :class:`~bleuprint.InputError` (distancia crashes there).

        >>> BLEUScore.distancia().compute(["x", "y"], [["a", "b"]])
        1.0000000000000007e-09
        """
        distancia = {
            "ngrams": ngrams.Contiguous(n_gram),
            "brevity_penalty": brevity.NLTKExponential(),
            "smoothing": smoothers.ReplaceZero(1e-9) if smoothing else smoothers.RejectZero(),
        }
        return cls(**{**distancia, **parts})

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
        unknown = sorted(options.keys() - {*sacrebleu_compat.OPTIONS, *attrs.fields_dict(cls)})
        if unknown:
            raise ConfigurationError(
                f"the sacrebleu preset does not take {', '.join(unknown)}; it takes sacreBLEU's "
                f"options {', '.join(sacrebleu_compat.OPTIONS)} and the engine's parts"
            )
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
    def hf_evaluate(cls, max_order: int = 4, smooth: bool = False, **parts: Any) -> BLEUScore:
        """Hugging Face evaluate 0.4.6's ``bleu`` metric: the TensorFlow NMT ``compute_bleu``
        on sacreBLEU's ``13a`` tokens.

        The **shortest** reference length; the penalty ``exp(1 - 1/ratio)``, undefined (an
        :class:`~bleuprint.InputError`) where the total hypothesis or reference length is 0;
        ``smooth=True`` adds one to every order, unigrams included.

        >>> predictions = ["hello there general kenobi", "foo bar foobar"]
        >>> references = [["hello there general kenobi", "hello there!"], ["foo bar foobar"]]
        >>> result = BLEUScore.hf_evaluate().corpus_score(predictions, references)
        >>> result.score, result.hypothesis_length, result.reference_length
        (1.0, 7, 6)
        """
        hf_evaluate = {
            **_nmt_parts(max_order, smooth),
            "reference_length": brevity.Shortest(),
            "brevity_penalty": brevity.NMT(),
        }
        return cls(**{**hf_evaluate, **parts})

    @classmethod
    def bleuscore(
        cls,
        max_order: int = 4,
        smooth: bool = False,
        ref_len_method: str = "shortest",
        **parts: Any,
    ) -> BLEUScore:
        """bleuscore 0.2.0's ``compute``: the Hugging Face evaluate definition
        (:meth:`hf_evaluate`) with the exponential penalty, which scores empty text instead of
        dividing by zero, and ``ref_len_method`` ``"shortest"`` (or ``"hf"``) or ``"closest"``
        (or ``"sacrebleu"``: ties to the shorter).

        >>> bleu = BLEUScore.bleuscore(ref_len_method="closest")
        >>> round(bleu.compute("a b c d", ["a b c d e", "a"]), 6)
        0.778801
        """
        rules: dict[str, ReferenceLength] = {
            "shortest": brevity.Shortest(),
            "hf": brevity.Shortest(),
            "closest": brevity.Closest(),
            "sacrebleu": brevity.Closest(),
        }
        if ref_len_method not in rules:
            raise ConfigurationError(
                f"ref_len_method must be one of {', '.join(rules)}, got {ref_len_method!r}"
            )
        bleuscore = {**_nmt_parts(max_order, smooth), "reference_length": rules[ref_len_method]}
        return cls(**{**bleuscore, **parts})

    @classmethod
    def from_signature(cls, text: str) -> BLEUScore:
        """Rebuild the configuration that a result's signature names.

        >>> bleu = BLEUScore.russian(length="words")
        >>> signature = str(bleu.sentence_score("a b c d", ["a b c d"]).signature)
        >>> BLEUScore.from_signature(signature) == bleu
        True
        """
        return cls.from_dict(Signature.parse(text).parts)

    @classmethod
    def from_dict(cls, parts: Mapping[str, str]) -> BLEUScore:
        """Rebuild the configuration that :meth:`to_dict` describes.

        Every family must be named, and only those, so a stored configuration cannot
        silently pick up a default that changed.
        """
        missing = [family for family in _FIELD_OF_FAMILY if family not in parts]
        unknown = sorted(set(parts) - set(_FIELD_OF_FAMILY))
        if missing or unknown:
            raise ConfigurationError(
                f"configuration dictionary lacks the parts {missing or 'none'} "
                f"and has unknown keys {unknown or 'none'}"
            )
        return cls(
            **{
                field: parse_part(family, parts[family])
                for family, field in _FIELD_OF_FAMILY.items()
            }
        )

    def to_dict(self) -> dict[str, str]:
        """The configuration as a dictionary of part signatures, one per family.

        It is a plain JSON value, and :meth:`from_dict` turns it back into an equal engine
        (as long as every part is one of bleuprint's own or registered like them):

        >>> bleu = BLEUScore.canonical(max_n=2)
        >>> bleu.to_dict()  # doctest: +NORMALIZE_WHITESPACE
        {'tok': 'whitespace', 'ngram': 'contiguous[2]', 'match': 'clipped', 'len': 'tokens',
         'ref': 'closest[shorter]', 'bp': 'exp', 'smooth': 'none', 'weights': 'uniform'}
        >>> BLEUScore.from_dict(bleu.to_dict()) == bleu
        True
        """
        return dict(self.signature().parts)

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
    ) -> SentenceScores:
        """The sentence-level result of every segment of a corpus (``.scores``: an array)."""
        return self.score_segments(self.count_segments(hypotheses, references))

    def count(
        self, hypotheses: Sequence[Segment], references: Sequence[Sequence[Segment]]
    ) -> BLEUStats:
        """The summed statistics of a corpus, ready to score, merge or store."""
        return self.total(self.count_segments(hypotheses, references))

    def total(self, segments: SegmentStats, start: BLEUStats | None = None) -> BLEUStats:
        """The corpus statistics of ``segments``, summed as this definition sums them, added
        to ``start`` (a running total) if given."""
        return segments.total(self.empty_stats() if start is None else start)

    def empty_stats(self) -> BLEUStats:
        """Statistics of no segment, for this configuration: the start of a running sum."""
        return BLEUStats.empty(self.max_n, self.counting_signature)

    def count_segments(
        self, hypotheses: Sequence[Segment], references: Sequence[Sequence[Segment]]
    ) -> SegmentStats:
        """The statistics of each segment of a corpus, on arrays when every counting part
        supports them (see :mod:`bleuprint.typing`), else one segment at a time."""
        if isinstance(hypotheses, str) or isinstance(references, str):
            raise InputError("hypotheses and references must be lists of segments, not a string")
        if len(hypotheses) != len(references):
            raise InputError(
                f"{len(hypotheses)} hypotheses but {len(references)} reference lists: "
                "give one list of references per hypothesis"
            )
        if not hypotheses:
            raise InputError("the corpus is empty: there is nothing to score")
        parts = _arrays.CountingParts.of(self)
        if parts is not None:
            return _arrays.count_segments(parts, hypotheses, references, self._count_segment)
        segments = [
            self._count_segment(index, hypothesis, refs)
            for index, (hypothesis, refs) in enumerate(zip(hypotheses, references))
        ]
        return SegmentStats.from_stats(segments, self.max_n, self.counting_signature)

    def _count_segment(
        self, index: int, hypothesis: Segment, references: Sequence[Segment]
    ) -> BLEUStats:
        hypothesis_text, hypothesis_tokens = self._tokenize(index, "hypothesis", hypothesis)
        if isinstance(references, str) or not isinstance(references, Sequence):
            raise InputError(
                f"references must be a list of references, got {type(references).__name__}",
                segment=index,
            )
        if not references:
            raise InputError("no references", segment=index)
        tokenized_refs = [
            self._tokenize(index, f"reference {k}", ref) for k, ref in enumerate(references)
        ]
        for k, (ref_text, _) in enumerate(tokenized_refs):
            if (ref_text is None) != (hypothesis_text is None):
                raise InputError(
                    f"the hypothesis is {_kind(hypothesis_text)} but reference {k} is "
                    f"{_kind(ref_text)}; give both as text or both as tokens",
                    segment=index,
                )
        hypothesis_ngrams = self.ngrams(hypothesis_tokens)
        reference_ngrams = [self.ngrams(tokens) for _, tokens in tokenized_refs]
        hypothesis_length = self.length(hypothesis_text, hypothesis_tokens)
        reference_lengths = [self.length(text, tokens) for text, tokens in tokenized_refs]
        totals = ngrams.order_totals(hypothesis_ngrams, self.max_n)
        return BLEUStats(
            self.matching(hypothesis_ngrams, reference_ngrams, self.max_n),
            totals,
            hypothesis_length,
            self.reference_length(hypothesis_length, reference_lengths),
            segments=1,
            reference_counts=frozenset({len(references)}),
            counting=self.counting_signature,
            segments_without_ngrams=tuple(int(total == 0) for total in totals),
        )

    def _tokenize(self, index: int, role: str, segment: Segment) -> tuple[str | None, list[str]]:
        if isinstance(segment, str):
            return segment, self.tokenizer(segment)
        if isinstance(segment, Sequence) and all(isinstance(token, str) for token in segment):
            return None, list(segment)
        raise InputError(
            f"the {role} must be a string or a list of string tokens, got {type(segment).__name__}",
            segment=index,
        )

    def count_stream(
        self,
        hypotheses: Iterable[Segment],
        references: Iterable[Sequence[Segment]],
        *,
        chunk_size: int = _streaming.DEFAULT_CHUNK_SIZE,
        jobs: int = 1,
    ) -> BLEUStats:
        """The summed statistics of a corpus of any length given as two aligned iterables
        (generators, open files, ...), read and counted ``chunk_size`` segments at a time, in
        ``jobs`` processes. Memory depends on the chunk size, not on the corpus length.

        >>> bleu = BLEUScore.canonical(max_n=2)
        >>> stats = bleu.count_stream(iter(["the cat is here", "a dog"]),
        ...                           iter([["the cat was here"], ["a dog"]]), chunk_size=1)
        >>> stats.matches, stats.totals
        ((5, 2), (6, 4))
        """
        return _streaming.count_stream(
            self, hypotheses, references, chunk_size=chunk_size, jobs=jobs
        )

    def corpus_score_files(
        self,
        hypothesis_file: str | os.PathLike[str],
        reference_files: Sequence[str | os.PathLike[str]],
        *,
        chunk_size: int = _streaming.DEFAULT_CHUNK_SIZE,
        jobs: int = 1,
    ) -> BLEUResult:
        """Corpus BLEU of a hypothesis file against reference files (one segment per line,
        UTF-8), streamed: see :meth:`count_stream`. Lines are split on ``\\n`` only."""
        stats = _streaming.count_files(
            self, hypothesis_file, reference_files, chunk_size=chunk_size, jobs=jobs
        )
        return self.score(stats)

    def pairwise_scores(self, groups: Sequence[Sequence[Segment]]) -> list[FloatArray]:
        """For each group of candidates, the square matrix of sentence scores of every
        candidate (row) against every other as its only reference (column), in one call: for
        minimum-Bayes-risk decoding and self-BLEU.

        >>> matrix, = BLEUScore.canonical(max_n=1).pairwise_scores([["a b", "a c", "a b c"]])
        >>> matrix.round(4).tolist()  # "a b" against "a b c": all words match, BP = exp(-1/2)
        [[1.0, 0.5, 0.6065], [0.5, 1.0, 0.6065], [0.6667, 0.6667, 1.0]]
        """
        return _arrays.pairwise_scores(self, groups)

    def score_segments(self, segments: SegmentStats) -> SentenceScores:
        """Score each segment's statistics, on arrays when every scoring part supports them."""
        if segments.max_n != self.max_n:
            raise InputError(
                f"statistics have {segments.max_n} orders; this engine scores {self.max_n}"
            )
        parts = _arrays.ScoringParts.of(self)
        if parts is not None:
            return _arrays.score_segments(parts, segments, self.signature)
        results = [self.score(stats) for stats in segments]
        return SentenceScores.from_results(results, segments, self.signature)

    def score(self, stats: BLEUStats) -> BLEUResult:
        """Score statistics: smoothing, weights, geometric mean, brevity penalty."""
        self._check_orders(stats)
        return self._weigh(stats, self.smoothing(stats))

    def score_weights(self, stats: BLEUStats, weight_sets: Iterable[Weights]) -> list[BLEUResult]:
        """Score one set of statistics under several weightings: one result per weighting.

        Counting and smoothing happen once; each result's signature names its own weights.
        This is NLTK's ``weights=[(...), (...)]`` (BLEU-2, BLEU-3 and BLEU-4 in one pass):

        >>> from bleuprint import weights
        >>> bleu = BLEUScore.canonical(max_n=2)
        >>> stats = bleu.count(["the cat is here"], [["the cat was here"]])
        >>> sets = [weights.Explicit((1.0,)), weights.Explicit((0.5, 0.5))]
        >>> [round(result.score, 4) for result in bleu.score_weights(stats, sets)]
        [0.75, 0.5]
        """
        self._check_orders(stats)
        precisions = self.smoothing(stats)
        return [attrs.evolve(self, weights=part)._weigh(stats, precisions) for part in weight_sets]

    def _check_orders(self, stats: BLEUStats) -> None:
        if stats.max_n != self.max_n:
            raise InputError(
                f"statistics have {stats.max_n} orders; this engine scores {self.max_n}"
            )

    def _weigh(self, stats: BLEUStats, precisions: Sequence[Precision]) -> BLEUResult:
        order_weights = self.weights(stats, precisions)
        penalty = self.brevity_penalty(stats.hypothesis_length, stats.reference_length)
        return BLEUResult(
            score=penalty * weighted_geometric_mean(precisions, order_weights),
            precisions=tuple(precision or 0.0 for precision in precisions),
            brevity_penalty=penalty,
            stats=stats,
            signature=self.signature(stats),
        )


def _torchmetrics_tokenizer(tokenize: str | None, lowercase: bool) -> Tokenizer:
    """Whitespace for ``BLEUScore``; sacreBLEU's tokenizer for ``SacreBLEUScore``, which
    lowercases the tokens after tokenizing."""
    if tokenize is None:
        tokenizer: Tokenizer = tokenizers.Whitespace()
    elif tokenize in sacrebleu_compat.TOKENIZERS:
        tokenizer = sacrebleu_compat.TOKENIZERS[tokenize]()
    else:
        raise ConfigurationError(
            f"tokenize must be one of {', '.join(sacrebleu_compat.TOKENIZERS)}, got "
            f"{tokenize!r} (bleuprint does not ship the flores sentencepiece models)"
        )
    return tokenizers.LowercaseAfter(tokenizer) if lowercase else tokenizer


def _nmt_parts(max_order: int, smooth: bool) -> dict[str, Any]:
    """The parts Hugging Face evaluate and bleuscore share: ``13a`` tokens, orders
    1..max_order, and add-one smoothing of every order (unigrams too) when asked."""
    return {
        "tokenizer": tokenizers.Mteval13a(),
        "ngrams": ngrams.Contiguous(max_order),
        "smoothing": smoothers.AddOne(unigrams=True) if smooth else smoothers.NoSmoothing(),
    }


def _kind(text: str | None) -> str:
    return "tokens" if text is None else "text"
