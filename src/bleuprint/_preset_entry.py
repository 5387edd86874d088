"""How a definition module lists its presets for the presets table (:mod:`bleuprint.presets`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

import attrs

__all__ = ["PresetEntry"]


@attrs.frozen
class PresetEntry:
    """One preset a definition module provides.

    ``name`` is the presets-table and command-line name; the named constructor is
    ``BLEUScore.<name with underscores>``. ``recipe`` gives the engine's parts for the
    definition's own options. ``decimals`` is the number of decimals the definition's own
    statement prints (``None``: full precision). ``takes`` is what its parts read: ``"text"``, or
    ``"token ids"`` (a preset that refuses words, such as fairseq's).
    """

    name: str
    summary: str
    recipe: Callable[..., dict[str, Any]] = attrs.field(repr=False)
    decimals: int | None = None
    takes: Literal["text", "token ids"] = "text"

    @property
    def constructor(self) -> str:
        """The name of the :class:`~bleuprint.BLEUScore` class method that builds it."""
        return self.name.replace("-", "_")
