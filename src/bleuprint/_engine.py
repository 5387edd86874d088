"""The engine: :class:`BLEUScore`, one part of each family."""

from __future__ import annotations

import functools
import importlib
import inspect
import os
import re
import threading
import types
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

import attrs

from bleuprint import (
    _accumulator,
    _pairwise,
    _scoring,
    _signature,
    _streaming,
    _token_ids,
    brevity,
    matching,
    ngrams,
    smoothing,
    tokenizers,
    weights,
)
from bleuprint import mbr as mbr_decoding
from bleuprint._constructors import TypedConstructors
from bleuprint._counting import Counting
from bleuprint._help import engine_method, own_special_names, shown_signature
from bleuprint._result import FAMILIES, BLEUResult, Signature
from bleuprint._segments import SegmentStats, SentenceScores
from bleuprint._signature import parse_part
from bleuprint._stats import BLEUStats
from bleuprint._validators import fits
from bleuprint.exceptions import (
    ConfigurationError,
    InputError,
    PresetWarning,
    counted,
    user_stacklevel,
)
from bleuprint.typing import (
    BrevityPenalty,
    LengthMeasure,
    Matcher,
    NgramExtractor,
    ReferenceLength,
    Segment,
    Smoother,
    Tokenizer,
    Weights,
    order_problem_of,
)

__all__ = [
    "ENTRY_POINT_GROUP",
    "FIELD_OF_FAMILY",
    "PRESETS",
    "BLEUScore",
    "Preset",
    "get_preset",
    "preset_origin",
]

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


def _constructor(cls: type[BLEUScore], constructor: str) -> Callable[..., BLEUScore]:
    """The named constructor ``cls.<constructor>``, the class's ``__getattr__``."""
    # Private and special names are never presets' (and are looked up often, by Python).
    preset = None if constructor.startswith("_") else PRESETS.get(constructor.replace("_", "-"))
    if preset is None:
        raise AttributeError(f"type object {cls.__name__!r} has no attribute {constructor!r}")
    return types.MethodType(_named(preset), cls)


class _NamedConstructors(TypedConstructors):
    """The engine's class: a name it lacks, such as ``BLEUScore.nltk``, is the named constructor
    of the preset of that name (dashes for underscores), made from the registry when first
    looked up, which imports that preset's definition module only: a run imports the one
    definition it uses. (On the class only: an engine has no such attribute.)

    A type checker knows bleuprint's own constructors from their declarations in
    ``bleuprint._constructors.TypedConstructors``, generated from the registry, and is
    not shown ``__getattr__``, which would let any name through.
    """

    if not TYPE_CHECKING:
        __getattr__ = _constructor

    def __dir__(cls) -> list[str]:
        # For help() and dir(): listing the constructors imports every definition module;
        # the special methods attrs writes are left out, which would fill help()'s first page.
        names = {*super().__dir__(), *(preset.constructor for preset in PRESETS.values())}
        return sorted(names - own_special_names(cls))


@functools.cache  # one per preset, made when first used
def _named(preset: Preset) -> Callable[..., BLEUScore]:
    """The named constructor of a preset, to bind to the class: ``BLEUScore.<constructor>(...)``
    takes the options of the definition's recipe and, by name, any of the engine's parts."""

    def build(cls: type[BLEUScore], *args: Any, **options: Any) -> BLEUScore:
        return _build(cls, preset, *args, **options)

    build.__name__ = build.__qualname__ = preset.constructor
    build.__doc__ = (
        f"{preset.summary}: the parts of :func:`{_recipe_name(preset.recipe)}`, whose arguments "
        "it takes, and any of the engine's parts by name."
    )
    # What help() shows: the recipe's options (after ``cls``, which binding removes).
    takes = inspect.signature(preset.recipe)
    owner = inspect.Parameter("cls", inspect.Parameter.POSITIONAL_ONLY)
    build.__signature__ = takes.replace(  # type: ignore[attr-defined]
        parameters=[owner, *takes.parameters.values()], return_annotation="BLEUScore"
    )
    return build


