"""Why a segment scores what it scores: its n-grams, order by order, and its brevity penalty.

For each order, every hypothesis n-gram is *matched* (credited), *clipped* (occurs more often
than the references allow; the excess is not credited) or *unmatched* (in no reference); the
reference n-grams the hypothesis never produced are *missed* (each at its highest count in any
one reference). The explanation uses the engine's own parts, and checks that its itemized
counts add up to the statistics the engine counts.

>>> from bleuprint import BLEUScore
>>> bleu = BLEUScore.canonical(max_n=2)
>>> explanation = explain_segment(bleu, "the the the cat", ["the cat sat on the mat"])
>>> first = explanation.orders[0]
>>> first.matched, first.clipped, first.missed
([(('the',), 2), (('cat',), 1)], [(('the',), 1)], [(('sat',), 1), (('on',), 1), (('mat',), 1)])
>>> explanation.reference_length, round(explanation.result.brevity_penalty, 4)
(6, 0.6065)

:func:`costliest_segments` finds the segments that cost the corpus score the most: the
corpus BLEU without the segment minus the corpus BLEU with it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import attrs
import numpy as np
import numpy.typing as npt

from bleuprint._engine import BLEUScore
from bleuprint._result import BLEUResult
from bleuprint._segments import SegmentStats
from bleuprint.exceptions import InputError
from bleuprint.typing import Ngram

__all__ = ["OrderExplanation", "SegmentExplanation", "costliest_segments", "explain_segment"]

NgramCount = tuple[Ngram, int]


@attrs.frozen
class OrderExplanation:
    """The n-grams of one order ``n``, each with how many of its occurrences fall in the group."""

    n: int
    matched: list[NgramCount]
    clipped: list[NgramCount]
    unmatched: list[NgramCount]
    missed: list[NgramCount]

    @property
    def matches(self) -> int:
        """Credited n-grams of this order."""
        return sum(count for _, count in self.matched)

    @property
    def total(self) -> int:
        """Hypothesis n-grams of this order."""
        return self.matches + sum(count for _, count in (*self.clipped, *self.unmatched))


@attrs.frozen
class SegmentExplanation:
    """One segment: its tokens, its n-grams by order, how its brevity penalty was reached.

    ``index`` counts from 0; ``loss`` is the corpus BLEU (in [0, 1]) the segment costs, where
    it was computed.
    """

    index: int
    hypothesis_tokens: list[str]
    reference_tokens: list[list[str]]
    orders: list[OrderExplanation]
    hypothesis_length: float
    reference_lengths: list[float]
    reference_length: float
    result: BLEUResult
    loss: float | None = None


def explain_segment(
    engine: BLEUScore, hypothesis: str, references: Sequence[str], *, index: int = 0
) -> SegmentExplanation:
    """Itemize the score of ``hypothesis`` against ``references`` under ``engine``."""
    stats = engine.count_segments([hypothesis], [list(references)])[0]
    hypothesis_tokens = engine.tokenizer(hypothesis)
    reference_tokens = [engine.tokenizer(reference) for reference in references]
    hypothesis_ngrams = engine.ngrams(hypothesis_tokens)
    reference_ngrams = [engine.ngrams(tokens) for tokens in reference_tokens]
    orders = _orders(engine, hypothesis_ngrams, reference_ngrams)
    if [order.matches for order in orders] != list(stats.matches) or [
        order.total for order in orders
    ] != list(stats.totals):
        raise InputError(
            f"segment {index}: cannot itemize the matching {engine.matching.signature}: "
            "its credit is not a sum over n-grams"
        )
    return SegmentExplanation(
        index=index,
        hypothesis_tokens=hypothesis_tokens,
        reference_tokens=reference_tokens,
        orders=orders,
        hypothesis_length=stats.hypothesis_length,
        reference_lengths=[
            engine.length(reference, tokens)
            for reference, tokens in zip(references, reference_tokens)
        ],
        reference_length=stats.reference_length,
        result=engine.score(stats),
    )


def costliest_segments(
    engine: BLEUScore,
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    count: int = 5,
) -> list[SegmentExplanation]:
    """The ``count`` segments whose presence lowers the corpus score the most, explained,
    costliest first (ties: the earlier segment first)."""
    segments = engine.count_segments(hypotheses, references)
    corpus_score = engine.score(engine.total(segments)).score
    losses = _scores_without_each(engine, segments) - corpus_score
    order = np.argsort(-losses, kind="stable")[:count]
    return [
        attrs.evolve(
            explain_segment(engine, hypotheses[i], references[i], index=int(i)),
            loss=float(losses[i]),
        )
        for i in order
    ]


def _scores_without_each(engine: BLEUScore, segments: SegmentStats) -> npt.NDArray[np.float64]:
    """The corpus score without segment ``i``, for every ``i``."""
    if engine.scoring.reads_only_sums:
        # Scoring reads only the sums, and the corpus without a segment sums to the
        # total less that segment's row: every leave-one-out corpus scores at once.
        def without_each(column: npt.NDArray[Any]) -> npt.NDArray[Any]:
            rest: npt.NDArray[Any] = column.sum(axis=0) - column
            return rest

        corpora = SegmentStats(
            without_each(segments.matches),
            without_each(segments.totals),
            without_each(segments.hypothesis_lengths),
            without_each(segments.reference_lengths),
            segments.reference_counts,
            segments.counting,
        )
        scores: npt.NDArray[np.float64] = engine.score_segments(corpora).scores
        return scores
    everyone = np.arange(len(segments))
    return np.array(
        [
            engine.score(engine.total(segments.take(np.delete(everyone, index)))).score
            for index in everyone
        ]
    )


def _orders(
    engine: BLEUScore, hypothesis: Counter[Ngram], references: Sequence[Counter[Ngram]]
) -> list[OrderExplanation]:
    groups: dict[str, list[list[NgramCount]]] = {
        group: [[] for _ in range(engine.max_n)]
        for group in ("matched", "clipped", "unmatched", "missed")
    }
    most_in_a_reference: Counter[Ngram] = Counter()
    for reference in references:
        most_in_a_reference |= reference
    for ngram, count in hypothesis.items():
        order = len(ngram) - 1
        credited = engine.matching(Counter({ngram: count}), references, engine.max_n)[order]
        if credited:
            groups["matched"][order].append((ngram, credited))
        if count > credited:
            group = "clipped" if credited else "unmatched"
            groups[group][order].append((ngram, count - credited))
    for ngram, count in most_in_a_reference.items():
        if count > hypothesis.get(ngram, 0):
            groups["missed"][len(ngram) - 1].append((ngram, count - hypothesis.get(ngram, 0)))
    return [
        OrderExplanation(n + 1, *(groups[group][n] for group in groups))
        for n in range(engine.max_n)
    ]
