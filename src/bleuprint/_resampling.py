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
(:class:`CompactRows`, made by a :class:`RowStore`: a byte a number for nearly every segment's
BLEU statistics, rather than eight; and BLEU's totals, which follow from the hypothesis's
length where its n-grams are runs of tokens, not kept at all but derived as the rows are drawn:
:class:`DerivedRows`, :class:`NgramTotals`): each resampled corpus's sums are made from the
rows drawn, in 64-bit integers, or in single precision in the order of the draws, as sacreBLEU
sums them (:func:`bootstrap_sums`, :func:`swapped_sums`). A resample of a corpus longer than a
piece is not gathered row by row: its draws are tallied, a byte a segment, and the rows summed
with those weights in order, exactly, so that a store's rows past :data:`IN_MEMORY` bytes can
wait in a temporary file (:class:`RowFile`), read once a resample (or a trial of approximate
randomization). Single precision, whose sums depend on the order of the draws, takes the rows
at random: from a file, a few columns at a time are read back into memory, and each resample's
draws made again for each few (:func:`_single_sums_by_columns`).

Both the engine's tests (:mod:`bleuprint.significance`) and ``bleuprint sacrebleu``'s own
arithmetic draw and summarize through these.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from typing import Any, Protocol, TypeAlias

import attrs
import numpy as np
import numpy.typing as npt

from bleuprint._kernels import kernel
from bleuprint.typing import ArrayNgramExtractor, NgramExtractor

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
Tallies: TypeAlias = npt.NDArray[np.uint8]
"""How often a resample draws each segment, modulo 256 (``tally`` of :mod:`bleuprint._kernels`)."""

IN_MEMORY = 8 << 20
"""Bytes of a corpus's compact rows kept in memory where a test reads them in order (the BLEU
statistics of some 1.4 million segments); the rest go to a temporary file (:class:`RowStore`)."""

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


class SegmentRows(Protocol):
    """A corpus's rows, one per segment, however they are kept (:class:`CompactRows`,
    :class:`DerivedRows`): what the resampling draws and sums, each row whole."""

    def __len__(self) -> int: ...

    @property
    def dtype(self) -> np.dtype[Any]:
        """The smallest type that holds every number."""
        ...

    def take(self, indices: Indices) -> Rows:
        """The rows at ``indices`` (an array of any shape; a row of numbers for each)."""
        ...

    def rows(self, start: int, end: int) -> Rows:
        """Rows ``start`` to ``end``."""
        ...

    def sum(self) -> Rows:
        """The sum of each column (``int64`` for whole numbers)."""
        ...

    def weighted_sum(self, weights: Tallies) -> Rows:
        """The ``int64`` sum of each column of whole numbers, row ``k`` counted ``weights[k]``
        times, the rows read in order."""
        ...


def bootstrap_sums(
    rng: np.random.Generator,
    systems: Sequence[SegmentRows],
    resamples: int,
    *,
    single: bool = False,
) -> Iterator[list[Sums]]:
    """The sums of the rows of each resampled corpus (bootstrap resampling, the draws of
    sacreBLEU's one call), for each system's rows (all resampled alike), a block of resamples
    at a time: ``int64`` sums, or with ``single`` sacreBLEU's ``float32`` ones (numpy adds
    ``float32`` rows one after the other: exactly, while a sum stays within 2**24)."""
    segments = len(systems[0])
    if segments > _DRAWS and not single and all(rows.dtype.kind in "iub" for rows in systems):
        yield from _tallied_sums(rng, systems, resamples)
        return
    if single and any(_in_file(rows) is not None for rows in systems):
        yield from _single_sums_by_columns(rng, systems, resamples)
        return
    sums = [_Resampled(rows, single) for rows in systems]
    for rows, start, end in _pieces(segments, resamples):
        indices = rng.choice(segments, size=(rows, end - start))
        for resampled in sums:
            resampled.add(indices)
        if end == segments:
            yield [resampled.done() for resampled in sums]


def _tallied_sums(
    rng: np.random.Generator, systems: Sequence[SegmentRows], resamples: int
) -> Iterator[list[Sums]]:
    """:func:`bootstrap_sums` of whole numbers, exact, for a corpus longer than a piece of
    draws: a resample's draws are tallied (how often each segment is drawn, a byte a segment),
    then each system's rows are summed with those weights, read in order, so that rows kept in
    a file (:class:`RowFile`) are read once a resample rather than at random; and a byte a
    segment is a fraction of the memory the draws themselves would take."""
    segments = len(systems[0])
    tallies = np.zeros(segments, np.uint8)
    around: list[Indices] = []  # the draws at which a tally came round from 255 to 0
    for _, start, end in _pieces(segments, resamples):
        around.append(kernel.tally(tallies, rng.choice(segments, size=end - start)))
        if end == segments:
            more = np.concatenate(around)
            yield [
                (rows.weighted_sum(tallies) + 256 * column_sums(rows.take(more)))[None, :]
                for rows in systems
            ]
            tallies[:] = 0
            around.clear()


