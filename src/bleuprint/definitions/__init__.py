"""The definitions of BLEU that bleuprint states in its own right, one module each.

- :mod:`bleuprint.definitions.canonical`: Papineni et al. (2002), BLEU-N;
- :mod:`bleuprint.definitions.unigram`: the "BLEU Score (Unigram)" exercise;
- :mod:`bleuprint.definitions.russian`: the Russian programming-contest BLEU.

Each module holds its recipe (``parts``: the engine's parts for it), the entries it adds to the
presets table (``PRESETS``) and the statement of the definition. Other implementations'
definitions, quirks included, are in :mod:`bleuprint.compat`.
"""
