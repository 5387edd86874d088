"""Writes :mod:`bleuprint._constructors`, bleuprint's named constructors as a type checker sees
them, from the presets registry: run ``python -m bleuprint._make_constructors`` after adding or
changing a definition module of bleuprint's (``tests/test_constructors.py`` says when).

Each constructor takes its recipe's options, with their annotations, then any of the engine's
parts by keyword (the recipe's option wins where a name is both, as NLTK's ``weights``). Only
bleuprint's own presets are written: an installed distribution's are built by name,
``BLEUScore.preset(name, ...)``.
"""

from __future__ import annotations

import importlib
import inspect
import sys
import types
import typing
from pathlib import Path

import attrs

from bleuprint import _constructors, _engine

_HEAD = '''\
"""bleuprint's named constructors as a type checker sees them: one method of the engine's class
per preset, ``BLEUScore.<name with underscores>(...)``, with its recipe's options and the
engine's parts, so that a misspelled constructor or option is a type error.

Generated from the presets registry by ``python -m bleuprint._make_constructors``: do not edit.
At run time the engine's class makes each constructor when first looked up (see
``bleuprint._engine``); these declarations exist for type checkers only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
{imports}

    _Engine = TypeVar("_Engine")


class TypedConstructors(type):
    """The engine's class as a type checker sees it: a method per preset of bleuprint's."""

    if TYPE_CHECKING:

'''


# Where a definition's own classes live, which the engine's layer cannot import.
_DEFINITION_MODULES = ("bleuprint.compat.", "bleuprint.definitions.")
_LINE_LENGTH = 100  # the formatter's


class _Written:
    """An annotation or default already written as source, shown as such by ``inspect``."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text


def source() -> str:
    """The text of ``bleuprint/_constructors.py`` for the presets registered now."""
    imports: set[tuple[str, str]] = {("typing", "TypeVar")}
    kinds = typing.get_type_hints(_engine.BLEUScore)
    fields = [
        (field.name, _annotation(kinds[field.name], imports))
        for field in attrs.fields(_engine.BLEUScore)
    ]
    methods = [_method(preset, fields, imports) for preset in _own_presets()]
    return _HEAD.format(imports=_imports(imports)) + "\n".join(methods)


def _own_presets() -> list[_engine.Preset]:
    """bleuprint's own presets, in the registry's order."""
    modules = _engine._builtin_modules().values()
    return [_engine.get_preset(name) for module in modules for name in _preset_names(module.module)]


def _preset_names(module: str) -> list[str]:
    presets: tuple[_engine.Preset, ...] = importlib.import_module(module).PRESETS
    return [preset.name for preset in presets]


def _method(
    preset: _engine.Preset, fields: list[tuple[str, str]], imports: set[tuple[str, str]]
) -> str:
    """One constructor's declaration, laid out as the formatter lays it out."""
    recipe = inspect.signature(preset.recipe, eval_str=True).parameters.values()
    unset = _Written("...")
    own = [
        parameter.replace(
            annotation=_Written(_annotation(parameter.annotation, imports)),
            default=parameter.default if parameter.default is parameter.empty else unset,
        )
        for parameter in recipe
    ]
    keyword = inspect.Parameter.KEYWORD_ONLY
    taken = {parameter.name for parameter in own}
    parts = [
        inspect.Parameter(name, keyword, annotation=_Written(kind), default=unset)
        for name, kind in fields
        if name not in taken
    ]
    # The engine's parts come after the recipe's options, before a ``**options`` it may take.
    tail = [parameter for parameter in own if parameter.kind is parameter.VAR_KEYWORD]
    listed = [*own[: len(own) - len(tail)], *parts, *tail]
    arguments = "".join(f"            {argument},\n" for argument in _written(listed))
    summary = preset.summary.replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
    return (
        f"        def {preset.constructor}(\n{arguments}        ) -> _Engine:\n"
        f'            """{summary}."""\n'
    )


def _written(parameters: list[inspect.Parameter]) -> list[str]:
    """The parameters after ``cls``, with ``/`` and ``*`` where their kinds change."""
    written = ["cls: type[_Engine]"]
    for before, parameter in zip([None, *parameters], parameters):
        kind = before.kind if before else inspect.Parameter.POSITIONAL_OR_KEYWORD
        if kind is parameter.POSITIONAL_ONLY and parameter.kind is not kind:
            written.append("/")
        if parameter.kind is parameter.KEYWORD_ONLY and kind < parameter.VAR_POSITIONAL:
            written.append("*")
        written.append(str(parameter))
    if parameters and parameters[-1].kind is parameters[-1].POSITIONAL_ONLY:
        written.append("/")
    return written


def _annotation(kind: object, imports: set[tuple[str, str]]) -> str:
    """``kind`` written as source, the names it needs added to ``imports``."""
    origin, arguments = typing.get_origin(kind), typing.get_args(kind)
    if origin in (typing.Union, types.UnionType):
        return " | ".join(_annotation(argument, imports) for argument in arguments)
    if origin is typing.Literal:
        imports.add(("typing", "Literal"))
        return f"Literal[{', '.join(map(repr, arguments))}]"
    if origin is not None:
        written = ", ".join(_annotation(argument, imports) for argument in arguments)
        return f"{_name(origin, imports)}[{written}]"
    return _name(kind, imports)


def _name(kind: object, imports: set[tuple[str, str]]) -> str:
    """A class written by its name. One the engine's layer cannot import (a definition module's
    own), or what is not a class, is written ``Any``."""
    if kind is None or kind is type(None):
        return "None"
    module, name = getattr(kind, "__module__", ""), getattr(kind, "__qualname__", "")
    if not isinstance(kind, type) or module.startswith(_DEFINITION_MODULES):
        module, name = "typing", "Any"
    if module != "builtins":
        imports.add((module, name))
    return name


def _imports(names: set[tuple[str, str]]) -> str:
    """``from module import name`` lines as the linter sorts them: the standard library's,
    other distributions', then bleuprint's, each a group in order of module."""

    def group(module: str) -> int:
        root = module.partition(".")[0]
        return 0 if root in sys.stdlib_module_names else 2 if root == "bleuprint" else 1

    modules = sorted({module for module, _ in names}, key=lambda module: (group(module), module))
    lines: list[str] = []
    last = 0
    for module in modules:
        if lines and group(module) != last:
            lines.append("")
        last = group(module)
        imported = sorted(name for owner, name in names if owner == module)
        line = f"    from {module} import {', '.join(imported)}"
        if len(line) > _LINE_LENGTH:
            listed = "".join(f"        {name},\n" for name in imported)
            line = f"    from {module} import (\n{listed}    )"
        lines.append(line)
    return "\n".join(lines)


def main() -> None:
    """Write the module and say where."""
    path = Path(_constructors.__file__)
    path.write_text(source(), encoding="utf-8")
    sys.stdout.write(f"wrote {path}\n")


if __name__ == "__main__":
    main()
