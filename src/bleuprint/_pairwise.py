"""Pairwise scores: every candidate of a group against every other as its only reference,
for minimum-Bayes-risk decoding and self-BLEU, counted with n-gram count matrices (the
kernel interns the candidates' tokens and labels their n-grams)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

import numpy as np

from bleuprint._counting import (
    ArrayCounting,
    Counting,
    InternedChunk,
    KernelParts,
    TokenTable,
    as_corpus,
    candidate_tokens,
)
from bleuprint._kernels import kernel
from bleuprint._segments import SegmentStats
from bleuprint.exceptions import InputError
from bleuprint.typing import FloatArray, IntArray, PairwiseScorer, Segment

_PAIRWISE_BLOCK_ENTRIES = 1 << 22  # pairs (or matrix cells) credited or scored at once
_FEW_STREAMS = 64  # an n-gram held by at most this many candidates is credited pair by pair
# Groups of at most _FEW_STREAMS candidates are counted together, this many pairs at a time.
_SMALL_GROUP_PAIRS = 1 << 18


def pairwise_scores(
    engine: PairwiseScorer[Counting], groups: Sequence[Sequence[Segment]]
) -> list[FloatArray]:
    """For each group of candidates, the square matrix of sentence scores of every candidate
    (row) against every other as its only reference (column), in one call: for
    minimum-Bayes-risk decoding and self-BLEU. Small groups are counted together, their pairs
    as one corpus.

    >>> from bleuprint import BLEUScore
    >>> matrix, = BLEUScore.canonical(max_n=1).pairwise_scores([["a b", "a c", "a b c"]])
    >>> matrix.round(4).tolist()  # "a b" against "a b c": all words match, BP = exp(-1/2)
    [[1.0, 0.5, 0.6065], [0.5, 1.0, 0.6065], [0.6667, 0.6667, 1.0]]
    """
    arrays = ArrayCounting.of(engine.counting)
    # A string is refused as the groups or as a group: read as characters, "abc" would score
    # each letter against the others.
    listed: list[list[Segment]] = [
        list(as_corpus(group, f"group {number}"))
        for number, group in enumerate(as_corpus(groups, "groups", items="groups of candidates"))
    ]
    matrices: dict[int, FloatArray] = {}
    if arrays is not None:
        for batch in _batches_of_small_groups(listed):
            matrices.update(_small_group_matrices(engine, arrays, listed, batch))
    return [
        matrices[number] if number in matrices else _group_matrix(engine, arrays, number, group)
        for number, group in enumerate(listed)
    ]


def _batches_of_small_groups(groups: list[list[Segment]]) -> Iterator[list[int]]:
    """The numbers of the groups of 2 to ``_FEW_STREAMS`` candidates, in batches of about
    ``_SMALL_GROUP_PAIRS`` pairs: such a group costs little to count, less than a call each
    around it would."""
    batch: list[int] = []
    pairs = 0
    for number, group in enumerate(groups):
        if 2 <= len(group) <= _FEW_STREAMS:
            batch.append(number)
            pairs += len(group) ** 2
            if pairs >= _SMALL_GROUP_PAIRS:
                yield batch
                batch, pairs = [], 0
    if batch:
        yield batch


def _small_group_matrices(
    engine: PairwiseScorer[Counting],
    arrays: ArrayCounting,
    groups: list[list[Segment]],
    batch: list[int],
) -> dict[int, FloatArray]:
    """The matrices of the groups numbered in ``batch``: every ordered pair of candidates of
    a group is a segment of one corpus, counted by the kernel from the candidates' tokens
    (read once). None where the candidates are not all text, all string tokens or all ids,
    where one is refused (each group is then scored on its own, and an error names its
    group), or where an id never matches (which the kernel's corpus counting would match
    against itself)."""
    try:
        laid = candidate_tokens(arrays, [c for n in batch for c in groups[n]], "candidate")
    except InputError:
        return {}
    if laid is None or laid[0].min(initial=0) < 0:
        return {}
    token_ids, token_counts, lengths = laid
    sizes = np.array([len(groups[number]) for number in batch])
    table = TokenTable(
        token_ids,
        np.concatenate(([0], np.cumsum(token_counts))),
        int(token_ids.max(initial=-1)) + 1,
    )
    hypotheses, references = _pairs(sizes)
    single = np.ones(len(hypotheses), np.int64)
    lengths_of = (lengths[hypotheses], lengths[references])
    chunk = InternedChunk(arrays.parts, table, hypotheses, references, single, *lengths_of)
    scores = engine.score_segments(chunk.statistics()).scores
    blocks = np.split(scores, np.cumsum(sizes**2)[:-1])
    return {
        number: block.reshape(size, size)
        for number, size, block in zip(batch, sizes.tolist(), blocks)
    }


def _pairs(sizes: IntArray) -> tuple[IntArray, IntArray]:
    """The hypothesis and the reference of every ordered pair of candidates of groups of
    ``sizes`` candidates laid end to end: group after group, each group's pairs row by row."""
    group = np.repeat(np.arange(len(sizes)), sizes)  # each candidate's
    hypotheses = np.repeat(np.arange(len(group)), sizes[group])
    first = np.cumsum(sizes) - sizes  # each group's first candidate
    row_start = np.repeat(np.cumsum(sizes[group]) - sizes[group], sizes[group])
    references = first[group[hypotheses]] + np.arange(len(hypotheses)) - row_start
    return hypotheses, references


