"""Reading and writing the signatures of parts: ``name`` or ``name[param,param,...]``.

A parameter is a number, ``true``/``false``, a bare word, a tuple ``(a,b)``, or another part
written as ``name[...]``. Parts register themselves under a family and a name when their class
is defined (see :class:`Part`), which is what lets a signature be parsed back into parts.

The parser reads at most :data:`MAX_LENGTH` characters nested at most :data:`MAX_DEPTH` deep,
so a hostile signature costs little to refuse.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, ClassVar

import attrs

from bleuprint.exceptions import ConfigurationError

_REGISTRY: dict[str, dict[str, type[Part]]] = {}
_DEFERRED: list[Callable[[], object]] = []

# Whitespace is Unicode's White_Space, as the regex module's \s (which these patterns used):
# the standard module's \s also takes the separators U+001C to U+001F, which here are part of
# a name. (The standard module is imported anyway; regex would cost start-up time.)
_SPACE = r"[^\S\x1c-\x1f]"
_NAME_CHARACTER = r"(?:[^\[\](),\s]|[\x1c-\x1f])"
_TOKEN = re.compile(rf"{_SPACE}*(?:([\[\](),])|({_NAME_CHARACTER}+))")
_NAME = re.compile(rf"{_NAME_CHARACTER}+")

MAX_LENGTH = 10_000
"""The longest part signature the parser reads, in characters."""
MAX_DEPTH = 20
"""The deepest nesting of brackets and parentheses the parser reads."""


class Part:
    """Mixin for bleuprint's own parts: a registered name and a signature from the fields.

    ``class Clipped(Part, family="match", name="clipped")`` registers the class, and its
    ``signature`` is the name followed by the values of its attrs fields in order; parsing a
    signature passes them back by field name. Users' own parts need not use this: any object
    with a ``signature`` and the family's method (see :mod:`bleuprint.typing`) plugs in.

    A name is registered once per family: another class asking for it is refused, unless it
    says ``replace=True``. A subclass given no name inherits its parent's name for its
    signature but is not registered, so it never replaces the parent when a signature is
    parsed; ``class Mine(tokenizers.Whitespace, family="tok", name="mine")`` registers it.
    """

    __slots__ = ()
    family: ClassVar[str]
    name: ClassVar[str]

    def __init_subclass__(
        cls,
        *,
        family: str | None = None,
        name: str | None = None,
        replace: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init_subclass__(**kwargs)
        if family is None and name is None:
            # attrs rebuilds a slotted class, without the keywords, from the first class's
            # namespace: the rebuilt class, the one users get, takes the first one's place.
            if _rebuilds_registered(cls):
                _REGISTRY[cls.family][cls.name] = cls
            return
        if (
            family is None
            or name is None
            or not _NAME.fullmatch(family)
            or not _NAME.fullmatch(name)
        ):
            raise ConfigurationError(
                f"{cls.__qualname__} must give both a family and a name, each a word without "
                f"spaces, brackets, parentheses or commas, got family={family!r}, name={name!r}"
            )
        if not cls.__module__.startswith("bleuprint."):
            _load_deferred()  # a name of a definition not imported yet is taken too
        existing = _REGISTRY.get(family, {}).get(name)
        if existing is not None and not replace and not _same_definition(existing, cls):
            raise ConfigurationError(
                f"{cls.__module__}.{cls.__qualname__} asks for the {family} part name {name!r}, "
                f"which {existing.__module__}.{existing.__qualname__} already has: choose "
                "another name, or give replace=True to take it over"
            )
        cls.family, cls.name = family, name
        _REGISTRY.setdefault(family, {})[name] = cls

    @property
    def signature(self) -> str:
        values = [getattr(self, field.name) for field in attrs.fields(type(self))]  # type: ignore[arg-type]
        return format_part(self.name, values)


def defer(load: Callable[[], object]) -> None:
    """Have ``load`` import modules that register parts before the registry is read for a
    name it lacks (the engine imports each definition module only when it is used, so these
    parts are registered later). ``load`` runs again at each such read: imports are cheap
    once done, and running every time needs no lock between threads."""
    _DEFERRED.append(load)


def _load_deferred() -> None:
    for load in _DEFERRED:
        load()


def _parts(family: str, name: str) -> dict[str, type[Part]]:
    """The registered parts of ``family``, with the deferred modules' if ``name`` is not one."""
    if name not in _REGISTRY.get(family, {}):
        _load_deferred()
    return _REGISTRY.get(family, {})


