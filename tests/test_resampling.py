"""The draws of significance tests, a block at a time, and the sums of the rows they draw,
against numpy's one call for all of them (which is what sacreBLEU makes); compact rows; and
the tests' summaries, against hand computation."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

from bleuprint._resampling import (
    CompactRows,
    RowStore,
    block_rows,
    bootstrap_blocks,
    bootstrap_sums,
    coin_blocks,
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