def _single_sums_by_columns(
    rng: np.random.Generator, systems: Sequence[SegmentRows], resamples: int
) -> Iterator[list[Sums]]:
    """:func:`bootstrap_sums` in single precision of rows (some of them) in a file: sacreBLEU
    adds the rows drawn in the order of the draws, which takes them at random, so the columns
    are read back into memory a few at a time (:class:`_ColumnGroups`), and each resample's
    draws are made again for each few."""
    segments = len(systems[0])
    groups = [_ColumnGroups.of(rows, _COLUMNS_IN_MEMORY) for rows in systems]
    for _ in range(resamples):
        drawing = rng.bit_generator.state  # where this resample's draws start
        sums = []
        for system in groups:
            summed = np.zeros((1, system.width), np.float32)
            for columns, rows in system.in_memory():
                rng.bit_generator.state = drawing
                resampled = _Resampled(rows, single=True)
                for _, start, end in _pieces(segments, 1):
                    resampled.add(rng.choice(segments, size=(1, end - start)))
                summed[:, columns] = resampled.done()
            sums.append(summed)
        yield sums


class _Resampled:
    """The sums of the rows drawn into resampled corpora, as the draws come."""

    def __init__(self, rows: SegmentRows, single: bool) -> None:
        self._rows = rows
        self._single = single
        self._unsigned = rows.dtype.kind == "u"  # (sums of signed numbers can come back down)
        self._summed = np.int64 if rows.dtype.kind in "iub" else np.float64
        self._exact: Sums | None = None
        self._float32: Sums | None = None
        self._columns: npt.NDArray[np.float64] | None = None

    def add(self, indices: Indices) -> None:
        drawn: Rows | None = None  # (resamples, draws, columns), taken where needed
        if indices.shape[1] == len(self._rows) <= _DRAWS:
            exact = self._counted(indices)
        else:
            drawn = self._rows.take(indices)
            exact = np.einsum("rdc->rc", drawn, dtype=self._summed)
        if self._exact is not None:
            exact += self._exact
        self._exact = exact
        if not self._single:
            return
        float32 = exact.astype(np.float32)
        rounded = exact > _FLOAT32_EXACT if self._unsigned else np.ones(exact.shape, dtype=bool)
        if rounded.any():
            if drawn is None:
                drawn = self._rows.take(indices)
            rows, columns = np.nonzero(rounded)
            before = (
                np.zeros(len(rows), np.float32)
                if self._float32 is None
                else self._float32[rows, columns]
            )
            added = np.column_stack([before, drawn[rows, :, columns].astype(np.float32)])
            float32[rows, columns] = np.cumsum(added, axis=1)[:, -1]  # one after the other
        self._float32 = float32

    def _counted(self, indices: Indices) -> Sums:
        """The sums of whole resamples of a short corpus: how often each segment was drawn
        into each, times the rows (a matrix product, exact in double precision for whole
        numbers: far faster than adding the rows drawn)."""
        segments = len(self._rows)
        if self._columns is None:
            self._columns = self._rows.rows(0, segments).astype(np.float64)
        cells = indices + segments * np.arange(len(indices))[:, None]
        counts = np.bincount(cells.ravel(), minlength=len(indices) * segments)
        sums = counts.reshape(len(indices), segments).astype(np.float64) @ self._columns
        return np.rint(sums).astype(np.int64) if self._summed is np.int64 else sums

    def done(self) -> Sums:
        """The sums of the resamples drawn since the last call."""
        sums = self._float32 if self._single else self._exact
        assert sums is not None
        self._exact = self._float32 = None
        return sums


def swapped_sums(
    rng: np.random.Generator, first: SegmentRows, second: SegmentRows, trials: int
) -> Iterator[tuple[Sums, Sums]]:
    """The ``int64`` sums of approximate randomization's pseudo-systems, a block of trials at
    a time: one takes ``first``'s row of a segment where the trial's coin (sacreBLEU's draw)
    says so and ``second``'s elsewhere, the other the rest."""
    seconds = second.sum()
    both = first.sum() + seconds
    coins = _Coins(rng)
    swapped: Sums | None = None
    for rows, start, end in _pieces(len(first), trials):
        flips = coins.draw(rows * (end - start)).reshape(rows, end - start)
        # Whole numbers, far below 2**53: exact in double precision, as a matrix product.
        differences = first.rows(start, end).astype(np.float64) - second.rows(start, end)
        part = np.rint(flips.astype(np.float64) @ differences).astype(np.int64)
        swapped = part if swapped is None else swapped + part
        if end == len(first):
            taken = seconds + swapped
            yield taken, both - taken
            swapped = None


