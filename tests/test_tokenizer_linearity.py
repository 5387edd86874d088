"""Every tokenizer is linear in its input: one hostile line cannot stall a corpus (issue 16).

Each adversarial text is timed at two sizes, four times apart; a linear tokenizer takes about
four times as long on the larger, a quadratic one sixteen. The test asserts the ratio, never
seconds, so a slow or busy machine does not fail it; it takes the median of a few pairs of runs
so that a pause or a change of the machine's speed does not either, and it times the calling
thread alone.
"""

from __future__ import annotations

import functools
import statistics
import time
from collections.abc import Callable
from typing import Any

import pytest

from bleuprint import tokenizers

pytestmark = pytest.mark.timing

SMALL = 10_000
LARGEST = 160_000
MEASURABLE = 0.003  # seconds
GROWTH = 8
PAIRS = 3
# Linear work grows 8x, quadratic 64x; 24x leaves room for timing noise and caches (at 4x
# against 10x, a busy shared machine failed a linear tokenizer once, at 10.1x).
LIMIT = 24

TOKENIZERS = [
    tokenizers.Whitespace(),
    tokenizers.Letters(),
    tokenizers.Mteval13a(),
    tokenizers.International(),
    tokenizers.Chars(),
    tokenizers.Chinese(),
    tokenizers.ChineseFixed(),
    tokenizers.Codepoints(),
    tokenizers.Lowercase(tokenizers.Mteval13a()),
]

# Runs of what the rules look at around a character: periods and commas (mteval's rule for a
# mark after a non-digit looked back over the whole run: 39 s for 40,000 periods), marks between
# digits, dashes, escapes, hyphenated line breaks, Unicode punctuation and symbols, CJK.
ADVERSARIAL: dict[str, Callable[[int], str]] = {
    "periods": lambda n: "." * n,
    "commas": lambda n: "," * n,
    "periods-and-commas": lambda n: ".," * (n // 2),
    "letter-period": lambda n: "a." * (n // 2),
    "digit-period": lambda n: "1." * (n // 2),
    "digit-dash": lambda n: "1-" * (n // 2),
    "escapes": lambda n: "&amp;" * (n // 5),
    "hyphenated-breaks": lambda n: "-\n" * (n // 2),
    "unicode-punctuation": lambda n: "«»" * (n // 2),
    "symbols": lambda n: "$%" * (n // 2),
    "cjk-and-periods": lambda n: "中." * (n // 2),
    "spaces": lambda n: " \u3000" * (n // 2),
}


def _seconds(function: Callable[[], object]) -> float:
    # This thread's CPU time: the process's would count other threads, such as the BLAS
    # library's workers, which spin for a while after numpy starts them or after a product of
    # matrices.
    start = time.thread_time()
    function()
    return time.thread_time() - start


def _ratio(run: Callable[[str], object], make: Callable[[int], str]) -> float:
    """How many times longer ``run`` takes on ``make``'s text at 8x the size. The smaller size
    grows until one run takes a few milliseconds, below which timings are mostly noise. The
    answer is the median of a few pairs of runs, each pair back to back: a shared machine's
    speed changes (by 1.7x, seen here) between one pair and the next, hardly within one, and the
    median passes over the pair it falls in."""
    size = SMALL
    run(make(size))  # warm up: compiled patterns, caches
    while _seconds(functools.partial(run, make(size))) < MEASURABLE and size < LARGEST:
        size *= 2
    small, large = make(size), make(size * GROWTH)
    ratios = [
        _seconds(lambda: run(large)) / max(_seconds(lambda: run(small)), 1e-6) for _ in range(PAIRS)
    ]
    return statistics.median(ratios)


@pytest.mark.parametrize("tokenizer", TOKENIZERS, ids=lambda tokenizer: tokenizer.signature)
@pytest.mark.parametrize("name", sorted(ADVERSARIAL))
def test_one_text_is_linear(tokenizer: Any, name: str) -> None:
    ratio = _ratio(tokenizer, ADVERSARIAL[name])
    assert ratio < LIMIT, f"{GROWTH}x the input took {ratio:.1f}x the time"


BATCH = [tokenizer for tokenizer in TOKENIZERS if hasattr(tokenizer, "tokenize_batch")]


@pytest.mark.parametrize("tokenizer", BATCH, ids=lambda tokenizer: tokenizer.signature)
@pytest.mark.parametrize("name", sorted(ADVERSARIAL))
def test_batches_are_linear(tokenizer: Any, name: str) -> None:
    # The batch rules are separate code (line-bounded); the hostile line sits among others.
    ratio = _ratio(
        lambda text: list(tokenizer.tokenize_batch(["a b", text, "c."])), ADVERSARIAL[name]
    )
    assert ratio < LIMIT, f"{GROWTH}x the input took {ratio:.1f}x the time"


def test_the_quadratic_case_is_detected() -> None:
    # The measure itself can fail: a deliberately quadratic function is caught.
    def quadratic(text: str) -> int:
        return sum(text.count(".", 0, index) for index in range(0, len(text), 8))

    assert _ratio(quadratic, ADVERSARIAL["periods"]) >= LIMIT
