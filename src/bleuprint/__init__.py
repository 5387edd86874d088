"""bleuprint: every BLEU in circulation, as configurations of one engine.

>>> import bleuprint
>>> round(bleuprint.bleu_score("the cat is here".split(), "the cat was here".split(), 2), 12)
0.5

The names below are imported when first used (PEP 562), so that ``import bleuprint`` and the
command line start without loading numpy, the engine or the integrations a run does not need;
``from bleuprint import BLEUScore`` works as usual.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from bleuprint._version import __version__

if TYPE_CHECKING:
    from bleuprint import (
        aggregation,
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
    from bleuprint.exceptions import (
        BLEUError,
        ConfigurationError,
        InputError,
        PaddingWarning,
        PresetWarning,
        ReferenceLayoutWarning,
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
    "PaddingWarning",
    "PresetWarning",
    "ReferenceLayoutWarning",
    "SegmentStats",
    "SentenceScores",
    "Signature",
    "StatisticsMismatchError",
    "TokenIds",
    "__version__",
    "aggregation",
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

_DEFINED_IN = {
    "Accumulator": "_accumulator",
    "BLEUError": "exceptions",
    "BLEUResult": "_result",
    "BLEUScore": "_engine",
    "BLEUStats": "_stats",
    "ConfigurationError": "exceptions",
    "InputError": "exceptions",
    "PaddingWarning": "exceptions",
    "PresetWarning": "exceptions",
    "ReferenceLayoutWarning": "exceptions",
    "SegmentStats": "_segments",
    "SentenceScores": "_segments",
    "Signature": "_result",
    "StatisticsMismatchError": "exceptions",
    "TokenIds": "_token_ids",
}
"""Where each class of the public API lives; the other lazy names of ``__all__`` are modules."""


def __getattr__(name: str) -> Any:
    """The public name ``name``, imported on first use (then kept in the module)."""
    if name in _DEFINED_IN:
        value = getattr(importlib.import_module(f"bleuprint.{_DEFINED_IN[name]}"), name)
    elif name in __all__:  # a module
        value = importlib.import_module(f"bleuprint.{name}")
    else:
        raise AttributeError(f"module 'bleuprint' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


def bleu_score(candidate: Sequence[str], reference: Sequence[str], max_n: int = 4) -> float:
    """Canonical BLEU of one tokenized candidate against one tokenized reference.

    The plain function BLEU exercises ask for: clipped precisions of orders 1..max_n, their
    geometric mean, times the brevity penalty; a float in [0, 1].
    """
    from bleuprint._engine import BLEUScore  # noqa: PLC0415 - the engine loads numpy

    return BLEUScore.canonical(max_n=max_n).compute(candidate, [reference])
