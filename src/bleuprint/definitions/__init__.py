"""The definitions of BLEU that bleuprint states in its own right, one module each
(``bleuprint presets`` lists them first: canonical, russian, unigram).

Each module holds its recipe (``parts``: the engine's parts for it), its presets (``PRESETS``,
each named after the module, which :mod:`bleuprint.presets` finds) and the statement of the
definition. Other implementations' definitions, quirks included, are in :mod:`bleuprint.compat`.
"""
