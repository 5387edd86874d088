"""The presets: every named configuration of the engine, by name.

The registry finds them: bleuprint's definition modules (each public module of
:mod:`bleuprint.definitions` and :mod:`bleuprint.compat`), then the modules that installed
distributions name in the entry-point group ``bleuprint.presets``
(docs/howto/register-preset.md). A definition module lists its presets in a module-level
``PRESETS`` tuple of :class:`Preset`, each named after the module. Each preset is also the named
constructor ``BLEUScore.<name with underscores>``, and ``BLEUScore.preset(name)`` builds it by
name.

>>> from bleuprint import presets
>>> presets.get("unigram").build().max_n
1
>>> presets.origin("moses-multi-bleu-detok")
'bleuprint.compat.moses'
>>> [name for name in presets.PRESETS if presets.origin(name).startswith("bleuprint.definitions")]
['canonical', 'russian', 'unigram']
"""

from __future__ import annotations

from collections.abc import Mapping

from bleuprint import _engine
from bleuprint._engine import Preset
from bleuprint._engine import get_preset as get
from bleuprint._engine import preset_origin as origin

__all__ = ["PRESETS", "Preset", "get", "origin"]

PRESETS: Mapping[str, Preset] = _engine.PRESETS
"""Every preset by name, bleuprint's definitions first, then other implementations', then
installed distributions'. Looking a name up imports the one module that defines it; listing
the names imports them all."""
