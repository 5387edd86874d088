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
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, Literal

import attrs

from bleuprint._engine import BLEUScore
from bleuprint.compat import (
    bleuscore,
    coco,
    distancia,
    fairseq,
    fast_bleu,
    gleu,
    hf_evaluate,
    ignite,
    moses,
    mteval,
    nltk,
    sacrebleu,
    tensor2tensor,
    torcheval,
    torchmetrics,
)
from bleuprint.definitions import canonical, russian, unigram
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


# Definitions first, then other implementations' (docs/definitions/compared.md).
_MODULES = (
    canonical,
    unigram,
    russian,
    sacrebleu,
    nltk,
    torchmetrics,
    hf_evaluate,
    bleuscore,
    fast_bleu,
    distancia,
    moses,
    mteval,
    coco,
    torcheval,
    tensor2tensor,
    ignite,
    gleu,
    fairseq,
)

PRESETS: Mapping[str, Preset] = MappingProxyType(
    {
        entry.name: Preset(
            entry.name,
            getattr(BLEUScore, entry.constructor),
            entry.summary,
            entry.decimals,
            tuple(inspect.signature(entry.recipe).parameters),
            entry.takes,
        )
        for module in _MODULES
        for entry in module.PRESETS
    }
)
"""Every preset by name, built from the ``PRESETS`` entries of the definition modules."""


def get(name: str) -> Preset:
    """The preset called ``name``; an unknown name is a :class:`~bleuprint.ConfigurationError`."""
    try:
        return PRESETS[name]
    except KeyError:
        known = ", ".join(sorted(PRESETS))
        raise ConfigurationError(f"unknown preset {name!r}; known presets: {known}") from None
