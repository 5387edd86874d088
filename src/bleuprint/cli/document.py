"""The one JSON layout of bleuprint's own commands (``score``, ``compare``, ``explain``,
``pair``), whatever their options.

Every command prints one document: what ran (``layout``, ``command``, ``preset``,
``bleuprint_signature``, ``significance``) and a list of ``systems``, each a score object with
sacreBLEU's keys (``name``, ``score``, ``verbose_score``, and ``signature``, ``nrefs``,
``case``, ``eff``, ``tok``, ``smooth``, ``version`` wherever sacreBLEU can compute the
configuration), the outcome of a test where one ran, bleuprint's details as numbers, and the
scores of its ``segments`` where the command scores segments. The schema is
``bleuprint/data/output.schema.json`` (:data:`SCHEMA`); docs/json.md explains each key.
"""

from __future__ import annotations

import argparse
import functools
import itertools
import json
import re
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Protocol

import attrs

from bleuprint import presets
from bleuprint._result import BLEUResult, Signature
from bleuprint._segments import SentenceScores, segment_details
from bleuprint.exceptions import ConfigurationError
from bleuprint.presets import Preset

if TYPE_CHECKING:  # a command that tests imports it; ``pair`` need not
    from bleuprint.significance import SignificanceResult

LAYOUT = 1
"""The version of the layout: a document's ``layout``, raised on any incompatible change."""

_NO_TEST: Mapping[str, object] = MappingProxyType({})

SCHEMA = "data/output.schema.json"
"""Where the layout's JSON Schema is, in the ``bleuprint`` package."""


def schema() -> dict[str, Any]:
    """The layout's JSON Schema (draft 2020-12).

    >>> schema()["properties"]["layout"]["const"] == LAYOUT
    True
    """
    from importlib import resources  # noqa: PLC0415 - it imports tempfile: start-up time

    text = resources.files("bleuprint").joinpath(SCHEMA).read_text(encoding="utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def document(
    command: str,
    preset: str,
    signature: Signature,
    systems: Sequence[dict[str, Any]],
    significance: dict[str, Any] | None = None,
) -> str:
    """The document a command prints: what ran, then the systems' score objects; a system's
    ``segments`` one per line (json's indenting encoder is plain Python, its compact one
    compiled: seconds at 100,000 segments)."""
    rows = [system["segments"] for system in systems if "segments" in system]
    numbers = itertools.count()
    plain_systems = [
        {**system, "segments": f"{_ROWS}{next(numbers)}"} if "segments" in system else system
        for system in systems
    ]
    fields = {
        "layout": LAYOUT,
        "command": command,
        "preset": preset,
        "bleuprint_signature": str(signature),
        "significance": significance,
        "systems": plain_systems,
    }
    text = json.dumps(fields, indent=1, ensure_ascii=False)
    # one pass, so that no segment's own text is read as a placeholder
    return _PLACEHOLDER.sub(lambda match: _one_per_line(rows[int(match[1])]), text) + "\n"


@attrs.frozen
class StreamedDocument:
    """The document of one system whose ``segments`` are written as they are scored (``score
    -sl`` on files of any length): :meth:`head`, :meth:`segments` for each chunk, then
    :meth:`tail`. The system's own score is known only once its last segment is counted, so
    it follows its ``segments`` here (the keys are those of :func:`document`).

    >>> from bleuprint import BLEUScore
    >>> streamed = StreamedDocument("score", "sacrebleu", BLEUScore().signature, {"system": "s"})
    >>> text = streamed.head() + streamed.segments([{"score": 1.0}], first=True)
    >>> text += streamed.segments([{"score": 2.0}], first=False) + streamed.tail({"score": 1.5})
    >>> json.loads(text)["systems"]
    [{'system': 's', 'segments': [{'score': 1.0}, {'score': 2.0}], 'score': 1.5}]
    """

    command: str
    preset: str
    signature: Signature
    system: Mapping[str, Any]  # its name and file

    def head(self) -> str:
        """The text before the first segment."""
        return self._around_segments({})[0] + "[\n"

    def segments(self, rows: Sequence[Mapping[str, Any]], *, first: bool) -> str:
        """The text of a chunk of segments (at least one), ``first`` or following others."""
        lines = ",\n".join(_SEGMENT_INDENT + _COMPACT.encode(row) for row in rows)
        return lines if first else ",\n" + lines

    def tail(self, score: Mapping[str, Any]) -> str:
        """The text after the last segment: the system's ``score`` fields, and the end."""
        return "\n" + _SEGMENT_INDENT[1:] + "]" + self._around_segments(score)[1]

    def _around_segments(self, score: Mapping[str, Any]) -> tuple[str, str]:
        system = {**self.system, "segments": [], **score}
        text = document(self.command, self.preset, self.signature, [system])
        # (unescaped quotes occur in no string: this is the key itself)
        before, after = text.split('"segments": []', 1)
        return before + '"segments": ', after


