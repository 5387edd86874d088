"""The floating-point operations that the simple path and the fast path must round alike."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np

from bleuprint.typing import FloatArray, Precision


def exactly(function: Callable[[float], float], values: FloatArray) -> FloatArray:
    """``function`` (``math.log``, ``math.exp``) on each value, with the very same rounding as
    the simple path: numpy's own vectorized ``log`` and ``exp`` may differ in the last bit."""
    return np.fromiter(map(function, values.tolist()), np.float64, len(values))


def weighted_geometric_mean(
    precisions: Sequence[Precision], order_weights: Sequence[float]
) -> float:
    """``exp(sum w_n log p_n)`` over the orders of nonzero weight; 0 if any of them is 0 or
    undefined, or if no order has weight. (Only quirk parts give negative weights.)"""
    terms = []
    for precision, weight in zip(precisions, order_weights):
        if weight == 0:
            continue
        if not precision:
            return 0.0
        terms.append(weight * math.log(precision))
    return math.exp(math.fsum(terms)) if terms else 0.0