def _recipe_name(recipe: Callable[..., Any]) -> str:
    """The dotted name of a recipe in its module, where it is documented (a partial has none
    of its own: it is found by value)."""
    function = recipe.func if isinstance(recipe, functools.partial) else recipe
    module = inspect.getmodule(function)
    names = [key for key, value in vars(module).items() if value is recipe] if module else []
    return f"{function.__module__}.{names[0] if names else function.__qualname__}"


def _build(cls: type[BLEUScore], preset: Preset, /, *args: Any, **options: Any) -> BLEUScore:
    """An engine of class ``cls`` for ``preset``: the options its recipe takes go to the recipe
    (they win where a name is also a field's, as NLTK's ``weights``); the others name parts."""
    takes = inspect.signature(preset.recipe)
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
    return cls(**{**preset.recipe(*args, **own), **parts})


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


def _check_one_segment(hypothesis: Segment, references: Sequence[Segment]) -> None:
    """Refuse what is surely a corpus given as one segment: pre-tokenized "tokens" that are
    sentences. A hypothesis is taken for sentences where a token holds spaces between words
    and there are as many tokens as references (torchmetrics' ``preds`` and ``target``); a
    reference, where every token does. (A multi-word token among others stays a token.)"""
    if not isinstance(references, (list, tuple)):
        return  # refused by name when counted
    if isinstance(hypothesis, (list, tuple)) and len(hypothesis) == len(references):
        _refuse_sentences(hypothesis, "the hypothesis", any)
    for index, reference in enumerate(references):
        if isinstance(reference, (list, tuple)):
            _refuse_sentences(reference, f"reference {index}", all)


def _refuse_sentences(
    tokens: Sequence[object], what: str, quantifier: Callable[[Iterable[bool]], bool]
) -> None:
    if not tokens or not isinstance(tokens[0], str):
        return  # token ids, or nothing
    spaced = [isinstance(token, str) and len(token.split()) > 1 for token in tokens]
    if not quantifier(spaced):
        return
    first = spaced.index(True)
    raise InputError(
        f"{what} is a list of {counted(len(tokens), 'token')}, and token {first} "
        f"({tokens[first]!r}) holds spaces: a list is one pre-tokenized segment. To score a "
        "corpus, call corpus_score(hypotheses, references); to score one sentence, give it as "
        "a string"
    )


def _check_statistics(stats: object, max_n: int) -> None:
    """Refuse what is not statistics, or statistics of another number of orders."""
    if not isinstance(stats, (BLEUStats, SegmentStats)):
        raise InputError(f"expected statistics (BLEUStats), got {type(stats).__name__}")
    if stats.max_n != max_n:
        raise InputError(
            f"statistics have {counted(stats.max_n, 'order')}; this engine scores {max_n}"
        )


@attrs.frozen(kw_only=True)
class BLEUScore(metaclass=_NamedConstructors):
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

    # -- presets: BLEUScore.<name>(...) for each (made by the class's __getattr__), or by name --

    @classmethod
    def preset(cls, name: str, /, **options: Any) -> BLEUScore:
        """The preset called ``name`` (``bleuprint presets`` lists them), with the options of its
        definition and any of the engine's parts by name: ``BLEUScore.<name>`` by name.

        >>> BLEUScore.preset("moses-multi-bleu") == BLEUScore.moses_multi_bleu()
        True
        >>> BLEUScore.preset("canonical", max_n=2, smoothing=smoothing.Exp()).to_dict()["smooth"]
        'exp'

        An unknown name is a :class:`~bleuprint.ConfigurationError` that lists the known ones.
        """
        return _build(cls, get_preset(name), **options)

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

    def compute(
        self,
        hypothesis: Segment,
        references: Sequence[Segment],
        *,
        pad_id: int | None = None,
        ignore_index: int | None = None,
        eos_id: int | None = None,
    ) -> float:
        """The score in [0, 1] of one hypothesis against its references; token ids are read
        without ``pad_id`` and ``ignore_index`` (``-100`` in labels), up to ``eos_id``."""
        padding = _token_ids.Padding(pad_id, ignore_index, eos_id)
        return self.sentence_score(*padding.segment(hypothesis, references)).score

    def sentence_score(self, hypothesis: Segment, references: Sequence[Segment]) -> BLEUResult:
        """The full result for one hypothesis against its references.

        Given a corpus instead (a list of sentences and a list of reference lists, as
        torchmetrics' ``BLEUScore`` takes them), it would read each sentence as one token: that
        is an :class:`~bleuprint.InputError` pointing to :meth:`corpus_score`.

        >>> bleu = BLEUScore.sacrebleu()
        >>> bleu.compute(["the cat sat on the mat"], [["the cat sat on a mat"]])
        Traceback (most recent call last):
        ...
        bleuprint.exceptions.InputError: the hypothesis is a list of 1 token, and token 0 ...
        """
        _check_one_segment(hypothesis, references)
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
        return self.scoring.total(segments, start, self.signature)

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
    count_stream = engine_method(_streaming.count_stream, "count_stream")
    corpus_score_files = engine_method(_streaming.score_files, "corpus_score_files")
    pairwise_scores = engine_method(_pairwise.pairwise_scores, "pairwise_scores")
    accumulator = engine_method(_accumulator.accumulator, "accumulator")
    mbr = engine_method(mbr_decoding.mbr, "mbr")
    self_bleu = engine_method(mbr_decoding.self_bleu, "self_bleu")

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
        weightings = [(part, attrs.evolve(self, weights=part).signature) for part in weight_sets]
        return self.scoring.score_weights(stats, weightings)

    def _check_orders(self, stats: BLEUStats | SegmentStats) -> None:
        _check_statistics(stats, self.max_n)