_NARROW = (np.uint8, np.uint16, np.uint32)
_ASIDE = 16  # at most one row in this many is kept aside


@attrs.frozen
class CompactRows:
    """Rows of whole numbers in the narrowest unsigned type that holds nearly all of them
    whole: a segment's BLEU statistics are counts below 255, a byte each. A rare row with a
    larger (or negative) number is kept whole aside, its numbers all the type's largest, which
    marks it. A million segments' BLEU statistics take 10 MB, not the 80 MB of ``int64`` rows.

    >>> rows = CompactRows.of(np.array([[3, 1]] * 20 + [[300, 2]]))
    >>> rows.small.dtype.name, rows.small[-1].tolist(), rows.take(np.array([20, 0])).tolist()
    ('uint8', [255, 255], [[300, 2], [3, 1]])
    >>> rows.sum().tolist()
    [360, 22]
    """

    small: Rows | RowFile
    large_at: Indices  # the rows kept aside, in order
    large: Rows

    @classmethod
    def of(cls, rows: Rows, dtype: np.dtype[Any] | None = None) -> CompactRows:
        """The rows of a matrix (one row per segment), in the narrowest type that holds nearly
        all of them (or in ``dtype``)."""
        rows = np.asarray(rows)
        if dtype is None:
            dtype = _narrowest(rows)
        if dtype.kind != "u" or rows.dtype.kind not in "iub":
            nothing_aside = np.zeros((0, rows.shape[1]), np.uint8)
            return cls(rows.astype(dtype), np.zeros(0, np.intp), nothing_aside)
        largest = np.iinfo(dtype).max
        aside = ((rows < 0) | (rows >= largest)).any(axis=1)
        small = rows.clip(0, largest).astype(dtype)
        small[aside] = largest
        large_at = np.flatnonzero(aside)
        large = rows[large_at]
        return cls(small, large_at, large.astype(_smallest(large)))

    @classmethod
    def concatenate(cls, parts: Sequence[CompactRows]) -> CompactRows:
        """The rows of several parts, one part after the other, in the widest part's type (in
        memory)."""
        dtype = np.result_type(*(part.small.dtype for part in parts))
        parts = [
            part if part.small.dtype == dtype else cls.of(part.rows(0, len(part)), dtype)
            for part in parts
        ]
        starts = np.cumsum([0, *(len(part) for part in parts[:-1])])
        return cls(
            np.concatenate([part.small[0 : len(part)] for part in parts]),
            np.concatenate([part.large_at + start for part, start in zip(parts, starts)]),
            np.concatenate([part.large for part in parts]),
        )

    def __len__(self) -> int:
        return len(self.small)

    @property
    def dtype(self) -> np.dtype[Any]:
        """The smallest type that holds every number."""
        return np.result_type(self.small.dtype, self.large.dtype)

    def take(self, indices: Indices) -> Rows:
        """The rows at ``indices`` (an array of any shape; a row of numbers for each)."""
        drawn = self.small[indices]
        marked = self._marked(drawn)
        return drawn if marked is None else self._restored(drawn, marked, indices[marked])

    def rows(self, start: int, end: int) -> Rows:
        """Rows ``start`` to ``end``."""
        drawn = self.small[start:end]
        marked = self._marked(drawn)
        if marked is None:
            return drawn
        return self._restored(drawn, marked, start + np.flatnonzero(marked))

    def _marked(self, drawn: Rows) -> npt.NDArray[np.bool_] | None:
        """Which of the rows ``drawn`` from ``small`` are kept aside (``None`` for none)."""
        if not len(self.large_at):
            return None
        marked = drawn[..., 0] == np.iinfo(self.small.dtype).max
        return marked if marked.any() else None

    def _restored(self, drawn: Rows, marked: npt.NDArray[np.bool_], at: Indices) -> Rows:
        """The rows ``drawn``, those ``marked`` (rows ``at``) taken from the rows aside."""
        rows = drawn.astype(self.dtype)
        rows[marked] = self.large[np.searchsorted(self.large_at, at)]
        return rows

    def sum(self) -> Rows:
        """The sum of each column (``int64`` for whole numbers), a few thousand rows at a time."""
        whole = self.small.dtype.kind in "iub"
        summed: Rows = np.zeros(self.small.shape[1], np.int64 if whole else self.small.dtype)
        for start in range(0, len(self), _DRAWS):
            summed += self.small[start : start + _DRAWS].sum(axis=0, dtype=summed.dtype)
        if len(self.large_at):
            summed -= len(self.large_at) * int(np.iinfo(self.small.dtype).max)
            summed += self.large.sum(axis=0, dtype=summed.dtype)
        return summed

    def weighted_sum(self, weights: Tallies) -> Rows:
        """The ``int64`` sum of each column of whole numbers, row ``k`` counted ``weights[k]``
        times, a few thousand rows at a time, in order.

        >>> rows = CompactRows.of(np.array([[3, 1]] * 20 + [[300, 2]]))
        >>> rows.weighted_sum(np.array([2] + [0] * 19 + [1], np.uint8)).tolist()
        [306, 4]
        """
        return self.weighted_sums(weights)[0]

    def weighted_sums(self, weights: Tallies) -> tuple[Rows, Rows, Rows]:
        """:meth:`weighted_sum`, with the numbers of the first column and the weight of the
        rows that hold each (a number may come more than once, its weights to be added, some
        of them negative), in the same pass over the rows.

        >>> rows = CompactRows.of(np.array([[3, 1]] * 20 + [[300, 2]]))
        >>> sums, values, weight = rows.weighted_sums(np.array([2] + [0] * 19 + [1], np.uint8))
        >>> sums.tolist(), int(weight[values == 3].sum()), int(weight[values == 300].sum())
        ([306, 4], 2, 1)
        """
        sums = np.zeros(self.small.shape[1], np.int64)
        by_byte = np.zeros(256, np.int64)  # the weight of each first number of a byte
        values, weight = [np.arange(256)], [by_byte]
        for start in range(0, len(self), _DRAWS):
            block = slice(start, start + _DRAWS)
            part, rows = weights[block], self.small[block]
            if rows.dtype == np.uint8:  # (nearly every corpus's BLEU statistics)
                summed, by_first = kernel.weighted_rows(part, rows)
                sums += summed
                by_byte += by_first
                continue
            sums += _weighted(part, rows)
            firsts, at = np.unique(rows[:, 0], return_inverse=True)
            values.append(firsts.astype(np.int64))
            weight.append(np.rint(np.bincount(at.ravel(), part)).astype(np.int64))
        if len(self.large_at):  # counted as marked, the type's largest number: taken back
            aside = weights[self.large_at].astype(np.int64)
            largest = int(np.iinfo(self.small.dtype).max)
            sums += aside @ self.large.astype(np.int64) - int(aside.sum()) * largest
            values += [np.array([largest]), self.large[:, 0].astype(np.int64)]
            weight += [np.array([-int(aside.sum())]), aside]
        return sums, np.concatenate(values), np.concatenate(weight)


