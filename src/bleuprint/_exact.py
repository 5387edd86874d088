"""Element-wise ``math`` functions on arrays, rounded exactly as the scalar code rounds them."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from bleuprint.typing import FloatArray


def exactly(function: Callable[[float], float], values: FloatArray) -> FloatArray:
    """``function`` (``math.log``, ``math.exp``) on each value, with the very same rounding as
    the simple path: numpy's own vectorized ``log`` and ``exp`` may differ in the last bit."""
    return np.fromiter(map(function, values.tolist()), np.float64, len(values))