BLEUScore.__signature__ = shown_signature(BLEUScore)  # type: ignore[attr-defined]

# -- the presets ----------------------------------------------------------------------------

ENTRY_POINT_GROUP = "bleuprint.presets"
"""The entry-point group in which a distribution names its definition modules."""
_DEFINITION_PACKAGES = ("definitions", "compat")
# The engine's own names, which a preset's constructor would hide (before any is made).
_ENGINE_ATTRIBUTES = frozenset(name for cls in BLEUScore.__mro__ for name in vars(cls))
_PRESET_NAME = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


@attrs.frozen
class Preset:
    """A named configuration of the engine, and how its scores are printed.

    A definition module lists its presets in a module-level tuple, ``PRESETS``, which the
    registry (:data:`bleuprint.presets.PRESETS`) reads. ``name`` is the command-line name: the
    module's name (dashes for underscores) or that name, a dash and more (a preset is named
    after its module, so that a name says which module to import); the named constructor is
    ``BLEUScore.<name with underscores>``. ``recipe`` gives the engine's parts for the
    definition's own options. How the definition prints its score is the one rule every
    command follows (:meth:`format_score`): on the scale ``scale`` (1: [0, 1], as NLTK prints
    it; 100: 0-100, as sacreBLEU prints it) with ``decimals`` decimals (``None``: full
    precision, as Python prints a float). ``takes`` is what its parts read: ``"text"``,
    or ``"token ids"`` (a preset that refuses words, such as fairseq's).
    """

    name: str
    summary: str
    recipe: Callable[..., dict[str, Any]] = attrs.field(repr=False)
    decimals: int | None = None
    takes: Literal["text", "token ids"] = "text"
    scale: Literal[1, 100] = 1

    @property
    def constructor(self) -> str:
        """The name of the :class:`~bleuprint.BLEUScore` class method that builds it."""
        return self.name.replace("-", "_")

    @property
    def options(self) -> tuple[str, ...]:
        """The keywords of the definition's own (besides the engine's parts, which every preset
        takes)."""
        return tuple(inspect.signature(self.recipe).parameters)

    def build(self, *args: Any, **options: Any) -> BLEUScore:
        """The configuration, with the definition's options and any of the engine's parts by
        name (as ``BLEUScore.<constructor>(...)``)."""
        return _build(BLEUScore, self, *args, **options)

    def format_score(self, score: float, decimals: int | None = None) -> str:
        """A score of [0, 1] as the definition prints it: on its ``scale``, with ``decimals``
        decimals if given, else the definition's own.

        >>> from bleuprint import presets
        >>> presets.get("sacrebleu").format_score(0.5371), presets.get("nltk").format_score(0.5)
        ('53.7', '0.5')
        """
        value = self.scaled(score)
        digits = self.decimals if decimals is None else decimals
        return repr(value) if digits is None else f"{value:.{digits}f}"

    def scaled(self, value: float) -> float:
        """A number of the score's [0, 1] (a score, a mean, an interval) on the ``scale``."""
        return value if self.scale == 1 else self.scale * value


