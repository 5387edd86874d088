"""What ``help()`` and the API reference show of bleuprint's classes: an attrs class's
defaults as the values its factories make, and functions of the engine as its methods."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

import attrs

__all__ = ["engine_method", "own_special_names", "shown_signature"]

_P = ParamSpec("_P")
_R = TypeVar("_R")


class _Shown:
    """A default shown by the text given (an attrs factory is not a value)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text


def shown_signature(cls: type) -> inspect.Signature | None:
    """``cls``'s signature with each factory default shown as the value it makes
    (``tokenizer=Whitespace()``) rather than attrs' ``NOTHING``; ``None`` where it has no
    factory default."""
    factories = {
        field.name: field.default
        for field in attrs.fields(cls)
        if isinstance(field.default, attrs.Factory)  # type: ignore[arg-type]
    }
    if not factories:
        return None
    signature = inspect.signature(cls)
    return signature.replace(
        parameters=[
            parameter.replace(default=_shown(factories[parameter.name]))
            if parameter.name in factories
            else parameter
            for parameter in signature.parameters.values()
        ]
    )


def _shown(factory: Any) -> _Shown:  # (an attrs.Factory, which mypy cannot name as a type)
    return _Shown("<computed>" if factory.takes_self else repr(factory.factory()))


def engine_method(function: Callable[_P, _R], name: str) -> Callable[_P, _R]:
    """``function``, defined where its work is done with the engine as its first argument,
    as the engine's method ``name``: shown with ``self`` first, as any method is, so that
    nobody reads the engine as a parameter to pass."""

    @functools.wraps(function)
    def method(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        return function(*args, **kwargs)

    method.__name__ = name
    method.__qualname__ = f"BLEUScore.{name}"
    signature = inspect.signature(function)
    engine, *rest = signature.parameters.values()
    itself = engine.replace(name="self", annotation=inspect.Parameter.empty)
    method.__signature__ = signature.replace(parameters=[itself, *rest])  # type: ignore[attr-defined]
    return method


def own_special_names(cls: type) -> set[str]:
    """The special names (``__eq__``, ``__repr__``, ...) ``cls`` defines itself: attrs makes
    them, and a reader of ``help()`` does not call them by name."""
    return {name for name in vars(cls) if name.startswith("__") and name.endswith("__")}
