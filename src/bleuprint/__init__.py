"""bleuprint: every BLEU in circulation, as configurations of one engine.

>>> import bleuprint
>>> round(bleuprint.bleu_score("the cat is here".split(), "the cat was here".split(), 2), 12)
0.5
"""

from __future__ import annotations

from collections.abc import Sequence

from bleuprint import (
    brevity,
    compat,
    definitions,
    explain,
    matching,
    mbr,
    ngrams,
    presets,
    rewards,
    sacrebleu_compat,
    significance,
    smoothing,
    tokenizers,
    weights,
)
from bleuprint._accumulator import Accumulator
from bleuprint._engine import BLEUScore
from bleuprint._result import BLEUResult, Signature
from bleuprint._segments import SegmentStats, SentenceScores
from bleuprint._stats import BLEUStats
from bleuprint._token_ids import TokenIds
from bleuprint._version import __version__
from bleuprint.exceptions import (
    BLEUError,
    ConfigurationError,
    InputError,
    StatisticsMismatchError,
)

__all__ = [
    "Accumulator",
    "BLEUError",
    "BLEUResult",
    "BLEUScore",
    "BLEUStats",
    "ConfigurationError",
    "InputError",
    "SegmentStats",
    "SentenceScores",
    "Signature",
    "StatisticsMismatchError",
    "TokenIds",
    "__version__",
    "bleu_score",
    "brevity",
    "compat",
    "definitions",
    "explain",
    "matching",
    "mbr",
    "ngrams",
    "presets",
    "rewards",
    "sacrebleu_compat",
    "significance",
    "smoothing",
    "tokenizers",
    "weights",
]


def bleu_score(candidate: Sequence[str], reference: Sequence[str], max_n: int = 4) -> float:
    """Canonical BLEU of one tokenized candidate against one tokenized reference.

    The plain function BLEU exercises ask for: clipped precisions of orders 1..max_n, their
    geometric mean, times the brevity penalty; a float in [0, 1].
    """
    return BLEUScore.canonical(max_n=max_n).compute(candidate, [reference])
