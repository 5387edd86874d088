"""The fast path: the statistics and scores of every segment of a batch at once.

The simple path (``BLEUScore._count_segment``) builds a :class:`collections.Counter` of tuples
of strings per segment, which costs tens of microseconds of Python per segment. Here:

1. Each distinct text of a batch is tokenized once and its tokens interned to integer ids,
   kept in a :class:`TokenTable` (repeated lines and references shared by several systems
   cost one dictionary lookup).
2. A compiled loop (:func:`bleuprint._kernels.shared_ngram_counts`) finds, segment by segment
   and order by order, the hypothesis n-grams that a reference has too, with their counts.
   Nearly all are found once on each side; those are only counted, the others listed.
3. The matcher's credit of those counts is summed per segment and order with numpy, and the
   scoring parts compute every segment's score on arrays; the compiled
   :func:`~bleuprint._kernels.weighted_geometric_means` does the last step with the very
   rounding of the scalar code.

The engine takes this path when all its counting parts fit the array protocols of
:mod:`bleuprint.typing`, and scores with arrays when its scoring parts do. Every result equals
the simple path's exactly; ``tests/test_arrays.py`` checks that on random corpora.
"""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from itertools import chain, count
from typing import TYPE_CHECKING, cast

import attrs
import numpy as np

from bleuprint._exact import weighted_geometric_mean
from bleuprint._kernels import THREADS, shared_ngram_counts, weighted_geometric_means
from bleuprint._segments import SegmentStats, SentenceScores
from bleuprint._stats import BLEUStats
from bleuprint.typing import (
    ArrayBrevityPenalty,
    ArrayLengthMeasure,
    ArrayMatcher,
    ArrayNgramExtractor,
    ArrayReferenceLength,
    ArraySmoother,
    ArrayWeights,
    BatchTokenizer,
    BoolArray,
    FloatArray,
    IntArray,
    Segment,
    Tokenizer,
)

if TYPE_CHECKING:
    from bleuprint._engine import BLEUScore
    from bleuprint._result import Signature

COUNTING_THREADS = THREADS
"""Threads counting chunks at once: numba's ``NUMBA_NUM_THREADS`` (by default, one per CPU)."""
CHUNK_SEGMENTS = 8192
"""Segments counted together: enough to make the work per chunk in Python small, few enough
that the chunks in flight take little memory."""
SCORED_SEGMENTS = 1 << 15
"""Segments scored together: few enough for numpy's temporary arrays to stay in cache."""
CACHED_TEXTS = 1 << 16
"""Distinct texts whose tokens one call keeps (sacreBLEU's cache keeps as many)."""
_PAIRWISE_BLOCK_ENTRIES = 1 << 24  # candidate pairs x n-grams credited at once

CountSegment = Callable[[int, Segment, Sequence[Segment]], BLEUStats]


@attrs.frozen
class TokenTable:
    """Texts as token ids: text ``t`` is ``token_ids[starts[t]:starts[t + 1]]``, and every id
    is in ``range(vocabulary_size)``."""

    token_ids: IntArray
    starts: IntArray
    vocabulary_size: int

    @classmethod
    def of(cls, streams: Sequence[Sequence[str]]) -> TokenTable:
        """The table of these token lists, text ``t`` being ``streams[t]``."""
        token_ids, lengths = intern(streams)
        starts = np.concatenate(([0], np.cumsum(lengths)))
        return cls(token_ids, starts, int(token_ids.max(initial=-1)) + 1)

    def lengths(self, texts: IntArray) -> IntArray:
        """The number of tokens of each of these texts."""
        lengths: IntArray = self.starts[texts + 1] - self.starts[texts]
        return lengths

    def laid_end_to_end(self, texts: IntArray) -> tuple[IntArray, IntArray]:
        """The token ids of these texts one after the other, and the length of each."""
        lengths = self.lengths(texts)
        if len(texts) == 0:
            return np.zeros(0, np.int64), lengths
        ends = np.cumsum(lengths)
        shift = np.repeat(self.starts[texts] - (ends - lengths), lengths)
        return self.token_ids[np.arange(int(ends[-1])) + shift], lengths


