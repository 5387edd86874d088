"""Other implementations' definitions of BLEU, quirks included: one module per peer.

Each module holds its recipe (``parts``: the engine's parts that reproduce the peer, taking the
peer's own option names), its quirks as named parts, any name mapping, and its presets
(``PRESETS``, each named after the module), which :mod:`bleuprint.presets` finds: a new module
here is a new preset, with nothing else to edit. ``bleuprint presets`` lists them with the
module of each; ``docs/definitions/compared.md`` sets them side by side. A module whose name
begins with ``_`` holds what several peers share and declares no preset. A quirk never reaches
the general part modules or the canonical definitions.
"""
