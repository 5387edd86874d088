"""The checks parts make when they are built: one attrs validator (or converter) per kind.

Each refuses a value with a :class:`~bleuprint.ConfigurationError` that names the class and the
field, says what the field must be, and shows what it got, e.g. ``AddK: k must be a finite
number of at least 0, got nan``. A range refusing a value some peer accepts says why (the score
could leave the definition's range).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterable
from typing import Any, NoReturn, TypeVar

import attrs

from bleuprint.exceptions import ConfigurationError

Validator = Callable[[Any, "attrs.Attribute[Any]", Any], None]


def _refuse(
    instance: object, name: str, requirement: str, value: object, why: str = ""
) -> NoReturn:
    reason = f" ({why})" if why else ""
    raise ConfigurationError(
        f"{type(instance).__name__}: {name} must be {requirement}, got {value!r}{reason}"
    )


def _is_number(value: object) -> bool:
    """An int or float (``True`` is not a number here, nor is text)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _is_finite_number(value: object) -> bool:
    return _is_number(value) and math.isfinite(value)  # type: ignore[arg-type]


# -- whole numbers ---------------------------------------------------------------------------


_POSITIVE_WHOLE = "a whole number of at least 1"


def _is_positive_whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


def check_positive_whole(name: str, value: object) -> None:
    """A whole number of at least 1 (``True`` is not one), else a ConfigurationError naming
    ``name``: for options checked outside an attrs class."""
    if not _is_positive_whole(value):
        raise ConfigurationError(f"{name} must be {_POSITIVE_WHOLE}, got {value!r}")


def positive_whole(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    """A whole number of at least 1 (``True`` is not one)."""
    if not _is_positive_whole(value):
        _refuse(instance, attribute.name, _POSITIVE_WHOLE, value)


MAX_ORDER = 1024
"""The highest n-gram order a part may count. No definition in circulation goes beyond 10, and
every order costs memory and time for every segment, even one far longer than any segment
(which counts nothing); a signature asking for 2**62-grams is refused, not allocated for."""


def ngram_order(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    """A whole number from 1 to :data:`MAX_ORDER`."""
    if not (_is_positive_whole(value) and value <= MAX_ORDER):  # type: ignore[operator]
        _refuse(instance, attribute.name, f"a whole number from 1 to {MAX_ORDER}", value)


def ngram_order_or_zero(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    """A whole number from 0 (no n-grams of that kind) to :data:`MAX_ORDER`."""
    whole = isinstance(value, int) and not isinstance(value, bool)
    if not (whole and 0 <= value <= MAX_ORDER):  # type: ignore[operator]
        _refuse(instance, attribute.name, f"a whole number from 0 to {MAX_ORDER}", value)


# -- real numbers ----------------------------------------------------------------------------


def non_negative(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    """A finite number of at least 0."""
    if not (_is_finite_number(value) and value >= 0):  # type: ignore[operator]
        _refuse(instance, attribute.name, "a finite number of at least 0", value)


def positive(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    """A finite number above 0."""
    if not (_is_finite_number(value) and value > 0):  # type: ignore[operator]
        _refuse(instance, attribute.name, "a finite number above 0", value)


def between(low: float, high: float, *, above: str = "") -> Validator:
    """A finite number from ``low`` to ``high``, both included; ``above`` says what a value
    above ``high`` would do (shown when one is refused)."""

    def check(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
        if not (_is_finite_number(value) and low <= value <= high):  # type: ignore[operator]
            beyond = above if _is_finite_number(value) and value > high else ""  # type: ignore[operator]
            _refuse(
                instance, attribute.name, f"a finite number from {low} to {high}", value, beyond
            )

    return check


# -- choices, flags, parts -------------------------------------------------------------------


def one_of(choices: Collection[object]) -> Validator:
    """One of ``choices`` (compared with ``==``, so ``True`` is not ``1`` here either)."""

    def check(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
        if isinstance(value, bool) or value not in choices:
            listed = ", ".join(repr(choice) for choice in choices)
            _refuse(instance, attribute.name, f"one of {listed}", value)

    return check


def boolean(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    """``True`` or ``False`` itself: a truthy value such as ``"yes"`` or ``1`` is refused, as
    ``"no"`` would be read as true."""
    if not isinstance(value, bool):
        _refuse(instance, attribute.name, "True or False", value)


def fits(protocol: type, *, adapter: str = "") -> Validator:
    """An object fitting the runtime-checkable ``protocol`` (a part of that family); a
    callable refused is pointed to ``adapter``, the family's adapter of scalar parts, if any."""

    def check(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
        if not isinstance(value, protocol):
            _refuse(
                instance,
                attribute.name,
                f"a part fitting the {protocol.__name__} protocol (a signature and its "
                "family's method, see bleuprint.typing)",
                value,
                f"a part written for one set of statistics at a time plugs in as {adapter}(part)"
                if adapter and callable(value)
                else "",
            )

    return check


def is_callable(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    """Something that can be called."""
    if not callable(value):
        _refuse(instance, attribute.name, "callable", value)


def non_empty_text(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    """A string with at least one character that is not whitespace."""
    if not isinstance(value, str) or not value.strip():
        _refuse(instance, attribute.name, "a non-empty string", value)


# -- tuples of numbers -----------------------------------------------------------------------


_Item = TypeVar("_Item")


def as_tuple(values: Iterable[_Item]) -> tuple[_Item, ...]:
    """An attrs converter: the values as a tuple. (A function rather than ``tuple`` itself:
    attrs reads a converter's signature, and a built-in's costs the compile of ``tokenize``'s
    regular expressions when the class is made, a few milliseconds of start-up.)"""
    return tuple(values)


def float_tuple(values: Any) -> Any:
    """An attrs converter: numbers (not text, not ``True``) as a tuple of floats; anything else
    is left as it is, for :func:`finite_numbers` to refuse by name."""
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        return values
    items = tuple(values)
    return tuple(float(item) for item in items) if all(map(_is_number, items)) else items


def finite_numbers(instance: object, attribute: attrs.Attribute[Any], values: object) -> None:
    """One or more finite numbers (after :func:`float_tuple`)."""
    if not (isinstance(values, tuple) and values and all(map(_is_finite_number, values))):
        _refuse(instance, attribute.name, "one or more finite numbers, one per order", values)


MAX_WEIGHT_SUM = 1e300
"""The most that weights' magnitudes may sum to. A precision is a ratio of counts below 2**63,
so its log is at least -44: weighted by such weights, their sum stays far from overflowing."""


def bounded_sum(
    instance: object, attribute: attrs.Attribute[Any], values: tuple[float, ...]
) -> None:
    """Weights whose magnitudes sum to at most :data:`MAX_WEIGHT_SUM`."""
    if sum(map(abs, values)) > MAX_WEIGHT_SUM:
        _refuse(
            instance,
            attribute.name,
            "weights whose magnitudes sum to at most 1e300",
            values,
            "larger ones overflow the weighted sum of the logs of the precisions",
        )


def not_all_zero(
    instance: object, attribute: attrs.Attribute[Any], values: tuple[float, ...]
) -> None:
    """Weights of which at least one is not 0."""
    if not any(values):
        _refuse(
            instance,
            attribute.name,
            "not all 0",
            values,
            "with all 0 no order would count: the score would be the brevity penalty alone",
        )


def none_negative(
    instance: object, attribute: attrs.Attribute[Any], values: tuple[float, ...]
) -> None:
    """Numbers none of which is below 0."""
    if any(value < 0 for value in values):
        _refuse(instance, attribute.name, "numbers of at least 0", values)
