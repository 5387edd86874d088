"""The random draws and summaries of significance tests, as sacreBLEU 2.6.0 makes them.

sacreBLEU draws every bootstrap resample (numpy's ``Generator.choice``) or every coin flip of
approximate randomization (``Generator.integers(2, dtype=bool)``) in one call, a
``resamples x segments`` matrix (37 GiB for 100,000 resamples of 50,000 segments). Here they
are drawn a block of rows at a time, about four million draws each, so memory does not grow
with the number of resamples. Blocks are whole multiples of 32 rows, which leaves numpy's
generator (it draws booleans 32 to a word) exactly where one call for every row would: the
blocks, laid end to end, are sacreBLEU's matrix (``tests/test_resampling.py`` checks it).

Both the engine's tests (:mod:`bleuprint.significance`) and ``bleuprint sacrebleu``'s own
arithmetic draw and summarize through these.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import TypeAlias

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

_BLOCK_DRAWS = 1 << 22
_ROWS = 32
_MOST_ROWS = 256


def block_rows(segments: int) -> int:
    """Rows of a block of ``segments`` draws each: at most about four million draws (and 256
    rows), and a whole number of 32-draw words. numpy makes 32 coin flips of each 32-bit number
    it draws, so a block that ended inside one would change the next block's flips; a block of
    one row of a million segments is whole words, one of three segments takes 32 rows."""
    segments = max(segments, 1)
    unit = _ROWS // math.gcd(segments, _ROWS)
    rows = _BLOCK_DRAWS // segments // unit * unit
    return max(unit, min(_MOST_ROWS, rows))


def bootstrap_blocks(rng: np.random.Generator, segments: int, resamples: int) -> Iterator[Indices]:
    """The resamples' segment indices, a block of rows at a time (row ``k`` lists the segments
    of resample ``k``): the numbers of sacreBLEU's one call for all of them."""
    step = block_rows(segments)
    for start in range(0, resamples, step):
        indices: Indices = rng.choice(segments, size=(min(step, resamples - start), segments))
        yield indices


def coin_blocks(rng: np.random.Generator, trials: int, segments: int) -> Iterator[Coins]:
    """The coin flips of approximate randomization, a block of trials at a time (one row per
    trial, one flip per segment): the numbers of sacreBLEU's one call for all of them."""
    step = block_rows(segments)
    for start in range(0, trials, step):
        yield rng.integers(2, size=(min(step, trials - start), segments), dtype=bool)


def draw_counts(block: Indices, segments: int) -> npt.NDArray[np.float64]:
    """How often each segment was drawn into each resample of a block (one row per resample),
    so a resample's sums are a matrix product with the segments' statistics."""
    cells = block + segments * np.arange(len(block))[:, None]
    counts = np.bincount(cells.ravel(), minlength=len(block) * segments)
    return counts.reshape(len(block), segments).astype(np.float64)


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