def _group_matrix(
    engine: PairwiseScorer[Counting],
    arrays: ArrayCounting | None,
    number: int,
    group: list[Segment],
) -> FloatArray:
    """The matrix of one group, number ``number`` (which error messages name)."""
    size = len(group)
    if size == 0:
        return np.zeros((0, 0))
    laid = candidate_tokens(arrays, group, f"group {number}: candidate") if arrays else None
    if arrays is not None and laid is not None:
        return _pairwise_matrix(engine, arrays.parts, *laid)
    hypotheses = [hypothesis for hypothesis in group for _ in group]
    references = [[reference] for _ in group for reference in group]
    stats = engine.count_segments(hypotheses, references)
    return engine.score_segments(stats).scores.reshape(size, size)


def _pairwise_matrix(
    engine: PairwiseScorer[Counting],
    parts: KernelParts,
    token_ids: IntArray,
    token_counts: IntArray,
    lengths: IntArray,
) -> FloatArray:
    """The scores of every candidate against every candidate (their tokens laid end to end,
    how many each has, and their lengths). The matches of each order are square matrices
    (``size x size``, 32 bits); the statistics of the pairs are made and scored a block of
    rows at a time, so memory stays a few of those matrices, not one row of statistics per
    pair."""
    size = len(token_counts)
    matches = [
        _pairwise_credit(occurrences, size, parts.matching.credit_array)
        for occurrences in _ngram_occurrences(token_ids, token_counts, parts.ngrams.max_n)
    ]
    totals = parts.ngrams.order_totals_array(token_counts)
    scores = np.empty((size, size))
    step = max(1, _PAIRWISE_BLOCK_ENTRIES // size)
    for start in range(0, size, step):
        rows = slice(start, min(size, start + step))
        count = rows.stop - rows.start
        hypothesis_lengths = np.repeat(lengths[rows], size)
        single = np.ones(count * size, np.int64)
        stats = SegmentStats(
            np.stack([order[rows] for order in matches], axis=-1)
            .reshape(count * size, len(matches))
            .astype(np.int64),
            np.repeat(totals[rows], size, axis=0),
            hypothesis_lengths,
            parts.reference_length.reference_length_array(
                hypothesis_lengths, np.tile(lengths, count), single
            ),
            single,
            parts.signature,
        )
        scores[rows] = engine.score_segments(stats).scores.reshape(count, size)
    return scores


# The occurrences of one order's n-grams: the stream, the n-gram's label and its count there,
# one entry per (stream, n-gram), sorted by n-gram.
Occurrences = tuple[IntArray, IntArray, IntArray]


def _ngram_occurrences(token_ids: IntArray, lengths: IntArray, max_n: int) -> Iterator[Occurrences]:
    """For each order, each distinct n-gram of each stream with its count: a sparse matrix
    (a dense one of streams x distinct n-grams would take gigabytes for thousands of
    candidates)."""
    streams = len(lengths)
    for stream_of, labels in kernel.ngram_labels(token_ids, lengths, max_n):
        cells, counts = np.unique(labels * streams + stream_of, return_counts=True)
        yield cells % streams, cells // streams, counts


def _pairwise_credit(
    occurrences: Occurrences, size: int, credit: Callable[[IntArray, IntArray], IntArray]
) -> IntArray:
    """``result[i, j]``: the credit of stream i's n-grams against stream j as reference.

    Only n-grams of two or more streams count off the diagonal. Those of few streams are
    credited pair by pair (their pairs are few); those of many, where pairs would be millions,
    as matrix products of which streams hold them how often, which BLAS does fast. A credit of
    ``min(a, b)`` (clipping) is the sum over t of ``[a >= t][b >= t]``: one product per count."""
    stream, label, count = occurrences
    result = np.zeros((size, size), np.float64)
    spread = np.bincount(label)[label]  # how many streams hold each entry's n-gram
    shared = spread >= 2
    few = shared & (spread <= _dense_threshold(size))
    _credit_pairs(result, stream[few], label[few], count[few], credit)
    many = shared & ~few
    if many.any():
        _credit_products(result, stream[many], _dense(label[many]), count[many], credit)
    totals = np.bincount(stream, weights=np.asarray(credit(count, count)), minlength=size)
    np.fill_diagonal(result, totals)
    rounded: IntArray = np.rint(result).astype(np.int32)
    return rounded


def _dense_threshold(size: int) -> int:
    """Streams an n-gram is held by above which its pairs are credited by matrix products."""
    return max(_FEW_STREAMS, size // 16)


def _credit_pairs(
    result: FloatArray,
    stream: IntArray,
    label: IntArray,
    count: IntArray,
    credit: Callable[[IntArray, IntArray], IntArray],
) -> None:
    """Add the credit of every pair of entries of the same n-gram, a bounded number of pairs
    at a time (entries are sorted by n-gram)."""
    if not len(label):
        return
    first = np.r_[0, np.flatnonzero(np.diff(label)) + 1]
    sizes = np.diff(np.r_[first, len(label)])
    width = np.repeat(sizes, sizes)  # for each entry, the entries of its n-gram
    group_start = np.repeat(first, sizes)
    pairs = width.cumsum()
    begin = 0
    while begin < len(label):
        # Entries [begin, end) make at most about _PAIRWISE_BLOCK_ENTRIES pairs.
        limit = (pairs[begin - 1] if begin else 0) + _PAIRWISE_BLOCK_ENTRIES
        end = max(begin + 1, int(np.searchsorted(pairs, limit, side="right")))
        left = np.repeat(np.arange(begin, end), width[begin:end])
        offsets = np.arange(len(left)) - np.repeat(
            np.cumsum(width[begin:end]) - width[begin:end], width[begin:end]
        )
        right = group_start[left] + offsets
        weights = np.asarray(credit(count[left], count[right]), np.float64)
        cells = stream[left] * len(result) + stream[right]
        result += np.bincount(cells, weights=weights, minlength=result.size).reshape(result.shape)
        begin = end


def _credit_products(
    result: FloatArray,
    stream: IntArray,
    column: IntArray,
    count: IntArray,
    credit: Callable[[IntArray, IntArray], IntArray],
) -> None:
    """Add the credit of the n-grams of many streams as products of indicator matrices."""
    size, columns = len(result), int(column.max()) + 1
    most = int(count.max())
    values = np.arange(1, most + 1)
    grid = np.asarray(credit(values[:, None], values[None, :]), np.float64)
    clipped = bool((grid == np.minimum(values[:, None], values[None, :])).all())
    step = max(1, _PAIRWISE_BLOCK_ENTRIES // size)
    for start in range(0, columns, step):
        inside = (column >= start) & (column < start + step)
        counts = np.zeros((size, min(step, columns - start)), np.float32)
        counts[stream[inside], column[inside] - start] = count[inside]
        if clipped:
            for threshold in values:
                held = (counts >= threshold).astype(np.float32)
                result += held @ held.T
            continue
        for u, v in zip(*np.nonzero(grid)):
            result += grid[u, v] * ((counts == u + 1).astype(np.float32) @ (counts == v + 1).T)


def _dense(values: IntArray) -> IntArray:
    """Equal values to equal labels 0, 1, 2, ... (in sorted order of the values)."""
    labels: IntArray = np.unique(values, return_inverse=True)[1]
    return labels.reshape(-1)