def _weighted(weights: Tallies, rows: Rows) -> Rows:
    """The ``int64`` sum of each column of a block of ``rows`` (whole numbers, at most 65,536
    rows), row ``k`` counted ``weights[k]`` times: in double precision where that is exact
    (numbers of two bytes: sums below 2**53) and faster, else in ``int64``."""
    if rows.dtype.itemsize <= 2:
        summed = weights.astype(np.float64) @ rows.astype(np.float64)
        return np.rint(summed).astype(np.int64)
    exact: Rows = weights.astype(np.int64) @ rows.astype(np.int64)
    return exact


class RowFile:
    """Rows of numbers of one type in an unnamed temporary file, appended at its end and read
    back a few at a time (by a slice, or by an array of indices): a store's rows
    (:class:`RowStore`) once they are more than it keeps in memory. As rows are read they are
    copied, not mapped, so that a pass over them holds one block in memory, not the file's
    pages. Pickled, the rows go with it, into a new file where unpickled.

    >>> rows = RowFile(np.dtype(np.uint8), 2)
    >>> rows.append(np.array([[1, 2], [3, 4], [5, 6]], np.uint8))
    >>> rows.shape, rows[1:3].tolist(), rows[np.array([[2], [0]])].tolist()
    ((3, 2), [[3, 4], [5, 6]], [[[5, 6]], [[1, 2]]])
    """

    def __init__(self, dtype: np.dtype[Any], columns: int) -> None:
        self.dtype = dtype
        self._columns = columns
        self._rows = 0
        # (tempfile, with the random and shutil it imports, only where rows go to a file: not
        # at every start of the command, which imports this module with sacreBLEU's preset.)
        import tempfile  # noqa: PLC0415

        # Open for the rows' life, closed (and gone) with them.
        self._file = tempfile.TemporaryFile(prefix="bleuprint-rows-")  # noqa: SIM115

    def __reduce__(self) -> tuple[Any, ...]:
        return _row_file, (self[0 : self._rows],)

    def __len__(self) -> int:
        return self._rows

    @property
    def shape(self) -> tuple[int, int]:
        return self._rows, self._columns

    def append(self, rows: Rows) -> None:
        """Write ``rows`` (of this type and width) after those there are."""
        data = _bytes_of(np.ascontiguousarray(rows, self.dtype))
        offset = self._rows * self._columns * self.dtype.itemsize
        while data:
            written = os.pwrite(self._file.fileno(), data, offset)
            data, offset = data[written:], offset + written
        self._rows += len(rows)

    def __getitem__(self, rows: slice | Indices) -> Rows:
        if isinstance(rows, slice):
            start, end, step = rows.indices(self._rows)
            if step != 1:
                raise ValueError("rows are read from a file in order, with no step")
            return self._read(start, max(start, end))
        wanted = np.asarray(rows)
        if wanted.size and (wanted.min() < 0 or wanted.max() >= self._rows):
            raise IndexError(f"rows {wanted.min()} to {wanted.max()} of {self._rows}")
        distinct, where = np.unique(wanted, return_inverse=True)
        read = np.vstack(
            [np.zeros((0, self._columns), self.dtype)]
            + [self._read(int(row), int(row) + 1) for row in distinct]
        )
        taken: Rows = read[where.reshape(wanted.shape)]
        return taken

    def _read(self, start: int, end: int) -> Rows:
        rows = np.empty((end - start, self._columns), self.dtype)
        into = _bytes_of(rows)
        offset = start * self._columns * self.dtype.itemsize
        while into:
            read = os.preadv(self._file.fileno(), [into], offset)
            if not read:
                raise OSError(f"a temporary file of rows ended early, at byte {offset}")
            into, offset = into[read:], offset + read
        return rows


