"""attrs validators shared by several families of parts."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import attrs

from bleuprint.exceptions import ConfigurationError


def positive_whole(instance: object, attribute: attrs.Attribute[int], value: int) -> None:
    """A whole number of at least 1 (``True`` is not one), else a ConfigurationError."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ConfigurationError(
            f"{attribute.name} must be a whole number of at least 1, got {value!r}"
        )


def float_tuple(values: Iterable[float]) -> tuple[float, ...]:
    """The values as a tuple of floats (an attrs converter)."""
    return tuple(float(value) for value in values)


def weight_values(
    instance: object, attribute: attrs.Attribute[Any], values: tuple[float, ...]
) -> None:
    """One or more finite numbers, not all 0, else a ConfigurationError."""
    if not values or not all(math.isfinite(value) for value in values):
        raise ConfigurationError(
            f"{attribute.name} must be one or more finite numbers, one per order, got {values!r}"
        )
    if not any(values):
        raise ConfigurationError(
            f"{attribute.name} are all 0: no order would count (the score would be the "
            "brevity penalty alone)"
        )
