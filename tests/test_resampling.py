"""The draws of significance tests, a block at a time, against numpy's one call for all of
them (which is what sacreBLEU makes), and their summaries, against hand computation."""

from __future__ import annotations

import numpy as np
import pytest

from bleuprint._resampling import block_rows, bootstrap_blocks, coin_blocks, mean_and_ci, p_value


@pytest.mark.parametrize(
    ("segments", "resamples"),
    [
        (1, 1000),  # the most rows a block holds, several blocks
        (3, 300),  # one block and a tail
        (2037, 1000),  # a WMT22 test set: blocks of 256 rows
        (50_000, 100),  # blocks of 82 rows
        (300_001, 70),  # blocks of 32 rows: 32 draws of an odd number of segments
        (1_000_000, 40),  # blocks of 4 rows, whole 32-draw words
        (2_000_002, 35),  # blocks of 16 rows
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


@pytest.mark.parametrize("segments", [1, 5, 2037, 131_073, 1_000_000, 2_000_002, 10**7])
def test_a_block_is_whole_32_draw_words_of_at_most_about_four_million_draws(
    segments: int,
) -> None:
    rows = block_rows(segments)
    assert rows * segments % 32 == 0
    assert 1 <= rows <= 256
    smallest = 32 // np.gcd(segments, 32)  # rows that make whole words
    assert rows == smallest or rows * segments <= 1 << 22


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
