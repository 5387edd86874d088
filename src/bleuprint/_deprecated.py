"""Deprecated names a module still serves, each with a :class:`DeprecationWarning` that says
what to use instead.

A module lists them and hands its ``__getattr__`` (PEP 562) to :meth:`DeprecatedNames.get`,
so a name is found, and warns, only where nothing else has it:

>>> import warnings
>>> names = DeprecatedNames("bleuprint.example", {"old": ("bleuprint.example.new", lambda: 1)})
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     names.get("old"), str(caught[0].message)
(1, 'bleuprint.example.old is deprecated: use bleuprint.example.new')
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping
from typing import Any


class DeprecatedNames:
    """The deprecated names of module ``module``: each maps to what to use instead (as users
    write it) and a function giving the object (imported on use, as where it lives now may
    sit above ``module`` in the layers)."""

    def __init__(self, module: str, names: Mapping[str, tuple[str, Callable[[], Any]]]) -> None:
        self.module = module
        self.names = dict(names)

    def get(self, name: str) -> Any:
        """The object the deprecated ``name`` stands for, with its warning; an
        :class:`AttributeError` for any other name, as a module lacking it raises."""
        if name not in self.names:
            raise AttributeError(f"module {self.module!r} has no attribute {name!r}")
        instead, load = self.names[name]
        # stacklevel 3: the warning names the line that read the name, past the module's
        # __getattr__.
        warnings.warn(
            f"{self.module}.{name} is deprecated: use {instead}", DeprecationWarning, stacklevel=3
        )
        return load()