def _same_definition(first: type, second: type) -> bool:
    """The same class statement: attrs's rebuild of a class, or a module run again."""
    return (first.__module__, first.__qualname__) == (second.__module__, second.__qualname__)


def _rebuilds_registered(cls: type[Part]) -> bool:
    """Whether ``cls`` rebuilds the class registered under the family and name that ``cls``
    itself holds (a plain subclass only inherits them)."""
    family, name = cls.__dict__.get("family"), cls.__dict__.get("name")
    registered = _REGISTRY.get(family, {}).get(name) if family and name else None
    return registered is not None and _same_definition(registered, cls)


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
    if not isinstance(text, str):
        raise ConfigurationError(f"a {family} signature must be a string, got {text!r}")
    if len(text) > MAX_LENGTH:
        raise ConfigurationError(
            f"{family} signature of {len(text)} characters: at most {MAX_LENGTH} are read"
        )
    reader = _Reader(text)
    part = reader.call(family, reader.take(), bare=True)
    if not reader.at_end():
        raise ConfigurationError(f"{family} signature {text!r}: unexpected text after the part")
    return part


def _family_of(name: str, preferred: str) -> str | None:
    """The family with a part called ``name``: ``preferred`` (the enclosing part's) first, as
    one name may be in several families (``exp`` smooths and penalises)."""
    if name in _parts(preferred, name):
        return preferred
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
        tokens, position, stripped, depth = [], 0, text.strip(), 0
        while position < len(stripped):
            match = _TOKEN.match(stripped, position)
            if match is None:
                raise ConfigurationError(f"cannot read signature {text!r} at {position}")
            token = match.group(1) or match.group(2)
            depth += (token in "[(") - (token in "])")
            if depth > MAX_DEPTH:
                raise ConfigurationError(
                    f"signature {_shortened(text)} nests deeper than {MAX_DEPTH} levels"
                )
            tokens.append(token)
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
        known = _parts(family, name)
        if name not in known:
            choices = ", ".join(sorted(known))
            raise ConfigurationError(
                f"unknown {family} part {name!r} in signature; known: {choices}"
            )
        params: list[Any] = []
        if self.peek() == "[":
            self.take()
            params = self.values(family, closing="]")
        elif not bare:
            raise ConfigurationError(f"{family} part {name!r}: expected '[' after the name")
        part = known[name]
        fields = [field for field in attrs.fields(part) if field.init]  # type: ignore[arg-type]
        names = [field.alias for field in fields]
        required = sum(field.default is attrs.NOTHING for field in fields)
        if not required <= len(params) <= len(names):
            raise ConfigurationError(
                f"{family} part {name!r} takes {_count(required, names)}, "
                f"got {len(params)}: {params!r}"
            )
        try:
            return part(**dict(zip(names, params)))
        except ConfigurationError:
            raise  # the part's own check names its class, field and value
        except (TypeError, ValueError) as error:
            raise ConfigurationError(
                f"{family} part {name!r} cannot take {params!r}: {error}"
            ) from None

    def values(self, family: str, *, closing: str) -> list[Any]:
        values: list[Any] = []
        while (token := self.take()) != closing:
            if token != ",":
                values.append(self.value(family, token))
        return values

    def value(self, family: str, token: str) -> Any:
        if token == "(":
            return tuple(self.values(family, closing=")"))
        inner = _family_of(token, family) if self.peek() == "[" else None
        if inner is not None:
            return self.call(inner, token, bare=False)
        return _scalar(token)


def _count(required: int, names: list[str]) -> str:
    """``no parameters``, ``1 parameter (inner)``, ``0 to 1 parameters (max_n)``, ..."""
    if not names:
        return "no parameters"
    number = f"{required} to {len(names)}" if required < len(names) else str(required)
    return f"{number} parameter{'s' * (number != '1')} ({', '.join(names)})"


def _shortened(text: str) -> str:
    return repr(text) if len(text) <= 60 else repr(text[:60]) + "..."