_ROWS = "\0segments-"
"""A system's segments stand in the indented text as this string and their number."""
_PLACEHOLDER = re.compile(re.escape(json.dumps(_ROWS)[:-1]) + r'(\d+)"')

_SEGMENT_INDENT = " " * 4  # a segment's depth: document, systems, system, segments


def _one_per_line(segments: Sequence[object]) -> str:
    """A JSON list of objects, each on a line of its own."""
    if not segments:
        return "[]"
    lines = (_SEGMENT_INDENT + _COMPACT.encode(segment) for segment in segments)
    return "[\n" + ",\n".join(lines) + "\n" + _SEGMENT_INDENT[1:] + "]"


_COMPACT = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": "))


def score_fields(
    result: BLEUResult,
    printed: ScoreFormat,
    test: SignificanceResult | None = None,
    tested: Mapping[str, object] = _NO_TEST,
) -> dict[str, Any]:
    """A score object: sacreBLEU's keys in sacreBLEU's order (its signature's only where
    sacreBLEU can compute the configuration, with the ``tested`` fields that name the test, as
    ``bs:1000|seed:12345``; its confidence keys only where a bootstrap ran, rounded as
    sacreBLEU rounds them), the outcome of a ``test`` (``p_value``, ``mean``, ``ci``: ``None``
    where not computed), then the details, at full precision.

    >>> from bleuprint import BLEUScore, presets
    >>> result = BLEUScore.sacrebleu().corpus_score(["a b c d"], [["a b c d"]])
    >>> printed = ScoreFormat(presets.get("sacrebleu"))
    >>> print(*score_fields(result, printed))  # doctest: +NORMALIZE_WHITESPACE
    name score signature verbose_score nrefs case eff tok smooth version precisions bp ratio
    hyp_len ref_len counts totals
    """
    signature = sacrebleu_signature(result, tested)
    own = _own_fields(result, printed)
    fields: dict[str, Any] = {"name": "BLEU", "score": own.pop("score")}
    if signature is not None:
        fields["signature"] = signature
    if test is not None and test.mean is not None and test.ci is not None:
        mean, ci = printed(test.mean), printed(test.ci)
        fields.update(
            confidence_mean=float(mean), confidence_var=float(ci), confidence=f"μ = {mean} ± {ci}"
        )
    fields["verbose_score"] = own.pop("verbose_score")
    if signature is not None:
        fields.update(_signature_fields(signature))
    if test is not None:
        fields.update(
            p_value=test.p_value, mean=printed.scaled(test.mean), ci=printed.scaled(test.ci)
        )
    fields.update(own)
    return fields


def segment_fields(scores: SentenceScores, printed: ScoreFormat) -> list[dict[str, Any]]:
    """:func:`score_fields` of each segment's result, without making the results (which took
    most of the time of writing them): the fields of the first segment of each number of
    references are made as any result's are, and each segment's own put into a copy of them
    (keys keep their places).

    >>> from bleuprint import BLEUScore, presets
    >>> scores = BLEUScore.sacrebleu().sentence_scores(["a b c d", "a b"], [["a b c d"], ["b"]])
    >>> rows = segment_fields(scores, ScoreFormat(presets.get("sacrebleu")))
    >>> rows == [score_fields(result, ScoreFormat(presets.get("sacrebleu"))) for result in scores]
    True
    """
    first_fields: dict[int, dict[str, Any]] = {}
    rows = []
    for index, details in enumerate(segment_details(scores)):
        fields = first_fields.get(details.references)
        if fields is None:
            fields = first_fields[details.references] = score_fields(scores[index], printed)
        rows.append({**fields, **_own_fields(details, printed)})
    return rows