class InternedTexts:
    """The token ids of every distinct text seen so far: each is tokenized and interned once
    (sacreBLEU caches tokenized lines too), so references shared by several systems and
    repeated lines cost nothing more. At most ``CACHED_TEXTS`` texts are kept (more only
    within one batch); the ids of one batch always come from one vocabulary."""

    def __init__(self, tokenizer: Tokenizer) -> None:
        self.tokenizer = tokenizer
        self._forget()

    def _forget(self) -> None:
        self.numbers: dict[str, int] = {}
        self.vocabulary: defaultdict[str, int] = defaultdict(count().__next__)
        self.table = TokenTable(np.zeros(0, np.int64), np.zeros(1, np.int64), 0)

    def __call__(self, texts: Sequence[str]) -> tuple[TokenTable, IntArray]:
        """A table holding every one of the texts, and the number of each text in it."""
        try:  # one dictionary lookup per text where all are known, as with repeated lines
            return self.table, np.fromiter(map(self.numbers.__getitem__, texts), np.int64)
        except KeyError:
            self._add(dict.fromkeys(texts))
        return self(texts)  # every text is known now

    def _add(self, distinct: dict[str, None]) -> None:
        """Tokenize and intern the texts not known yet (all of them, after forgetting the
        others, where keeping them all would make the cache too large)."""
        new = [text for text in distinct if text not in self.numbers]
        if len(self.numbers) + len(new) > CACHED_TEXTS:
            self._forget()
            new = list(distinct)
        token_ids, lengths = intern(tokenize(self.tokenizer, new), self.vocabulary)
        self.numbers.update(zip(new, count(len(self.numbers))))
        self.table = TokenTable(
            np.concatenate((self.table.token_ids, token_ids)),
            np.concatenate((self.table.starts, self.table.starts[-1] + np.cumsum(lengths))),
            len(self.vocabulary),
        )


@attrs.frozen
class CountingParts:
    """An engine's counting parts, known to support arrays, with a cache of tokens."""

    texts: InternedTexts
    ngrams: ArrayNgramExtractor
    matching: ArrayMatcher
    length: ArrayLengthMeasure
    reference_length: ArrayReferenceLength
    signature: str

    @classmethod
    def of(cls, engine: BLEUScore) -> CountingParts | None:
        """The parts, or ``None`` where one of them has no array support."""
        if (
            isinstance(engine.ngrams, ArrayNgramExtractor)
            and isinstance(engine.matching, ArrayMatcher)
            and isinstance(engine.length, ArrayLengthMeasure)
            and isinstance(engine.reference_length, ArrayReferenceLength)
        ):
            return cls(
                InternedTexts(engine.tokenizer),
                engine.ngrams,
                engine.matching,
                engine.length,
                engine.reference_length,
                engine.counting_signature,
            )
        return None

    def token_table(self, segments: Sequence[Segment], kind: str) -> tuple[TokenTable, IntArray]:
        """A table of the tokens of segments that are all text or all tokens (see
        ``plain_kind``), and the number of each segment's text in it."""
        if kind == "text":
            return self.texts(cast("Sequence[str]", segments))
        return TokenTable.of(segments), np.arange(len(segments))

    def lengths(self, segments: Sequence[Segment], kind: str, token_counts: IntArray) -> IntArray:
        texts = cast("Sequence[str]", segments) if kind == "text" else None
        return self.length.lengths_array(texts, token_counts)


@attrs.frozen
class ScoringParts:
    """An engine's scoring parts, known to support arrays."""

    smoothing: ArraySmoother
    weights: ArrayWeights
    brevity_penalty: ArrayBrevityPenalty

    @classmethod
    def of(cls, engine: BLEUScore) -> ScoringParts | None:
        """The parts, or ``None`` where one of them has no array support."""
        if (
            isinstance(engine.smoothing, ArraySmoother)
            and isinstance(engine.weights, ArrayWeights)
            and isinstance(engine.brevity_penalty, ArrayBrevityPenalty)
        ):
            return cls(engine.smoothing, engine.weights, engine.brevity_penalty)
        return None


# -- counting ---------------------------------------------------------------------------------


