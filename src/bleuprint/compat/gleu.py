"""Google BLEU (GLEU): NLTK 3.10.4's ``sentence_gleu`` and ``corpus_gleu``, and Hugging Face
evaluate's ``google_bleu``.

GLEU (Wu et al., 2016) counts the n-grams of orders ``min_len`` to ``max_len`` together: the
matches over the larger of the hypothesis's and the reference's n-gram counts, so the smaller
of precision and recall, with no brevity penalty
(:class:`~bleuprint.aggregation.MinPrecisionRecall`). A corpus sums each segment's matches and
larger count before dividing (``corpus_gleu``), so a segment's score is its ``sentence_gleu``
and a corpus score is ``corpus_gleu``. Quirk (:class:`NLTKBestReference`): with several
references NLTK counts each segment against one of them, the one with the best GLEU.
``google_bleu`` is the same on sacreBLEU's ``13a`` tokens (its preset is
:mod:`bleuprint.compat.google_bleu`'s).

>>> from bleuprint import BLEUScore
>>> gleu = BLEUScore.gleu()
>>> round(gleu.compute("the the the the the the the", ["the cat is on the mat"]), 4)
0.0909
>>> hypotheses = ["the cat sat on the mat", "a dog"]
>>> result = gleu.corpus_score(hypotheses, [["the cat sat on a mat"], ["a dog barks"]])
>>> round(result.score, 4)  # (11 + 3) / (18 + 6)
0.5833
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from bleuprint import brevity, matching, ngrams, tokenizers
from bleuprint._signature import Part
from bleuprint._validators import positive_whole
from bleuprint.aggregation import MinPrecisionRecall
from bleuprint.presets import Preset
from bleuprint.typing import NgramCounts

__all__ = ["PRESET", "PRESETS", "NLTKBestReference", "google_bleu", "parts"]


def parts(min_len: int = 1, max_len: int = 4) -> dict[str, Any]:
    """The parts that compute ``sentence_gleu`` and ``corpus_gleu`` with these arguments
    (NLTK's names and defaults), on whitespace tokens."""
    return {
        "ngrams": ngrams.Contiguous(max_len),
        "matching": NLTKBestReference(min_len),
        "brevity_penalty": brevity.NoPenalty(),
        "smoothing": MinPrecisionRecall(min_len),
    }


def google_bleu(min_len: int = 1, max_len: int = 4) -> dict[str, Any]:
    """The parts that compute evaluate's ``google_bleu`` (``corpus_gleu`` on ``13a`` tokens)."""
    return {**parts(min_len, max_len), "tokenizer": tokenizers.Mteval13a()}


@attrs.frozen
class NLTKBestReference(Part, family="match", name="nltk-best-reference"):
    """Quirk (NLTK's GLEU): each segment counts against one reference only, the one whose GLEU
    (matches of orders ``min_len`` up over the larger n-gram count) is highest, the first
    among equals; a reference that has no such n-gram where the hypothesis has none either is
    passed over. Its matches are clipped as usual.

    >>> from collections import Counter
    >>> hypothesis = Counter({("a",): 2, ("b",): 1})
    >>> NLTKBestReference().choose(hypothesis, [Counter({("b",): 1}), Counter({("a",): 2})])
    1
    """

    min_len: int = attrs.field(default=1, validator=positive_whole)

    def __call__(
        self, hypothesis: NgramCounts, references: Sequence[NgramCounts], max_n: int
    ) -> list[int]:
        return matching.Clipped()(hypothesis, references, max_n)

    def choose(self, hypothesis: NgramCounts, references: Sequence[NgramCounts]) -> int:
        """The index of the reference that counts (the first if none has n-grams)."""
        hypothesis_total = self._count(hypothesis)
        best, best_index = -1.0, 0
        for index, reference in enumerate(references):
            denominator = max(hypothesis_total, self._count(reference))
            if not denominator:
                continue
            matched = sum(
                min(count, reference.get(ngram, 0))
                for ngram, count in hypothesis.items()
                if len(ngram) >= self.min_len
            )
            if matched / denominator > best:
                best, best_index = matched / denominator, index
        return best_index

    def _count(self, counts: NgramCounts) -> int:
        return sum(count for ngram, count in counts.items() if len(ngram) >= self.min_len)


PRESET = Preset("gleu", "NLTK 3.10.4 sentence_gleu / corpus_gleu", parts)
PRESETS = (PRESET,)
"""The presets this module adds to :data:`bleuprint.presets.PRESETS`."""