class _Numbers(Protocol):
    """What a score object's own fields are made of: a :class:`~bleuprint.BLEUResult`, or a
    segment's :class:`~bleuprint._segments.SegmentDetails`."""

    @property
    def score(self) -> float: ...
    @property
    def precisions(self) -> Sequence[float]: ...
    @property
    def brevity_penalty(self) -> float: ...
    @property
    def ratio(self) -> float: ...
    @property
    def hypothesis_length(self) -> float: ...
    @property
    def reference_length(self) -> float: ...
    @property
    def matches(self) -> Sequence[float]: ...
    @property
    def totals(self) -> Sequence[float]: ...
    def format_details(self) -> str: ...


def _own_fields(numbers: _Numbers, printed: ScoreFormat) -> dict[str, Any]:
    """The fields of a score object that are the result's own numbers (the others are the
    configuration's, or a test's), in their order."""
    return {
        "score": float(printed(numbers.score)),
        "verbose_score": numbers.format_details(),
        "precisions": [100 * precision for precision in numbers.precisions],
        "bp": numbers.brevity_penalty,
        "ratio": numbers.ratio,
        "hyp_len": numbers.hypothesis_length,
        "ref_len": numbers.reference_length,
        "counts": list(numbers.matches),
        "totals": list(numbers.totals),
    }


@functools.lru_cache(maxsize=64)
def _signature_fields(signature: str) -> tuple[tuple[str, str], ...]:
    """The key and value of each field of a signature (every segment of a run has the same)."""
    pairs = (field.partition(":") for field in signature.split("|"))
    return tuple((key, value) for key, _, value in pairs)


def sacrebleu_signature(result: BLEUResult, tested: Mapping[str, object]) -> str | None:
    """sacreBLEU's signature, for configurations sacreBLEU can compute; else ``None``."""
    # Every segment of a run has the same: worked out once (a run has few configurations).
    key = (result.signature.nrefs, *result.signature.parts.items(), *tested.items())
    if key not in _SIGNATURES:
        _SIGNATURES[key] = _worked_out(result, tested)
    return _SIGNATURES[key]


_SIGNATURES: dict[tuple[object, ...], str | None] = {}


def _worked_out(result: BLEUResult, tested: Mapping[str, object]) -> str | None:
    # (Imported here: ``pair`` prints its text line without the sacreBLEU definition.)
    from bleuprint.compat import sacrebleu  # noqa: PLC0415

    try:
        signature = sacrebleu.signature(result)
    except ConfigurationError:
        return None
    # sacreBLEU's order: nrefs, then the test's fields, then the configuration.
    nrefs, _, configuration = signature.partition("|")
    return "|".join([nrefs, *(f"{key}:{value}" for key, value in tested.items()), configuration])


@attrs.frozen
class ScoreFormat:
    """How a run prints scores: as its preset's definition prints them
    (:meth:`Preset.format_score <bleuprint.presets.Preset.format_score>`, the one rule of
    scale and digits), to ``width`` decimals where ``-w`` gives them.

    >>> from bleuprint import presets
    >>> ScoreFormat(presets.get("sacrebleu"))(0.5371), ScoreFormat(presets.get("nltk"), 3)(0.5371)
    ('53.7', '0.537')
    """

    preset: Preset
    width: int | None = None

    @classmethod
    def of(cls, arguments: argparse.Namespace) -> ScoreFormat:
        """The format of a run's ``--preset`` and ``-w``."""
        return cls(presets.get(arguments.preset), arguments.width)

    def __call__(self, score: float) -> str:
        """A score of [0, 1] as printed."""
        return self.preset.format_score(score, self.width)

    def scaled(self, value: float | None) -> float | None:
        """A mean or an interval of [0, 1] on the score's scale, unrounded (``None`` stays)."""
        return None if value is None else self.preset.scaled(value)