def _bytes_of(rows: Rows) -> memoryview:
    """The bytes of a C-contiguous array (which may have no rows)."""
    return rows.reshape(-1).view(np.uint8).data


def _row_file(rows: Rows) -> RowFile:
    """A new :class:`RowFile` of ``rows`` (an unpickled one)."""
    kept = RowFile(rows.dtype, rows.shape[1])
    kept.append(rows)
    return kept


def _narrowest(rows: Rows) -> np.dtype[Any]:
    """The narrowest unsigned type whose largest number marks at most one row in 16 (a row
    kept aside), else the smallest type that holds every number."""
    if rows.dtype.kind not in "iub":
        return rows.dtype
    for narrow in _NARROW:
        largest = np.iinfo(narrow).max
        if np.count_nonzero(((rows < 0) | (rows >= largest)).any(axis=1)) * _ASIDE <= len(rows):
            return np.dtype(narrow)
    return _smallest(rows)


class Derivation(Protocol):
    """How the last columns of a corpus's rows follow from the first: the rows are kept
    without them."""

    def kept(self, rows: Rows) -> Rows | None:
        """The columns of ``rows`` that are kept, or ``None`` where some row's other columns do
        not follow from them."""
        ...

    def completed(self, kept: Rows) -> Rows:
        """Whole rows, from their kept columns (the last axis of ``kept``)."""
        ...

    def weighted_sum(self, kept: CompactRows, weights: Tallies) -> Rows:
        """The weighted sum of each whole row's column (:meth:`CompactRows.weighted_sum`),
        from the kept rows."""
        ...


