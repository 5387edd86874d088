"""The compiled loops of the fast path (numba): counting a segment's shared n-grams and the
exact weighted geometric mean of its precisions.

Both are plain loops over integer and float arrays, compiled once per machine (numba caches
the machine code beside this file, or in the user's cache when that is read-only).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, NamedTuple, TypeVar, cast

import numba
import numpy as np

from bleuprint.typing import BoolArray, FloatArray, IntArray

Function = TypeVar("Function", bound=Callable[..., Any])


def compiled(function: Function) -> Function:
    """``function`` compiled to machine code, cached on disk where numba can write."""
    try:
        return cast("Function", numba.njit(cache=True, nogil=True)(function))
    except RuntimeError:  # numba found nowhere to cache: compile in each process instead
        return cast("Function", numba.njit(nogil=True)(function))


# -- counting ---------------------------------------------------------------------------------
#
# A segment is counted one order at a time. Each distinct n-gram of its hypothesis gets a
# label 0, 1, 2, ... through a small open-addressing table; a reference n-gram gets the label
# of the same hypothesis n-gram, or -1. The key of an n-gram is its token id for a unigram,
# else the label of its first n - 1 tokens with the unigram label of its last token, so only
# positions whose shorter n-grams are shared are looked at again.


class _Table(NamedTuple):
    """Keys and labels of one segment's n-grams of one order, with counts per label."""

    keys: IntArray  # by slot; -1 where empty
    label_at: IntArray  # by slot
    slot_of: IntArray  # by label, to empty the table again
    in_hypothesis: IntArray  # by label
    most_in_a_reference: IntArray
    in_this_reference: IntArray
    this_reference: IntArray


_ENTRIES = 1 << 12  # first capacity of the list of n-grams found more than once


@compiled
def shared_ngram_counts(
    token_ids: IntArray,
    text_starts: IntArray,
    hypothesis_texts: IntArray,
    reference_texts: IntArray,
    reference_offsets: IntArray,
    max_n: int,
) -> tuple[IntArray, IntArray]:
    """The n-grams of each segment's hypothesis that occur in one of its references.

    Text ``t`` is ``token_ids[text_starts[t]:text_starts[t + 1]]`` (ids are non-negative);
    segment ``s`` is hypothesis ``hypothesis_texts[s]`` and references
    ``reference_texts[reference_offsets[s]:reference_offsets[s + 1]]``.

    Returns ``singles``, where ``singles[s, n - 1]`` counts the shared n-grams found once in
    the hypothesis and at most once in each reference (nearly all of them), and one row for
    every other shared n-gram: its segment and order as ``s * max_n + n - 1``, its number of
    occurrences in the hypothesis, and its largest number in any one reference.
    """
    segments = len(hypothesis_texts)
    singles = np.zeros((segments, max_n), np.int64)
    repeated = np.empty((_ENTRIES, 3), np.int64)
    found = 0
    longest_hypothesis, longest_references = _longest(
        text_starts, hypothesis_texts, reference_texts, reference_offsets
    )
    # The label of the n-gram at each position (-1: not shared), and of its unigram.
    hypothesis_labels = np.empty(longest_hypothesis, np.int64)
    hypothesis_unigrams = np.empty(longest_hypothesis, np.int64)
    reference_labels = np.empty(longest_references, np.int64)
    reference_unigrams = np.empty(longest_references, np.int64)
    table = _empty_table(longest_hypothesis)
    for segment in range(segments):
        text = hypothesis_texts[segment]
        hypothesis = token_ids[text_starts[text] : text_starts[text + 1]]
        references = reference_texts[reference_offsets[segment] : reference_offsets[segment + 1]]
        mask = 15
        while mask + 1 < 2 * len(hypothesis):
            mask = 2 * mask + 1
        unigrams = 0
        for n in range(min(max_n, len(hypothesis))):  # n: the order minus one
            labels = _label_hypothesis(
                hypothesis, n, unigrams, hypothesis_labels, hypothesis_unigrams, table, mask
            )
            if labels == 0:
                break
            start = 0
            for number, reference in enumerate(references):
                tokens = token_ids[text_starts[reference] : text_starts[reference + 1]]
                stop = start + len(tokens)
                _count_in_reference(
                    tokens,
                    n,
                    unigrams,
                    reference_labels[start:stop],
                    reference_unigrams[start:stop],
                    number,
                    table,
                    mask,
                )
                start = stop
            for label in range(labels):
                table.keys[table.slot_of[label]] = -1
                in_hypothesis = table.in_hypothesis[label]
                in_reference = table.most_in_a_reference[label]
                if in_reference == 0:
                    continue
                if in_hypothesis == 1 and in_reference == 1:
                    singles[segment, n] += 1
                    continue
                if found == len(repeated):
                    repeated = _doubled(repeated)
                repeated[found] = (segment * max_n + n, in_hypothesis, in_reference)
                found += 1
            _forget_unshared(hypothesis_labels, hypothesis_unigrams, len(hypothesis) - n, n, table)
            if n == 0:
                unigrams = labels
    return singles, repeated[:found]


