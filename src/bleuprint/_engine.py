"""The engine: :class:`BLEUScore`, one part of each family."""

from __future__ import annotations

import functools
import inspect
import os
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs

from bleuprint import (
    _pairwise,
    _scoring,
    _streaming,
    brevity,
    matching,
    ngrams,
    smoothing,
    tokenizers,
    weights,
)
from bleuprint._counting import Counting
from bleuprint._exact import weighted_geometric_mean
from bleuprint._preset_entry import PresetEntry
from bleuprint._result import FAMILIES, BLEUResult, Signature
from bleuprint._segments import SegmentStats, SentenceScores
from bleuprint._signature import parse_part
from bleuprint._stats import BLEUStats
from bleuprint._validators import fits
from bleuprint.compat import bleuscore, distancia, fast_bleu, hf_evaluate, nltk, sacrebleu
from bleuprint.compat import torchmetrics as torchmetrics_
from bleuprint.definitions import canonical as canonical_
from bleuprint.definitions import russian as russian_
from bleuprint.definitions import unigram as unigram_
from bleuprint.exceptions import ConfigurationError, InputError
from bleuprint.typing import (
    BrevityPenalty,
    CorpusSmoother,
    FloatArray,
    LengthMeasure,
    Matcher,
    NgramExtractor,
    OrderConstrained,
    Precision,
    ReferenceLength,
    Segment,
    Smoother,
    Tokenizer,
    Weights,
)

__all__ = ["BLEUScore"]

