"""What the chrF definitions share: their statistics, and the engine that counts and scores them.

chrF (Popović, 2015) and chrF++ (Popović, 2017) are F-scores of n-grams: for each order, the
n-grams of the hypothesis, of the reference and of both (clipped, as BLEU's matches). They
count n-grams of more than one kind (characters, then words for chrF++), and an F-score needs
the reference's n-gram count of each order as well as the hypothesis's, which
:class:`~bleuprint.BLEUStats` does not hold. So a chrF definition (:class:`Definition`) names
one counting engine per kind, a :class:`~bleuprint.BLEUScore` of the general parts (its
tokenizer, :class:`~bleuprint.ngrams.Contiguous` n-grams, :class:`~bleuprint.matching.Clipped`
matches), which the kernel counts as it counts BLEU, and a scoring part on rows of
:class:`ChrFSegments`; :class:`ChrF` puts them together.

Each hypothesis is counted against each of its references on its own (as a segment of one
reference), and the definition chooses the reference whose statistics count. The reference's
n-grams of order ``n`` are its ``length - n + 1`` runs, from the length the counting engine
measures.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain
from typing import cast

import attrs
import numpy as np

from bleuprint import tokenizers
from bleuprint._engine import BLEUScore
from bleuprint._segments import SegmentStats
from bleuprint._validators import as_tuple
from bleuprint.exceptions import InputError, StatisticsMismatchError, counted
from bleuprint.ngrams import Contiguous
from bleuprint.typing import FloatArray, IntArray, Tokenizer

__all__ = [
    "ChrF",
    "ChrFResult",
    "ChrFSegments",
    "ChrFStats",
    "Definition",
    "counting_engines",
]


@attrs.frozen
class ChrFStats:
    """The statistics of chrF for one segment or many: per order (characters first, then
    words), the hypothesis's n-grams, the reference's and the matched ones, as the definition
    records them; the number of segments, and the numbers of references seen per segment.

    >>> a = ChrFStats((3, 2), (4, 3), (2, 1), reference_counts=frozenset({1}))
    >>> b = ChrFStats((1, 0), (1, 0), (1, 0), reference_counts=frozenset({2}))
    >>> total = a + b
    >>> total.hypothesis, total.segments, sorted(total.reference_counts)
    ((4, 2), 2, [1, 2])
    """

    hypothesis: tuple[int, ...] = attrs.field(converter=as_tuple)
    reference: tuple[int, ...] = attrs.field(converter=as_tuple)
    matches: tuple[int, ...] = attrs.field(converter=as_tuple)
    segments: int = 1
    reference_counts: frozenset[int] = frozenset()

    def __attrs_post_init__(self) -> None:
        if not len(self.hypothesis) == len(self.reference) == len(self.matches):
            raise InputError(
                f"chrF statistics need as many orders in each field, got {len(self.hypothesis)} "
                f"hypothesis, {len(self.reference)} reference and {len(self.matches)} matches"
            )

    @property
    def orders(self) -> int:
        """The number of orders counted (of every kind)."""
        return len(self.matches)

    def __add__(self, other: ChrFStats) -> ChrFStats:
        if not isinstance(other, ChrFStats):
            return NotImplemented
        if other.orders != self.orders:
            raise StatisticsMismatchError(
                f"cannot add chrF statistics of {counted(self.orders, 'order')} and of "
                f"{counted(other.orders, 'order')}"
            )
        return ChrFStats(
            np.add(self.hypothesis, other.hypothesis).tolist(),
            np.add(self.reference, other.reference).tolist(),
            np.add(self.matches, other.matches).tolist(),
            self.segments + other.segments,
            self.reference_counts | other.reference_counts,
        )

    def __radd__(self, other: object) -> ChrFStats:
        if other == 0:  # ``sum()`` starts from the integer 0
            return self
        return NotImplemented


@attrs.frozen(eq=False)
class ChrFSegments:
    """The statistics of each segment (or of each hypothesis-reference pair) as arrays: row
    ``i`` of ``hypothesis``, ``reference`` and ``matches`` (one column per order) and entry
    ``i`` of ``reference_counts`` are one segment's."""

    hypothesis: IntArray
    reference: IntArray
    matches: IntArray
    reference_counts: IntArray

    def __len__(self) -> int:
        return len(self.reference_counts)

    def __getitem__(self, index: int) -> ChrFStats:
        index = range(len(self))[index]
        return ChrFStats(
            self.hypothesis[index].tolist(),
            self.reference[index].tolist(),
            self.matches[index].tolist(),
            1,
            frozenset({int(self.reference_counts[index])}),
        )

    def take(self, rows: IntArray) -> ChrFSegments:
        """The rows at ``rows``, in that order."""
        return ChrFSegments(
            self.hypothesis[rows],
            self.reference[rows],
            self.matches[rows],
            self.reference_counts[rows],
        )

    def total(self) -> ChrFStats:
        """Every segment summed (exactly: the counts are whole numbers)."""
        return ChrFStats(
            self.hypothesis.sum(axis=0).tolist(),
            self.reference.sum(axis=0).tolist(),
            self.matches.sum(axis=0).tolist(),
            len(self),
            frozenset(self.reference_counts.tolist()),
        )

    @classmethod
    def of(cls, stats: ChrFStats) -> ChrFSegments:
        """One row of ``stats`` (a segment's or a corpus's), to score as any row is scored."""
        return cls(
            np.array([stats.hypothesis], np.int64),
            np.array([stats.reference], np.int64),
            np.array([stats.matches], np.int64),
            np.array([min(stats.reference_counts, default=0)], np.int64),
        )


