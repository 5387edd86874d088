"""The engine: :class:`BLEUScore`, one part of each family."""

from __future__ import annotations

import functools
import importlib
import inspect
from collections.abc import Callable, Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

import attrs

from bleuprint import (
    _accumulator,
    _pairwise,
    _scoring,
    _signature,
    _streaming,
    brevity,
    matching,
    ngrams,
    smoothing,
    tokenizers,
    weights,
)
from bleuprint import mbr as mbr_decoding
from bleuprint._counting import Counting
from bleuprint._preset_entry import PresetEntry
from bleuprint._result import FAMILIES, BLEUResult, Signature
from bleuprint._segments import SegmentStats, SentenceScores
from bleuprint._signature import parse_part
from bleuprint._stats import BLEUStats
from bleuprint._validators import fits
from bleuprint.exceptions import ConfigurationError, InputError
from bleuprint.typing import (
    Aggregation,
    BrevityPenalty,
    CorpusSmoother,
    LengthMeasure,
    Matcher,
    NgramExtractor,
    ReferenceLength,
    Segment,
    Smoother,
    Tokenizer,
    Weights,
    implements,
    order_problem_of,
)

__all__ = ["FIELD_OF_FAMILY", "PRESET_MODULES", "BLEUScore", "preset_entry"]

FIELD_OF_FAMILY: dict[str, str] = dict(
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
"""Signature key -> engine field, in the order a signature names them."""
_COUNTING_FAMILIES = FAMILIES[:5]


class _Named:
    """A named constructor, ``BLEUScore.<name>(...)``, of a preset of the definition module
    ``bleuprint.<module>``: the module is imported when the constructor is first looked up (so
    that a run imports the one definition it uses), and the class method built from its
    ``PRESETS`` entry takes this placeholder's place in the class."""

    owner: type[BLEUScore]

    def __init__(self, module: str) -> None:
        self.module = f"bleuprint.{module}"
        self.name = ""

    def __set_name__(self, owner: type[BLEUScore], name: str) -> None:
        # attrs rebuilds the slotted class: the last owner named is the class users get.
        self.owner, self.name = owner, name

    def __get__(
        self, instance: BLEUScore | None, owner: type[BLEUScore]
    ) -> Callable[..., BLEUScore]:
        method = _named(preset_entry(self.name))
        if self.owner.__dict__.get(self.name) is self:
            setattr(self.owner, self.name, method)
        constructor: Callable[..., BLEUScore] = method.__get__(instance, owner)
        return constructor


def _named(preset: PresetEntry) -> classmethod[BLEUScore, ..., BLEUScore]:
    """The named constructor of a preset: ``BLEUScore.<name>(...)`` takes the options of the
    definition's recipe and, by name, any of the engine's parts."""
    recipe = preset.recipe
    takes = inspect.signature(recipe)

    def build(cls: type[BLEUScore], *args: Any, **options: Any) -> BLEUScore:
        # The recipe's own options win where a name is also a field's (NLTK's ``weights``).
        fields = attrs.fields_dict(cls)
        unknown = sorted(options.keys() - takes.parameters.keys() - fields.keys())
        if unknown:
            raise ConfigurationError(
                f"the {preset.name} preset does not take {', '.join(unknown)}; it takes "
                f"{', '.join(takes.parameters) or 'no options'} and the engine's parts "
                f"{', '.join(fields)}"
            )
        own = {key: value for key, value in options.items() if key in takes.parameters}
        try:
            takes.bind(*args, **own)
        except TypeError as error:
            raise ConfigurationError(f"the {preset.name} preset: {error}") from None
        parts = {key: value for key, value in options.items() if key not in takes.parameters}
        return cls(**{**recipe(*args, **own), **parts})

    build.__name__ = build.__qualname__ = preset.constructor
    # The recipe's name in its module, where it is documented (a partial has none of its own).
    function = recipe.func if isinstance(recipe, functools.partial) else recipe
    module = inspect.getmodule(function)
    name = next(key for key, value in vars(module).items() if value is recipe)
    build.__doc__ = (
        f"{preset.summary}: the parts of :func:`{function.__module__}.{name}`, whose "
        "arguments it takes, and any of the engine's parts by name."
    )
    # What help() shows: the recipe's options (after ``cls``, which binding removes).
    owner = inspect.Parameter("cls", inspect.Parameter.POSITIONAL_ONLY)
    build.__signature__ = takes.replace(  # type: ignore[attr-defined]
        parameters=[owner, *takes.parameters.values()], return_annotation="BLEUScore"
    )
    return classmethod(build)


def _parts_named_in(signatures: Mapping[str, str]) -> dict[str, Any]:
    """The engine's fields built from one part signature per family: every family must be
    named, and only those, so a stored configuration cannot pick up a default that changed."""
    if not isinstance(signatures, Mapping):
        raise ConfigurationError(
            f"a configuration is a dictionary of part signatures, got {type(signatures).__name__}"
        )
    missing = [family for family in FIELD_OF_FAMILY if family not in signatures]
    unknown = sorted(set(signatures) - set(FIELD_OF_FAMILY))
    if missing or unknown:
        raise ConfigurationError(
            f"configuration dictionary lacks the parts {missing or 'none'} "
            f"and has unknown keys {unknown or 'none'}"
        )
    return {
        field: parse_part(family, signatures[family]) for family, field in FIELD_OF_FAMILY.items()
    }


def _check_statistics(stats: object, max_n: int) -> None:
    """Refuse what is not statistics, or statistics of another number of orders."""
    if not isinstance(stats, (BLEUStats, SegmentStats)):
        raise InputError(f"expected statistics (BLEUStats), got {type(stats).__name__}")
    if stats.max_n != max_n:
        raise InputError(f"statistics have {stats.max_n} orders; this engine scores {max_n}")


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
    # Scoring parts work on rows; one written for a set of statistics at a time plugs in
    # through its family's FromScalar adapter, which a refused callable is pointed to.
    reference_length: ReferenceLength = attrs.field(
        factory=brevity.Closest,
        validator=fits(ReferenceLength, adapter="brevity.ReferenceLengthFromScalar"),
    )
    brevity_penalty: BrevityPenalty = attrs.field(
        factory=brevity.Exponential,
        validator=fits(BrevityPenalty, adapter="brevity.PenaltyFromScalar"),
    )
    smoothing: Smoother = attrs.field(
        factory=smoothing.NoSmoothing, validator=fits(Smoother, adapter="smoothing.FromScalar")
    )
    weights: Weights = attrs.field(
        factory=weights.Uniform, validator=fits(Weights, adapter="weights.FromScalar")
    )

    def __attrs_post_init__(self) -> None:
        for field in ("smoothing", "weights"):
            part = getattr(self, field)
            if problem := order_problem_of(part, self.max_n):
                raise ConfigurationError(
                    f"{field} {part.signature} does not fit ngrams {self.ngrams.signature}: "
                    f"{problem}"
                )

    # -- named constructors: each definition's recipe lives in its own module, imported on use -

    canonical = _Named("definitions.canonical")
    unigram = _Named("definitions.unigram")
    russian = _Named("definitions.russian")
    sacrebleu = _Named("compat.sacrebleu")
    sacrebleu_sentence = _Named("compat.sacrebleu")
    nltk = _Named("compat.nltk")
    torchmetrics = _Named("compat.torchmetrics")
    hf_evaluate = _Named("compat.hf_evaluate")
    bleuscore = _Named("compat.bleuscore")
    fast_bleu = _Named("compat.fast_bleu")
    distancia = _Named("compat.distancia")
    moses_multi_bleu = _Named("compat.moses")
    moses_multi_bleu_detok = _Named("compat.moses")
    mteval_v13a = _Named("compat.mteval")
    mteval_v14 = _Named("compat.mteval")
    coco = _Named("compat.coco")
    torcheval = _Named("compat.torcheval")
    tensor2tensor = _Named("compat.tensor2tensor")
    ignite = _Named("compat.ignite")
    gleu = _Named("compat.gleu")
    google_bleu = _Named("compat.gleu")
    fairseq = _Named("compat.fairseq")

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
        """Rebuild the configuration that :meth:`to_dict` describes (every family named)."""
        return cls(**_parts_named_in(parts))

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
            f"{family}:{getattr(self, FIELD_OF_FAMILY[family]).signature}"
            for family in _COUNTING_FAMILIES
        )

    @functools.cached_property
    def counting(self) -> Counting:
        """The counting parts, which turn segments into statistics."""
        parts = (self.tokenizer, self.ngrams, self.matching, self.length, self.reference_length)
        return Counting(*parts, self.counting_signature)

    def signature(self, stats: BLEUStats | None = None) -> Signature:
        """The signature of this configuration (with the reference counts of ``stats``)."""
        return Signature(self._part_signatures, stats.reference_counts if stats else frozenset())

    @functools.cached_property
    def _part_signatures(self) -> dict[str, str]:
        """Each family's part signature: written once, as every result carries them."""
        return {family: getattr(self, field).signature for family, field in FIELD_OF_FAMILY.items()}

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
        chunks = self.counting.counted_chunks(hypotheses, references)  # scored as counted
        return SentenceScores.concatenate(map(self.score_segments, chunks))

    def count(
        self, hypotheses: Sequence[Segment], references: Sequence[Sequence[Segment]]
    ) -> BLEUStats:
        """The summed statistics of a corpus, ready to score, merge or store."""
        chunks = self.counting.counted_chunks(hypotheses, references)  # summed as counted
        return _streaming.summed(self, chunks)

    def total(self, segments: SegmentStats, start: BLEUStats | None = None) -> BLEUStats:
        """The corpus statistics of ``segments``, summed as this definition sums them (a
        smoother that reads more than the sums, as NLTK's or an aggregation's, says how), added
        to ``start`` (a running total) if given."""
        start = self.empty_stats() if start is None else start
        self._check_orders(segments)
        if implements(self.smoothing, Aggregation):
            return self.smoothing.total(segments, self.score_segments(segments).scores, start)
        if implements(self.smoothing, CorpusSmoother):
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
        return self.counting.count_segments(hypotheses, references)

    # Defined where the work is done; each takes the engine as its first argument.
    count_stream = _streaming.count_stream
    corpus_score_files = _streaming.score_files
    pairwise_scores = _pairwise.pairwise_scores
    accumulator = _accumulator.accumulator
    mbr = mbr_decoding.mbr
    self_bleu = mbr_decoding.self_bleu

    # -- scoring ---------------------------------------------------------------------------

    @functools.cached_property
    def scoring(self) -> _scoring.ScoringParts:
        """The scoring parts, which score rows of statistics (a corpus total is one row)."""
        return _scoring.ScoringParts(self.smoothing, self.weights, self.brevity_penalty)

    def score_segments(self, segments: SegmentStats) -> SentenceScores:
        """Score each segment's statistics (a row each)."""
        self._check_orders(segments)
        return self.scoring.score_segments(segments, self.signature)

    def score(self, stats: BLEUStats) -> BLEUResult:
        """Score statistics: smoothing, weights, geometric mean, brevity penalty."""
        self._check_orders(stats)
        return self.scoring.score(stats, self.signature)

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
        engines = [attrs.evolve(self, weights=part) for part in weight_sets]
        return self.scoring.score_weights(
            stats, [(engine.weights, engine.signature) for engine in engines]
        )

    def _check_orders(self, stats: BLEUStats | SegmentStats) -> None:
        _check_statistics(stats, self.max_n)


PRESET_MODULES: Mapping[str, str] = MappingProxyType(
    {name: named.module for name, named in vars(BLEUScore).items() if isinstance(named, _Named)}
)
"""Named constructor -> the module that defines its preset, in the order of the class (the
definitions first, then other implementations', as docs/definitions/compared.md)."""


def preset_entry(constructor: str) -> PresetEntry:
    """The ``PRESETS`` entry of ``BLEUScore.<constructor>``, from its definition module."""
    entries: tuple[PresetEntry, ...] = importlib.import_module(PRESET_MODULES[constructor]).PRESETS
    return next(entry for entry in entries if entry.constructor == constructor)


def _import_definitions() -> None:
    """Import every definition module, and the aggregations, whose parts the registry of part
    names then holds."""
    import bleuprint.aggregation  # noqa: F401, PLC0415 - imported for its registered parts

    for module in PRESET_MODULES.values():
        importlib.import_module(module)


_signature.defer(_import_definitions)
