"""Deprecated: sacreBLEU's layout of references is :func:`bleuprint.compat.sacrebleu.from_streams`.

This module keeps the old name working; each call warns (a :class:`DeprecationWarning`).

>>> import warnings
>>> from bleuprint import sacrebleu_compat
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     sacrebleu_compat.from_streams(["a b"], [["a b"], [None]])
[['a b']]
>>> print(caught[0].message)
bleuprint.sacrebleu_compat.from_streams is deprecated: use bleuprint.compat.sacrebleu.from_streams
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence

from bleuprint.compat import sacrebleu

__all__ = ["from_streams"]


def from_streams(
    hypotheses: Sequence[str], reference_streams: Sequence[Sequence[str | None]]
) -> list[list[str]]:
    """Deprecated alias of :func:`bleuprint.compat.sacrebleu.from_streams`."""
    warnings.warn(
        "bleuprint.sacrebleu_compat.from_streams is deprecated: "
        "use bleuprint.compat.sacrebleu.from_streams",
        DeprecationWarning,
        stacklevel=2,
    )
    return sacrebleu.from_streams(hypotheses, reference_streams)
