"""Floating-point operations rounded exactly as :mod:`math` rounds them."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from bleuprint.typing import FloatArray


def exactly(function: Callable[[float], float], values: FloatArray) -> FloatArray:
    """``function`` (``math.log``, ``math.exp``) on each value, rounded as :mod:`math` rounds
    it (the definitions' own operation): numpy's vectorized ``log`` and ``exp`` may differ in
    the last bit."""
    return np.fromiter(map(function, values.tolist()), np.float64, len(values))