@attrs.frozen
class NgramTotals:
    """BLEU statistics in sacreBLEU's layout (the hypothesis's length, the reference's, the
    matches of orders 1 to N, the totals of orders 1 to N) whose totals are the n-grams
    ``ngrams`` finds in a hypothesis of that many tokens: runs of adjacent tokens, with the
    length counted in tokens. A row is kept without its totals; the extractor, which knows
    them, derives them.

    >>> from bleuprint.ngrams import Contiguous
    >>> totals = NgramTotals(Contiguous(2))
    >>> totals.kept(np.array([[3, 4, 2, 1, 3, 2], [1, 1, 1, 0, 1, 0]])).tolist()
    [[3, 4, 2, 1], [1, 1, 1, 0]]
    >>> totals.completed(np.array([[3, 4, 2, 1]])).tolist()
    [[3, 4, 2, 1, 3, 2]]
    >>> totals.kept(np.array([[3, 4, 2, 1, 3, 3]])) is None  # not runs of 3 tokens
    True
    """

    ngrams: ArrayNgramExtractor

    @classmethod
    def of(cls, ngrams: NgramExtractor) -> NgramTotals | None:
        """The totals of an extractor that derives them from lengths, else ``None``."""
        return cls(ngrams) if isinstance(ngrams, ArrayNgramExtractor) else None

    def kept(self, rows: Rows) -> Rows | None:
        """The lengths and matches of rows (of whole numbers) whose totals are their
        hypothesis's, else ``None``."""
        if rows.dtype.kind not in "iub":
            return None
        totals = self._totals(rows[:, 0])
        columns = 2 + totals.shape[1]
        if rows.shape[1] != columns + totals.shape[1] or not np.array_equal(
            rows[:, columns:], totals
        ):
            return None
        kept: Rows = rows[:, :columns]
        return kept

    def completed(self, kept: Rows) -> Rows:
        """The rows with their totals, in the kept columns' type (a total is at most its
        hypothesis's length)."""
        flat = kept.reshape(-1, kept.shape[-1])
        whole = np.hstack([flat, self._totals(flat[:, 0]).astype(kept.dtype)])
        return whole.reshape(*kept.shape[:-1], whole.shape[1])

    def weighted_sum(self, kept: CompactRows, weights: Tallies) -> Rows:
        """The weighted sums of the kept columns, then of the totals, which follow from the
        weight of each hypothesis length.

        >>> from bleuprint.ngrams import Contiguous
        >>> kept = CompactRows.of(np.array([[3, 4, 2, 1], [1, 1, 1, 0]]))
        >>> NgramTotals(Contiguous(2)).weighted_sum(kept, np.array([1, 2], np.uint8)).tolist()
        [5, 6, 4, 1, 5, 2]
        """
        sums, lengths, weight = kept.weighted_sums(weights)
        return np.concatenate([sums, weight @ self._totals(lengths)])

    def _totals(self, lengths: Rows) -> Rows:
        totals: Rows = self.ngrams.order_totals_array(lengths.astype(np.int64))
        return totals


@attrs.frozen
class DerivedRows:
    """A corpus's rows kept without the columns that follow from the others (``derivation``
    says which and how): each row is made whole as it is taken. BLEU's statistics, kept
    without their totals (:class:`NgramTotals`), take six bytes a segment rather than ten.

    >>> from bleuprint.ngrams import Contiguous
    >>> rows = RowStore(NgramTotals(Contiguous(2)))
    >>> rows.append(np.array([[3, 4, 2, 1, 3, 2], [1, 1, 1, 0, 1, 0]]))
    >>> derived = rows.rows
    >>> derived.kept.small.shape, derived.take(np.array([1, 1])).tolist(), derived.sum().tolist()
    ((2, 4), [[1, 1, 1, 0, 1, 0], [1, 1, 1, 0, 1, 0]], [4, 5, 3, 1, 4, 2])
    """

    kept: CompactRows
    derivation: Derivation

    def __len__(self) -> int:
        return len(self.kept)

    @property
    def dtype(self) -> np.dtype[Any]:
        """The smallest type that holds every number (a derived one too)."""
        return self.kept.dtype

    def take(self, indices: Indices) -> Rows:
        """The whole rows at ``indices`` (an array of any shape; a row of numbers for each)."""
        return self.derivation.completed(self.kept.take(indices))

    def rows(self, start: int, end: int) -> Rows:
        """Whole rows ``start`` to ``end``."""
        return self.derivation.completed(self.kept.rows(start, end))

    def weighted_sum(self, weights: Tallies) -> Rows:
        """The ``int64`` sum of each whole row's column, row ``k`` counted ``weights[k]``
        times, the rows read in order."""
        return self.derivation.weighted_sum(self.kept, weights)

    def sum(self) -> Rows:
        """The sum of each column (``int64``), a few thousand whole rows at a time."""
        parts = [
            self.rows(start, min(start + _DRAWS, len(self))).sum(axis=0, dtype=np.int64)
            for start in range(0, max(len(self), 1), _DRAWS)
        ]
        summed: Rows = np.vstack(parts).sum(axis=0)
        return summed


_COLUMNS_IN_MEMORY = 16 << 20  # bytes of a corpus's columns read back at once (at least one)


def _in_file(rows: SegmentRows) -> CompactRows | None:
    """The compact rows (kept columns) of ``rows`` where they are in a file, else ``None``."""
    kept = rows.kept if isinstance(rows, DerivedRows) else rows
    return kept if isinstance(kept, CompactRows) and isinstance(kept.small, RowFile) else None


