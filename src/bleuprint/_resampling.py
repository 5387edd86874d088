"""The random draws and summaries of significance tests, as sacreBLEU 2.6.0 makes them.

sacreBLEU draws every bootstrap resample (numpy's ``Generator.choice``) or every coin flip of
approximate randomization (``Generator.integers(2, dtype=bool)``) in one call, a
``resamples x segments`` matrix (37 GiB for 100,000 resamples of 50,000 segments). Here they
are drawn a piece at a time, at most about 65,000 draws (whole resamples where they are
shorter, else a part of one), so memory grows neither with the number of resamples nor with the
number of segments beyond the segments' own statistics. The pieces, laid end to end, are
sacreBLEU's matrix (``tests/test_resampling.py`` checks it): ``choice`` draws one 32-bit number
a draw, whatever the size asked for, and the coin flips, which numpy makes 32 to a 32-bit
number, are made here from those numbers, a flip per bit, the bits left over kept for the next
piece.

What is resampled is a corpus's statistics, one row of whole numbers per segment, kept compact
(:func:`compact`, :class:`RowStore`: in the smallest integer type that holds them, a byte or two
a number rather than eight): each resampled corpus's sums are made from the rows drawn, in
64-bit integers, or in single precision in the order of the draws, as sacreBLEU sums them
(:func:`bootstrap_sums`, :func:`swapped_sums`).

Both the engine's tests (:mod:`bleuprint.significance`) and ``bleuprint sacrebleu``'s own
arithmetic draw and summarize through these.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, TypeAlias

import numpy as np
import numpy.typing as npt

DEFAULT_SEED = 12345
"""sacreBLEU's default seed (its ``SACREBLEU_SEED``)."""
DEFAULT_RESAMPLES = 1000
"""Bootstrap resamples, for paired bootstrap tests and confidence intervals."""
DEFAULT_TRIALS = 10000
"""Trials of approximate randomization."""

Indices: TypeAlias = npt.NDArray[np.intp]
Coins: TypeAlias = npt.NDArray[np.bool_]
Scores: TypeAlias = npt.NDArray[np.float64]
Rows: TypeAlias = npt.NDArray[Any]
"""One row of a corpus's statistics per segment (whole numbers, in a compact integer type)."""
Sums: TypeAlias = npt.NDArray[Any]
"""One row of summed statistics per resampled corpus (``int64``, or ``float32`` as sacreBLEU's)."""

_DRAWS = 1 << 16  # draws made, and rows gathered, at once
_MOST_ROWS = 256
_FLOAT32_EXACT = 1 << 24  # float32 adds whole numbers exactly up to here


