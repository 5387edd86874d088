"""Coverage-guided fuzz targets of the kernel's entry points (issue 28), one per entry point.

Each target takes the fuzzer's bytes, reads them as a corpus and options (:func:`case_of`),
drives one kernel entry point through the public API (an engine built of bleuprint's parts,
its corpus, sentence and pairwise scores) once on the compiled kernel and once on its
plain-Python twin, and requires the same outcome of both: the same numbers, exactly, or the
same bleuprint error. A crash, an error that is not bleuprint's, or a difference fails.

The bytes: the first is the options (the tokenizer, lowercasing, the n-gram order), the
second picks what the target varies (containers, hostile tokens, smoothing); the rest is UTF-8
(an invalid byte becomes a lone surrogate, as ``surrogateescape`` reads it), one segment a
line, the hypothesis first and its references after it, separated by tabs. A line without a
tab is its own reference. ``tests/fuzz/corpus/`` holds seeds of this form;
``tests/test_fuzz_corpus.py`` replays every file there through every target, and
``python -m tests.fuzz.run TARGET`` fuzzes one (see there).
"""

from __future__ import annotations

import contextlib
import sys
import tempfile
import warnings
from collections.abc import Callable, Hashable, Iterator, Mapping
from pathlib import Path
from types import ModuleType
from typing import Any, NamedTuple
from unittest import mock

import attrs
import numpy as np

from bleuprint import (
    BLEUError,
    BLEUScore,
    _io,
    brevity,
    ngrams,
    smoothing,
    tokenizers,
    weights,
)
from bleuprint._kernels import _python

try:
    from bleuprint._kernels import _compiled
except ImportError:  # not built: the targets have no twin to compare (the replay test skips)
    _compiled = None

KERNELS = tuple(kernel for kernel in (_compiled, _python) if kernel is not None)
TOKENIZER_NAMES = ("whitespace", "13a", "char", "tokens")
"""The options byte's two low bits: a built-in tokenizer, or segments given as string tokens
(whitespace-split lists)."""
MAX_ORDER_STEP = 64
"""With the second byte's top bit, the n-gram order (1 to 32) is multiplied by this: orders
far above a segment's length, past the engine's bound of 1,024 too."""


class Case(NamedTuple):
    """A corpus and options, read from the fuzzer's bytes (see the module's text)."""

    tokenizer: str
    lowercase: bool
    max_n: int
    variant: int  # the second byte, which each target reads its own way
    hypotheses: list[str]
    references: list[list[str]]


def case_of(data: bytes) -> Case:
    """The case the bytes stand for."""
    options, variant = data[:2].ljust(2, b"\0")
    max_n = (1 + (options >> 3)) * (MAX_ORDER_STEP if variant & 0x80 else 1)
    lines = data[2:].decode("utf-8", "surrogateescape").split("\n")
    fields = [line.split("\t") for line in lines]
    return Case(
        TOKENIZER_NAMES[options & 3],
        bool(options & 4),
        max_n,
        variant,
        [line[0] for line in fields],
        [line[1:] or line[:1] for line in fields],
    )


# -- the two kernels, through the public API -----------------------------------------------------


@contextlib.contextmanager
def running_on(kernel: ModuleType) -> Iterator[None]:
    """bleuprint's modules calling ``kernel`` (each imported the chosen one by name)."""
    patched = [
        (module, module.kernel)
        for name, module in list(sys.modules.items())
        if name.startswith("bleuprint") and getattr(module, "kernel", None) in KERNELS
    ]
    for module, _ in patched:
        module.kernel = kernel
    try:
        yield
    finally:
        for module, chosen in patched:
            module.kernel = chosen


def plain(value: Any) -> Any:
    """``value`` as nested Python values that compare as the numbers do (floats by their repr,
    so that NaN equals NaN)."""
    if isinstance(value, np.ndarray):
        value = (value.dtype.str, value.shape, value.tolist())
    elif attrs.has(type(value)):
        value = (type(value).__name__, attrs.asdict(value, recurse=False))
    if isinstance(value, Mapping):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    return value if isinstance(value, (int, str)) or value is None else repr(value)