@attrs.frozen
class ChrFResult:
    """A chrF score: ``score`` in [0, 1]; ``points`` on the 0-100 scale, which is printed
    (sacreBLEU's own number, as it computes it); the statistics it was computed from; the
    definition's ``name`` (``chrF2``, ``chrF2++``) and ``signature``. ``str()`` gives the
    definition's printed line."""

    score: float
    points: float
    stats: ChrFStats
    name: str
    signature: str
    decimals: int = 2

    def __str__(self) -> str:
        return f"{self.name} = {self.points:.{self.decimals}f}"


class Definition:
    """A chrF definition: its name, its counting engines (one per kind of n-gram), how it
    records, chooses and scores statistics. The methods given here are the plain ones (text as
    it is given, each pair's counts as they are, the reference of best score, a corpus summed
    and scored as one row); a definition replaces those it does otherwise."""

    scale: float = 1
    """The score of a perfect hypothesis on the definition's own scale (100 for sacreBLEU)."""

    @property
    def name(self) -> str:
        """The name its scores are printed with."""
        raise NotImplementedError

    @property
    def counters(self) -> tuple[BLEUScore, ...]:
        """The counting engines, one per kind of n-gram, each of contiguous n-grams; their
        orders are the columns of the statistics, one engine's after the other's."""
        raise NotImplementedError

    def as_text(self, segment: object) -> object:
        """The segment as the counting engines read it (a string), before it is checked."""
        return segment

    def recorded(self, pairs: ChrFSegments) -> ChrFSegments:
        """The statistics that each hypothesis-reference pair records, from its plain counts."""
        return pairs

    def points(self, rows: ChrFSegments) -> FloatArray:
        """The score of every row (a segment's statistics), on the definition's scale."""
        raise NotImplementedError

    def chosen(self, pairs: ChrFSegments, reference_counts: IntArray) -> IntArray:
        """The row of ``pairs`` (one per reference, a segment's after the other's) that counts
        for each segment: the one of highest score, the first of equals."""
        return first_best(self.points(pairs), reference_counts)

    def total(self, segments: ChrFSegments) -> ChrFStats:
        """The corpus statistics of ``segments``."""
        return segments.total()

    def corpus_points(self, stats: ChrFStats) -> float:
        """The score of statistics (a segment's or a corpus's), on the definition's scale."""
        return float(self.points(ChrFSegments.of(stats))[0])

    def signature(self, stats: ChrFStats) -> str:
        """The signature of a result of ``stats``."""
        raise NotImplementedError


