"""The plain-Python kernel: the interface of the compiled one (``_compiled.c``), the same
numbers, slower. bleuprint runs on it where the extension was not built, or where the
environment variable ``BLEUPRINT_PURE_PYTHON=1`` asks for it.

A :class:`Vocabulary` numbers tokens with a dictionary; it tokenizes texts with the
``tokenize`` function it is given (the Python tokenizers of :mod:`bleuprint.tokenizers`, which
this layer cannot import), where the compiled kernel splits the built-in ones itself. Each
segment is counted with :class:`collections.Counter` objects, order by order; n-grams
are listed in the order of their first occurrence in the hypothesis, as the compiled kernel
lists them. The means are computed with :func:`math.log`, :func:`math.fsum` and
:func:`math.exp`, the scalar code's own operations.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from itertools import chain, count
from typing import cast

import numpy as np
import numpy.typing as npt

from bleuprint.typing import FloatArray, IntArray

Ngram = tuple[int, ...]
TOKENIZERS = ("whitespace", "13a", "char")
"""The built-in tokenizers the compiled kernel splits texts with itself."""


class Vocabulary:
    """Token ids, each distinct token getting the next number in order of first sight (see
    :class:`bleuprint._kernels.Vocabulary`)."""

    def __init__(self) -> None:
        self._ids: defaultdict[Hashable, int] = defaultdict(count().__next__)

    def __len__(self) -> int:
        return len(self._ids)

    def intern_texts(
        self,
        texts: Sequence[str],
        tokenizer: str | None,
        tokenize: Callable[[Sequence[str]], Iterable[Sequence[Hashable]]],
    ) -> tuple[IntArray, IntArray]:
        """The ids of the tokens of the texts, one text after the other, and the number of
        tokens of each: ``tokenize(texts)`` gives the tokens (the compiled kernel splits
        them itself where ``tokenizer`` names a built-in tokenizer)."""
        _check_tokenizer(tokenizer)
        return self.intern_tokens(tokenize(texts))

    def intern_tokens(self, streams: Iterable[Sequence[Hashable]]) -> tuple[IntArray, IntArray]:
        """The ids of the tokens of the streams, one after the other, and the length of
        each. The streams are read once, in order: given one at a time, each is let go once
        interned."""
        lengths: list[int] = []

        def measured(stream: Sequence[Hashable]) -> Sequence[Hashable]:
            lengths.append(len(stream))
            return stream

        tokens = chain.from_iterable(map(measured, streams))
        ids = np.fromiter(map(self._ids.__getitem__, tokens), np.int64)  # lookups in C
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
    types, no subclass. (Types are collected in C: this runs on every segment.)"""
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
    hypotheses: Sequence[object],
    references: Sequence[object],
    tokenizer: str | None,
    tokenize: Callable[[Sequence[str]], Iterable[Sequence[Hashable]]] | None,
    lowercase: bool,
    max_n: int,
) -> tuple[IntArray, IntArray, IntArray, IntArray] | None:
    """A chunk's texts (or token lists) interned and counted at once, or ``None`` where they
    are not plain (see :func:`bleuprint._kernels.count_texts`)."""
    if max_n < 1:
        raise ValueError(f"max_n must be at least 1, got {max_n}")
    _check_tokenizer(tokenizer)
    if lowercase and tokenizer is None:
        raise ValueError("lowercase is for texts: it needs a tokenizer")
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
    elif tokenize is None:
        raise ValueError("texts need tokenize (token lists: tokenizer None)")
    else:
        strs = cast("list[str]", texts)
        strs = [text.lower() for text in strs] if lowercase else strs
        ids, token_counts = vocabulary.intern_texts(strs, tokenizer, tokenize)
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


def flat_ids(sequences: Sequence[object]) -> tuple[IntArray, IntArray] | None:
    """Sequences of ids as one array of all the ids, one sequence after the other, and one of
    their lengths; ``None`` unless every sequence is a list or tuple of ints (not bools) of
    64 bits (see :func:`bleuprint._kernels.flat_ids`)."""
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
    """The n-grams of each segment's hypothesis that occur in one of its references (see
    :func:`bleuprint._kernels.shared_ngram_counts`)."""
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
        for n in range(1, min(max_n, len(hypothesis_tokens)) + 1):
            in_hypothesis = Counter(_ngrams(hypothesis_tokens, n))  # in order of first sight
            most_in_a_reference: Counter[Ngram] = Counter()
            for tokens_of_one in reference_tokens:
                most_in_a_reference |= Counter(
                    gram for gram in _ngrams(tokens_of_one, n) if gram in in_hypothesis
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


def _ngrams(tokens: list[int], n: int) -> Iterator[Ngram]:
    return zip(*(tokens[k:] for k in range(n)))


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


def _check_rising(name: str, array: IntArray) -> None:
    falls = np.flatnonzero(np.diff(array) < 0)
    if len(falls):
        raise ValueError(f"{name} must not decrease (at {int(falls[0]) + 1})")


def weighted_geometric_means(
    precisions: npt.ArrayLike, defined: npt.ArrayLike, order_weights: npt.ArrayLike
) -> FloatArray:
    """Row by row, ``exp(fsum(w * log p))`` over the orders of nonzero weight (see
    :func:`bleuprint._kernels.weighted_geometric_means`)."""
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


def segment_counts(
    texts: Sequence[object],
    tokenizer: str | None,
    tokenize: Callable[[Sequence[str]], Iterable[Sequence[Hashable]]] | None,
    max_n: int,
) -> tuple[tuple[int, ...], list[int], list[tuple[int, int, int]]]:
    """One segment's token counts and shared n-grams, as Python objects (see
    :func:`bleuprint._kernels.segment_counts`)."""
    if max_n < 1:
        raise ValueError(f"max_n must be at least 1, got {max_n}")
    vocabulary = Vocabulary()
    if tokenizer is None and tokenize is None:
        ids, sizes = vocabulary.intern_tokens(cast("Sequence[Sequence[Hashable]]", texts))
    elif tokenize is None:
        raise ValueError("texts need tokenize (token lists: tokenizer and tokenize None)")
    else:
        ids, sizes = vocabulary.intern_texts(cast("Sequence[str]", texts), tokenizer, tokenize)
    starts = np.concatenate(([0], np.cumsum(sizes)))
    references = np.arange(1, len(sizes))
    singles, repeated = shared_ngram_counts(
        ids, starts, [0], references, [0, len(references)], len(vocabulary), max_n
    )
    rows = [(int(cell), int(times), int(most)) for cell, times, most in repeated.tolist()]
    return tuple(sizes.tolist()), singles[0].tolist(), rows


def ngram_labels(
    token_ids: npt.ArrayLike, lengths: npt.ArrayLike, max_n: int
) -> list[tuple[IntArray, IntArray]]:
    """For each order, every occurrence of an n-gram of the streams laid end to end: its
    stream, and its label (see :func:`bleuprint._kernels.ngram_labels`)."""
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