@attrs.frozen
class _ColumnGroups:
    """A corpus's rows, a few columns at a time in memory: rows kept in a file are copied,
    in one pass, into files of as many columns each as ``most`` bytes hold (at least one; the
    rows aside stay in memory); rows in memory are one group.

    >>> rows = RowStore(in_memory=0)
    >>> rows.append(np.array([[1, 2, 3], [4, 5, 6]]))
    >>> groups = _ColumnGroups.of(rows.rows, most=4)
    >>> [(columns, part.rows(0, 2).tolist()) for columns, part in groups.in_memory()]
    [([0, 1], [[1, 2], [4, 5]]), ([2], [[3], [6]])]
    """

    width: int  # the whole rows' columns
    rows: SegmentRows
    files: list[tuple[int, RowFile]]  # each group's first column, and its file

    @classmethod
    def of(cls, rows: SegmentRows, most: int) -> _ColumnGroups:
        width = rows.rows(0, 1).shape[1]
        kept = _in_file(rows)
        if kept is None:
            return cls(width, rows, [])
        small, columns = kept.small, kept.small.shape[1]
        each = max(1, most // max(1, len(small) * small.dtype.itemsize))
        files = [
            (first, RowFile(small.dtype, min(each, columns - first)))
            for first in range(0, columns, each)
        ]
        for start in range(0, len(small), _DRAWS):
            block = small[start : start + _DRAWS]
            for first, file in files:
                file.append(block[:, first : first + file.shape[1]])
        return cls(width, rows, files)

    def in_memory(self) -> Iterator[tuple[list[int], SegmentRows]]:
        """The columns of each group (their numbers in the whole rows) and its rows, in
        memory, one group after the other."""
        kept = _in_file(self.rows)
        if kept is None:
            yield list(range(self.width)), self.rows
            return
        for first, file in self.files:
            end = first + file.shape[1]
            part = CompactRows(file[0 : len(file)], kept.large_at, kept.large[:, first:end])
            columns = list(range(first, end))
            if first == 0 and isinstance(self.rows, DerivedRows):
                # (the derived columns follow from the first: see Derivation)
                columns += range(kept.small.shape[1], self.width)
                yield columns, DerivedRows(part, self.rows.derivation)
            else:
                yield columns, part


def concatenated(parts: Sequence[SegmentRows]) -> SegmentRows:
    """The rows of several parts, one part after the other: derived alike where every part's
    are, else whole."""
    derived = [part for part in parts if isinstance(part, DerivedRows)]
    if len(derived) == len(parts) and len({part.derivation for part in derived}) == 1:
        return DerivedRows(
            CompactRows.concatenate([part.kept for part in derived]), derived[0].derivation
        )
    return CompactRows.concatenate(
        [
            part if isinstance(part, CompactRows) else CompactRows.of(part.rows(0, len(part)))
            for part in parts
        ]
    )


def column_sums(rows: Rows | SegmentRows) -> Rows:
    """The sum of each column of ``rows`` (``int64`` for whole numbers)."""
    if not isinstance(rows, np.ndarray):
        return rows.sum()
    summed: Rows = rows.sum(axis=0, dtype=np.int64 if rows.dtype.kind in "iub" else None)
    return summed


def _smallest(numbers: npt.NDArray[Any]) -> np.dtype[Any]:
    """The smallest integer type that holds ``numbers`` (whole numbers)."""
    if not numbers.size:
        return np.dtype(np.uint8)
    return np.result_type(
        np.min_scalar_type(numbers.min()), np.min_scalar_type(numbers.max()), np.uint8
    )


class RowStore:
    """Rows of whole numbers appended a block at a time, kept as :class:`CompactRows` in an
    array that grows by an eighth when full (in place, where the system can move its pages),
    or, once they take more than ``in_memory`` bytes, in a temporary file (:class:`RowFile`);
    without the columns that follow from the others, by ``derivation``, while every block's
    do (once one's do not, every row is kept whole).

    >>> store = RowStore(in_memory=8)
    >>> store.append(np.array([[1, 2], [3, 4]]))
    >>> store.append(np.array([[5, 6], [7, 300]]))
    >>> type(store.rows.small).__name__, store.rows.rows(1, 4).tolist()
    ('RowFile', [[3, 4], [5, 6], [7, 300]])
    """

    def __init__(
        self, derivation: Derivation | None = None, *, in_memory: int | None = None
    ) -> None:
        self._derivation = derivation
        self._in_memory = in_memory
        self._small: Rows | RowFile | None = None
        self._count = 0
        self._large_at: list[Indices] = []
        self._large: list[Rows] = []

    def append(self, block: Rows) -> None:
        if self._derivation is not None:
            kept = self._derivation.kept(block)
            if kept is None:
                self._keep_whole()
            else:
                block = kept
        part = CompactRows.of(block)
        if self._small is None:
            self._small = np.empty((0, block.shape[1]), part.small.dtype)
        if part.small.dtype != self._small.dtype:
            dtype = np.result_type(part.small.dtype, self._small.dtype)
            if dtype != self._small.dtype:
                if isinstance(self._small, RowFile) and self._small.dtype.kind == "u":
                    dtype = self._small.dtype  # a file's rows stay: those that need more go aside
                else:  # the rows so far, in the wider type
                    self._restore(self._compacted().rows(0, self._count), dtype)
            part = CompactRows.of(part.rows(0, len(part)), dtype)
        self._put(part.small[:])  # (a new part's rows are in memory: this is a view)
        # Only blocks with rows aside leave arrays behind: an empty pair for each of thousands
        # of blocks, scattered through the memory the counting frees, kept the system from
        # taking that back (some 30 MB for two systems at ten million segments).
        if len(part.large_at):
            self._large_at.append(part.large_at + self._count)
            self._large.append(part.large)
        self._count += len(part)
        self._spill_if_over()

    def _put(self, small: Rows) -> None:
        """Keep ``small`` (rows in the store's type) after the rows so far."""
        assert self._small is not None
        if isinstance(self._small, RowFile):
            self._small.append(small)
            return
        end = self._count + len(small)
        if end > len(self._small):
            self._small.resize(
                (max(end, len(self._small) * 9 // 8), small.shape[1]), refcheck=False
            )
        self._small[self._count : end] = small

    def _spill_if_over(self) -> None:
        """Move the rows to a file once they take more than ``in_memory`` bytes."""
        small = self._small
        if not isinstance(small, np.ndarray) or self._in_memory is None:
            return
        if self._count * small.shape[1] * small.dtype.itemsize > self._in_memory:
            spilled = RowFile(small.dtype, small.shape[1])
            spilled.append(small[: self._count])
            self._small = spilled

    def append_columns(self, columns: Sequence[npt.NDArray[Any]]) -> None:
        """Append the rows of ``columns`` side by side (one entry, or a row of entries, per
        row), a few thousand rows at a time."""
        matrices = [np.asarray(column).reshape(len(column), -1) for column in columns]
        for start in range(0, len(matrices[0]), _DRAWS):
            self.append(np.hstack([matrix[start : start + _DRAWS] for matrix in matrices]))

    def extend(self, rows: SegmentRows) -> None:
        """Append ``rows``, a few thousand at a time."""
        for start in range(0, len(rows), _DRAWS):
            self.append(rows.rows(start, min(start + _DRAWS, len(rows))))

    def _keep_whole(self) -> None:
        """Keep every row whole from now on, those so far too (appended again, whole)."""
        so_far = None if self._small is None else self.rows
        self._derivation = None
        self._small, self._count, self._large_at, self._large = None, 0, [], []
        if so_far is not None:
            self.extend(so_far)

    def _restore(self, rows: Rows, dtype: np.dtype[Any]) -> None:
        """Keep ``rows`` in ``dtype`` in place of the rows so far (in memory, till the next
        block is appended)."""
        kept = CompactRows.of(rows, dtype)
        self._small = kept.small
        self._large_at, self._large = [kept.large_at], [kept.large]

    def __getstate__(self) -> dict[str, Any]:
        # Pickled without the room left to grow (another process's store, say), which an
        # unpickled array, a view of the pickle's bytes, could not give back.
        if self._small is not None:
            self._compacted()
        return self.__dict__

    def _compacted(self) -> CompactRows:
        """The rows appended as they are kept (the store's own arrays: append no more)."""
        assert self._small is not None
        columns = self._small.shape[1]
        if isinstance(self._small, np.ndarray):
            self._small.resize((self._count, columns), refcheck=False)
        self._large_at = [np.concatenate([np.zeros(0, np.intp), *self._large_at])]
        self._large = [np.concatenate([np.zeros((0, columns), np.uint8), *self._large])]
        return CompactRows(self._small, self._large_at[0], self._large[0])

    @property
    def rows(self) -> SegmentRows:
        """The rows appended, in order (the store's own arrays: append no more)."""
        kept = self._compacted()
        return kept if self._derivation is None else DerivedRows(kept, self._derivation)


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
