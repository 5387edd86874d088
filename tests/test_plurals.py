"""Messages count in correct plurals (issue 26): where one thing is counted, the noun is
singular ("1 order", "1 hypothesis"), through the public calls that say it. The expected texts
are written by hand."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bleuprint import BLEUScore, BLEUStats, ConfigurationError, InputError, ngrams, weights
from bleuprint.compat import mteval, nltk
from bleuprint.compat.sacrebleu import from_streams
from bleuprint.exceptions import BLEUError, StatisticsMismatchError


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (
            lambda: BLEUScore(ngrams=ngrams.Contiguous(1), weights=weights.Explicit((0.5, 0.5))),
            ConfigurationError,
            "2 weights given, more than the 1 order scored",
        ),
        (
            lambda: BLEUScore.torchmetrics(n_gram=2, weights=[1.0]),
            ConfigurationError,
            "torchmetrics needs one weight per order: 1 weight for n_gram=2",
        ),
        (
            lambda: BLEUScore.fast_bleu(weights=[1.0]),
            ConfigurationError,
            "fast-bleu scores 2 or more orders, got 1 weight$",
        ),
        (
            lambda: nltk.nist().corpus_score(["a b"], []),
            InputError,
            "1 hypothesis but 0 lists of references",
        ),
        (
            lambda: mteval.nist().corpus_score(["a b"], []),
            InputError,
            "1 hypothesis and 0 lists of references",
        ),
        (
            lambda: mteval.nist().corpus_score(["a", "b"], [["a", "c"], ["b"]]),
            InputError,
            "segment 1: 1 reference where the first segment has 2",
        ),
        (
            lambda: from_streams(["a b"], [["a b", "c"]]),
            InputError,
            "reference stream 0 has 2 segments for 1 hypothesis",
        ),
        (
            lambda: BLEUScore.canonical().mbr([["a"]], reference_weights=[[1.0, 2.0]]),
            InputError,
            "group 0 has 1 candidate but its reference weights",
        ),
        (
            lambda: BLEUStats((1,), (1, 1), 1, 1),
            InputError,
            "matches has 1 order but totals has 2",
        ),
        (
            lambda: BLEUScore.canonical().score(BLEUStats((1,), (1,), 1, 1)),
            InputError,
            "statistics have 1 order; this engine scores 4",
        ),
        (
            lambda: BLEUStats((1,), (1,), 1, 1) + BLEUStats((1, 1), (1, 1), 1, 1),
            StatisticsMismatchError,
            r"\? with 1 order and \? with 2 orders",
        ),
    ],
)
def test_one_thing_is_counted_in_the_singular(
    call: Callable[[], object], error: type[BLEUError], message: str
) -> None:
    with pytest.raises(error, match=message):
        call()
