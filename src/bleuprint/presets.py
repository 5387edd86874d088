"""The named configurations, as a read-only table for the command line and config files.

>>> from bleuprint import presets
>>> sorted(presets.PRESETS)
['bleuscore', 'canonical', 'coco', 'distancia', 'fairseq', 'fast-bleu', 'gleu', 'google-bleu',
 'hf-evaluate',
 'ignite', 'moses-multi-bleu', 'moses-multi-bleu-detok', 'mteval-v13a', 'mteval-v14', 'nltk',
 'russian', 'sacrebleu', 'sacrebleu-sentence', 'tensor2tensor', 'torcheval', 'torchmetrics',
 'unigram']
>>> presets.get("unigram").build().max_n
1
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Literal

import attrs

from bleuprint._engine import PRESET_MODULES, BLEUScore, preset_entry
from bleuprint.exceptions import ConfigurationError

__all__ = ["PRESETS", "Preset", "get"]


@attrs.frozen
class Preset:
    """A named way to build a :class:`~bleuprint.BLEUScore`, and how its scores are printed.

    ``decimals`` is the number of decimals the definition's own statement prints (``None``:
    full precision); ``options`` are the keywords of the definition's own (besides the
    engine's parts, which every preset takes); ``takes`` is what its parts read: ``"text"``,
    or ``"token ids"`` (it refuses words).
    """

    name: str
    factory: Callable[..., BLEUScore]
    summary: str
    decimals: int | None = None
    options: tuple[str, ...] = ()
    takes: Literal["text", "token ids"] = "text"

    def build(self, **overrides: Any) -> BLEUScore:
        """The configuration, with any keyword overrides the preset's constructor accepts."""
        return self.factory(**overrides)

    def format_score(self, score: float) -> str:
        """The score as the definition's statement prints it."""
        return repr(score) if self.decimals is None else f"{score:.{self.decimals}f}"


class _Table(Mapping[str, Preset]):
    """The presets by name, each built when first looked up: only the definition modules of
    the presets looked up are imported (listing the names imports none)."""

    def __init__(self) -> None:
        # A preset's name is its constructor's with dashes (a test checks the entries).
        self._names = {constructor.replace("_", "-"): constructor for constructor in PRESET_MODULES}
        self._built: dict[str, Preset] = {}

    def __getitem__(self, name: str) -> Preset:
        preset = self._built.get(name)
        if preset is None:
            entry = preset_entry(self._names[name])
            preset = self._built[name] = Preset(
                entry.name,
                getattr(BLEUScore, entry.constructor),
                entry.summary,
                entry.decimals,
                tuple(inspect.signature(entry.recipe).parameters),
                entry.takes,
            )
        return preset

    def __contains__(self, name: object) -> bool:
        return name in self._names

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)


PRESETS: Mapping[str, Preset] = _Table()
"""Every preset by name, from the ``PRESETS`` entries of the definition modules: the
definitions first, then other implementations' (docs/definitions/compared.md)."""


def get(name: str) -> Preset:
    """The preset called ``name``; an unknown name is a :class:`~bleuprint.ConfigurationError`."""
    try:
        return PRESETS[name]
    except KeyError:
        known = ", ".join(sorted(PRESETS))
        raise ConfigurationError(f"unknown preset {name!r}; known presets: {known}") from None