def count_segments(
    parts: CountingParts,
    hypotheses: Sequence[Segment],
    references: Sequence[Sequence[Segment]],
    count_one: CountSegment,
) -> SegmentStats:
    """Every segment's statistics, a chunk at a time.

    Worker threads count the n-grams of chunks (compiled code, which releases the GIL; as many
    threads as ``COUNTING_THREADS``) while this thread tokenizes and interns the next chunks. A
    chunk holding anything but plain text (or plain token lists) throughout is counted here by
    ``count_one``, the simple path, which also raises the right error for bad input.
    """
    counted: list[SegmentStats] = []
    pending: deque[Future[SegmentStats]] = deque()
    with ThreadPoolExecutor(max_workers=COUNTING_THREADS) as counting:
        for start in range(0, len(hypotheses), CHUNK_SEGMENTS):
            chunk_hypotheses = hypotheses[start : start + CHUNK_SEGMENTS]
            chunk_references = references[start : start + CHUNK_SEGMENTS]
            kind = plain_kind(chunk_hypotheses, chunk_references)
            if kind is None:
                future = _one_by_one(parts, count_one, start, chunk_hypotheses, chunk_references)
            else:
                chunk = InternedChunk.of(parts, chunk_hypotheses, chunk_references, kind)
                future = counting.submit(chunk.statistics)
            pending.append(future)
            if len(pending) > 2 * COUNTING_THREADS:  # chunks held at once: a bounded number
                counted.append(pending.popleft().result())
        counted.extend(future.result() for future in pending)
    return counted[0] if len(counted) == 1 else SegmentStats.concatenate(counted)


def _one_by_one(
    parts: CountingParts,
    count_one: CountSegment,
    start: int,
    hypotheses: Sequence[Segment],
    references: Sequence[Sequence[Segment]],
) -> Future[SegmentStats]:
    """A chunk counted here by the simple path (its first segment being number ``start``), as
    a finished future, to take its place among the chunks counted on threads."""
    stats = [
        count_one(start + offset, hypothesis, refs)
        for offset, (hypothesis, refs) in enumerate(zip(hypotheses, references, strict=True))
    ]
    counted: Future[SegmentStats] = Future()
    counted.set_result(SegmentStats.from_stats(stats, parts.ngrams.max_n, parts.signature))
    return counted


def plain_kind(
    hypotheses: Sequence[Segment], references: Sequence[Sequence[Segment]]
) -> str | None:
    """``"text"`` or ``"tokens"`` if every segment is given that way, with at least one
    reference in a list; ``None`` for anything else. (Types are collected in C: this runs on
    every segment.)"""
    if not set(map(type, references)) <= {list, tuple} or not all(references):
        return None
    segments = [*hypotheses, *chain.from_iterable(references)]
    kinds = set(map(type, segments))
    if kinds == {str}:
        return "text"
    if kinds <= {list, tuple} and set(map(type, chain.from_iterable(segments))) <= {str}:
        return "tokens"
    return None


def tokenize(tokenizer: Tokenizer, texts: Sequence[str]) -> Iterable[list[str]]:
    """Every text's tokens, in one call where the tokenizer offers a batch method (the lists
    may come one at a time)."""
    if isinstance(tokenizer, BatchTokenizer):
        return tokenizer.tokenize_batch(texts)
    return map(tokenizer, texts)


@attrs.frozen
class InternedChunk:
    """A chunk of segments tokenized and interned, with their lengths, waiting to be counted."""

    parts: CountingParts
    table: TokenTable
    hypothesis_texts: IntArray
    reference_texts: IntArray
    reference_counts: IntArray
    hypothesis_lengths: IntArray  # as the length measure measures them
    reference_lengths: IntArray

    @classmethod
    def of(
        cls,
        parts: CountingParts,
        hypotheses: Sequence[Segment],
        references: Sequence[Sequence[Segment]],
        kind: str,
    ) -> InternedChunk:
        segments = len(hypotheses)
        flat_references = list(chain.from_iterable(references))
        table, texts = parts.token_table([*hypotheses, *flat_references], kind)
        token_counts = table.lengths(texts)
        return cls(
            parts,
            table,
            texts[:segments],
            texts[segments:],
            np.fromiter(map(len, references), np.int64, segments),
            parts.lengths(hypotheses, kind, token_counts[:segments]),
            parts.lengths(flat_references, kind, token_counts[segments:]),
        )

    def statistics(self) -> SegmentStats:
        """Every segment's statistics."""
        parts, segments, max_n = self.parts, len(self.hypothesis_texts), self.parts.ngrams.max_n
        singles, repeated = shared_ngram_counts(
            self.table.token_ids,
            self.table.starts,
            self.hypothesis_texts,
            self.reference_texts,
            np.concatenate(([0], np.cumsum(self.reference_counts))),
            self.table.vocabulary_size,
            max_n,
        )
        # The credit of an n-gram depends only on its two counts; nearly all are (1, 1).
        credit = parts.matching.credit_array
        single_credit = int(credit(np.ones(1, np.int64), np.ones(1, np.int64))[0])
        cells, in_hypothesis, in_reference = repeated.T
        others = np.bincount(
            cells, weights=credit(in_hypothesis, in_reference), minlength=segments * max_n
        )
        return SegmentStats(
            singles * single_credit + others.astype(np.int64).reshape(segments, max_n),
            parts.ngrams.order_totals_array(self.table.lengths(self.hypothesis_texts)),
            self.hypothesis_lengths,
            parts.reference_length.reference_length_array(
                self.hypothesis_lengths, self.reference_lengths, self.reference_counts
            ),
            self.reference_counts,
            parts.signature,
        )


