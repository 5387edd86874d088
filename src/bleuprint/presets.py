"""The named configurations, as a read-only table for the command line and config files.

>>> from bleuprint import presets
>>> sorted(presets.PRESETS)
['bleuscore', 'canonical', 'distancia', 'fast-bleu', 'hf-evaluate', 'nltk', 'russian',
 'sacrebleu', 'sacrebleu-sentence', 'torchmetrics', 'unigram']
>>> presets.get("unigram").build().max_n
1
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

import attrs

from bleuprint._engine import BLEUScore
from bleuprint.exceptions import ConfigurationError

__all__ = ["PRESETS", "Preset", "get"]


@attrs.frozen
class Preset:
    """A named way to build a :class:`BLEUScore`, and how its scores are printed.

    ``decimals`` is the number of decimals the definition's own statement prints (``None``:
    full precision).
    """

    name: str
    factory: Callable[..., BLEUScore]
    summary: str
    decimals: int | None = None

    def build(self, **overrides: Any) -> BLEUScore:
        """The configuration, with any keyword overrides the preset's constructor accepts."""
        return self.factory(**overrides)

    def format_score(self, score: float) -> str:
        """The score as the definition's statement prints it."""
        return repr(score) if self.decimals is None else f"{score:.{self.decimals}f}"


# Other implementations' definitions, quirks included (docs/definitions/compared.md).
_PEER_PRESETS = (
    Preset("nltk", BLEUScore.nltk, "NLTK 3.10.4 sentence_bleu / corpus_bleu"),
    Preset("torchmetrics", BLEUScore.torchmetrics, "torchmetrics 1.9.0 BLEUScore"),
    Preset("hf-evaluate", BLEUScore.hf_evaluate, "Hugging Face evaluate 0.4.6 bleu (TF NMT)"),
    Preset("bleuscore", BLEUScore.bleuscore, "bleuscore 0.2.0 compute (TF NMT, 13a)"),
    Preset("fast-bleu", BLEUScore.fast_bleu, "fast-bleu 0.0.90 BLEU (sentence level)"),
    Preset("distancia", BLEUScore.distancia, "distancia 0.0.85 BLEUScore (sentence level)"),
)

PRESETS: Mapping[str, Preset] = MappingProxyType(
    {
        preset.name: preset
        for preset in (
            Preset("canonical", BLEUScore.canonical, "Papineni et al. (2002), BLEU-4"),
            Preset("unigram", BLEUScore.unigram, "BP x clipped unigram precision", 4),
            Preset("russian", BLEUScore.russian, "Russian contest: letter words, set overlap", 6),
            Preset("sacrebleu", BLEUScore.sacrebleu, "sacreBLEU 2.6.0 corpus BLEU (13a, exp)"),
            Preset(
                "sacrebleu-sentence",
                BLEUScore.sacrebleu_sentence,
                "sacreBLEU 2.6.0 sentence BLEU (effective order)",
            ),
            *_PEER_PRESETS,
        )
    }
)


def get(name: str) -> Preset:
    """The preset called ``name``; an unknown name is a :class:`ConfigurationError`."""
    try:
        return PRESETS[name]
    except KeyError:
        known = ", ".join(sorted(PRESETS))
        raise ConfigurationError(f"unknown preset {name!r}; known presets: {known}") from None
