"""bleuprint's named constructors as a type checker sees them: one method of the engine's class
per preset, ``BLEUScore.<name with underscores>(...)``, with its recipe's options and the
engine's parts, so that a misspelled constructor or option is a type error.

Generated from the presets registry by ``python -m bleuprint._make_constructors``: do not edit.
At run time the engine's class makes each constructor when first looked up (see
``bleuprint._engine``); these declarations exist for type checkers only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import TypeVar

    from bleuprint.typing import (
        BrevityPenalty,
        LengthMeasure,
        Matcher,
        NgramExtractor,
        ReferenceLength,
        Smoother,
        Tokenizer,
        Weights,
    )

    _Engine = TypeVar("_Engine")


class TypedConstructors(type):
    """The engine's class as a type checker sees it: a method per preset of bleuprint's."""

    if TYPE_CHECKING:

        def canonical(
            cls: type[_Engine],
            max_n: int = ...,
            *,
            tokenizer: Tokenizer = ...,
            ngrams: NgramExtractor = ...,
            matching: Matcher = ...,
            length: LengthMeasure = ...,
            reference_length: ReferenceLength = ...,
            brevity_penalty: BrevityPenalty = ...,
            smoothing: Smoother = ...,
            weights: Weights = ...,
        ) -> _Engine:
            """Papineni et al. (2002), BLEU-4."""

        def russian(
            cls: type[_Engine],
            *,
            length: str = ...,
            capped: bool = ...,
            tokenizer: Tokenizer = ...,
            ngrams: NgramExtractor = ...,
            matching: Matcher = ...,
            reference_length: ReferenceLength = ...,
            brevity_penalty: BrevityPenalty = ...,
            smoothing: Smoother = ...,
            weights: Weights = ...,
        ) -> _Engine:
            """Russian contest: letter words, set overlap."""

        def unigram(
            cls: type[_Engine],
            *,
            tokenizer: Tokenizer = ...,
            ngrams: NgramExtractor = ...,
            matching: Matcher = ...,
            length: LengthMeasure = ...,
            reference_length: ReferenceLength = ...,
            brevity_penalty: BrevityPenalty = ...,
            smoothing: Smoother = ...,
            weights: Weights = ...,
        ) -> _Engine:
            """BP x clipped unigram precision."""

        def bleuscore(
            cls: type[_Engine],
            max_order: int = ...,
            smooth: bool = ...,
            ref_len_method: str = ...,
            *,
            tokenizer: Tokenizer = ...,
            ngrams: NgramExtractor = ...,
            matching: Matcher = ...,
            length: LengthMeasure = ...,
            reference_length: ReferenceLength = ...,
            brevity_penalty: BrevityPenalty = ...,
            smoothing: Smoother = ...,
            weights: Weights = ...,
        ) -> _Engine:
            """bleuscore 0.2.0 compute (TF NMT, 13a)."""

        def coco(
            cls: type[_Engine],
            n: int = ...,
            tokenizer: str | None = ...,
            *,
            ngrams: NgramExtractor = ...,
            matching: Matcher = ...,
            length: LengthMeasure = ...,
            reference_length: ReferenceLength = ...,
            brevity_penalty: BrevityPenalty = ...,
            smoothing: Smoother = ...,
            weights: Weights = ...,
        ) -> _Engine:
            """coco-caption (pycocoevalcap 1.2) Bleu."""

        def distancia(
            cls: type[_Engine],
            n_gram: int = ...,
            smoothing: bool = ...,
            *,
            tokenizer: Tokenizer = ...,
            ngrams: NgramExtractor = ...,
            matching: Matcher = ...,
            length: LengthMeasure = ...,
            reference_length: ReferenceLength = ...,
            brevity_penalty: BrevityPenalty = ...,
            weights: Weights = ...,
        ) -> _Engine:
            """distancia 0.0.85 BLEUScore (sentence level)."""

        def fairseq(
            cls: type[_Engine],
            pad: int = ...,
            eos: int = ...,
            unk: int = ...,
            one_init: bool = ...,
            *,
            tokenizer: Tokenizer = ...,
            ngrams: NgramExtractor = ...,
            matching: Matcher = ...,
            length: LengthMeasure = ...,
            reference_length: ReferenceLength = ...,
            brevity_penalty: BrevityPenalty = ...,
            smoothing: Smoother = ...,
            weights: Weights = ...,
        ) -> _Engine:
            """fairseq bleu scorer (libbleu)."""

        def fast_bleu(
            cls: type[_Engine],
            weights: Sequence[float] = ...,
            smoothing_func: int = ...,
            *,
            tokenizer: Tokenizer = ...,
            ngrams: NgramExtractor = ...,
            matching: Matcher = ...,
            length: LengthMeasure = ...,
            reference_length: ReferenceLength = ...,
            brevity_penalty: BrevityPenalty = ...,
            smoothing: Smoother = ...,
        ) -> _Engine:
            """fast-bleu 0.0.90 BLEU (sentence level)."""

        def gleu(
            cls: type[_Engine],
            min_len: int = ...,
            max_len: int = ...,
            *,
            tokenizer: Tokenizer = ...,
            ngrams: NgramExtractor = ...,
            matching: Matcher = ...,
            length: LengthMeasure = ...,
            reference_length: ReferenceLength = ...,
            brevity_penalty: BrevityPenalty = ...,
            smoothing: Smoother = ...,
            weights: Weights = ...,
        ) -> _Engine:
            """NLTK 3.10.4 sentence_gleu / corpus_gleu."""

        def google_bleu(
            cls: type[_Engine],
            min_len: int = ...,
            max_len: int = ...,
            *,
            tokenizer: Tokenizer = ...,
            ngrams: NgramExtractor = ...,
            matching: Matcher = ...,
            length: LengthMeasure = ...,
            reference_length: ReferenceLength = ...,
            brevity_penalty: BrevityPenalty = ...,
            smoothing: Smoother = ...,
            weights: Weights = ...,
        ) -> _Engine:
            """Hugging Face evaluate google_bleu."""

        def hf_evaluate(
            cls: type[_Engine],
            max_order: int = ...,
            smooth: bool = ...,
            *,
            tokenizer: Tokenizer = ...,
            ngrams: NgramExtractor = ...,
            matching: Matcher = ...,
            length: LengthMeasure = ...,
            reference_length: ReferenceLength = ...,
            brevity_penalty: BrevityPenalty = ...,
            smoothing: Smoother = ...,
            weights: Weights = ...,
        ) -> _Engine:
            """Hugging Face evaluate 0.4.6 bleu (TF NMT)."""

        def ignite(
            cls: type[_Engine],
            ngram: int = ...,
            smooth: str = ...,
            average: str = ...,
            *,
            tokenizer: Tokenizer = ...,
            ngrams: NgramExtractor = ...,
            matching: Matcher = ...,
            length: LengthMeasure = ...,
            reference_length: ReferenceLength = ...,
            brevity_penalty: BrevityPenalty = ...,
            smoothing: Smoother = ...,
            weights: Weights = ...,
        ) -> _Engine:
            """pytorch-ignite 0.5.5 Bleu."""

        def moses_multi_bleu(
            cls: type[_Engine],
            lc: bool = ...,
            *,
            tokenizer: Tokenizer = ...,
            ngrams: NgramExtractor = ...,
            matching: Matcher = ...,
            length: LengthMeasure = ...,
            reference_length: ReferenceLength = ...,
            brevity_penalty: BrevityPenalty = ...,
            smoothing: Smoother = ...,
            weights: Weights = ...,
        ) -> _Engine:
            """Moses multi-bleu.perl (ASCII whitespace)."""

        def moses_multi_bleu_detok(
            cls: type[_Engine],
            lc: bool = ...,
            *,
            tokenizer: Tokenizer = ...,
            ngrams: NgramExtractor = ...,
            matching: Matcher = ...,
            length: LengthMeasure = ...,
            reference_length: ReferenceLength = ...,
            brevity_penalty: BrevityPenalty = ...,
            smoothing: Smoother = ...,
            weights: Weights = ...,
        ) -> _Engine:
            """Moses multi-bleu-detok.perl (13a tokens)."""

        def mteval_v13a(
            cls: type[_Engine],
            c: bool = ...,
            *,
            tokenizer: Tokenizer = ...,
            ngrams: NgramExtractor = ...,
            matching: Matcher = ...,
            length: LengthMeasure = ...,
            reference_length: ReferenceLength = ...,
            brevity_penalty: BrevityPenalty = ...,
            smoothing: Smoother = ...,
            weights: Weights = ...,
        ) -> _Engine:
            """NIST mteval-v13a.pl -b."""

        def mteval_v14(
            cls: type[_Engine],
            c: bool = ...,
            international_tokenization: bool = ...,
            *,
            tokenizer: Tokenizer = ...,
            ngrams: NgramExtractor = ...,
            matching: Matcher = ...,
            length: LengthMeasure = ...,
            reference_length: ReferenceLength = ...,
            brevity_penalty: BrevityPenalty = ...,
            smoothing: Smoother = ...,
            weights: Weights = ...,
        ) -> _Engine:
            """NIST mteval-v14.pl -b."""

        def nltk(
            cls: type[_Engine],
            weights: Sequence[float] = ...,
            method: int | str = ...,
            *,
            auto_reweigh: bool = ...,
            epsilon: float = ...,
            alpha: float = ...,
            k: float = ...,
            tokenizer: Tokenizer = ...,
            ngrams: NgramExtractor = ...,
            matching: Matcher = ...,
            length: LengthMeasure = ...,
            reference_length: ReferenceLength = ...,
            brevity_penalty: BrevityPenalty = ...,
            smoothing: Smoother = ...,
        ) -> _Engine:
            """NLTK 3.10.4 sentence_bleu / corpus_bleu."""

        def sacrebleu(
            cls: type[_Engine],
            *,
            tokenize: str | None = ...,
            lowercase: bool = ...,
            smooth_method: str = ...,
            smooth_value: float | None = ...,
            max_ngram_order: int = ...,
            effective_order: bool = ...,
            trg_lang: str = ...,
            spm_model: str | None = ...,
            tokenizer: Tokenizer = ...,
            ngrams: NgramExtractor = ...,
            matching: Matcher = ...,
            length: LengthMeasure = ...,
            reference_length: ReferenceLength = ...,
            brevity_penalty: BrevityPenalty = ...,
            smoothing: Smoother = ...,
            weights: Weights = ...,
        ) -> _Engine:
            """sacreBLEU 2.6.0 corpus BLEU (13a, exp)."""

        def sacrebleu_sentence(
            cls: type[_Engine],
            *,
            tokenize: str | None = ...,
            lowercase: bool = ...,
            smooth_method: str = ...,
            smooth_value: float | None = ...,
            max_ngram_order: int = ...,
            effective_order: bool = ...,
            trg_lang: str = ...,
            spm_model: str | None = ...,
            tokenizer: Tokenizer = ...,
            ngrams: NgramExtractor = ...,
            matching: Matcher = ...,
            length: LengthMeasure = ...,
            reference_length: ReferenceLength = ...,
            brevity_penalty: BrevityPenalty = ...,
            smoothing: Smoother = ...,
            weights: Weights = ...,
        ) -> _Engine:
            """sacreBLEU 2.6.0 sentence BLEU (effective order)."""

        def tensor2tensor(
            cls: type[_Engine],
            function: str = ...,
            case_sensitive: bool = ...,
            max_order: int = ...,
            use_bp: bool = ...,
            *,
            tokenizer: Tokenizer = ...,
            ngrams: NgramExtractor = ...,
            matching: Matcher = ...,
            length: LengthMeasure = ...,
            reference_length: ReferenceLength = ...,
            brevity_penalty: BrevityPenalty = ...,
            smoothing: Smoother = ...,
            weights: Weights = ...,
        ) -> _Engine:
            """tensor2tensor bleu_hook (bleu_wrapper, compute_bleu)."""

        def torcheval(
            cls: type[_Engine],
            n_gram: int = ...,
            *,
            tokenizer: Tokenizer = ...,
            ngrams: NgramExtractor = ...,
            matching: Matcher = ...,
            length: LengthMeasure = ...,
            reference_length: ReferenceLength = ...,
            brevity_penalty: BrevityPenalty = ...,
            smoothing: Smoother = ...,
            weights: Weights = ...,
        ) -> _Engine:
            """torcheval 0.0.7 BLEUScore."""

        def torchmetrics(
            cls: type[_Engine],
            n_gram: int = ...,
            smooth: bool = ...,
            weights: Sequence[float] | None = ...,
            tokenize: str | None = ...,
            lowercase: bool = ...,
            *,
            spm_model: str | None = ...,
            tokenizer: Tokenizer = ...,
            ngrams: NgramExtractor = ...,
            matching: Matcher = ...,
            length: LengthMeasure = ...,
            reference_length: ReferenceLength = ...,
            brevity_penalty: BrevityPenalty = ...,
            smoothing: Smoother = ...,
        ) -> _Engine:
            """torchmetrics 1.9.0 BLEUScore."""