@compiled
def _longest(
    text_starts: IntArray,
    hypothesis_texts: IntArray,
    reference_texts: IntArray,
    reference_offsets: IntArray,
) -> tuple[int, int]:
    """The most tokens of one hypothesis, and of the references of one segment together."""
    lengths = text_starts[1:] - text_starts[:-1]
    longest_hypothesis = 1
    longest_references = 1
    for segment in range(len(hypothesis_texts)):
        longest_hypothesis = max(longest_hypothesis, lengths[hypothesis_texts[segment]])
        tokens = 0
        for j in range(reference_offsets[segment], reference_offsets[segment + 1]):
            tokens += lengths[reference_texts[j]]
        longest_references = max(longest_references, tokens)
    return longest_hypothesis, longest_references


@compiled
def _empty_table(labels: int) -> _Table:
    slots = 16
    while slots < 2 * labels:
        slots *= 2
    return _Table(
        np.full(slots, -1, np.int64),
        np.empty(slots, np.int64),
        np.empty(labels, np.int64),
        np.empty(labels, np.int64),
        np.empty(labels, np.int64),
        np.empty(labels, np.int64),
        np.empty(labels, np.int64),
    )


@compiled
def _label_hypothesis(
    hypothesis: IntArray,
    n: int,
    unigrams: int,
    labels: IntArray,
    unigram_labels: IntArray,
    table: _Table,
    mask: int,
) -> int:
    """Label the hypothesis's shared-so-far n-grams of order ``n + 1`` and count them; return
    how many distinct ones there are."""
    distinct = 0
    for i in range(len(hypothesis) - n):
        if n == 0:
            key = hypothesis[i]
        elif labels[i] < 0 or unigram_labels[i + n] < 0:
            labels[i] = -1
            continue
        else:
            key = labels[i] * unigrams + unigram_labels[i + n]
        slot = _slot(table.keys, key, mask)
        if table.keys[slot] == -1:
            table.keys[slot] = key
            table.label_at[slot] = distinct
            table.slot_of[distinct] = slot
            table.in_hypothesis[distinct] = 0
            table.most_in_a_reference[distinct] = 0
            table.this_reference[distinct] = -1
            distinct += 1
        label = table.label_at[slot]
        table.in_hypothesis[label] += 1
        labels[i] = label
    return distinct


@compiled
def _count_in_reference(
    reference: IntArray,
    n: int,
    unigrams: int,
    labels: IntArray,
    unigram_labels: IntArray,
    number: int,
    table: _Table,
    mask: int,
) -> None:
    """Count the n-grams of order ``n + 1`` of the segment's reference ``number`` that the
    hypothesis has too, and label them (-1 for the others)."""
    for i in range(len(reference) - n):
        if n == 0:
            key = reference[i]
        elif labels[i] < 0 or unigram_labels[i + n] < 0:
            labels[i] = -1
            continue
        else:
            key = labels[i] * unigrams + unigram_labels[i + n]
        slot = _slot(table.keys, key, mask)
        label = table.label_at[slot] if table.keys[slot] == key else -1
        labels[i] = label
        if n == 0:
            unigram_labels[i] = label
        if label < 0:
            continue
        if table.this_reference[label] != number:
            table.this_reference[label] = number
            table.in_this_reference[label] = 0
        table.in_this_reference[label] += 1
        table.most_in_a_reference[label] = max(
            table.most_in_a_reference[label], table.in_this_reference[label]
        )