def counting_engines(
    kinds: Sequence[tuple[Tokenizer, int]], lowercase: bool = False
) -> tuple[BLEUScore, ...]:
    """A counting engine of contiguous n-grams of orders 1 to ``order`` for each ``(tokenizer,
    order)`` of ``kinds`` whose order is not 0, reading lowercased text where ``lowercase``."""
    return tuple(
        BLEUScore(
            tokenizer=tokenizers.Lowercase(tokenizer) if lowercase else tokenizer,
            ngrams=Contiguous(order),
        )
        for tokenizer, order in kinds
        if order
    )


def first_best(points: FloatArray, reference_counts: IntArray) -> IntArray:
    """For each segment, its row of highest ``points``, the first among equals (rows of one
    segment after another's, ``reference_counts[i]`` of them for segment ``i``).

    >>> first_best(np.array([1.0, 3.0, 3.0, 2.0]), np.array([3, 1])).tolist()
    [1, 3]
    """
    segment_of = np.repeat(np.arange(len(reference_counts)), reference_counts)
    best = np.full(len(reference_counts), -np.inf)
    np.maximum.at(best, segment_of, points)
    candidates = np.flatnonzero(points == best[segment_of])
    _, first = np.unique(segment_of[candidates], return_index=True)
    chosen: IntArray = candidates[first]
    return chosen


@attrs.frozen
class ChrF:
    """A chrF definition's engine: corpus and sentence scores, and the statistics they come
    from. A corpus score sums the statistics of every segment (each against its chosen
    reference) and scores once; a sentence score scores one segment's."""

    definition: Definition

    def count_segments(
        self, hypotheses: Sequence[str], references: Sequence[Sequence[str]]
    ) -> ChrFSegments:
        """Each segment's statistics against its chosen reference."""
        definition = self.definition
        hypotheses, references = _texts(definition, hypotheses, references)
        reference_counts = np.fromiter(map(len, references), np.int64, len(references))
        rows = np.repeat(np.arange(len(hypotheses)), reference_counts)
        paired = [hypotheses[row] for row in rows.tolist()]
        alone = [[reference] for segment in references for reference in segment]
        kinds = [_pair_counts(counter, paired, alone) for counter in definition.counters]
        hypothesis, reference, matches = (np.concatenate(field, axis=1) for field in zip(*kinds))
        pairs = definition.recorded(
            ChrFSegments(hypothesis, reference, matches, np.ones(len(rows), np.int64))
        )
        chosen = definition.chosen(pairs, reference_counts)
        return attrs.evolve(pairs.take(chosen), reference_counts=reference_counts)

    def count(self, hypotheses: Sequence[str], references: Sequence[Sequence[str]]) -> ChrFStats:
        """The corpus statistics: every segment's, summed as the definition sums them."""
        return self.definition.total(self.count_segments(hypotheses, references))

    def score(self, stats: ChrFStats) -> ChrFResult:
        """The result of statistics (a segment's or a corpus's)."""
        return self._result(self.definition.corpus_points(stats), stats)

    def corpus_score(
        self, hypotheses: Sequence[str], references: Sequence[Sequence[str]]
    ) -> ChrFResult:
        """The corpus score: ``references[i]`` are the references of ``hypotheses[i]``."""
        return self.score(self.count(hypotheses, references))

    def sentence_score(self, hypothesis: str, references: Sequence[str]) -> ChrFResult:
        """The score of one hypothesis against its references."""
        return self.score(self.count([hypothesis], [references]))

    def compute(self, hypothesis: str, references: Sequence[str]) -> float:
        """The score in [0, 1] of one hypothesis against its references."""
        return self.sentence_score(hypothesis, references).score

    def sentence_scores(
        self, hypotheses: Sequence[str], references: Sequence[Sequence[str]]
    ) -> list[ChrFResult]:
        """Every segment's sentence score, counted as one batch."""
        segments = self.count_segments(hypotheses, references)
        points = self.definition.points(segments).tolist()
        return [self._result(value, segments[row]) for row, value in enumerate(points)]

    def _result(self, value: float, stats: ChrFStats) -> ChrFResult:
        definition = self.definition
        score, points = value / definition.scale, value * (100 / definition.scale)
        return ChrFResult(score, points, stats, definition.name, definition.signature(stats))


