"""Reading and writing the signatures of parts: ``name`` or ``name[param,param,...]``.

A parameter is a number, ``true``/``false``, a bare word, a tuple ``(a,b)``, or another part
written as ``name[...]``. Parts register themselves under a family and a name when their class
is defined (see :class:`Part`), which is what lets a signature be parsed back into parts.
"""

from __future__ import annotations

from typing import Any, ClassVar

import attrs
import regex

from bleuprint.exceptions import ConfigurationError

_REGISTRY: dict[str, dict[str, type[Part]]] = {}
_TOKEN = regex.compile(r"\s*(?:([\[\](),])|([^\[\](),\s]+))")


class Part:
    """Mixin for bleuprint's own parts: a registered name and a signature from the fields.

    ``class Clipped(Part, family="match", name="clipped")`` registers the class, and its
    ``signature`` is the name followed by the values of its attrs fields in order, which is
    also the order its constructor takes them in. Users' own parts need not use this: any
    object with a ``signature`` and the family's ``__call__`` plugs in.
    """

    __slots__ = ()
    family: ClassVar[str]
    name: ClassVar[str]

    def __init_subclass__(
        cls, *, family: str | None = None, name: str | None = None, **kwargs: Any
    ) -> None:
        super().__init_subclass__(**kwargs)
        # attrs rebuilds a slotted class without the keywords: keep what the first pass set,
        # and register the rebuilt class, which is the one users get.
        if family is not None and name is not None:
            cls.family, cls.name = family, name
        _REGISTRY.setdefault(cls.family, {})[cls.name] = cls

    @property
    def signature(self) -> str:
        values = [getattr(self, field.name) for field in attrs.fields(type(self))]  # type: ignore[arg-type]
        return format_part(self.name, values)


def format_part(name: str, params: list[Any]) -> str:
    """``name`` alone without parameters, else ``name[p1,p2]``."""
    return f"{name}[{','.join(_format_value(value) for value in params)}]" if params else name


def _format_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return "(" + ",".join(_format_value(item) for item in value) + ")"
    if isinstance(value, (int, float, str)):
        return repr(value) if isinstance(value, float) else str(value)
    signature: str = value.signature
    return signature if "[" in signature else signature + "[]"


def parse_part(family: str, text: str) -> Any:
    """Build the part of ``family`` that ``text`` names, e.g. ``add-k[1]`` for smoothing."""
    reader = _Reader(text)
    part = reader.call(family, reader.take(), bare=True)
    if not reader.at_end():
        raise ConfigurationError(f"{family} signature {text!r}: unexpected text after the part")
    return part


def _family_of(name: str) -> str | None:
    return next((family for family, parts in _REGISTRY.items() if name in parts), None)


def _scalar(token: str) -> Any:
    if token in ("true", "false"):
        return token == "true"
    for kind in (int, float):
        try:
            return kind(token)
        except ValueError:
            pass
    return token


class _Reader:
    """A small recursive-descent reader over the tokens of one part signature."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = self._split(text)
        self.position = 0

    @staticmethod
    def _split(text: str) -> list[str]:
        tokens, position, stripped = [], 0, text.strip()
        while position < len(stripped):
            match = _TOKEN.match(stripped, position)
            if match is None:
                raise ConfigurationError(f"cannot read signature {text!r} at {position}")
            tokens.append(match.group(1) or match.group(2))
            position = match.end()
        return tokens

    def at_end(self) -> bool:
        return self.position >= len(self.tokens)

    def peek(self) -> str | None:
        return None if self.at_end() else self.tokens[self.position]

    def take(self) -> str:
        if self.at_end():
            raise ConfigurationError(f"signature {self.text!r} ends too early")
        self.position += 1
        return self.tokens[self.position - 1]

    def call(self, family: str, name: str, *, bare: bool) -> Any:
        known = _REGISTRY.get(family, {})
        if name not in known:
            choices = ", ".join(sorted(known))
            raise ConfigurationError(
                f"unknown {family} part {name!r} in signature; known: {choices}"
            )
        params: list[Any] = []
        if self.peek() == "[":
            self.take()
            params = self.values(closing="]")
        elif not bare:
            raise ConfigurationError(f"{family} part {name!r}: expected '[' after the name")
        try:
            return known[name](*params)
        except (TypeError, ValueError) as error:
            raise ConfigurationError(
                f"{family} part {name!r} cannot take {params!r}: {error}"
            ) from None

    def values(self, *, closing: str) -> list[Any]:
        values: list[Any] = []
        while (token := self.take()) != closing:
            if token != ",":
                values.append(self.value(token))
        return values

    def value(self, token: str) -> Any:
        if token == "(":
            return tuple(self.values(closing=")"))
        family = _family_of(token)
        if family is not None and self.peek() == "[":
            return self.call(family, token, bare=False)
        return _scalar(token)