def intern(
    streams: Iterable[Sequence[str]], vocabulary: defaultdict[str, int] | None = None
) -> tuple[IntArray, IntArray]:
    """All tokens of all streams as one array of integer ids (equal tokens, equal ids: a new
    token gets the next number of the vocabulary), and the length of each stream.

    The streams are read once, in order: given one at a time, each is let go once interned,
    which is twice as fast for a large batch as holding every token of it at once."""
    if vocabulary is None:
        vocabulary = defaultdict(count().__next__)
    lengths: list[int] = []

    def measured(stream: Sequence[str]) -> Sequence[str]:
        lengths.append(len(stream))
        return stream

    tokens = chain.from_iterable(map(measured, streams))
    ids = np.fromiter(map(vocabulary.__getitem__, tokens), np.int64)  # lookups in C
    return ids, np.array(lengths, np.int64)


def _dense(values: IntArray) -> IntArray:
    """Equal values to equal labels 0, 1, 2, ... (in sorted order of the values)."""
    labels: IntArray = np.unique(values, return_inverse=True)[1]
    return labels.reshape(-1)


# -- scoring ----------------------------------------------------------------------------------


def score_segments(
    parts: ScoringParts, stats: SegmentStats, signature_of: Callable[[BLEUStats], Signature]
) -> SentenceScores:
    """Every segment's result, as the engine's ``score`` gives it for each segment."""
    starts = range(0, len(stats), SCORED_SEGMENTS) or range(1)
    columns = zip(*(_score_rows(parts, stats[start : start + SCORED_SEGMENTS]) for start in starts))
    scores, precisions, penalties = map(np.concatenate, columns)
    return SentenceScores(scores, precisions, penalties, stats, signature_of)


def _score_rows(
    parts: ScoringParts, stats: SegmentStats
) -> tuple[FloatArray, FloatArray, FloatArray]:
    precisions, defined = parts.smoothing.precisions_array(stats)
    order_weights = parts.weights.weights_array(stats, precisions, defined)
    penalties = parts.brevity_penalty.penalty_array(
        stats.hypothesis_lengths.astype(np.float64), stats.reference_lengths.astype(np.float64)
    )
    precisions = np.where(defined, precisions, 0.0)
    means = _weighted_geometric_means(precisions, defined, order_weights)
    return penalties * means, precisions, penalties


def _weighted_geometric_means(
    precisions: FloatArray, defined: BoolArray, order_weights: FloatArray
) -> FloatArray:
    """Row by row, what the simple path's ``weighted_geometric_mean`` computes, with the same
    floating-point operations; rows the kernel leaves to it (infinities, errors) it computes."""
    means = weighted_geometric_means(precisions, defined, order_weights)
    for row in np.flatnonzero(np.isnan(means)).tolist():
        row_precisions = zip(precisions[row].tolist(), defined[row].tolist(), strict=True)
        means[row] = weighted_geometric_mean(
            [precision if known else None for precision, known in row_precisions],
            order_weights[row].tolist(),
        )
    return means


# -- pairwise ---------------------------------------------------------------------------------


def pairwise_scores(engine: BLEUScore, groups: Sequence[Sequence[Segment]]) -> list[FloatArray]:
    """For each group, the matrix of every candidate's score (rows) against every other as its
    single reference (columns)."""
    parts = CountingParts.of(engine)
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


def _pairwise_stats(parts: CountingParts, candidates: list[Segment]) -> SegmentStats:
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
    token_end = np.repeat(np.cumsum(lengths), lengths)
    token_stream = np.repeat(np.arange(streams), lengths)
    unigram_labels = _dense(token_ids)
    unigram_count = int(unigram_labels.max(initial=-1)) + 1
    starts, labels = np.arange(len(token_ids)), unigram_labels
    for order in range(1, max_n + 1):
        label_count = int(labels.max(initial=-1)) + 1
        cells = token_stream[starts] * label_count + labels
        yield np.bincount(cells, minlength=streams * label_count).reshape(streams, label_count)
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