def outcome(call: Callable[[], object], kernel: ModuleType) -> object:
    """What ``call`` gives on ``kernel``: its value, plainly, or the bleuprint error it raises
    (any other exception propagates: a failure)."""
    with running_on(kernel), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (the warnings of layouts and orders are tested alone)
        try:
            return plain(call())
        except BLEUError as error:
            return ("error", type(error).__name__, str(error))


def same_on_both_kernels(call: Callable[[], object]) -> None:
    """``call`` gives the same outcome on the compiled kernel and on its twin."""
    outcomes = [outcome(call, kernel) for kernel in KERNELS]
    assert all(found == outcomes[-1] for found in outcomes), outcomes


# -- engines ------------------------------------------------------------------------------------


def tokenizer_of(case: Case) -> tokenizers.Tokenizer:
    """The built-in tokenizer the case names (whitespace for token lists), lowercased or not."""
    built_in: dict[str, tokenizers.Tokenizer] = {
        "13a": tokenizers.Mteval13a(),
        "char": tokenizers.Chars(),
    }
    tokenizer = built_in.get(case.tokenizer, tokenizers.Whitespace())
    return tokenizers.Lowercase(tokenizer) if case.lowercase else tokenizer


def engine(case: Case, **parts: Any) -> BLEUScore:
    """An engine of the case's tokenizer and order, and ``parts``: built in the call, so that
    nothing it caches outlives one kernel's run."""
    return BLEUScore(tokenizer=tokenizer_of(case), ngrams=ngrams.Contiguous(case.max_n), **parts)


def segments(case: Case) -> tuple[list[Any], list[list[Any]]]:
    """The case's hypotheses and references: texts, or whitespace-split token lists (lists, or
    tuples where the variant's low bit is set)."""
    if case.tokenizer != "tokens":
        return case.hypotheses, case.references
    container: Callable[[list[str]], Any] = tuple if case.variant & 1 else list
    return (
        [container(text.split()) for text in case.hypotheses],
        [[container(text.split()) for text in texts] for texts in case.references],
    )


# -- hostile tokens --------------------------------------------------------------------------


class Meddling:
    """A token that empties the list it came in when it is hashed (or compared): a user's
    tokenizer may return any hashable tokens (issue 30)."""

    def __init__(self, word: str, tokens: list[Meddling], in_eq: bool) -> None:
        self.word, self.tokens, self.in_eq = word, tokens, in_eq

    def __hash__(self) -> int:
        if not self.in_eq:
            self.tokens.clear()
        return hash(self.word)

    def __eq__(self, other: object) -> bool:
        if self.in_eq:
            self.tokens.clear()
        return isinstance(other, Meddling) and other.word == self.word


@attrs.frozen
class UserTokenizer:
    """A user's tokenizer (one the kernel cannot run itself): words split on the variant's
    character, as str tokens, or as meddling ones (``Meddling``)."""

    separator: str
    meddling: bool
    in_eq: bool
    signature: str = "fuzz"

    def __call__(self, text: str) -> list[Hashable]:
        words = text.split(self.separator)
        if not self.meddling:
            return list(words)
        tokens: list[Meddling] = []
        tokens.extend(Meddling(word, tokens, self.in_eq) for word in words)
        return list(tokens)


def user_engine(case: Case) -> BLEUScore:
    """An engine of the case's order and the variant's user tokenizer: bits 0-1 the separator,
    bit 2 meddling tokens, bit 3 meddling in ``__eq__`` rather than ``__hash__``."""
    separator = (" ", ",", "a", "\u3000")[case.variant & 3]
    tokenizer = UserTokenizer(separator, bool(case.variant & 4), bool(case.variant & 8))
    return BLEUScore(tokenizer=tokenizer, ngrams=ngrams.Contiguous(case.max_n))


# -- token ids --------------------------------------------------------------------------------


def token_id(token: str) -> int:
    """A token read as an id: the integer it spells (any size, negative too), else the sum of
    its code points."""
    try:
        return int(token)
    except ValueError:
        return sum(map(ord, token))


def as_ids(text: str, variant: int) -> Any:
    """A text's tokens as ids: a list, a tuple (variant bit 0) or an int64 array (bit 1, where
    every id fits)."""
    ids = [token_id(token) for token in text.split()]
    if variant & 2 and all(-(2**63) <= value < 2**63 for value in ids):
        return np.array(ids, np.int64)
    return tuple(ids) if variant & 1 else ids


