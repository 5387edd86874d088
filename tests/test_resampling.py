"""The draws of significance tests, a block at a time, and the sums of the rows they draw,
against numpy's one call for all of them (which is what sacreBLEU makes); compact rows; and
the tests' summaries, against hand computation."""

from __future__ import annotations

import pickle
from typing import Any, cast
from unittest import mock

import numpy as np
import numpy.typing as npt
import pytest

from bleuprint import BLEUScore, _resampling
from bleuprint._resampling import (
    CompactRows,
    DerivedRows,
    NgramTotals,
    RowFile,
    RowStore,
    SegmentRows,
    block_rows,
    bootstrap_blocks,
    bootstrap_sums,
    coin_blocks,
    concatenated,
    mean_and_ci,
    p_value,
    swapped_sums,
)


@pytest.mark.parametrize(
    ("segments", "resamples"),
    [
        (1, 1000),  # the most rows a block holds, several blocks
        (3, 300),  # one block and a tail
        (2037, 1000),  # a WMT22 test set: blocks of 32 rows
        (50_001, 7),  # a row a block, and an odd number of draws: flips left over each time
        (131_075, 3),  # rows longer than a block
    ],
)
def test_blocks_laid_end_to_end_are_the_one_call(segments: int, resamples: int) -> None:
    bootstrap = list(bootstrap_blocks(np.random.default_rng(12345), segments, resamples))
    coins = list(coin_blocks(np.random.default_rng(7), resamples, segments))
    assert len(bootstrap) == len(coins) == -(-resamples // block_rows(segments))
    one_call = np.random.default_rng(12345).choice(segments, size=(resamples, segments))
    np.testing.assert_array_equal(np.concatenate(bootstrap), one_call)
    one_call = np.random.default_rng(7).integers(2, size=(resamples, segments), dtype=bool)
    np.testing.assert_array_equal(np.concatenate(coins), one_call)


@pytest.mark.parametrize("segments", [1, 5, 2037, 65_536, 65_537, 10**7])
def test_a_block_is_at_most_256_rows_of_about_65000_draws_or_one_row(segments: int) -> None:
    rows = block_rows(segments)
    assert 1 <= rows <= 256
    assert rows == 1 or rows * segments <= 1 << 16


def _statistics(segments: int, seed: int) -> npt.NDArray[np.int64]:
    """BLEU-like rows: counts below 255 but for a few rows, sums past 2**24 in a big corpus."""
    rng = np.random.default_rng(seed)
    rows = rng.integers(100, 250, size=(segments, 6))
    rows[rng.integers(0, segments, size=3), 1] = [255, 300, 70_000]
    return rows


@pytest.mark.parametrize(
    ("segments", "resamples"),
    [(7, 300), (2037, 40), (100_003, 3)],  # blocks of rows; rows in pieces, sums past 2**24
)
def test_bootstrap_sums_are_those_of_the_one_calls_rows(segments: int, resamples: int) -> None:
    systems = [_statistics(segments, 1), _statistics(segments, 2)]
    compact = [CompactRows.of(rows) for rows in systems]
    drawn = np.random.default_rng(5).choice(segments, size=(resamples, segments))
    for single in (False, True):
        blocks = list(bootstrap_sums(np.random.default_rng(5), compact, resamples, single=single))
        for number, rows in enumerate(systems):
            got = np.concatenate([block[number] for block in blocks])
            if single:  # sacreBLEU's sums: its float32 rows, added in numpy
                expected = rows.astype(np.float32)[drawn].sum(axis=1)
                assert got.dtype == np.float32
            else:
                expected = rows[drawn].sum(axis=1)
            np.testing.assert_array_equal(got, expected)
    if segments > 100_000:
        assert expected.max() > 1 << 24  # float32 sums that differ from the exact ones


def test_float32_sums_of_short_corpora_past_2_24_are_sacrebleus() -> None:
    rows = _statistics(300, 3)
    rows[5, 0] = (1 << 24) - 3  # a sum past 2**24 wherever segment 5 is drawn
    drawn = np.random.default_rng(5).choice(300, size=(500, 300))
    blocks = bootstrap_sums(np.random.default_rng(5), [CompactRows.of(rows)], 500, single=True)
    got = np.concatenate([block[0] for block in blocks])
    expected = rows.astype(np.float32)[drawn].sum(axis=1)
    np.testing.assert_array_equal(got, expected)
    assert not np.array_equal(expected, rows[drawn].sum(axis=1).astype(np.float32))


@pytest.mark.parametrize(("segments", "trials"), [(7, 300), (2037, 40), (70_001, 3)])
def test_swapped_sums_are_those_of_the_one_calls_coins(segments: int, trials: int) -> None:
    first, second = _statistics(segments, 1), _statistics(segments, 2)
    rng = np.random.default_rng(9)
    blocks = list(swapped_sums(rng, CompactRows.of(first), CompactRows.of(second), trials))
    one_call = np.random.default_rng(9)
    coins = one_call.integers(2, size=(trials, segments), dtype=bool)[:, :, None]
    for side, (taken, other) in enumerate([(first, second), (second, first)]):
        expected = np.where(coins, taken, other).sum(axis=1)
        np.testing.assert_array_equal(np.concatenate([block[side] for block in blocks]), expected)
    assert rng.integers(10**9) == one_call.integers(10**9)  # the next draws, too


def test_compact_rows_keep_every_number() -> None:
    rows = np.array([[3, 1, 0]] * 40 + [[300, 2, 0], [5, -1, 7], [254, 254, 254], [1, 2, 3]])
    compact = CompactRows.of(rows)
    assert compact.small.dtype == np.uint8
    assert compact.large_at.tolist() == [40, 41]  # 254 fits, 300 and -1 do not
    np.testing.assert_array_equal(compact.rows(0, len(rows)), rows)
    np.testing.assert_array_equal(
        compact.take(np.array([[41, 0], [40, 43]])), rows[[[41, 0], [40, 43]]]
    )
    assert compact.sum().tolist() == rows.sum(axis=0).tolist()
    # Most rows large: the next type up, nothing aside.
    assert CompactRows.of(rows + 1000).small.dtype == np.uint16
    assert not len(CompactRows.of(rows + 1000).large_at)


def test_a_row_store_widens_as_blocks_need() -> None:
    store = RowStore()
    blocks = [_statistics(3000, 1), np.full((10, 6), 1000), _statistics(5000, 3)]
    for block in blocks:
        store.append(block)
    rows = store.rows
    np.testing.assert_array_equal(rows.rows(0, len(rows)), np.vstack(blocks))
    assert rows.small.dtype == np.uint16


def _bleu_rows(segments: int, seed: int) -> npt.NDArray[np.int64]:
    """BLEU rows in sacreBLEU's layout, 4-grams: lengths, matches at most the totals, and the
    totals of a hypothesis of that many tokens by their definition, ``max(0, length - n + 1)``;
    a few hypotheses longer than 255 tokens."""
    rng = np.random.default_rng(seed)
    lengths = rng.integers(0, 40, size=segments)
    lengths[rng.integers(0, segments, size=3)] = [256, 300, 70_000]
    totals = np.array([[max(0, length - n + 1) for n in range(1, 5)] for length in lengths])
    matches = rng.integers(0, totals + 1)
    references = rng.integers(1, 40, size=segments)
    return np.column_stack([lengths, references, matches, totals])


_CONTIGUOUS = NgramTotals.of(BLEUScore.sacrebleu().ngrams)


def _stored(rows: npt.NDArray[np.int64]) -> SegmentRows:
    """``rows`` kept by a store without the totals that follow from the lengths."""
    store = RowStore(_CONTIGUOUS)
    store.append_columns([rows])
    return store.rows


@pytest.mark.parametrize(
    ("segments", "samples"),
    [(7, 300), (2037, 40), (100_003, 3)],  # blocks of rows; rows in pieces, sums past 2**24
)
def test_bleu_rows_without_their_totals_draw_and_sum_as_whole_ones(
    segments: int, samples: int
) -> None:
    systems = [_bleu_rows(segments, 1), _bleu_rows(segments, 2)]
    derived = [_stored(rows) for rows in systems]
    whole = [CompactRows.of(rows) for rows in systems]
    for rows, kept in zip(systems, derived):
        assert isinstance(kept, DerivedRows)
        assert kept.kept.small.shape == (segments, 6)  # 2 lengths, 4 matches: no totals
        np.testing.assert_array_equal(kept.rows(0, segments), rows)
        indices = np.array([[segments - 1, 0], [1, 1]]) % segments
        np.testing.assert_array_equal(kept.take(indices), rows[indices])
        np.testing.assert_array_equal(kept.sum(), rows.sum(axis=0))
    for single in (False, True):
        got, expected = (
            list(bootstrap_sums(np.random.default_rng(5), pools, samples, single=single))
            for pools in (derived, whole)
        )
        for got_block, expected_block in zip(got, expected, strict=True):
            for got_sums, expected_sums in zip(got_block, expected_block):
                assert got_sums.dtype == expected_sums.dtype
                np.testing.assert_array_equal(got_sums, expected_sums)
    got, expected = (
        list(swapped_sums(np.random.default_rng(9), *pools, samples)) for pools in (derived, whole)
    )
    for got_sides, expected_sides in zip(got, expected, strict=True):
        for got_sums, expected_sums in zip(got_sides, expected_sides):
            np.testing.assert_array_equal(got_sums, expected_sums)
    if segments > 100_000:  # three long rows aside, the rest a byte a number
        assert kept.kept.small.nbytes == 6 * segments


def test_rows_whose_totals_do_not_follow_their_lengths_are_kept_whole() -> None:
    rows = _bleu_rows(3000, 3)
    odd = rows.copy()
    odd[1017, -1] += 1  # one more 4-gram than a hypothesis of its length holds
    assert isinstance(_stored(odd), CompactRows)
    assert NgramTotals.of(BLEUScore.sacrebleu().ngrams) == _CONTIGUOUS
    # A store keeps rows without their totals until a block's do not follow: then every row.
    store = RowStore(_CONTIGUOUS)
    for block in (rows[:1000], odd[1000:2000], rows[2000:]):
        store.append(block)
    kept = store.rows
    assert isinstance(kept, CompactRows)
    np.testing.assert_array_equal(kept.rows(0, 3000), np.vstack([rows[:1000], odd[1000:]]))
    # Not 2 + 2 N columns, or totals of a length the rows do not give: kept whole.
    assert _CONTIGUOUS is not None
    assert _CONTIGUOUS.kept(rows[:, :-1]) is None
    assert _CONTIGUOUS.kept(np.array([[3, 2, 1, 0, 0, 0, 2, 1, 0, 0]])) is None
    assert _CONTIGUOUS.kept(rows.astype(np.float64)) is None  # fractions are summed as given


def test_parts_join_without_their_totals_only_where_every_part_is() -> None:
    rows = _bleu_rows(5000, 4)
    parts = [_stored(rows[:2000]), _stored(rows[2000:])]
    both = concatenated(parts)
    assert isinstance(both, DerivedRows)
    np.testing.assert_array_equal(both.rows(0, 5000), rows)
    mixed = concatenated([parts[0], CompactRows.of(rows[2000:])])
    assert isinstance(mixed, CompactRows)
    np.testing.assert_array_equal(mixed.rows(0, 5000), rows)


class _OneSegment:
    """Draws that are all segment 0: a bootstrap that draws one segment far more than 255
    times, where its tally comes round (no real draw of a long corpus is likely to)."""

    def choice(self, segments: int, size: Any) -> npt.NDArray[np.intp]:
        return np.zeros(size, np.intp)


def test_a_segment_drawn_past_255_times_counts_every_time() -> None:
    rows = _bleu_rows(70_001, 5)
    for pool in (_stored(rows), CompactRows.of(rows)):
        drawn = cast(np.random.Generator, _OneSegment())
        ((summed,),) = bootstrap_sums(drawn, [pool], 1)
        assert summed.tolist() == [(rows[0] * 70_001).tolist()]


def _spilled(rows: npt.NDArray[np.int64]) -> SegmentRows:
    """``rows`` kept by a store without their totals, all but the first rows in a file."""
    store = RowStore(_CONTIGUOUS, in_memory=6 * 1000)
    store.append_columns([rows])
    return store.rows


def test_rows_kept_in_a_file_are_read_back_alike() -> None:
    rows = _bleu_rows(70_001, 6)
    spilled = _spilled(rows)
    assert isinstance(spilled, DerivedRows)
    assert isinstance(spilled.kept.small, RowFile)
    assert len(spilled.kept.large_at) == 3  # the long hypotheses, aside in memory
    with mock.patch.object(RowFile, "_read", autospec=True, side_effect=RowFile._read) as read:
        np.testing.assert_array_equal(spilled.rows(0, len(rows)), rows)
    assert read.call_count == 1  # in order, at once: not a row at a time
    np.testing.assert_array_equal(spilled.rows(69_990, 70_001), rows[69_990:])
    indices = np.array([[70_000, 3], [3, 0]])
    np.testing.assert_array_equal(spilled.take(indices), rows[indices])
    np.testing.assert_array_equal(spilled.sum(), rows.sum(axis=0))
    weights = np.random.default_rng(1).integers(0, 256, len(rows)).astype(np.uint8)
    expected = weights.astype(np.int64) @ rows
    np.testing.assert_array_equal(spilled.weighted_sum(weights), expected)
    np.testing.assert_array_equal(CompactRows.of(rows).weighted_sum(weights), expected)
    again = pickle.loads(pickle.dumps(spilled))  # (another process's store, say)
    assert isinstance(again.kept.small, RowFile)
    np.testing.assert_array_equal(again.rows(0, len(rows)), rows)
    np.testing.assert_array_equal(concatenated([spilled, again]).sum(), 2 * rows.sum(axis=0))


def test_tests_on_rows_kept_in_a_file_draw_and_sum_by_their_definitions() -> None:
    systems = [_bleu_rows(70_001, 7), _bleu_rows(70_001, 8)]
    spilled = [_spilled(rows) for rows in systems]
    drawn = np.random.default_rng(5).choice(70_001, size=(2, 70_001))
    blocks = list(bootstrap_sums(np.random.default_rng(5), spilled, 2))
    for number, rows in enumerate(systems):
        got = np.concatenate([block[number] for block in blocks])
        np.testing.assert_array_equal(got, rows[drawn].sum(axis=1))
    coins = np.random.default_rng(9).integers(2, size=(2, 70_001), dtype=bool)[:, :, None]
    blocks = list(swapped_sums(np.random.default_rng(9), *spilled, 2))
    for side, (taken, other) in enumerate([systems, systems[::-1]]):
        expected = np.where(coins, taken, other).sum(axis=1)
        np.testing.assert_array_equal(np.concatenate([block[side] for block in blocks]), expected)


def test_float32_sums_of_rows_in_a_file_add_the_rows_drawn_in_order() -> None:
    # sacreBLEU adds its float32 rows in the order of the draws (past 2**24 the order rounds
    # the sums): rows kept in a file are read back two columns at a time here, each
    # resample's draws made again for each two.
    rng = np.random.default_rng(4)
    rows = _bleu_rows(70_001, 4)
    rows[:, 0] = np.where(rows[:, 0] < 256, rng.integers(230, 255, len(rows)), rows[:, 0])
    rows[:, 6:] = [[max(0, length - n + 1) for n in range(1, 5)] for length in rows[:, 0]]
    plain = RowStore(in_memory=0)
    plain.append(rows)
    systems = [_spilled(rows), plain.rows]
    assert len(_resampling._ColumnGroups.of(systems[0], 2 * len(rows)).files) == 3  # of six
    drawn = np.random.default_rng(5).choice(len(rows), size=(3, len(rows)))
    expected = rows.astype(np.float32)[drawn].sum(axis=1)
    assert not np.array_equal(expected, rows[drawn].sum(axis=1).astype(np.float32))
    with mock.patch.object(_resampling, "_COLUMNS_IN_MEMORY", 2 * len(rows)):
        blocks = list(bootstrap_sums(np.random.default_rng(5), systems, 3, single=True))
    for number in range(2):
        got = np.concatenate([block[number] for block in blocks])
        assert got.dtype == np.float32
        np.testing.assert_array_equal(got, expected)


def test_a_store_in_a_file_keeps_its_type_and_puts_longer_rows_aside() -> None:
    store = RowStore(in_memory=0)
    blocks = [_statistics(3000, 1), np.full((10, 6), 1000), _statistics(5000, 3)]
    for block in blocks:
        store.append(block)
    rows = store.rows
    assert isinstance(rows, CompactRows)
    assert isinstance(rows.small, RowFile)
    assert rows.small.dtype == np.uint8  # (in memory, the store widens: above)
    np.testing.assert_array_equal(rows.rows(0, len(rows)), np.vstack(blocks))
    # Rows whose totals stop following their lengths: all kept whole, still in a file.
    store = RowStore(_CONTIGUOUS, in_memory=0)
    whole = _bleu_rows(3000, 3)
    odd = whole.copy()
    odd[2017, -1] += 1
    store.append(whole[:2000])
    store.append(odd[2000:])
    kept = store.rows
    assert isinstance(kept, CompactRows)
    assert isinstance(kept.small, RowFile)
    np.testing.assert_array_equal(kept.rows(0, 3000), odd)


def test_a_row_file_reads_what_was_written() -> None:
    rows = RowFile(np.dtype(np.uint16), 3)
    written = np.arange(30, dtype=np.uint16).reshape(10, 3)
    rows.append(written[:4])
    rows.append(written[4:])
    assert rows.shape == (10, 3)
    np.testing.assert_array_equal(rows[2:7], written[2:7])
    np.testing.assert_array_equal(rows[8:100], written[8:])
    assert rows[5:2].shape == (0, 3)
    np.testing.assert_array_equal(rows[np.array([9, 0, 9])], written[[9, 0, 9]])
    with pytest.raises(IndexError, match="rows 0 to 10 of 10"):
        rows[np.array([0, 10])]
    with pytest.raises(ValueError, match="with no step"):
        rows[::2]


def test_mean_and_interval_by_hand() -> None:
    # 40 scores: the interval's ends are ranks 1 and 38 of the sorted list (n // 40 = 1).
    scores = np.array([float(k) for k in range(40)][::-1])
    mean, ci = mean_and_ci(scores)
    assert mean == 19.5
    assert ci == 0.5 * (38.0 - 1.0)


def test_p_value_counts_strictly_greater_with_one_added() -> None:
    statistics = np.array([0.1, 0.2, 0.2, 0.5])
    assert p_value(statistics, 0.2) == (1 + 1) / (4 + 1)
    assert p_value(statistics, 0.6) == 1 / 5
