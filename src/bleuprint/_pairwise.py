"""Pairwise scores: every candidate of a group against every other as its only reference,
for minimum-Bayes-risk decoding and self-BLEU, counted with n-gram count matrices."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Protocol

import numpy as np

from bleuprint._counting import ArrayCounting, Counting, plain_kind
from bleuprint._segments import SegmentStats, SentenceScores
from bleuprint.typing import FloatArray, IntArray, Segment

_PAIRWISE_BLOCK_ENTRIES = 1 << 24  # candidate pairs x n-grams credited at once


class Scorer(Protocol):
    """What pairwise scoring needs of the engine."""

    @property
    def counting(self) -> Counting: ...

    def count_segments(
        self, hypotheses: Sequence[Segment], references: Sequence[Sequence[Segment]]
    ) -> SegmentStats: ...

    def score_segments(self, segments: SegmentStats) -> SentenceScores: ...


def pairwise_scores(engine: Scorer, groups: Sequence[Sequence[Segment]]) -> list[FloatArray]:
    """For each group of candidates, the square matrix of sentence scores of every candidate
    (row) against every other as its only reference (column), in one call: for
    minimum-Bayes-risk decoding and self-BLEU.

    >>> from bleuprint import BLEUScore
    >>> matrix, = BLEUScore.canonical(max_n=1).pairwise_scores([["a b", "a c", "a b c"]])
    >>> matrix.round(4).tolist()  # "a b" against "a b c": all words match, BP = exp(-1/2)
    [[1.0, 0.5, 0.6065], [0.5, 1.0, 0.6065], [0.6667, 0.6667, 1.0]]
    """
    parts = ArrayCounting.of(engine.counting)
    matrices = []
    for group in groups:
        candidates, size = list(group), len(group)
        if size == 0:
            matrices.append(np.zeros((0, 0)))
            continue
        if parts is not None and plain_kind(candidates, [[one] for one in candidates]):
            stats = _pairwise_stats(parts, candidates)
        else:
            hypotheses = [hypothesis for hypothesis in candidates for _ in candidates]
            references = [[reference] for _ in candidates for reference in candidates]
            stats = engine.count_segments(hypotheses, references)
        matrices.append(engine.score_segments(stats).scores.reshape(size, size))
    return matrices


def _pairwise_stats(parts: ArrayCounting, candidates: list[Segment]) -> SegmentStats:
    """The statistics of every candidate against every candidate, row after row."""
    size = len(candidates)
    kind = "text" if all(type(candidate) is str for candidate in candidates) else "tokens"
    table, texts = parts.token_table(candidates, kind)
    token_ids, token_counts = table.laid_end_to_end(texts)
    matches = [
        _pairwise_credit(counts, parts.matching.credit_array)
        for counts in _ngram_count_matrices(token_ids, token_counts, parts.ngrams.max_n)
    ]
    lengths = parts.lengths(candidates, kind, token_counts)
    hypothesis_lengths = np.repeat(lengths, size)
    single = np.ones(size * size, np.int64)
    return SegmentStats(
        np.stack(matches, axis=-1).reshape(size * size, parts.ngrams.max_n),
        parts.ngrams.order_totals_array(np.repeat(token_counts, size)),
        hypothesis_lengths,
        parts.reference_length.reference_length_array(
            hypothesis_lengths, np.tile(lengths, size), single
        ),
        single,
        parts.signature,
    )


def _ngram_count_matrices(token_ids: IntArray, lengths: IntArray, max_n: int) -> Iterator[IntArray]:
    """For each order, how often each distinct n-gram (columns) occurs in each stream (rows)."""
    streams = len(lengths)
    for stream_of, labels in ngram_labels(token_ids, lengths, max_n):
        label_count = int(labels.max(initial=-1)) + 1
        cells = stream_of * label_count + labels
        yield np.bincount(cells, minlength=streams * label_count).reshape(streams, label_count)


def ngram_labels(
    token_ids: IntArray, lengths: IntArray, max_n: int
) -> Iterator[tuple[IntArray, IntArray]]:
    """For each order, every n-gram occurrence of the streams laid end to end: the stream it
    is in, and a label 0, 1, 2, ... that is equal for equal n-grams (of that order)."""
    token_end = np.repeat(np.cumsum(lengths), lengths)
    token_stream = np.repeat(np.arange(len(lengths)), lengths)
    unigram_labels = _dense(token_ids)
    unigram_count = int(unigram_labels.max(initial=-1)) + 1
    starts, labels = np.arange(len(token_ids)), unigram_labels
    for order in range(1, max_n + 1):
        yield token_stream[starts], labels
        # The (n+1)-gram at p is the n-gram at p and the token at p + n.
        longer = starts + order + 1 <= token_end[starts]
        starts = starts[longer]
        labels = _dense(labels[longer] * unigram_count + unigram_labels[starts + order])


def _pairwise_credit(
    counts: IntArray, credit: Callable[[IntArray, IntArray], IntArray]
) -> IntArray:
    """``result[i, j]``: the credit of stream i's n-grams against stream j as reference."""
    size = len(counts)
    # Only n-grams of two or more streams count off the diagonal.
    result = np.zeros((size, size), np.int64)
    by_ngram = counts.T[(counts > 0).sum(axis=0) >= 2]
    if by_ngram.size and by_ngram.max() < 256:
        by_ngram = by_ngram.astype(np.uint8)
    # Credits of 8 bits add exactly in 16 bits, 257 n-grams at a time; blocks bound memory.
    block = max(1, min(257, _PAIRWISE_BLOCK_ENTRIES // (size * size)))
    for start in range(0, len(by_ngram), block):
        rows = by_ngram[start : start + block]
        credited = np.asarray(credit(rows[:, :, None], rows[:, None, :]))
        result += credited.sum(axis=0, dtype=np.uint16 if credited.itemsize == 1 else np.int64)
    np.fill_diagonal(result, np.asarray(credit(counts, counts)).sum(axis=1))
    return result


def _dense(values: IntArray) -> IntArray:
    """Equal values to equal labels 0, 1, 2, ... (in sorted order of the values)."""
    labels: IntArray = np.unique(values, return_inverse=True)[1]
    return labels.reshape(-1)