@attrs.frozen
class _Module:
    """A definition module the registry knows: the names of its presets begin with ``prefix``;
    ``distribution`` is the installed distribution that names it (``None``: bleuprint's own)."""

    prefix: str
    module: str
    distribution: str | None = None

    def __str__(self) -> str:
        return self.module if self.distribution is None else f"{self.module} ({self.distribution})"


def _builtin_modules() -> dict[str, _Module]:
    """bleuprint's definition modules, by prefix: every public module of ``definitions/``,
    then of ``compat/``, in alphabetical order, found without importing them."""
    here = os.path.dirname(__file__)
    modules: dict[str, _Module] = {}
    for package in _DEFINITION_PACKAGES:
        files = os.listdir(os.path.join(here, package))
        # A module whose name begins with "_" holds what definitions share: it is not one.
        for name in sorted(file[:-3] for file in files if file.endswith(".py")):
            if not name.startswith("_"):
                prefix = name.replace("_", "-")
                modules[prefix] = _Module(prefix, f"bleuprint.{package}.{name}")
    return modules


def _installed_modules() -> dict[str, _Module]:
    """The definition modules that installed distributions name in the entry-point group
    (``prefix = package.module``), by prefix; a broken entry is left out with a warning."""
    # Reading the installed distributions costs start-up time: only for a name not built in.
    from importlib import metadata  # noqa: PLC0415

    try:
        entries = metadata.entry_points(group=ENTRY_POINT_GROUP)
    except Exception as error:  # a distribution's metadata is unreadable
        _warn(f"the {ENTRY_POINT_GROUP} entry points cannot be read: {_error(error)}")
        return {}
    modules: dict[str, _Module] = {}
    for entry in sorted(entries, key=lambda entry: entry.name):
        distribution = f"{entry.dist.name} {entry.dist.version}" if entry.dist else "unknown"
        found = _Module(entry.name, entry.value, distribution)
        if not _PRESET_NAME.fullmatch(entry.name) or not all(
            map(str.isidentifier, entry.value.split("."))
        ):
            _warn(
                f"{ENTRY_POINT_GROUP} entry point {entry.name} = {entry.value} of {distribution} "
                "is left out: it must be `name = package.module`, the name lowercase words "
                "joined by dashes"
            )
        elif entry.name in modules:
            _warn(f"{found} is left out: {modules[entry.name]} has the entry point {entry.name}")
        else:
            modules[entry.name] = found
    return modules


def _beginnings(name: str) -> list[str]:
    """``name`` and each of its beginnings that a dash ends, longest first."""
    dashes = [index for index, character in enumerate(name) if character == "-"]
    return [name, *(name[:dash] for dash in reversed(dashes))]


def _longest(modules: Mapping[str, _Module], name: str) -> _Module | None:
    """The module of ``modules`` with the longest name that begins ``name``."""
    return next((modules[start] for start in _beginnings(name) if start in modules), None)