# -- the targets ----------------------------------------------------------------------------

Target = Callable[[bytes], None]
TARGETS: dict[str, Target] = {}
"""The fuzz targets by name, each named after the kernel entry point it drives."""


def target(function: Target) -> Target:
    TARGETS[function.__name__] = function
    return function


@target
def tokenize_texts(data: bytes) -> None:
    """``tokenize_texts`` through sacreBLEU's 13a tokenizer, one text and many at once."""
    case = case_of(data)
    texts = [*case.hypotheses, *(text for texts in case.references for text in texts)]
    tokenizer = tokenizers.Mteval13a()
    same_on_both_kernels(lambda: [tokenizer(text) for text in texts])
    same_on_both_kernels(lambda: list(tokenizer.tokenize_batch(texts)))


@target
def count_texts(data: bytes) -> None:
    """``count_texts``: a corpus of texts (built-in tokenizers, lowercased or not) or of string
    tokens, counted and scored whole."""
    case = case_of(data)
    hypotheses, references = segments(case)
    same_on_both_kernels(lambda: engine(case).count_segments(hypotheses, references))
    same_on_both_kernels(lambda: engine(case).corpus_score(hypotheses, references))
    same_on_both_kernels(lambda: lines_counted(case, data[2:]))


def lines_counted(case: Case, text: bytes) -> object:
    """The fuzzer's bytes as blocks of lines (not always UTF-8; the first tab-separated field
    of each line a hypothesis, the second its reference), as files are read: counted from the
    blocks, or what is wrong with them."""
    fields = [line.split(b"\t") for line in text.split(b"\n")]
    hypotheses = b"\n".join(line[0] for line in fields)
    references = b"\n".join((line[1:] or line[:1])[0] for line in fields)
    try:
        return engine(case).counting.count_lines(hypotheses, [references])
    except UnicodeDecodeError as error:
        return ("not UTF-8", str(error))


@target
def intern_texts(data: bytes) -> None:
    """``Vocabulary.intern_texts`` (and ``intern_tokens``): a user's tokenizer, its tokens
    str or meddling ones, then ``shared_ngram_counts`` on their ids."""
    case = case_of(data)
    hypotheses, references = case.hypotheses, case.references
    same_on_both_kernels(lambda: user_engine(case).count_segments(hypotheses, references))
    same_on_both_kernels(lambda: user_engine(case).sentence_scores(hypotheses, references).scores)


@target
def shared_ngram_counts(data: bytes) -> None:
    """``shared_ngram_counts`` (and ``flat_ids``): a corpus of token ids, of any size and sign,
    as lists, tuples or arrays."""
    case = case_of(data)
    hypotheses = [as_ids(text, case.variant) for text in case.hypotheses]
    references = [[as_ids(text, case.variant) for text in texts] for texts in case.references]
    same_on_both_kernels(lambda: engine(case).count_segments(hypotheses, references))
    same_on_both_kernels(lambda: engine(case).corpus_score(hypotheses, references))


@target
def sentence_scores(data: bytes) -> None:
    """``count_texts`` on a chunk of one: sentence scores, one segment at a time, of texts,
    string tokens, or texts of a user's tokenizer (variant bit 4)."""
    case = case_of(data)
    hypotheses, references = segments(case)
    build = user_engine if case.variant & 16 else engine
    for hypothesis, texts in zip(hypotheses, references):
        same_on_both_kernels(lambda: build(case).sentence_score(hypothesis, texts))  # noqa: B023


@target
def ngram_labels(data: bytes) -> None:
    """``ngram_labels``: pairwise scores and MBR of groups (each line one group of
    candidates), as texts or as token ids (variant bit 4; negative ids never match)."""
    case = case_of(data)
    groups: list[list[Any]] = [[text, *texts] for text, texts in zip(*case[4:])]
    if case.variant & 16:
        groups = [[as_ids(text, case.variant) for text in group] for group in groups]
    same_on_both_kernels(lambda: engine(case).pairwise_scores(groups))
    same_on_both_kernels(lambda: [choice.utilities for choice in engine(case).mbr(groups)])


SMOOTHERS = (smoothing.NoSmoothing, smoothing.Exp, smoothing.Floor, smoothing.AddK)