# Signature key -> engine field, in the order a signature names them.
_FIELD_OF_FAMILY = dict(
    zip(
        FAMILIES,
        (
            "tokenizer",
            "ngrams",
            "matching",
            "length",
            "reference_length",
            "brevity_penalty",
            "smoothing",
            "weights",
        ),
    )
)
_COUNTING_FAMILIES = FAMILIES[:5]


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
    and scores once; sentence scores score each segment's statistics. The parts are checked
    against each other when the engine is built, so an engine that builds can score.
    """

    tokenizer: Tokenizer = attrs.field(factory=tokenizers.Whitespace, validator=fits(Tokenizer))
    ngrams: NgramExtractor = attrs.field(factory=ngrams.Contiguous, validator=fits(NgramExtractor))
    matching: Matcher = attrs.field(factory=matching.Clipped, validator=fits(Matcher))
    length: LengthMeasure = attrs.field(factory=brevity.Tokens, validator=fits(LengthMeasure))
    reference_length: ReferenceLength = attrs.field(
        factory=brevity.Closest, validator=fits(ReferenceLength)
    )
    brevity_penalty: BrevityPenalty = attrs.field(
        factory=brevity.Exponential, validator=fits(BrevityPenalty)
    )
    smoothing: Smoother = attrs.field(factory=smoothing.NoSmoothing, validator=fits(Smoother))
    weights: Weights = attrs.field(factory=weights.Uniform, validator=fits(Weights))

    def __attrs_post_init__(self) -> None:
        for field in ("smoothing", "weights"):
            part = getattr(self, field)
            problem = part.order_problem(self.max_n) if isinstance(part, OrderConstrained) else None
            if problem:
                raise ConfigurationError(
                    f"{field} {part.signature} does not fit ngrams {self.ngrams.signature}: "
                    f"{problem}"
                )

    # -- named constructors: each definition's recipe lives in its own module -----------------

    @classmethod
    def canonical(cls, *args: Any, **options: Any) -> BLEUScore:
        """Canonical BLEU (:mod:`bleuprint.definitions.canonical`): ``max_n=4``."""
        return cls._preset(canonical_.PRESET, args, options)

    @classmethod
    def unigram(cls, *args: Any, **options: Any) -> BLEUScore:
        """The unigram exercise (:mod:`bleuprint.definitions.unigram`)."""
        return cls._preset(unigram_.PRESET, args, options)

    @classmethod
    def russian(cls, *args: Any, **options: Any) -> BLEUScore:
        """The Russian contest BLEU (:mod:`bleuprint.definitions.russian`): ``length``,
        ``capped``."""
        return cls._preset(russian_.PRESET, args, options)

    @classmethod
    def sacrebleu(cls, *args: Any, **options: Any) -> BLEUScore:
        """sacreBLEU's corpus BLEU (:mod:`bleuprint.compat.sacrebleu`), with its options."""
        return cls._preset(sacrebleu.CORPUS_PRESET, args, options)

    @classmethod
    def sacrebleu_sentence(cls, *args: Any, **options: Any) -> BLEUScore:
        """``sacrebleu.sentence_bleu`` (:mod:`bleuprint.compat.sacrebleu`)."""
        return cls._preset(sacrebleu.SENTENCE_PRESET, args, options)

    @classmethod
    def nltk(cls, *args: Any, **options: Any) -> BLEUScore:
        """NLTK's ``sentence_bleu`` / ``corpus_bleu`` (:mod:`bleuprint.compat.nltk`)."""
        return cls._preset(nltk.PRESET, args, options)

    @classmethod
    def torchmetrics(cls, *args: Any, **options: Any) -> BLEUScore:
        """torchmetrics' BLEU (:mod:`bleuprint.compat.torchmetrics`)."""
        return cls._preset(torchmetrics_.PRESET, args, options)

    @classmethod
    def hf_evaluate(cls, *args: Any, **options: Any) -> BLEUScore:
        """Hugging Face evaluate's ``bleu`` (:mod:`bleuprint.compat.hf_evaluate`)."""
        return cls._preset(hf_evaluate.PRESET, args, options)

    @classmethod
    def bleuscore(cls, *args: Any, **options: Any) -> BLEUScore:
        """bleuscore's ``compute`` (:mod:`bleuprint.compat.bleuscore`)."""
        return cls._preset(bleuscore.PRESET, args, options)

    @classmethod
    def fast_bleu(cls, *args: Any, **options: Any) -> BLEUScore:
        """fast-bleu's ``BLEU`` (:mod:`bleuprint.compat.fast_bleu`)."""
        return cls._preset(fast_bleu.PRESET, args, options)

    @classmethod
    def distancia(cls, *args: Any, **options: Any) -> BLEUScore:
        """distancia's ``BLEUScore`` (:mod:`bleuprint.compat.distancia`)."""
        return cls._preset(distancia.PRESET, args, options)

    @classmethod
    def _preset(
        cls, preset: PresetEntry, args: tuple[Any, ...], options: dict[str, Any]
    ) -> BLEUScore:
        """The recipe's parts for its own options (which win where a name is also a field's,
        as NLTK's ``weights``), overridden by any engine field given by name."""
        name, recipe = preset.name, preset.recipe
        taken = inspect.signature(recipe).parameters
        fields = attrs.fields_dict(cls)
        unknown = sorted(options.keys() - taken.keys() - fields.keys())
        if unknown:
            raise ConfigurationError(
                f"the {name} preset does not take {', '.join(unknown)}; it takes "
                f"{', '.join(taken) or 'no options'} and the engine's parts {', '.join(fields)}"
            )
        own = {name: value for name, value in options.items() if name in taken}
        try:
            inspect.signature(recipe).bind(*args, **own)
        except TypeError as error:
            raise ConfigurationError(f"the {name} preset: {error}") from None
        parts = {name: value for name, value in options.items() if name not in taken}
        return cls(**{**recipe(*args, **own), **parts})

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
        return "|".join(
            f"{family}:{getattr(self, _FIELD_OF_FAMILY[family]).signature}"
            for family in _COUNTING_FAMILIES
        )

    @functools.cached_property
    def counting(self) -> Counting:
        """The counting parts, which turn segments into statistics."""
        return Counting(
            self.tokenizer,
            self.ngrams,
            self.matching,
            self.length,
            self.reference_length,
            self.counting_signature,
        )

    def signature(self, stats: BLEUStats | None = None) -> Signature:
        """The signature of this configuration (with the reference counts of ``stats``)."""
        parts = {
            family: getattr(self, field).signature for family, field in _FIELD_OF_FAMILY.items()
        }
        return Signature(parts, stats.reference_counts if stats else frozenset())

    # -- counting --------------------------------------------------------------------------

    def compute(self, hypothesis: Segment, references: Sequence[Segment]) -> float:
        """The score in [0, 1] of one hypothesis against its references."""
        return self.sentence_score(hypothesis, references).score

    def sentence_score(self, hypothesis: Segment, references: Sequence[Segment]) -> BLEUResult:
        """The full result for one hypothesis against its references."""
        return self.score(self.counting.count_one(0, hypothesis, references))

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
        """The corpus statistics of ``segments``, summed as this definition sums them (a
        smoother that reads more than the sums, as NLTK's, says how), added to ``start`` (a
        running total) if given."""
        start = self.empty_stats() if start is None else start
        if isinstance(self.smoothing, CorpusSmoother):
            return self.smoothing.total(segments, start)
        return segments.total(start)

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
        return self.counting.count_segments(hypotheses, references)

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
        return _pairwise.pairwise_scores(self, groups)

    # -- scoring ---------------------------------------------------------------------------

    @functools.cached_property
    def _array_scoring(self) -> _scoring.ScoringParts | None:
        return _scoring.ScoringParts.of(self.smoothing, self.weights, self.brevity_penalty)

    def score_segments(self, segments: SegmentStats) -> SentenceScores:
        """Score each segment's statistics, on arrays when every scoring part supports them."""
        if segments.max_n != self.max_n:
            raise InputError(
                f"statistics have {segments.max_n} orders; this engine scores {self.max_n}"
            )
        if self._array_scoring is not None:
            return _scoring.score_segments(self._array_scoring, segments, self.signature)
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