class _Registry(Mapping[str, Preset]):
    """Every preset by name, in order: bleuprint's definitions, other implementations', then
    those of installed distributions (:data:`ENTRY_POINT_GROUP`).

    A preset is named after its module (the longest module name that begins it, bleuprint's
    first), so looking a name up imports that module only; listing the presets imports them all.
    A module's ``PRESETS`` are read once. bleuprint's own must be right (a mistake raises); an
    installed distribution's mistakes leave its presets out, each with a :class:`PresetWarning`.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._read: dict[_Module, tuple[str, ...]] = {}
        self._presets: dict[str, tuple[Preset, _Module]] = {}

    @functools.cached_property
    def _builtin(self) -> dict[str, _Module]:
        return _builtin_modules()

    @functools.cached_property
    def _installed(self) -> dict[str, _Module]:
        return _installed_modules()

    def _owner(self, name: str) -> _Module | None:
        """The module that may define a preset called ``name``."""
        return _longest(self._builtin, name) or _longest(self._installed, name)  # read if needed

    def __getitem__(self, name: str) -> Preset:
        module = self._owner(name) if isinstance(name, str) else None
        if module is not None:
            self._read_presets(module)
        return self._presets[name][0]

    def __iter__(self) -> Iterator[str]:
        for module in [*self._builtin.values(), *self._installed.values()]:
            yield from self._read_presets(module)

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def origin(self, name: str) -> str:
        """Where the preset ``name`` (a known one) comes from."""
        return str(self._presets[name][1])

    def _read_presets(self, module: _Module) -> tuple[str, ...]:
        """Import ``module`` and register its ``PRESETS``, once; their names."""
        if module not in self._read:
            entries = _entries(module)  # imported outside the lock: imports have their own
            with self._lock:  # a module's presets are registered whole, once
                if module not in self._read:
                    self._read[module] = tuple(self._register(module, entries))
        return self._read[module]

    def _register(self, module: _Module, entries: Sequence[object]) -> Iterator[str]:
        for entry in entries:
            if isinstance(entry, Preset):
                problem = self._problem(module, entry)
                if problem is None:
                    self._presets[entry.name] = (entry, module)
                    yield entry.name
                    continue
            else:
                problem = f"PRESETS holds {entry!r}, which is not a bleuprint.presets.Preset"
            if module.distribution is None:
                raise ConfigurationError(f"{module}: {problem}")
            _warn(f"{module}: {problem}; it is left out")

    def _problem(self, module: _Module, entry: Preset) -> str | None:
        """What is wrong with ``entry`` of ``module``'s ``PRESETS``, if anything."""
        if not _PRESET_NAME.fullmatch(entry.name):
            return f"preset {entry.name!r} is not named in lowercase words joined by dashes"
        owner = self._owner(entry.name)
        if owner != module:
            named = f"its name must be {module.prefix!r} or begin with '{module.prefix}-'"
            taken = f", and {entry.name!r} is {owner}'s" if owner else ""
            return f"preset {entry.name!r} is not named after its module: {named}{taken}"
        if entry.name in self._presets:
            return f"preset {entry.name!r} is listed twice"
        if entry.constructor in _ENGINE_ATTRIBUTES:
            return f"preset {entry.name!r} would hide BLEUScore.{entry.constructor}"
        return None


def _entries(module: _Module) -> Sequence[object]:
    """The ``PRESETS`` of ``module``, imported; an installed module that fails to import has
    none, with a warning."""
    try:
        entries = getattr(importlib.import_module(module.module), "PRESETS", ())
    except Exception as error:
        if module.distribution is None:
            raise  # bleuprint's own: a bug, shown as one
        _warn(f"{module} is left out: importing it failed: {_error(error)}")
        return ()
    return entries if isinstance(entries, (tuple, list)) else [entries]


def _error(error: Exception) -> str:
    return f"{type(error).__name__}: {error}"


def _warn(message: str) -> None:
    warnings.warn(message, PresetWarning, stacklevel=user_stacklevel())


_REGISTRY = _Registry()
PRESETS: Mapping[str, Preset] = _REGISTRY
"""Every preset by name: :data:`bleuprint.presets.PRESETS`."""


def get_preset(name: str) -> Preset:
    """The preset called ``name``; an unknown name is a :class:`~bleuprint.ConfigurationError`
    that lists the known ones."""
    try:
        return PRESETS[name]
    except KeyError:
        known = ", ".join(PRESETS)
        raise ConfigurationError(f"unknown preset {name!r}; known presets: {known}") from None


def preset_origin(name: str) -> str:
    """Where the preset called ``name`` comes from: its definition module, followed by the
    distribution that installed it if it is not bleuprint's own."""
    get_preset(name)
    return _REGISTRY.origin(name)


def _import_definitions() -> None:
    """Import bleuprint's definition modules, and the aggregations, whose parts the registry of
    part names then holds."""
    import bleuprint.aggregation  # noqa: F401, PLC0415 - imported for its registered parts

    for module in _builtin_modules().values():
        importlib.import_module(module.module)


_signature.defer(_import_definitions)