@target
def weighted_geometric_means(data: bytes) -> None:
    """``weighted_geometric_means`` (and its sum, ``rounded_sum``): sentence and corpus
    scores under weights read from the first line (numbers separated by tabs, any float;
    effective orders where none reads), smoothed as the variant's low bits choose."""
    case = case_of(data)
    numbers = []
    for field in [case.hypotheses[0], *case.references[0]]:
        with contextlib.suppress(ValueError):
            numbers.append(float(field))
    try:
        chosen = weights.Explicit(tuple(numbers)) if numbers else weights.EffectiveOrder()
    except BLEUError:  # (a weight that is not a finite number of at least 0: refused alone)
        chosen = weights.Uniform()
    parts = {
        "weights": chosen,
        "smoothing": SMOOTHERS[case.variant & 3](),
        "reference_length": brevity.Shortest() if case.variant & 4 else brevity.Closest(),
    }
    hypotheses, references = segments(case)
    same_on_both_kernels(lambda: engine(case, **parts).sentence_scores(hypotheses, references))
    same_on_both_kernels(lambda: engine(case, **parts).corpus_score(hypotheses, references))


@target
def tally(data: bytes) -> None:
    """``tally``: how often a bootstrap resample of a long corpus draws each segment, a byte a
    segment, modulo 256, called directly (bleuprint reaches it only past 65,536 segments):
    as many counts as the first byte says, each starting at the second byte's value (near 255,
    counts come round), a draw a byte of the rest (one past the counts is refused, and must
    change nothing)."""
    size, start = data[:2].ljust(2, b"\0")
    draws = np.frombuffer(data[2:], np.uint8).astype(np.int64)
    outcomes = []
    for kernel in KERNELS:
        counts = np.full(size, start, np.uint8)
        try:
            around: object = sorted(kernel.tally(counts, draws).tolist())
        except ValueError as error:
            around = str(error)
        outcomes.append((counts.tolist(), around))
    assert all(found == outcomes[-1] for found in outcomes), outcomes


@target
def weighted_rows(data: bytes) -> None:
    """``weighted_rows``: a bootstrap resample's sums from its tallies, called directly
    (bleuprint reaches it only past 65,536 segments): rows of as many numbers as the first
    byte's low bits say (0 to 7; none is refused), a weight and a row's numbers a byte each
    from the rest (a row cut short is left out), the weights one fewer than the rows where
    the second byte's low bit is set (refused)."""
    columns = (data[0] & 7) if data else 1
    width = columns + 1
    numbers = np.frombuffer(data[2:], np.uint8)
    numbers = numbers[: len(numbers) // width * width].reshape(-1, width)
    weights, rows = numbers[:, 0].copy(), numbers[:, 1:].copy()
    if len(data) > 1 and data[1] & 1:
        weights = weights[1:].copy()
    outcomes = []
    for kernel in KERNELS:
        try:
            outcomes.append([part.tolist() for part in kernel.weighted_rows(weights, rows)])
        except ValueError as error:
            outcomes.append(str(error))
    assert all(found == outcomes[-1] for found in outcomes), outcomes


@target
def line_ends(data: bytes) -> None:
    """``line_ends``: where the partitions ``--jobs`` cuts aligned files into start, found by
    scanning them a block at a time (blocks of 1 to 64 bytes, from the variant's low bits, so
    that lines straddle them), in partitions of 1 to 8 lines (the options' low bits); the
    first field of each line is the hypothesis file's line, the second the reference file's
    (which loses its last line where the variant's bit 6 is set: files of different
    lengths)."""
    case = case_of(data)
    fields = [line.split(b"\t") for line in data[2:].split(b"\n")]
    hypotheses = b"\n".join(line[0] for line in fields)
    lines = [(line[1:] or line[:1])[0] for line in fields]
    references = b"\n".join(lines[:-1] if case.variant & 64 and len(lines) > 1 else lines)
    every = 1 + (data[0] & 7 if data else 0)
    with tempfile.TemporaryDirectory() as folder:
        paths = [str(Path(folder, name)) for name in ("hyp.txt", "ref.txt")]
        for path, text in zip(paths, (hypotheses, references)):
            Path(path).write_bytes(text)
        block = 1 + (case.variant & 63)
        with mock.patch.object(_io.LineLayout, "BLOCK", block):
            same_on_both_kernels(lambda: _io.line_layouts(paths, every))