def _pair_counts(
    counter: BLEUScore, hypotheses: list[str], references: list[list[str]]
) -> tuple[IntArray, IntArray, IntArray]:
    """Each pair's hypothesis n-grams, reference n-grams and matches per order, counted by the
    kernel (each pair a segment of one reference, whose length is that reference's)."""
    counted: SegmentStats = counter.count_segments(hypotheses, references)
    ngrams = counter.ngrams
    if not isinstance(ngrams, Contiguous):  # (a definition's own engines: a bug if not)
        raise TypeError(f"a chrF counter counts contiguous n-grams, not {ngrams.signature}")
    reference = ngrams.order_totals_array(counted.reference_lengths.astype(np.int64))
    return counted.totals, reference, counted.matches


def _texts(
    definition: Definition, hypotheses: object, references: object
) -> tuple[Sequence[str], Sequence[Sequence[str]]]:
    """The hypotheses and each one's references as the definition reads them (``as_text``),
    once they are found to be text: a string per hypothesis, a non-empty list of strings per
    segment's references."""
    for what, corpus in (("hypotheses", hypotheses), ("references", references)):
        if isinstance(corpus, str) or not isinstance(corpus, Sequence):
            raise InputError(f"{what} must be a list, one entry per segment, got {corpus!r:.60}")
    hypotheses, references = (
        cast("Sequence[object]", hypotheses),
        cast("Sequence[object]", references),
    )
    if len(hypotheses) != len(references):
        raise InputError(
            f"{counted(len(hypotheses), 'hypothesis', 'hypotheses')} but "
            f"{counted(len(references), 'list')} of references: "
            "give one list of references per hypothesis"
        )
    if not hypotheses:
        raise InputError("the corpus is empty: there is nothing to score")
    if _plain(definition, hypotheses, references):
        return cast("Sequence[str]", hypotheses), cast("Sequence[Sequence[str]]", references)
    texts: tuple[list[str], list[list[str]]] = ([], [])
    for index, (hypothesis, segment) in enumerate(zip(hypotheses, references)):
        texts[0].append(_text(definition.as_text(hypothesis), "the hypothesis", index))
        if isinstance(segment, str) or not isinstance(segment, Sequence) or not segment:
            raise InputError(
                f"the references must be a non-empty list, got {segment!r:.60}", segment=index
            )
        texts[1].append(
            [
                _text(definition.as_text(reference), f"reference {number}", index)
                for number, reference in enumerate(segment)
            ]
        )
    return texts


def _plain(
    definition: Definition, hypotheses: Sequence[object], references: Sequence[object]
) -> bool:
    """Whether the corpus is strings and lists (or tuples) of strings, which the definition
    reads as they are: found at once (most corpora are), without a Python loop per segment."""
    return (
        type(definition).as_text is Definition.as_text
        and set(map(type, hypotheses)) == {str}
        and set(map(type, references)) <= {list, tuple}
        and all(references)
        and set(map(type, chain.from_iterable(cast("Sequence[list[object]]", references)))) == {str}
    )


def _text(segment: object, what: str, index: int) -> str:
    if not isinstance(segment, str):
        raise InputError(f"{what} must be a string, got {type(segment).__name__}", segment=index)
    return segment