@compiled
def _forget_unshared(
    labels: IntArray, unigram_labels: IntArray, positions: int, n: int, table: _Table
) -> None:
    """Unlabel the hypothesis n-grams that no reference has (and keep the unigram labels)."""
    for i in range(positions):
        if labels[i] >= 0 and table.most_in_a_reference[labels[i]] == 0:
            labels[i] = -1
        if n == 0:
            unigram_labels[i] = labels[i]


@compiled
def _slot(keys: IntArray, key: int, mask: int) -> int:
    """Where ``key`` is in the table, or the empty slot where it would go."""
    slot: int = ((key * 2654435761) >> 16) & mask  # Knuth's multiplicative hash
    while keys[slot] != key and keys[slot] != -1:
        slot = (slot + 1) & mask
    return slot


@compiled
def _doubled(rows: IntArray) -> IntArray:
    grown = np.empty((2 * len(rows), rows.shape[1]), rows.dtype)
    grown[: len(rows)] = rows
    return grown


# -- scoring ----------------------------------------------------------------------------------


@compiled
def weighted_geometric_means(
    precisions: FloatArray, defined: BoolArray, order_weights: FloatArray
) -> FloatArray:
    """Row by row, ``exp(fsum(w * log p))`` over the orders of nonzero weight, with the very
    operations of the scalar code (the C library's ``log`` and ``exp``, as :mod:`math` calls
    them, and a correctly rounded sum, as :func:`math.fsum` gives): 0 where an order of
    nonzero weight has precision 0 or none, or where no order has weight. NaN marks a row
    where the scalar code meets a non-finite number or raises; the caller asks it."""
    rows, orders = precisions.shape
    means = np.zeros(rows)
    terms = np.empty(orders)
    partials = np.empty(orders)
    for row in range(rows):
        counted = 0
        for n in range(orders):
            weight = order_weights[row, n]
            if weight == 0:
                continue
            if not defined[row, n] or precisions[row, n] == 0:
                counted = -1
                break
            terms[counted] = weight * math.log(precisions[row, n])
            counted += 1
        if counted > 0:
            mean = math.exp(_rounded_sum(terms[:counted], partials))
            means[row] = mean if math.isfinite(mean) else math.nan
    return means


@compiled
def _rounded_sum(terms: FloatArray, partials: FloatArray) -> float:
    """The exact sum of the terms rounded once, to nearest with ties to even, by Shewchuk's
    non-overlapping partial sums; NaN if a term or a partial sum is not finite."""
    used = 0
    for term in terms:
        total = term
        kept = 0
        for k in range(used):
            other = partials[k]
            if abs(total) < abs(other):
                total, other = other, total
            high = total + other
            low = other - (high - total)
            if low != 0.0:
                partials[kept] = low
                kept += 1
            total = high
        if not math.isfinite(total):
            return math.nan
        used = kept
        if total != 0.0:
            partials[used] = total
            used += 1
    if used == 0:
        return 0.0
    # Add the partials from the largest down, until an addition is inexact...
    used -= 1
    high = partials[used]
    low = 0.0
    while used > 0:
        total = high
        used -= 1
        high = total + partials[used]
        low = partials[used] - (high - total)
        if low != 0.0:
            break
    # ... and round a half-way result to even: the partials left decide which way it lies.
    if used > 0 and ((low < 0 and partials[used - 1] < 0) or (low > 0 and partials[used - 1] > 0)):
        doubled = low * 2
        rounded = high + doubled
        if doubled == rounded - high:
            high = rounded
    return high
