"""Other implementations' definitions of BLEU, quirks included: one module per peer.

- :mod:`bleuprint.compat.sacrebleu`: sacreBLEU 2.6.0 (corpus and sentence BLEU);
- :mod:`bleuprint.compat.nltk`: NLTK 3.10.4 ``sentence_bleu`` / ``corpus_bleu``;
- :mod:`bleuprint.compat.torchmetrics`: torchmetrics 1.9.0 ``BLEUScore`` / ``SacreBLEUScore``;
- :mod:`bleuprint.compat.hf_evaluate`: Hugging Face evaluate 0.4.6 ``bleu``;
- :mod:`bleuprint.compat.bleuscore`: bleuscore 0.2.0;
- :mod:`bleuprint.compat.fast_bleu`: fast-bleu 0.0.90;
- :mod:`bleuprint.compat.distancia`: distancia 0.0.85;
- :mod:`bleuprint.compat.moses`: Moses ``multi-bleu.perl`` and ``multi-bleu-detok.perl``;
- :mod:`bleuprint.compat.mteval`: NIST ``mteval-v13a.pl`` and ``mteval-v14.pl``;
- :mod:`bleuprint.compat.coco`: coco-caption (pycocoevalcap 1.2) ``Bleu``;
- :mod:`bleuprint.compat.torcheval`: torcheval 0.0.7 ``BLEUScore``;
- :mod:`bleuprint.compat.tensor2tensor`: tensor2tensor ``bleu_hook``;
- :mod:`bleuprint.compat.ignite`: pytorch-ignite 0.5.5 ``Bleu``;
- :mod:`bleuprint.compat.gleu`: GLEU, NLTK 3.10.4 ``gleu_score`` and Hugging Face ``google_bleu``;
- :mod:`bleuprint.compat.fairseq`: fairseq's ``bleu`` scorer (``libbleu``) on token ids.

Each module holds its recipe (``parts``: the engine's parts that reproduce the peer, taking the
peer's own option names), its quirks as named parts, any name mapping, and the entries it adds
to the presets table (``PRESETS``). A quirk never reaches the general part modules or the
canonical definitions. ``docs/definitions/compared.md`` sets them side by side.
"""
