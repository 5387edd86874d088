"""Smoothing: how matches and totals become per-order precisions.

A smoother returns one precision in [0, 1] per order, or ``None`` for an order that is
undefined because the hypothesis has no n-grams of it. What the engine does with ``None`` is
up to the weights: uniform weights make the score 0, effective-order weights leave it out.

>>> from bleuprint import smoothing
>>> from bleuprint._stats import BLEUStats
>>> stats = BLEUStats((3, 1, 0), (4, 3, 2), 4, 4)
>>> smoothing.NoSmoothing()(stats)
[0.75, 0.3333333333333333, 0.0]
>>> smoothing.Exp()(stats)
[0.75, 0.3333333333333333, 0.25]

Every smoother here follows sacreBLEU 2.6.0 (``smooth_method`` ``none``, ``floor``, ``add-k``,
``exp``; Chen and Cherry, 2014, methods 1 to 3) in how it treats zeros:

- statistics without a single match give precision 0 at every order, unsmoothed;
- the first order without n-grams, and every order after it, is undefined (``None``), even if
  a later order has n-grams (which counting never produces, but raw statistics can).
"""

from __future__ import annotations

from collections.abc import Iterator

import attrs

from bleuprint._signature import Part
from bleuprint._stats import BLEUStats
from bleuprint.exceptions import ConfigurationError
from bleuprint.typing import Precision

__all__ = ["AddK", "Exp", "Floor", "NoSmoothing"]


def _defined_orders(stats: BLEUStats) -> Iterator[tuple[float, float]]:
    """``(matches, totals)`` of each order up to the first one without n-grams."""
    for matched, total in zip(stats.matches, stats.totals):
        if not total:
            return
        yield matched, total


def _undefined_after(precisions: list[Precision], max_n: int) -> list[Precision]:
    return precisions + [None] * (max_n - len(precisions))


def _without_matches(stats: BLEUStats) -> list[Precision] | None:
    """sacreBLEU scores statistics without any match 0 before it smooths anything."""
    return None if any(stats.matches) else [0.0] * stats.max_n


def _non_negative(instance: object, attribute: attrs.Attribute[float], value: float) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value >= 0:
        raise ConfigurationError(f"{attribute.name} must be a number >= 0, got {value!r}")


@attrs.frozen
class NoSmoothing(Part, family="smooth", name="none"):
    """The plain ratio ``matches / totals``; an order without n-grams is undefined.

    This is sacreBLEU's ``none``: where a defined order has no match, the precision is 0.
    """

    sacrebleu_name = "none"

    def __call__(self, stats: BLEUStats) -> list[Precision]:
        precisions: list[Precision] = [matched / total for matched, total in _defined_orders(stats)]
        return _undefined_after(precisions, stats.max_n)


@attrs.frozen
class Floor(Part, family="smooth", name="floor"):
    """An order with n-grams but no match counts ``value`` matches (sacreBLEU's ``floor``,
    Chen and Cherry's method 1).

    >>> from bleuprint._stats import BLEUStats
    >>> Floor()(BLEUStats((3, 0, 0, 0), (4, 3, 2, 1), 4, 4))
    [0.75, 0.03333333333333333, 0.05, 0.1]
    """

    value: float = attrs.field(default=0.1, validator=_non_negative)

    @property
    def sacrebleu_name(self) -> str:
        return f"floor[{self.value:.2f}]"

    def __call__(self, stats: BLEUStats) -> list[Precision]:
        if (zeros := _without_matches(stats)) is not None:
            return zeros
        precisions: list[Precision] = [
            (matched or self.value) / total for matched, total in _defined_orders(stats)
        ]
        return _undefined_after(precisions, stats.max_n)


@attrs.frozen
class AddK(Part, family="smooth", name="add-k"):
    """Add ``k`` to the matches and the totals of every order above 1 (sacreBLEU's ``add-k``,
    Chen and Cherry's method 2, after Lin and Och, 2004).

    Since it adds to the totals too, an order above 1 without n-grams becomes defined
    (``k / k = 1``). sacreBLEU reports the incremented counts and totals; the statistics
    here keep the counted ones.

    >>> from bleuprint._stats import BLEUStats
    >>> AddK()(BLEUStats((3, 1, 0, 0), (4, 3, 2, 0), 4, 4))
    [0.75, 0.5, 0.3333333333333333, 1.0]
    """

    k: float = attrs.field(default=1.0, validator=_non_negative)

    @property
    def sacrebleu_name(self) -> str:
        return f"add-k[{self.k:.2f}]"

    def __call__(self, stats: BLEUStats) -> list[Precision]:
        if (zeros := _without_matches(stats)) is not None:
            return zeros
        precisions: list[Precision] = []
        for order, (matched, total) in enumerate(zip(stats.matches, stats.totals), start=1):
            added = self.k if order > 1 else 0
            if not total + added:
                break
            precisions.append((matched + added) / (total + added))
        return _undefined_after(precisions, stats.max_n)


@attrs.frozen
class Exp(Part, family="smooth", name="exp"):
    """sacreBLEU's default ``exp`` (Chen and Cherry's method 3, NIST's ``mteval-v13a``): the
    k-th order with n-grams but no match gets precision ``1 / (2**k * totals)``.

    >>> from bleuprint._stats import BLEUStats
    >>> Exp()(BLEUStats((3, 0, 1, 0), (4, 3, 2, 1), 4, 4))
    [0.75, 0.16666666666666666, 0.5, 0.25]
    """

    sacrebleu_name = "exp"

    def __call__(self, stats: BLEUStats) -> list[Precision]:
        if (zeros := _without_matches(stats)) is not None:
            return zeros
        precisions: list[Precision] = []
        zero_orders = 0
        for matched, total in _defined_orders(stats):
            if matched:
                precisions.append(matched / total)
            else:
                zero_orders += 1
                precisions.append(1 / (2**zero_orders * total))
        return _undefined_after(precisions, stats.max_n)
