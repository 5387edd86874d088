"""The plain-Python kernel: the reference of the compiled one (``_compiled.c``), with its
interface and its numbers, slower. bleuprint runs on it where the extension was not built, or
where the environment variable ``BLEUPRINT_PURE_PYTHON=1`` asks for it.

Each function's docstring is the contract both kernels keep; ``_compiled.pyi`` gives the
compiled one the same signatures. In outline: a :class:`Vocabulary` numbers tokens;
:func:`shared_ngram_counts` finds the n-grams each hypothesis shares with its references, from
token ids; :func:`count_texts` does both for a chunk of texts or token lists at once (the
compiled one without the GIL; a sentence is a chunk of one); :func:`tokenize_texts` runs the
built-in tokenizers (whitespace, sacreBLEU's 13a and char); :func:`flat_ids` reads token ids
given as Python ints; :func:`ngram_labels` labels n-grams for pairwise scores;
:func:`weighted_geometric_means` computes the means of many rows.

Here each segment is counted with :class:`collections.Counter` objects, order by order;
n-grams are listed in the order of their first occurrence in the hypothesis, as the compiled
kernel lists them. The means are computed with :func:`math.log`, :func:`math.fsum` and
:func:`math.exp`, the scalar code's own operations. (sacreBLEU's ``intl`` stays out of the
kernels: its Unicode classes are those of the ``regex`` module's tables, which are not the
interpreter's ``unicodedata``.)
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from itertools import chain, count
from typing import cast

import numpy as np
import numpy.typing as npt

from bleuprint.exceptions import InputError
from bleuprint.typing import FloatArray, IntArray

__all__ = [
    "Vocabulary",
    "count_texts",
    "flat_ids",
    "line_ends",
    "ngram_labels",
    "rounded_sum",
    "shared_ngram_counts",
    "tally",
    "tokenize_texts",
    "weighted_geometric_means",
    "weighted_rows",
]

TOKENIZERS = ("whitespace", "13a", "char")
"""The built-in tokenizers, which the kernels run themselves (:func:`tokenize_texts`)."""
Tokenize = Callable[[Sequence[str]], Iterable[Sequence[Hashable]]]
"""A user's tokenizer, as the kernels call it: texts in, each text's tokens out."""

# The compiled kernel's limits (its MAX_HYPOTHESIS_TOKENS and MAX_VOCABULARY: n-gram labels and
# token ids of 32 bits), kept here too, with its words, so that both kernels refuse alike.
MAX_HYPOTHESIS_TOKENS = 2**31 - 2
"""The most tokens a hypothesis may have (counting raises :class:`InputError` past it)."""
MAX_VOCABULARY = 2**32 - 1
"""The most distinct tokens one vocabulary numbers (interning raises :class:`InputError` past
it)."""


class Vocabulary:
    """Token ids: each distinct token gets the next id, in order of first sight.
    ``len(vocabulary)`` is the number of ids given, at most ``MAX_VOCABULARY`` (interning
    more raises :class:`InputError`). A vocabulary is used by one thread at a time."""

    def __init__(self) -> None:
        self._ids: defaultdict[Hashable, int] = defaultdict(count().__next__)

    def __len__(self) -> int:
        return len(self._ids)

    def intern_texts(
        self, texts: Sequence[str], tokenizer: str | None, tokenize: Tokenize
    ) -> tuple[IntArray, IntArray]:
        """The ids of the tokens of the texts, one text after the other, and the number of
        tokens of each. Where ``tokenizer`` names one of the built-in tokenizers (``TOKENIZERS``)
        the kernel splits the texts itself (:func:`tokenize_texts`; the compiled one without
        the GIL); where it is ``None``, ``tokenize(texts)`` gives the tokens (a user's
        tokenizer). Another name raises :class:`ValueError`."""
        _check_tokenizer(tokenizer)
        tokens = tokenize(texts) if tokenizer is None else _tokens(texts, tokenizer)
        return self.intern_tokens(tokens)

    def intern_tokens(self, streams: Iterable[Sequence[Hashable]], /) -> tuple[IntArray, IntArray]:
        """The ids of the tokens of the streams (token lists), one after the other, and the
        length of each. The streams are read once, in order: given one at a time, each is let
        go once interned. Each stream's tokens are taken as they are when its reading starts:
        the hash and equality of tokens that are not str may change the stream itself."""
        lengths: list[int] = []

        def measured(stream: Sequence[Hashable]) -> Sequence[Hashable]:
            # A tuple of the tokens: hashing a token that is not a str runs Python code, which
            # may change the list being read (as the compiled kernel reads it too).
            tokens = tuple(stream)
            lengths.append(len(tokens))
            return tokens

        tokens = chain.from_iterable(map(measured, streams))
        ids = np.fromiter(map(self._ids.__getitem__, tokens), np.int64)  # lookups in C
        if len(self._ids) > MAX_VOCABULARY:
            raise InputError(
                f"more than {MAX_VOCABULARY} distinct tokens in one call, the most a vocabulary "
                "holds: count fewer segments at once"
            )
        return ids, np.array(lengths, np.int64)


def _check_tokenizer(tokenizer: str | None) -> None:
    if tokenizer is not None and tokenizer not in TOKENIZERS:
        raise ValueError(
            f"tokenizer must be one of 'whitespace', '13a', 'char' or None, got {tokenizer!r}"
        )


def plain_segments(
    hypotheses: Sequence[object], references: Sequence[object], tokens: bool
) -> bool:
    """Whether every segment is a str (``tokens`` false) or a list or tuple of str (``tokens``
    true), each segment's references being a non-empty list or tuple of them: exactly these
    types, no subclass. This is :func:`count_texts`' check, in Python (types are collected in
    C: this runs on every segment)."""
    if not set(map(type, references)) <= {list, tuple} or not all(references):
        return False
    lists = cast("list[Sequence[object]]", references)
    segments = [*hypotheses, *chain.from_iterable(lists)]
    kinds = set(map(type, segments))
    if not tokens:
        return kinds <= {str}
    tokens_of = chain.from_iterable(cast("list[Sequence[object]]", segments))
    return kinds <= {list, tuple} and set(map(type, tokens_of)) <= {str}


def count_texts(  # noqa: PLR0917 (positional, as the compiled kernel's)
    hypotheses: str | bytes | Sequence[object],
    references: Sequence[object],
    tokenizer: str | None,
    tokenize: Tokenize | None,
    lowercase: bool,
    max_n: int,
) -> tuple[IntArray, IntArray, IntArray, IntArray] | None:
    """A chunk counted whole, texts in, per-segment statistics out.

    ``hypotheses`` is a list or tuple of segments and ``references`` one list or tuple of
    segments per hypothesis, at least one each. With a built-in tokenizer's name
    (``TOKENIZERS``) every segment is a str (lowercased first where ``lowercase`` is true),
    with ``None`` a list or tuple of str tokens: exactly these types (:func:`plain_segments`).
    For anything else it gives ``None``, and the caller counts the segments one by one (which
    names what is wrong). The tokens are interned into a vocabulary of the call's own (the
    compiled kernel keeps a few between calls, emptied, for their memory) and counted as
    :func:`shared_ngram_counts` counts them, segment ``s`` being hypothesis ``s`` and its
    references.

    It returns the token count of each text (the hypotheses', then every segment's
    references' in order), the number of references of each segment, and ``singles`` and the
    other shared n-grams, as :func:`shared_ngram_counts` gives them. The compiled kernel
    checks the types, tokenizes, interns and counts without the GIL once it holds every str,
    so that chunks counted on threads run at once. ``tokenize`` is not called (the built-in
    tokenizers are the kernel's own); it is there for the compiled kernel's signature.

    Lines: where ``hypotheses`` is a str, it is a block of lines (separated by ``\\n``), a
    hypothesis each, and ``references`` a list or tuple of such blocks with as many lines
    each (else a ``ValueError``), line ``i`` of each a reference of hypothesis ``i``: what a
    reader of files gives without making a str per line (the compiled kernel finds the lines
    in the blocks themselves). The blocks may also be bytes, all of them: UTF-8, decoded
    strictly (else ``UnicodeDecodeError``; the compiled kernel decodes each line itself)."""
    if max_n < 1:
        raise ValueError(f"max_n must be at least 1, got {max_n}")
    _check_tokenizer(tokenizer)
    if lowercase and tokenizer is None:
        raise ValueError("lowercase is for texts: it needs a tokenizer")
    if type(hypotheses) in {str, bytes}:
        if tokenizer is None:
            raise ValueError("blocks of lines are texts: they need a tokenizer")
        if type(references) not in {list, tuple} or not references:
            return None
        if set(map(type, references)) != {type(hypotheses)}:
            return None
        blocks = cast("list[str] | list[bytes]", [hypotheses, *references])
        if isinstance(hypotheses, bytes) and lowercase:  # decoded whole, for str.lower
            blocks = [cast("bytes", block).decode("utf-8") for block in blocks]
        hypotheses, references = _lines(blocks)
    if not {type(hypotheses), type(references)} <= {list, tuple}:
        return None
    if len(hypotheses) != len(references):
        raise ValueError(f"{len(hypotheses)} hypotheses but {len(references)} reference lists")
    if not plain_segments(hypotheses, references, tokens=tokenizer is None):
        return None
    lists = cast("list[Sequence[object]]", references)
    texts = [*hypotheses, *chain.from_iterable(lists)]
    vocabulary = Vocabulary()
    if tokenizer is None:
        ids, token_counts = vocabulary.intern_tokens(cast("list[Sequence[str]]", texts))
    else:
        strs = cast("list[str]", texts)
        strs = [text.lower() for text in strs] if lowercase else strs
        ids, token_counts = vocabulary.intern_tokens(_tokens(strs, tokenizer))
    segments = len(hypotheses)
    reference_counts = np.fromiter(map(len, lists), np.int64, segments)
    singles, repeated = shared_ngram_counts(
        ids,
        np.concatenate(([0], np.cumsum(token_counts))),
        np.arange(segments),
        np.arange(segments, len(texts)),
        np.concatenate(([0], np.cumsum(reference_counts))),
        len(vocabulary),
        max_n,
    )
    return token_counts, reference_counts, singles, repeated


def _lines(blocks: list[str] | list[bytes]) -> tuple[list[str], list[list[str]]]:
    """The hypotheses and each one's references, from blocks of lines (see count_texts):
    the hypotheses' block first; lines of bytes decoded one by one, in the compiled kernel's
    order (the hypotheses, then each one's references), so that the same line is found bad."""
    streams = [
        block.split("\n") if isinstance(block, str) else block.split(b"\n") for block in blocks
    ]
    for number, stream in enumerate(streams[1:]):
        if len(stream) != len(streams[0]):
            raise ValueError(
                f"reference block {number} has {len(stream)} lines, the hypotheses "
                f"{len(streams[0])}"
            )
    texts = [*streams[0], *chain.from_iterable(zip(*streams[1:]))]
    lines = [text.decode("utf-8") if isinstance(text, bytes) else text for text in texts]
    segments = len(streams[0])
    return lines[:segments], [
        lines[start : start + len(blocks) - 1]
        for start in range(segments, len(lines), len(blocks) - 1)
    ]


def flat_ids(sequences: Sequence[object], /) -> tuple[IntArray, IntArray] | None:
    """Token ids given as Python ints: sequences that are all lists or tuples of ints (not
    bools) of 64 bits become one int64 array of every id, one sequence after the other, and
    one of their lengths. For anything else it gives ``None``, and the caller reads the
    sequences one by one (which names what is wrong). The compiled kernel reads the objects in
    one pass, several times faster than numpy's conversion."""
    if not set(map(type, sequences)) <= {list, tuple}:
        return None
    lists = cast("Sequence[Sequence[object]]", sequences)
    ids = list(chain.from_iterable(lists))
    if not set(map(type, ids)) <= {int}:  # (exactly int: a bool is refused)
        return None
    try:
        flat = np.array(ids, np.int64)
    except OverflowError:  # beyond 64 bits
        return None
    return flat, np.fromiter(map(len, lists), np.int64, len(lists))


ARRAYS = ("token_ids", "text_starts", "hypothesis_texts", "reference_texts", "reference_offsets")


def shared_ngram_counts(  # noqa: PLR0917 (positional, as the compiled kernel's)
    token_ids: npt.ArrayLike,
    text_starts: npt.ArrayLike,
    hypothesis_texts: npt.ArrayLike,
    reference_texts: npt.ArrayLike,
    reference_offsets: npt.ArrayLike,
    vocabulary_size: int,
    max_n: int,
) -> tuple[IntArray, IntArray]:
    """The n-grams of each segment's hypothesis that occur in one of its references.

    Text ``t`` is ``token_ids[text_starts[t]:text_starts[t + 1]]``, with token ids in
    ``range(vocabulary_size)``; segment ``s`` is hypothesis ``hypothesis_texts[s]`` and
    references ``reference_texts[reference_offsets[s]:reference_offsets[s + 1]]``.

    It returns ``singles``, where ``singles[s, n - 1]`` counts the shared n-grams found once in
    the hypothesis and at most once in each reference (nearly all of them), and one row for
    every other shared n-gram, in order of segment, order and first occurrence in the
    hypothesis: its segment and order as ``s * max_n + n - 1``, its number of occurrences in
    the hypothesis, and its largest number in any one reference. Inconsistent tables raise
    :class:`ValueError` naming the argument; a hypothesis of more than
    ``MAX_HYPOTHESIS_TOKENS`` tokens, :class:`InputError`."""
    given = zip(
        ARRAYS, (token_ids, text_starts, hypothesis_texts, reference_texts, reference_offsets)
    )
    arrays = {name: np.ascontiguousarray(array, np.int64) for name, array in given}
    _check_tables(arrays, vocabulary_size, max_n)
    token_list: list[int] = arrays["token_ids"].tolist()
    start_list: list[int] = arrays["text_starts"].tolist()
    offset_list: list[int] = arrays["reference_offsets"].tolist()
    reference_list: list[int] = arrays["reference_texts"].tolist()
    hypotheses = arrays["hypothesis_texts"]

    def text(number: int) -> list[int]:
        return token_list[start_list[number] : start_list[number + 1]]

    singles = [[0] * max_n for _ in range(len(hypotheses))]
    repeated: list[tuple[int, int, int]] = []
    for segment, hypothesis in enumerate(hypotheses.tolist()):
        hypothesis_tokens = text(hypothesis)
        segment_references = reference_list[offset_list[segment] : offset_list[segment + 1]]
        reference_tokens = [text(number) for number in segment_references]
        # Each n-gram is a label, one per position: a unigram's is its token id, a longer one's
        # numbers the pairs (label of its first n - 1 tokens, its last token) the hypothesis
        # holds. A reference n-gram without one is not in the hypothesis (None), nor is any
        # longer n-gram it starts, so each order costs one pass, whatever its length.
        hypothesis_labels: list[int] = hypothesis_tokens
        reference_labels: list[list[int | None]] = [list(tokens) for tokens in reference_tokens]
        for n in range(1, min(max_n, len(hypothesis_tokens)) + 1):
            if n > 1:
                labels: dict[tuple[int, int], int] = {}
                hypothesis_labels = [
                    labels.setdefault(pair, len(labels))
                    for pair in zip(hypothesis_labels[:-1], hypothesis_tokens[n - 1 :])
                ]
                reference_labels = [
                    [
                        None if first is None else labels.get((first, last))
                        for first, last in zip(labels_of_one[:-1], tokens_of_one[n - 1 :])
                    ]
                    for labels_of_one, tokens_of_one in zip(reference_labels, reference_tokens)
                ]
            in_hypothesis = Counter(hypothesis_labels)  # in order of first sight
            most_in_a_reference: Counter[int | None] = Counter()
            for labels_of_one in reference_labels:
                most_in_a_reference |= Counter(
                    label for label in labels_of_one if label in in_hypothesis
                )
            if not most_in_a_reference:
                break  # no longer n-gram can be shared either
            for gram, times in in_hypothesis.items():
                in_reference = most_in_a_reference[gram]
                if times == 1 and in_reference == 1:
                    singles[segment][n - 1] += 1
                elif in_reference:
                    repeated.append((segment * max_n + n - 1, times, in_reference))
    return (
        np.array(singles, np.int64).reshape(len(hypotheses), max_n),
        np.array(repeated, np.int64).reshape(len(repeated), 3),
    )


def _check_tables(arrays: dict[str, IntArray], vocabulary_size: int, max_n: int) -> None:
    """The compiled kernel's checks of its arguments (named as in ``ARRAYS``), with its
    messages."""
    token_ids, text_starts = arrays["token_ids"], arrays["text_starts"]
    hypothesis_texts, reference_texts = arrays["hypothesis_texts"], arrays["reference_texts"]
    reference_offsets = arrays["reference_offsets"]
    for name, array in arrays.items():
        if array.ndim != 1:
            raise ValueError(f"{name} must be a 1-dimensional array, got {array.ndim} dimensions")
    if max_n < 1:
        raise ValueError(f"max_n must be at least 1, got {max_n}")
    if vocabulary_size < 0:
        raise ValueError(f"vocabulary_size must not be negative, got {vocabulary_size}")
    texts = len(text_starts) - 1
    if texts < 0 or text_starts[0] < 0 or text_starts[texts] > len(token_ids):
        raise ValueError(
            "text_starts must hold the start of every text and the end of the last, "
            "within token_ids"
        )
    _check_rising("text_starts", text_starts)
    outside = np.flatnonzero((token_ids < 0) | (token_ids >= vocabulary_size))
    if len(outside):
        first = int(outside[0])
        raise ValueError(
            f"token_ids[{first}] is {token_ids[first]}, not in range({vocabulary_size})"
        )
    for name in ("hypothesis_texts", "reference_texts"):
        outside = np.flatnonzero((arrays[name] < 0) | (arrays[name] >= texts))
        if len(outside):
            first = int(outside[0])
            raise ValueError(
                f"{name}[{first}] is {arrays[name][first]}, not a text number below {texts}"
            )
    segments = len(hypothesis_texts)
    if (
        len(reference_offsets) != segments + 1
        or reference_offsets[0] < 0
        or reference_offsets[segments] > len(reference_texts)
    ):
        raise ValueError(
            "reference_offsets must hold one offset per segment and one more, "
            "within reference_texts"
        )
    _check_rising("reference_offsets", reference_offsets)
    hypothesis_lengths = text_starts[hypothesis_texts + 1] - text_starts[hypothesis_texts]
    if hypothesis_lengths.max(initial=0) > MAX_HYPOTHESIS_TOKENS:
        raise InputError(
            f"a hypothesis has more than {MAX_HYPOTHESIS_TOKENS} tokens, the most one can have"
        )


def _check_rising(name: str, array: IntArray) -> None:
    falls = np.flatnonzero(np.diff(array) < 0)
    if len(falls):
        raise ValueError(f"{name} must not decrease (at {int(falls[0]) + 1})")


def weighted_geometric_means(
    precisions: npt.ArrayLike, defined: npt.ArrayLike, order_weights: npt.ArrayLike
) -> FloatArray:
    """Row by row, ``exp(fsum(w * log p))`` over the orders of nonzero weight, with the very
    operations of the scalar code (the C library's ``log`` and ``exp``, as :mod:`math` calls
    them, and a correctly rounded sum, as :func:`math.fsum` gives): 0 where an order of
    nonzero weight has precision 0 or none, or where no order has weight. NaN marks a row
    where that sum meets a non-finite number or :mod:`math` raises; the caller asks
    :func:`geometric_mean` (the plain-Python definition of one row, which raises as
    :mod:`math` does) for those."""
    arrays = {
        "precisions": np.ascontiguousarray(precisions, np.float64),
        "defined": np.ascontiguousarray(defined, np.bool_),
        "order_weights": np.ascontiguousarray(order_weights, np.float64),
    }
    for name, array in arrays.items():
        if array.ndim != 2:
            raise ValueError(f"{name} must be a 2-dimensional array, got {array.ndim} dimensions")
    shape = arrays["precisions"].shape
    for name in ("defined", "order_weights"):
        if arrays[name].shape != shape:
            raise ValueError(f"{name} must have the shape of precisions, {shape}")
    rows = zip(*(array.tolist() for array in arrays.values()))
    return np.fromiter((_mean(*row) for row in rows), np.float64, shape[0])


def geometric_mean(
    precisions: Sequence[float], defined: Sequence[bool], weights: Sequence[float]
) -> float:
    """One row's ``exp(fsum(w * log p))`` over the orders of nonzero weight (0 where one of
    them has precision 0 or none, or where none has weight), as :mod:`math` computes it: it
    raises where :mod:`math` raises. Rows either kernel marks NaN are asked of it."""
    terms = _terms(precisions, defined, weights)
    return math.exp(math.fsum(terms)) if terms else 0.0


def _terms(
    precisions: Sequence[float],
    defined: Sequence[bool],
    weights: Sequence[float],
    log: Callable[[float], float] = math.log,
) -> list[float]:
    """The weighted logs of the mean, or none where the mean is 0."""
    terms = []
    for precision, known, weight in zip(precisions, defined, weights):
        if weight == 0:
            continue
        if not known or precision == 0:
            return []
        terms.append(weight * log(precision))
    return terms


def _log_or_nan(precision: float) -> float:
    """The C library's ``log``, where :func:`math.log` raises for a negative number."""
    return math.log(precision) if precision > 0 else math.nan


def _mean(precisions: Sequence[float], defined: Sequence[bool], weights: Sequence[float]) -> float:
    """:func:`geometric_mean`, or NaN where the compiled sum leaves the row to it (a term or
    the mean not finite, or an error)."""
    terms = _terms(precisions, defined, weights, _log_or_nan)
    if not all(map(math.isfinite, terms)):
        return math.nan
    try:
        mean = math.exp(math.fsum(terms)) if terms else 0.0
    except OverflowError:  # in the sum or in exp
        return math.nan
    return mean if math.isfinite(mean) else math.nan


def ngram_labels(
    token_ids: npt.ArrayLike, lengths: npt.ArrayLike, max_n: int
) -> list[tuple[IntArray, IntArray]]:
    """The n-grams of many streams laid end to end (stream ``s`` has ``lengths[s]`` tokens),
    labelled, for pairwise scores and MBR: for each order ``n``, every occurrence of an n-gram
    with no negative id (one that never matches), in order of position, as two arrays: its
    stream, and its label. A unigram's label is the rank of its id among all the ids given
    (negative ones too); a longer n-gram's is its rank among the n-grams of its order present,
    in the lexicographic order of its tokens' unigram labels."""
    if max_n < 1:
        raise ValueError(f"max_n must be at least 1, got {max_n}")
    ids = np.ascontiguousarray(token_ids, np.int64)
    sizes = np.ascontiguousarray(lengths, np.int64)
    for name, array in (("token_ids", ids), ("lengths", sizes)):
        if array.ndim != 1:
            raise ValueError(f"{name} must be a 1-dimensional array, got {array.ndim} dimensions")
    if (sizes < 0).any():
        raise ValueError("lengths must not be negative")
    if int(sizes.sum()) != len(ids):
        raise ValueError(
            f"lengths add up to {int(sizes.sum())}, but there are {len(ids)} token ids"
        )
    token_end = np.repeat(np.cumsum(sizes), sizes)
    token_stream = np.repeat(np.arange(len(sizes)), sizes)
    unigram_labels = _ranks(ids)
    unigram_count = int(unigram_labels.max(initial=-1)) + 1
    matchable = ids >= 0
    starts = np.flatnonzero(matchable)
    labels = unigram_labels[starts]
    orders = []
    for order in range(1, max_n + 1):
        orders.append((token_stream[starts], labels))
        if order == max_n:
            break
        # The (n+1)-gram at p is the n-gram at p and the token at p + n.
        longer = starts + order + 1 <= token_end[starts]
        longer[longer] = matchable[starts[longer] + order]
        starts = starts[longer]
        labels = _ranks(labels[longer] * unigram_count + unigram_labels[starts + order])
    return orders


def _ranks(values: IntArray) -> IntArray:
    """Each value's rank among the distinct values (equal values, equal ranks)."""
    ranks: IntArray = np.unique(values, return_inverse=True)[1]
    return ranks.reshape(-1)


# -- the built-in tokenizers: the reference of the compiled kernel's ---------------------------

# mteval-v13a's rules after the segment is padded with spaces, applied in order, each over the
# whole text; each pattern's groups are put back with spaces around the separated one. The
# first class is ASCII punctuation but ' , - . (mteval's class holds the space too: padding a
# space with spaces changes no token).
_ASCII_SYMBOLS = '!"#$%&()*+/:;<=>?@[\\]^_`{|}~'
MTEVAL_RULES = (
    (re.compile(f"([{re.escape(_ASCII_SYMBOLS)}])"), r" \1 "),
    (re.compile(r"([^0-9])([.,])"), r"\1 \2 "),  # period or comma after a non-digit
    (re.compile(r"([.,])([^0-9])"), r" \1 \2"),  # period or comma before a non-digit
    (re.compile(r"([0-9])(-)"), r"\1 \2 "),  # dash after a digit
)
# mteval-v13a undoes these escapes one after the other, so "&amp;lt;" ends as "<".
_MTEVAL_UNESCAPES = (("&quot;", '"'), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"))


def mteval_rules(text: str) -> str:
    """``text`` rewritten by mteval-v13a's rules (``MTEVAL_RULES``), without 13a's steps
    before them."""
    for pattern, replacement in MTEVAL_RULES:
        text = pattern.sub(replacement, text)
    return text


def _mteval_prepared(text: str) -> str:
    """13a's steps before its rules: the text right-stripped, ``<skipped>`` removed, words
    hyphenated across a line break joined, line breaks made spaces, the escapes undone, and
    padded with spaces."""
    text = text.rstrip().replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
    if "&" in text:
        for escape, character in _MTEVAL_UNESCAPES:
            text = text.replace(escape, character)
    return f" {text} "


def _mteval_13a(texts: Sequence[str]) -> Iterator[list[str]]:
    """sacreBLEU's 13a: each text prepared (``_mteval_prepared``), rewritten by the rules and
    split on whitespace."""
    return (mteval_rules(_mteval_prepared(text)).split() for text in texts)


def _characters(texts: Sequence[str]) -> Iterator[list[str]]:
    return ([character for character in text if not character.isspace()] for text in texts)


def _whitespace(texts: Sequence[str]) -> Iterator[list[str]]:
    return map(str.split, texts)


_BUILT_IN: dict[str, Callable[[Sequence[str]], Iterator[list[str]]]] = {
    "whitespace": _whitespace,
    "13a": _mteval_13a,
    "char": _characters,
}


def tokenize_texts(texts: Sequence[str], tokenizer: str) -> list[list[str]]:
    """The tokens of each text by the built-in tokenizer ``tokenizer`` (one of
    ``TOKENIZERS``): ``"whitespace"`` splits as :meth:`str.split` does, ``"13a"`` is
    sacreBLEU's default (mteval-v13a), ``"char"`` makes every character but whitespace a token.
    Every text must be a str (:class:`TypeError`); another name raises :class:`ValueError`."""
    return list(_tokens(texts, tokenizer))


def _tokens(texts: Sequence[str], tokenizer: str) -> Iterator[list[str]]:
    """:func:`tokenize_texts`, one text's tokens at a time (interning lets each go in turn)."""
    _check_tokenizer(tokenizer)
    for number, text in enumerate(texts):
        if not isinstance(text, str):
            raise TypeError(f"text {number} is a {type(text).__name__}, not a str")
    return _BUILT_IN[tokenizer](texts)


def rounded_sum(terms: list[float], /) -> float:
    """The correctly rounded sum of the floats, as :func:`math.fsum` gives it (NaN where it
    overflows), as the means use it."""
    try:
        return math.fsum(terms)
    except OverflowError:
        return math.nan


def line_ends(
    data: bytes | bytearray | memoryview, every: int, first: int
) -> tuple[int, list[int]]:
    """The newlines (bytes 10) of a block of a file: how many there are, and the offset just
    after each of those numbered ``first``, ``first + every``, ``first + 2 * every``, ...
    (counting from 0), where the partitions of ``every`` lines that the block's caller cuts
    start. The compiled kernel scans with ``memchr``, without the GIL, so that several files
    are scanned on threads at once.

    >>> line_ends(b"a\\nb\\nc\\nd\\ne", 2, 1)
    (4, [4, 8])
    """
    if every < 1 or first < 0:
        raise ValueError("line_ends: every must be at least 1, first at least 0")
    ends = np.flatnonzero(np.frombuffer(data, np.uint8) == ord("\n"))
    return len(ends), (ends[first::every] + 1).tolist()


def tally(counts: npt.NDArray[np.uint8], draws: npt.ArrayLike) -> IntArray:
    """One more in ``counts`` (a one-dimensional ``uint8`` array, changed in place) at each of
    the ``draws`` (indices into it), modulo 256: the draws at which a count came round from
    255 to 0, each standing for 256 more (in the order of the draws in the compiled kernel;
    here by index). How often a bootstrap resample draws each segment, in a byte a segment.
    The draws are all checked first: one outside ``counts`` changes nothing.

    >>> counts = np.zeros(3, np.uint8)
    >>> tally(counts, [2, 0, 2]).tolist(), counts.tolist()
    ([], [1, 0, 2])
    >>> counts[1] = 255
    >>> tally(counts, [1, 1]).tolist(), counts.tolist()
    ([1], [1, 1, 2])
    """
    if counts.ndim != 1 or counts.dtype != np.uint8:
        raise ValueError("tally: counts must be a 1-dimensional uint8 array")
    indices = np.ascontiguousarray(draws, dtype=np.int64)
    if indices.ndim != 1:
        raise ValueError(f"draws must be a 1-dimensional array, got {indices.ndim} dimensions")
    outside = np.flatnonzero((indices < 0) | (indices >= len(counts)))
    if len(outside):
        bad = int(outside[0])
        raise ValueError(
            f"tally: draw {bad} is {int(indices[bad])}, not an index of {len(counts)} counts"
        )
    drawn, times = np.unique(indices, return_counts=True)
    reached = counts[drawn].astype(np.int64) + times
    counts[drawn] = reached % 256
    around: IntArray = np.repeat(drawn, reached // 256)
    return around


def weighted_rows(
    weights: npt.NDArray[np.uint8], rows: npt.NDArray[np.uint8]
) -> tuple[IntArray, IntArray]:
    """The ``int64`` sum of each column of ``rows`` (a ``uint8`` matrix), row ``k`` counted
    ``weights[k]`` times (a ``uint8`` array, one weight a row), and the total weight of the
    rows by the number in their first column (256 totals): a bootstrap resample's sums, from
    how often it drew each segment (:func:`tally`), in one pass over the rows.

    >>> sums, by_first = weighted_rows(np.array([2, 0, 1], np.uint8),
    ...                                np.array([[3, 1], [5, 5], [3, 4]], np.uint8))
    >>> sums.tolist(), by_first[3].item(), int(by_first.sum())
    ([9, 6], 3, 3)
    """
    for name, array, dimensions in (("weights", weights, 1), ("rows", rows, 2)):
        if array.ndim != dimensions or array.dtype != np.uint8:
            raise ValueError(
                f"weighted_rows: {name} must be a {dimensions}-dimensional uint8 array"
            )
    if len(weights) != len(rows) or rows.shape[1] < 1:
        raise ValueError(
            "weighted_rows: rows must be one row (of at least one number) a weight, got "
            f"{len(weights)} weights and {len(rows)} rows of {rows.shape[1]}"
        )
    times = weights.astype(np.int64)
    sums: IntArray = times @ rows.astype(np.int64)
    by_first: IntArray = np.bincount(rows[:, 0], times, minlength=256).astype(np.int64)
    return sums, by_first