def block_rows(segments: int) -> int:
    """Resamples drawn at once: as many whole ones as about 65,000 draws make, at most 256; a
    resample of more segments is drawn in pieces of that many draws (:func:`bootstrap_sums`),
    or whole where its indices are needed (:func:`bootstrap_blocks`)."""
    return max(1, min(_MOST_ROWS, _DRAWS // max(segments, 1)))


def _pieces(segments: int, samples: int) -> Iterator[tuple[int, int, int]]:
    """The draws of ``samples`` rows of ``segments`` draws each, in the order of one call for
    all of them, a piece at a time: ``(rows, start, end)``, the next ``rows`` rows' draws for
    segments ``start`` to ``end``. A piece is whole rows, or a part of one row."""
    if segments <= _DRAWS:
        step = block_rows(segments)
        for first in range(0, samples, step):
            yield min(step, samples - first), 0, segments
        return
    for _ in range(samples):
        for start in range(0, segments, _DRAWS):
            yield 1, start, min(start + _DRAWS, segments)


def bootstrap_blocks(rng: np.random.Generator, segments: int, resamples: int) -> Iterator[Indices]:
    """The resamples' segment indices, a block of whole rows at a time (row ``k`` lists the
    segments of resample ``k``): the numbers of sacreBLEU's one call for all of them."""
    step = block_rows(segments)
    for start in range(0, resamples, step):
        indices: Indices = rng.choice(segments, size=(min(step, resamples - start), segments))
        yield indices


def coin_blocks(rng: np.random.Generator, trials: int, segments: int) -> Iterator[Coins]:
    """The coin flips of approximate randomization, a block of whole trials at a time (one row
    per trial, one flip per segment): the numbers of sacreBLEU's one call for all of them."""
    coins = _Coins(rng)
    step = block_rows(segments)
    for start in range(0, trials, step):
        rows = min(step, trials - start)
        yield coins.draw(rows * segments).reshape(rows, segments)


class _Coins:
    """Coin flips drawn as numpy's ``integers(2, dtype=bool)`` draws them in one call: the bits
    of 32-bit numbers, lowest first; a bit left over in one draw is the next draw's first."""

    def __init__(self, rng: np.random.Generator) -> None:
        self._rng = rng
        self._left: Coins = np.zeros(0, dtype=bool)

    def draw(self, count: int) -> Coins:
        words = -(-(count - len(self._left)) // 32)
        numbers = self._rng.integers(1 << 32, size=max(words, 0), dtype=np.uint32)
        bits = np.unpackbits(numbers.astype("<u4").view(np.uint8), bitorder="little")
        flips = np.concatenate([self._left, bits.view(np.bool_)])
        self._left = flips[count:].copy()
        return flips[:count]


def bootstrap_sums(
    rng: np.random.Generator, systems: Sequence[Rows], resamples: int, *, single: bool = False
) -> Iterator[list[Sums]]:
    """The sums of the rows of each resampled corpus (bootstrap resampling, the draws of
    sacreBLEU's one call), for each system's rows (all resampled alike), a block of resamples
    at a time: ``int64`` sums, or with ``single`` sacreBLEU's ``float32`` ones (numpy adds
    ``float32`` rows one after the other: exactly, while a sum stays within 2**24)."""
    segments = len(systems[0])
    sums = [_Resampled(rows, single) for rows in systems]
    for rows, start, end in _pieces(segments, resamples):
        indices = rng.choice(segments, size=(rows, end - start))
        for resampled in sums:
            resampled.add(indices)
        if end == segments:
            yield [resampled.done() for resampled in sums]


class _Resampled:
    """The sums of the rows drawn into resampled corpora, as the draws come."""

    def __init__(self, rows: Rows, single: bool) -> None:
        self._rows = rows
        self._single = single
        self._unsigned = rows.dtype.kind == "u"  # (sums of signed numbers can come back down)
        self._summed = np.int64 if rows.dtype.kind in "iub" else np.float64
        self._exact: Sums | None = None
        self._float32: Sums | None = None

    def add(self, indices: Indices) -> None:
        drawn = np.take(self._rows, indices, axis=0)  # (resamples, draws, columns)
        exact = np.einsum("rdc->rc", drawn, dtype=self._summed)
        if self._exact is not None:
            exact += self._exact
        self._exact = exact
        if not self._single:
            return
        float32 = exact.astype(np.float32)
        rounded = exact > _FLOAT32_EXACT if self._unsigned else np.ones(exact.shape, dtype=bool)
        if rounded.any():
            rows, columns = np.nonzero(rounded)
            before = (
                np.zeros(len(rows), np.float32)
                if self._float32 is None
                else self._float32[rows, columns]
            )
            added = np.column_stack([before, drawn[rows, :, columns].astype(np.float32)])
            float32[rows, columns] = np.cumsum(added, axis=1)[:, -1]  # one after the other
        self._float32 = float32

    def done(self) -> Sums:
        """The sums of the resamples drawn since the last call."""
        sums = self._float32 if self._single else self._exact
        assert sums is not None
        self._exact = self._float32 = None
        return sums


def swapped_sums(
    rng: np.random.Generator, first: Rows, second: Rows, trials: int
) -> Iterator[tuple[Sums, Sums]]:
    """The ``int64`` sums of approximate randomization's pseudo-systems, a block of trials at
    a time: one takes ``first``'s row of a segment where the trial's coin (sacreBLEU's draw)
    says so and ``second``'s elsewhere, the other the rest."""
    seconds = second.sum(axis=0, dtype=np.int64)
    both = first.sum(axis=0, dtype=np.int64) + seconds
    coins = _Coins(rng)
    swapped: Sums | None = None
    for rows, start, end in _pieces(len(first), trials):
        flips = coins.draw(rows * (end - start)).reshape(rows, end - start)
        # Whole numbers, far below 2**53: exact in double precision, as a matrix product.
        differences = first[start:end].astype(np.float64) - second[start:end]
        part = np.rint(flips.astype(np.float64) @ differences).astype(np.int64)
        swapped = part if swapped is None else swapped + part
        if end == len(first):
            taken = seconds + swapped
            yield taken, both - taken
            swapped = None


def compact(columns: Sequence[npt.NDArray[Any]]) -> Rows:
    """Columns (one entry, or a row of entries, per segment) side by side, in the smallest
    integer type that holds them all (``float64`` where one is not of whole numbers)."""
    matrices = [np.asarray(column).reshape(len(column), -1) for column in columns]
    if any(matrix.dtype.kind not in "iub" for matrix in matrices):
        return np.hstack(matrices).astype(np.float64)
    dtype = np.result_type(*(_smallest(matrix) for matrix in matrices))
    rows = np.empty((len(matrices[0]), sum(matrix.shape[1] for matrix in matrices)), dtype)
    start = 0
    for matrix in matrices:
        rows[:, start : start + matrix.shape[1]] = matrix
        start += matrix.shape[1]
    return rows


def _smallest(numbers: npt.NDArray[Any]) -> np.dtype[Any]:
    """The smallest integer type that holds ``numbers`` (whole numbers)."""
    if not numbers.size:
        return np.dtype(np.uint8)
    return np.result_type(
        np.min_scalar_type(numbers.min()), np.min_scalar_type(numbers.max()), np.uint8
    )


class RowStore:
    """Rows of whole numbers appended a block at a time, kept in the smallest integer type that
    holds them (widened as a block needs it) in an array that grows by half when full: a
    segment's statistics take a byte or two each, not the eight of their ``int64`` counts."""

    def __init__(self) -> None:
        self._array: Rows | None = None
        self._count = 0

    def append(self, block: Rows) -> None:
        dtype = _smallest(block) if block.dtype.kind in "iub" else np.dtype(np.float64)
        end = self._count + len(block)
        if self._array is None:
            self._array = np.empty((max(end, 1024), block.shape[1]), dtype)
        dtype = np.result_type(self._array.dtype, dtype)
        capacity = len(self._array)
        if end > capacity:
            capacity = max(end, capacity * 3 // 2)
        if capacity != len(self._array) or dtype != self._array.dtype:
            array = np.empty((capacity, self._array.shape[1]), dtype)
            array[: self._count] = self._array[: self._count]
            self._array = array
        self._array[self._count : end] = block
        self._count = end

    @property
    def rows(self) -> Rows:
        """The rows appended, in order."""
        if self._array is None:
            return np.zeros((0, 0), np.uint8)
        return self._array[: self._count]


def mean_and_ci(scores: Scores) -> tuple[float, float]:
    """The mean and half the width of the central 95% of the scores, sacreBLEU's way: the
    scores at ranks ``n // 40`` and ``n - n // 40 - 1`` of the sorted list."""
    ordered = np.sort(scores)
    low = len(ordered) // 40
    high = len(ordered) - low - 1
    # The mean of the sorted scores: the same summation order, so the same bits, as sacreBLEU.
    return float(ordered.mean()), float(0.5 * (ordered[high] - ordered[low]))


def p_value(statistics: Scores, observed: float) -> float:
    """The share of ``statistics`` above ``observed``, with sacreBLEU's ``+ 1`` correction."""
    # Strictly greater: a system compared with itself must not look significant by chance.
    exceeding = int(np.sum(statistics > observed))
    return (exceeding + 1) / (len(statistics) + 1)
