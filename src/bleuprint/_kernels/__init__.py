"""The kernel: tokens to ids, and the loops of the fast path.

``Vocabulary()`` numbers tokens: each distinct token gets the next id, in order of first
sight. ``vocabulary.intern_texts(texts, tokenizer, tokenize)`` gives the ids of the texts'
tokens, one text after the other, and the number of tokens of each; ``tokenize(texts)``
gives the tokens (a user's tokenizer), unless ``tokenizer`` names one of the built-in
tokenizers of ``TOKENIZERS`` (``"whitespace"``, sacreBLEU's ``"13a"`` and ``"char"``), which
the compiled kernel runs itself on the str objects, without the GIL, while the plain-Python
one calls ``tokenize`` (which must then be that tokenizer). ``vocabulary.intern_tokens(streams)``
does the same for token lists. ``len(vocabulary)`` is the number of ids given. A vocabulary is
used by one thread at a time. (sacreBLEU's ``intl`` stays in Python: its Unicode classes are
those of the ``regex`` module's tables, which are not the interpreter's ``unicodedata``.)

``shared_ngram_counts(token_ids, text_starts, hypothesis_texts, reference_texts,
reference_offsets, vocabulary_size, max_n)`` gives the n-grams of each segment's hypothesis
that occur in one of its references. Text ``t`` is ``token_ids[text_starts[t]:text_starts[t +
1]]``, with token ids in ``range(vocabulary_size)``; segment ``s`` is hypothesis
``hypothesis_texts[s]`` and references
``reference_texts[reference_offsets[s]:reference_offsets[s + 1]]``. It returns ``singles``,
where ``singles[s, n - 1]`` counts the shared n-grams found once in the hypothesis and at most
once in each reference (nearly all of them), and one row for every other shared n-gram, in
order of segment, order and first occurrence in the hypothesis: its segment and order as ``s *
max_n + n - 1``, its number of occurrences in the hypothesis, and its largest number in any
one reference. Inconsistent tables raise :class:`ValueError` naming the argument.

``flat_ids(sequences)`` reads token ids given as Python ints: sequences that are all lists or
tuples of ints (not bools) of 64 bits become one int64 array of every id, one sequence after
the other, and one of their lengths. For anything else it gives ``None``, and the caller
reads the sequences one by one (which names what is wrong). The compiled one reads the
objects in one pass, several times faster than numpy's conversion.

``count_texts(hypotheses, references, tokenizer, tokenize, lowercase, max_n)`` counts a chunk
whole, texts in, per-segment statistics out: ``hypotheses`` is a list or tuple of segments and
``references`` one list or tuple of segments per hypothesis, at least one each. With a built-in
tokenizer's name every segment is a str (lowercased first where ``lowercase`` is true), with
``None`` a list or tuple of str tokens: exactly these types. For anything else it gives
``None``, and the caller counts the segments one by one (which names what is wrong). The
tokens are interned into a vocabulary of the call's own (the compiled kernel keeps a few
between calls, emptied, for their memory) and counted as ``shared_ngram_counts`` counts them,
segment ``s`` being hypothesis ``s`` and its references. It returns the token count of each
text (the hypotheses', then every segment's references' in order), the number of references
of each segment, ``singles`` and the other shared n-grams, as ``shared_ngram_counts`` gives
them. The compiled one checks the types, tokenizes, interns and counts without the GIL once
it holds every str, so that chunks counted on threads run at once; ``tokenize`` (the
tokenizer in Python) is for the plain-Python one. ``plain_segments(hypotheses, references,
tokens)`` is its check of the segments, in Python.

``segment_counts(texts, tokenizer, tokenize, max_n)`` counts one segment whole, without
arrays around the call (a sentence's score): ``texts[0]`` is the hypothesis, the others its
references, interned by a new vocabulary as ``intern_texts(texts, tokenizer, tokenize)``
interns them (token lists as ``intern_tokens(texts)`` where ``tokenizer`` and ``tokenize`` are
both ``None``). It returns the token count of each text, ``singles`` (one count per order) and
the other shared n-grams as tuples ``(n - 1, count in the hypothesis, most in one
reference)``, as ``shared_ngram_counts`` gives them for a segment, as Python ints.

``ngram_labels(token_ids, lengths, max_n)`` labels the n-grams of many streams laid end to
end (stream ``s`` has ``lengths[s]`` tokens), for pairwise scores and MBR: for each order
``n``, every occurrence of an n-gram with no negative id (one that never matches), in order
of position, as two arrays: its stream, and its label. A unigram's label is the rank of its
id among all the ids given (negative ones too); a longer n-gram's is its rank among the
n-grams of its order present, in the lexicographic order of its tokens' unigram labels.

``weighted_geometric_means(precisions, defined, order_weights)`` gives, row by row,
``exp(fsum(w * log p))`` over the orders of nonzero weight, with the very operations of the
scalar code (the C library's ``log`` and ``exp``, as :mod:`math` calls them, and a correctly
rounded sum, as :func:`math.fsum` gives): 0 where an order of nonzero weight has precision 0
or none, or where no order has weight. NaN marks a row where that sum meets a non-finite
number or :mod:`math` raises; the caller asks ``geometric_mean`` (the plain-Python definition
of one row, which raises as :mod:`math` does) for those.

Two implementations share this interface and give the same numbers: ``_compiled``, a C
extension built with the package (``_compiled.c``; it releases the GIL while it tokenizes
built-in tokenizers' texts and while it loops), and ``_python``, its plain-Python twin. This
module imports the chosen one once and gives its functions.
bleuprint runs on the compiled one where it was built, on the plain one where it was not
(with a warning) or where the environment variable ``BLEUPRINT_PURE_PYTHON=1`` asks for it.
``tokenize_texts(texts, tokenizer)``, the compiled kernel's built-in tokenizers giving lists
of str, is ``None`` on the plain one.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import TYPE_CHECKING

from bleuprint._kernels import _python
from bleuprint._kernels._python import geometric_mean, plain_segments

PURE_PYTHON_VARIABLE = "BLEUPRINT_PURE_PYTHON"
THREADS_VARIABLE = "BLEUPRINT_THREADS"


def _pure_python() -> bool:
    setting = os.environ.get(PURE_PYTHON_VARIABLE, "")
    if setting not in {"", "0", "1"}:
        raise ValueError(f"{PURE_PYTHON_VARIABLE} must be 1 (or 0, or unset), got {setting!r}")
    return setting == "1"


def _threads() -> int:
    setting = os.environ.get(THREADS_VARIABLE, "")
    if not setting:
        if hasattr(os, "sched_getaffinity"):  # the CPUs this process may run on
            return len(os.sched_getaffinity(0))
        return os.cpu_count() or 1
    if not setting.isdigit() or int(setting) < 1:
        raise ValueError(f"{THREADS_VARIABLE} must be a positive whole number, got {setting!r}")
    return int(setting)


THREADS: int = _threads()
"""How many threads may count at once: the environment variable ``BLEUPRINT_THREADS``, by
default one per CPU this process may use."""

TOKENIZERS = _python.TOKENIZERS


def _chosen() -> tuple[ModuleType, str]:
    """The kernel to run on, and its name (see ``KERNEL``)."""
    if _pure_python():
        return _python, "python"
    try:
        from bleuprint._kernels import _compiled  # noqa: PLC0415 - only where it is chosen
    except ImportError as error:
        warnings.warn(
            f"bleuprint's compiled kernel is not available ({error}): running on the "
            f"plain-Python kernel, slower, same numbers; {PURE_PYTHON_VARIABLE}=1 chooses it "
            "without this warning",
            RuntimeWarning,
            stacklevel=3,
        )
        return _python, "python"
    return _compiled, "compiled"


if TYPE_CHECKING:  # (the two share one interface: _compiled.pyi is _python's)
    _kernel, KERNEL = _python, "python"
else:
    _kernel, KERNEL = _chosen()
"""``KERNEL`` says which kernel runs: ``"compiled"`` or ``"python"``."""

Vocabulary = _kernel.Vocabulary
count_texts = _kernel.count_texts
flat_ids = _kernel.flat_ids
ngram_labels = _kernel.ngram_labels
segment_counts = _kernel.segment_counts
shared_ngram_counts = _kernel.shared_ngram_counts
weighted_geometric_means = _kernel.weighted_geometric_means
tokenize_texts: Callable[[Sequence[str], str], list[list[str]]] | None = getattr(
    _kernel, "tokenize_texts", None
)

__all__ = [
    "KERNEL",
    "THREADS",
    "TOKENIZERS",
    "Vocabulary",
    "count_texts",
    "flat_ids",
    "geometric_mean",
    "ngram_labels",
    "plain_segments",
    "segment_counts",
    "shared_ngram_counts",
    "tokenize_texts",
    "weighted_geometric_means",
]
