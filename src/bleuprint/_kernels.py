"""The compiled loops of the fast path (numba): counting a segment's shared n-grams and the
exact weighted geometric mean of its precisions.

Both are plain loops over integer and float arrays, compiled once per machine (numba caches
the machine code beside this file, or in the user's cache when that is read-only).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np

from bleuprint.typing import BoolArray, FloatArray, IntArray

Function = TypeVar("Function", bound=Callable[..., Any])

THREADS: int = numba.config.NUMBA_NUM_THREADS  # type: ignore[attr-defined]
"""How many threads may run compiled loops at once: the environment variable
``NUMBA_NUM_THREADS``, by default the number of CPUs."""


def compiled(function: Function) -> Function:
    """``function`` compiled to machine code, cached on disk where numba can write."""
    try:
        return cast("Function", numba.njit(cache=True, nogil=True)(function))
    except RuntimeError:  # numba found nowhere to cache: compile in each process instead
        return cast("Function", numba.njit(nogil=True)(function))


def inlined(function: Function) -> Function:
    """``function`` compiled into each function that calls it (about 8% faster than calls,
    measured on the counting loop)."""
    return cast("Function", numba.njit(inline="always")(function))


# -- counting ---------------------------------------------------------------------------------
#
# A segment is counted one order at a time. Each distinct n-gram of its hypothesis gets a
# label 0, 1, 2, ...; a reference n-gram gets the label of the same hypothesis n-gram, or -1.
# Unigrams are found by token id; a longer n-gram by the label of its first n - 1 tokens with
# the unigram label of its last token, in a small open-addressing table. Only n-grams whose
# shorter parts are shared are looked up at all.
#
# Tables are 2-d arrays with named columns rather than a tuple of arrays: numba counts a
# reference, atomically, each time an array is taken out of a tuple, which cost more than the
# loops themselves.

_SEGMENT, _LABEL = 0, 1  # by token id: the segment that last labelled it, and its label
_KEY = 0  # by slot: the key held there (-1: empty), and its _LABEL
# by label:
_SLOT, _IN_HYPOTHESIS, _MOST_IN_A_REFERENCE, _IN_THIS_REFERENCE, _THIS_REFERENCE = range(5)
_ENTRIES = 1 << 12  # first capacity of the list of n-grams found more than once


@compiled
def shared_ngram_counts(
    token_ids: IntArray,
    text_starts: IntArray,
    hypothesis_texts: IntArray,
    reference_texts: IntArray,
    reference_offsets: IntArray,
    vocabulary_size: int,
    max_n: int,
) -> tuple[IntArray, IntArray]:
    """The n-grams of each segment's hypothesis that occur in one of its references.

    Text ``t`` is ``token_ids[text_starts[t]:text_starts[t + 1]]``, with token ids in
    ``range(vocabulary_size)``; segment ``s`` is hypothesis ``hypothesis_texts[s]`` and
    references ``reference_texts[reference_offsets[s]:reference_offsets[s + 1]]``.

    Returns ``singles``, where ``singles[s, n - 1]`` counts the shared n-grams found once in
    the hypothesis and at most once in each reference (nearly all of them), and one row for
    every other shared n-gram: its segment and order as ``s * max_n + n - 1``, its number of
    occurrences in the hypothesis, and its largest number in any one reference.
    """
    segments = len(hypothesis_texts)
    singles = np.zeros((segments, max_n), np.int64)
    repeated = np.empty((_ENTRIES, 3), np.int64)
    longest_hypothesis, longest_references = _longest(
        text_starts, hypothesis_texts, reference_texts, reference_offsets
    )
    # At each position: the label of the n-gram starting there (-1: not shared), and of its
    # unigram; hypothesis positions first, then the references'.
    labels = np.empty((2, longest_hypothesis + longest_references), np.int64)
    by_token = np.full((vocabulary_size, 2), -1, np.int64)
    slots = 16
    while slots < 2 * longest_hypothesis:
        slots *= 2
    by_slot = np.full((slots, 2), -1, np.int64)
    by_label = np.empty((longest_hypothesis + 1, 5), np.int64)  # the last: n-grams it lacks
    segment = found = np.int64(0)  # (a literal 0 would compile _count_segments twice)
    while True:
        segment, found = _count_segments(
            token_ids, text_starts, hypothesis_texts, reference_texts, reference_offsets,
            max_n, segment, singles, repeated, found, labels, by_token, by_slot, by_label,
        )  # fmt: skip
        if segment == segments:
            return singles, repeated[:found]
        # (Grown out here: an array replaced inside the loop would be reference-counted there.)
        repeated = _doubled(repeated)


@compiled
def _count_segments(
    token_ids: IntArray,
    text_starts: IntArray,
    hypothesis_texts: IntArray,
    reference_texts: IntArray,
    reference_offsets: IntArray,
    max_n: int,
    first_segment: int,
    singles: IntArray,
    repeated: IntArray,
    found: int,
    labels: IntArray,
    by_token: IntArray,
    by_slot: IntArray,
    by_label: IntArray,
) -> tuple[int, int]:
    """Count segments from ``first_segment`` on, until all are counted or ``repeated`` may
    have no room for the next; return the next segment and the rows of ``repeated`` used."""
    for segment in range(first_segment, len(hypothesis_texts)):
        text = hypothesis_texts[segment]
        start = text_starts[text]
        length = text_starts[text + 1] - start
        if found + max_n * length > len(repeated):  # at most one row per hypothesis n-gram
            return segment, found
        mask = 15
        while mask + 1 < 2 * length:
            mask = 2 * mask + 1
        unigrams = 0
        for n in range(min(max_n, length)):  # n: the order minus one
            distinct = _label_hypothesis(
                token_ids, start, length, segment, n, unigrams, labels, by_token, by_slot,
                by_label, mask,
            )  # fmt: skip
            if distinct == 0:
                break
            position = length
            for number in range(reference_offsets[segment + 1] - reference_offsets[segment]):
                text = reference_texts[reference_offsets[segment] + number]
                size = text_starts[text + 1] - text_starts[text]
                _count_in_reference(
                    token_ids, text_starts[text], size, position, segment, n, unigrams,
                    number, labels, by_token, by_slot, by_label, mask,
                )  # fmt: skip
                position += size
            shared = 0
            for label in range(distinct):
                if n > 0:
                    by_slot[by_label[label, _SLOT], _KEY] = -1
                in_hypothesis = by_label[label, _IN_HYPOTHESIS]
                in_reference = by_label[label, _MOST_IN_A_REFERENCE]
                if in_reference == 0:
                    continue
                shared += 1
                if in_hypothesis == 1 and in_reference == 1:
                    singles[segment, n] += 1
                    continue
                repeated[found] = (segment * max_n + n, in_hypothesis, in_reference)
                found += 1
            if shared == 0 or n == max_n - 1:
                break
            _forget_unshared(labels, length - n, n, by_label)
            if n == 0:
                unigrams = distinct
    return len(hypothesis_texts), found


@inlined
def _longest(
    text_starts: IntArray,
    hypothesis_texts: IntArray,
    reference_texts: IntArray,
    reference_offsets: IntArray,
) -> tuple[int, int]:
    """The most tokens of one hypothesis, and of the references of one segment together."""
    longest_hypothesis = 1
    longest_references = 1
    for segment in range(len(hypothesis_texts)):
        text = hypothesis_texts[segment]
        longest_hypothesis = max(longest_hypothesis, text_starts[text + 1] - text_starts[text])
        tokens = 0
        for j in range(reference_offsets[segment], reference_offsets[segment + 1]):
            text = reference_texts[j]
            tokens += text_starts[text + 1] - text_starts[text]
        longest_references = max(longest_references, tokens)
    return longest_hypothesis, longest_references


@inlined
def _label_hypothesis(
    token_ids: IntArray,
    start: int,
    length: int,
    segment: int,
    n: int,
    unigrams: int,
    labels: IntArray,
    by_token: IntArray,
    by_slot: IntArray,
    by_label: IntArray,
    mask: int,
) -> int:
    """Label the hypothesis's shared-so-far n-grams of order ``n + 1`` and count them; return
    how many distinct ones there are."""
    distinct = 0
    for i in range(length - n):
        if n == 0:
            token = token_ids[start + i]
            if by_token[token, _SEGMENT] != segment:
                by_token[token, _SEGMENT] = segment
                by_token[token, _LABEL] = distinct
                distinct = _new_label(by_label, distinct, -1)
            label = by_token[token, _LABEL]
        else:
            key = _longer_key(labels, i, n, unigrams)
            if key < 0:
                labels[0, i] = -1
                continue
            slot = _slot(by_slot, key, mask)
            if by_slot[slot, _KEY] == -1:
                by_slot[slot, _KEY] = key
                by_slot[slot, _LABEL] = distinct
                distinct = _new_label(by_label, distinct, slot)
            label = by_slot[slot, _LABEL]
        by_label[label, _IN_HYPOTHESIS] += 1
        labels[0, i] = label
    return distinct


@inlined
def _longer_key(labels: IntArray, i: int, n: int, unigrams: int) -> int:
    """The key of the n-gram of order ``n + 1`` at position ``i``: the label of its first
    ``n`` tokens with the unigram label of its last; -1 if either is not shared."""
    if labels[0, i] < 0 or labels[1, i + n] < 0:
        return -1
    key: int = labels[0, i] * unigrams + labels[1, i + n]
    return key


@inlined
def _slot(by_slot: IntArray, key: int, mask: int) -> int:
    """Where ``key`` is in the table, or the empty slot where it would go."""
    slot: int = ((key * 2654435761) >> 16) & mask  # Knuth's multiplicative hash
    while by_slot[slot, _KEY] != key and by_slot[slot, _KEY] != -1:
        slot = (slot + 1) & mask
    return slot


@inlined
def _new_label(by_label: IntArray, label: int, slot: int) -> int:
    """Start the counts of a new distinct n-gram; return the next label."""
    by_label[label, _SLOT] = slot
    by_label[label, _IN_HYPOTHESIS] = 0
    by_label[label, _MOST_IN_A_REFERENCE] = 0
    by_label[label, _THIS_REFERENCE] = -1
    return label + 1


@inlined
def _count_in_reference(
    token_ids: IntArray,
    start: int,
    length: int,
    position: int,
    segment: int,
    n: int,
    unigrams: int,
    number: int,
    labels: IntArray,
    by_token: IntArray,
    by_slot: IntArray,
    by_label: IntArray,
    mask: int,
) -> None:
    """Count the n-grams of order ``n + 1`` of the segment's reference ``number`` (labelled
    from ``position`` on) that the hypothesis has too, and label them (-1 for the others)."""
    for i in range(position, position + length - n):
        if n == 0:
            token = token_ids[start + i - position]
            label = by_token[token, _LABEL] if by_token[token, _SEGMENT] == segment else -1
            labels[1, i] = label
        else:
            key = _longer_key(labels, i, n, unigrams)
            if key < 0:
                labels[0, i] = -1
                continue
            slot = _slot(by_slot, key, mask)
            label = by_slot[slot, _LABEL] if by_slot[slot, _KEY] == key else -1
        labels[0, i] = label
        counted = label if label >= 0 else len(by_label) - 1
        if by_label[counted, _THIS_REFERENCE] != number:
            by_label[counted, _THIS_REFERENCE] = number
            by_label[counted, _IN_THIS_REFERENCE] = 0
        by_label[counted, _IN_THIS_REFERENCE] += 1
        by_label[counted, _MOST_IN_A_REFERENCE] = max(
            by_label[counted, _MOST_IN_A_REFERENCE], by_label[counted, _IN_THIS_REFERENCE]
        )


@inlined
def _forget_unshared(labels: IntArray, positions: int, n: int, by_label: IntArray) -> None:
    """Unlabel the hypothesis n-grams that no reference has (and keep the unigram labels)."""
    for i in range(positions):
        if labels[0, i] >= 0 and by_label[labels[0, i], _MOST_IN_A_REFERENCE] == 0:
            labels[0, i] = -1
        if n == 0:
            labels[1, i] = labels[0, i]


@inlined
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


@inlined
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
    return float(high)
