"""Both kernels, the compiled one and its plain-Python twin, against the definitions they
must reproduce (Counters, the scalar arithmetic, math.fsum) and against each other, exactly."""

from __future__ import annotations

import ast
import functools
import inspect
import itertools
import math
import os
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from bleuprint import _counting, _kernels, _scoring, tokenizers
from bleuprint._kernels import _python
from tests import oracle


def compiled_kernel() -> ModuleType | None:
    try:
        from bleuprint._kernels import _compiled  # noqa: PLC0415 (absent where not built)
    except ImportError:
        return None
    return _compiled


COMPILED = compiled_kernel()
# Where the extension must have been built (CI), its absence fails rather than skips.
NOT_BUILT = pytest.mark.skipif(
    COMPILED is None and os.environ.get("BLEUPRINT_REQUIRE_COMPILED") != "1",
    reason="the compiled kernel is not built (pip install . builds it, with a C compiler)",
)
KERNELS = [
    pytest.param(_python, id="python"),
    pytest.param(COMPILED, id="compiled", marks=NOT_BUILT),
]
both_kernels = pytest.mark.parametrize("kernel", KERNELS)


def compiled() -> ModuleType:
    assert COMPILED is not None, "the compiled kernel is not built (BLEUPRINT_REQUIRE_COMPILED=1)"
    return COMPILED


# -- counting ---------------------------------------------------------------------------------


def ngrams(tokens: list[int], n: int) -> list[tuple[int, ...]]:
    return [tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1)]


def shared_by_counter(
    texts: list[list[int]], hypotheses: list[int], references: list[list[int]], max_n: int
) -> tuple[list[list[int]], list[tuple[int, int, int]]]:
    """The kernel's output straight from its definition: for each segment and order, every
    distinct hypothesis n-gram that a reference has, in order of first occurrence, with its
    count in the hypothesis and its most in one reference; the (1, 1) ones only counted."""
    singles = [[0] * max_n for _ in hypotheses]
    repeated = []
    for segment, (hypothesis, refs) in enumerate(zip(hypotheses, references)):
        for n in range(1, max_n + 1):
            in_references = [Counter(ngrams(texts[ref], n)) for ref in refs]
            for gram, times in Counter(ngrams(texts[hypothesis], n)).items():
                most = max(counts[gram] for counts in in_references)
                if (times, most) == (1, 1):
                    singles[segment][n - 1] += 1
                elif most:
                    repeated.append((segment * max_n + n - 1, times, most))
    return singles, repeated


def kernel_arguments(
    texts: list[list[int]], hypotheses: list[int], references: list[list[int]], max_n: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, int, int]:
    lengths = [len(text) for text in texts]
    return (
        np.array([token for text in texts for token in text], np.int64),
        np.cumsum([0, *lengths]),
        np.array(hypotheses, np.int64),
        np.array([text for refs in references for text in refs], np.int64),
        np.cumsum([0, *map(len, references)]),
        1 + max((token for text in texts for token in text), default=-1),
        max_n,
    )


TOKENS = st.lists(st.integers(0, 3), max_size=12)  # few kinds: n-grams repeat often


@st.composite
def segments(draw: st.DrawFn) -> tuple[list[list[int]], list[int], list[list[int]], int]:
    texts = draw(st.lists(TOKENS, min_size=1, max_size=8))
    numbers = st.integers(0, len(texts) - 1)
    hypotheses = draw(st.lists(numbers, max_size=6))
    references = [draw(st.lists(numbers, min_size=1, max_size=3)) for _ in hypotheses]
    return texts, hypotheses, references, draw(st.integers(1, 7))


@both_kernels
@given(segments())
@example(([[0, 0, 0, 0], [0, 0]], [0, 1, 0], [[1], [0], [1, 0]], 3))
@example(([[], [0]], [0, 1], [[1], [0]], 4))  # an empty hypothesis, an empty reference
def test_shared_ngrams_are_the_definitions(
    kernel: ModuleType, case: tuple[list[list[int]], list[int], list[list[int]], int]
) -> None:
    singles, repeated = kernel.shared_ngram_counts(*kernel_arguments(*case))
    expected_singles, expected_repeated = shared_by_counter(*case)
    assert (singles.dtype, repeated.dtype) == (np.int64, np.int64)
    assert singles.tolist() == expected_singles
    assert [tuple(row) for row in repeated.tolist()] == expected_repeated


@NOT_BUILT
@given(segments())
def test_the_kernels_count_alike(
    case: tuple[list[list[int]], list[int], list[list[int]], int],
) -> None:
    arguments = kernel_arguments(*case)
    compiled_counts = compiled().shared_ngram_counts(*arguments)
    python_counts = _python.shared_ngram_counts(*arguments)
    for got, expected in zip(compiled_counts, python_counts, strict=True):
        assert (got.shape, got.tolist()) == (expected.shape, expected.tolist())


@both_kernels
def test_a_long_segment_and_many_repeated_ngrams(kernel: ModuleType) -> None:
    # More rows of repeated n-grams than the compiled kernel's first allocation holds, and a
    # hypothesis long enough to grow its hash table.
    rng = np.random.default_rng(12)
    texts = [rng.integers(0, 10, 5000).tolist() for _ in range(4)]
    case = texts, [0, 1, 2], [[1, 2], [3], [0, 1, 3]], 4
    singles, repeated = kernel.shared_ngram_counts(*kernel_arguments(*case))
    expected_singles, expected_repeated = shared_by_counter(*case)
    assert len(expected_repeated) > 4096
    assert singles.tolist() == expected_singles
    assert [tuple(row) for row in repeated.tolist()] == expected_repeated


def good_arguments() -> list[object]:
    return list(kernel_arguments([[0, 1], [1]], [0], [[1]], 2))


BAD_ARGUMENTS = [
    (0, [[0, 1]], "token_ids must be a 1-dimensional array, got 2 dimensions"),
    (6, 0, "max_n must be at least 1, got 0"),
    (5, -1, "vocabulary_size must not be negative, got -1"),
    (5, 1, r"token_ids\[1\] is 1, not in range\(1\)"),
    (0, [0, -1, 1], r"token_ids\[1\] is -1, not in range\(2\)"),
    (1, [0, 2, 9], "text_starts must hold the start of every text"),
    (1, [], "text_starts must hold the start of every text"),
    (1, [0, 3, 2], r"text_starts must not decrease \(at 2\)"),
    (2, [2], r"hypothesis_texts\[0\] is 2, not a text number below 2"),
    (3, [0, -1], r"reference_texts\[1\] is -1, not a text number below 2"),
    (4, [0], "reference_offsets must hold one offset per segment and one more"),
    (4, [0, 2], "reference_offsets must hold one offset per segment and one more"),
    (4, [1, 0], r"reference_offsets must not decrease \(at 1\)"),
]


@both_kernels
@pytest.mark.parametrize(("position", "value", "message"), BAD_ARGUMENTS)
def test_inconsistent_tables_are_refused_by_name(
    kernel: ModuleType, position: int, value: object, message: str
) -> None:
    arguments = good_arguments()
    arguments[position] = value
    with pytest.raises(ValueError, match=message):
        kernel.shared_ngram_counts(*arguments)


# -- token ids given as Python ints ---------------------------------------------------------


@both_kernels
@given(
    st.lists(
        st.lists(st.integers(-(2**63), 2**63 - 1), max_size=6).map(
            lambda ids: ids if len(ids) % 2 else tuple(ids)  # lists and tuples
        ),
        max_size=6,
    )
)
@example([[1], []])  # an empty list (its items may be no array at all), not an empty tuple
@example([[2**30 - 1, 2**30, -(2**30) + 1, -(2**30)], [0, -1, 2**60, -(2**60)]])  # (digits)
def test_flat_ids_lay_python_ints_end_to_end(
    kernel: ModuleType, sequences: list[list[int] | tuple[int, ...]]
) -> None:
    read = kernel.flat_ids(sequences)
    assert read is not None
    ids, lengths = read
    assert ids.dtype == lengths.dtype == np.int64
    assert ids.tolist() == [token for sequence in sequences for token in sequence]
    assert lengths.tolist() == [len(sequence) for sequence in sequences]


@both_kernels
@pytest.mark.parametrize(
    "sequences",
    [
        [[1, 2], [3, True]],  # a bool is no id (numpy would read it as 1)
        [[1, 2], [2**63]],  # beyond 64 bits
        [[-(2**63) - 1]],
        [[1, np.int64(2)]],  # a numpy integer: read one by one, as numpy reads it
        [[1, 2.0]],
        [[1, "2"]],
        [[1, [2]]],
        [[1], np.array([2])],
        [[1], "12"],
        [range(3)],
    ],
)
def test_flat_ids_leave_anything_but_ints_of_64_bits_to_the_caller(
    kernel: ModuleType, sequences: list[Any]
) -> None:
    assert kernel.flat_ids(sequences) is None


def long_call(name: str) -> Callable[[], object]:
    """A call of the compiled kernel that spends nearly all its time in a GIL-free loop: one
    long segment to count, or 48 MB of short lines to scan."""
    if name == "shared_ngram_counts":
        rng = np.random.default_rng(7)
        texts = [rng.integers(0, 2000, 400_000).tolist() for _ in range(2)]
        arguments = kernel_arguments(texts, [0], [[1]], 4)
        return lambda: compiled().shared_ngram_counts(*arguments)
    lines = b"ab\n" * (1 << 24)
    return lambda: compiled().line_ends(lines, 1024, 0)


@NOT_BUILT
@pytest.mark.timing
@pytest.mark.parametrize("name", ["shared_ngram_counts", "line_ends"])
def test_the_compiled_kernel_loops_without_the_gil(name: str) -> None:
    # A thread that held the GIL throughout the call would leave this one a gap as long as
    # the call.
    call = long_call(name)
    span: list[float] = []

    def count() -> None:
        span.append(time.perf_counter())
        call()
        span.append(time.perf_counter())

    worker = threading.Thread(target=count)
    samples = []
    worker.start()
    while worker.is_alive():
        samples.append(time.perf_counter())
    worker.join()
    start, end = span
    inside = [start, *(sample for sample in samples if start < sample < end), end]
    longest_gap = max(b - a for a, b in itertools.pairwise(inside))
    assert end - start > 0.02, "too short a call to tell"
    assert longest_gap < (end - start) / 2


def test_chunks_are_counted_by_the_chosen_kernel() -> None:
    from bleuprint import _kernels  # noqa: PLC0415

    assert _counting.kernel is _kernels.kernel
    pure = os.environ.get("BLEUPRINT_PURE_PYTHON") == "1" or COMPILED is None
    assert ("python" if pure else "compiled") == _kernels.KERNEL
    assert _kernels.kernel is (_python if pure else COMPILED)


def stub_parameters(arguments: ast.arguments, method: bool) -> list[tuple[str, str]]:
    """A stub's parameters as (name, kind), as :mod:`inspect` names the kinds."""
    given = [
        *((argument.arg, "POSITIONAL_ONLY") for argument in arguments.posonlyargs),
        *((argument.arg, "POSITIONAL_OR_KEYWORD") for argument in arguments.args),
        *((argument.arg, "KEYWORD_ONLY") for argument in arguments.kwonlyargs),
    ]
    return given[1:] if method else given


def twin_parameters(function: Any) -> list[tuple[str, str]]:
    parameters = inspect.signature(function).parameters.values()
    return [(parameter.name, parameter.kind.name) for parameter in parameters]


def test_the_compiled_stub_states_the_twins_interface() -> None:
    # _compiled.pyi is what a type checker reads of the C extension: it must name every public
    # function and class of the twin (its __all__), with the same parameters, and nothing else.
    stub = ast.parse(Path(_python.__file__).with_name("_compiled.pyi").read_text("utf-8"))
    stubbed: dict[str, list[tuple[str, str]]] = {}
    for node in stub.body:
        if isinstance(node, ast.FunctionDef):
            stubbed[node.name] = stub_parameters(node.args, method=False)
        elif isinstance(node, ast.ClassDef):
            for method in node.body:
                if isinstance(method, ast.FunctionDef):
                    stubbed[f"{node.name}.{method.name}"] = stub_parameters(method.args, True)
    twin: dict[str, list[tuple[str, str]]] = {}
    for name in _python.__all__:
        value = getattr(_python, name)
        if not inspect.isclass(value):
            twin[name] = twin_parameters(value)
            continue
        for method_name, method in vars(value).items():
            if method_name == "__len__" or not method_name.startswith("_"):
                twin[f"{name}.{method_name}"] = twin_parameters(method)[1:]  # (self)
    assert stubbed == twin
    if COMPILED is not None:  # and the extension has every name the stub gives it
        for name in stubbed:
            owner, _, attribute = name.rpartition(".")
            assert hasattr(getattr(COMPILED, owner) if owner else COMPILED, attribute), name


# -- tokens ------------------------------------------------------------------------------------

# The built-in tokenizers the compiled kernel runs itself, by its names and sacreBLEU's.
BUILT_IN = {"whitespace": "none", "13a": "13a", "char": "char"}


def twin_13a(text: str) -> list[str]:
    """13a as the plain-Python kernel, the reference, gives it (tokenizers.Mteval13a calls the
    chosen kernel, so it would compare the compiled one with itself)."""
    return _python.tokenize_texts([text], "13a")[0]


PYTHON_TOKENIZERS: dict[str, Callable[[str], list[str]]] = {
    "whitespace": tokenizers.Whitespace(),
    "13a": twin_13a,
    "char": tokenizers.Chars(),
}


def interned_by_dict(streams: list[list[Any]]) -> tuple[list[int], list[int], int]:
    """Token ids from their definition: each new token the next number, in order of sight."""
    ids: dict[Any, int] = {}
    numbered = [ids.setdefault(token, len(ids)) for stream in streams for token in stream]
    return numbered, [len(stream) for stream in streams], len(ids)


TOKEN = st.sampled_from(["a", "b", "ab", "", "é", "中", "\U00020000", "a b", 1, 1.5, (1, 2)])


@both_kernels
@given(st.lists(st.lists(TOKEN, max_size=6), max_size=6), st.integers(1, 3))
def test_tokens_get_ids_in_order_of_first_sight(
    kernel: ModuleType, streams: list[list[Any]], calls: int
) -> None:
    # Over several calls on one vocabulary; tokens need not be strings (any hashable).
    vocabulary = kernel.Vocabulary()
    ids, lengths = [], []
    for part in range(calls):
        part_ids, part_lengths = vocabulary.intern_tokens(iter(streams[part::calls]))
        assert (part_ids.dtype, part_lengths.dtype) == (np.int64, np.int64)
        ids += part_ids.tolist()
        lengths += part_lengths.tolist()
    in_order = [stream for part in range(calls) for stream in streams[part::calls]]
    assert (ids, lengths, len(vocabulary)) == interned_by_dict(in_order)


# Texts around what the tokenizers look at: digits, periods, commas, dashes, escapes, line
# breaks, spaces of every kind, characters of every width.
PIECES = ["a", "É", "1", "9", ".", ",", "-", "'", "$", "&", "amp;", "quot;", "lt;", "gt;", " "]
PIECES += ["\t", "\n", "\r", "\u00a0", "\u2028", "\u3000", "中", "\U00020000", "<skipped>", "<"]
TEXT = st.lists(st.sampled_from(PIECES), max_size=16).map("".join)


@both_kernels
@pytest.mark.parametrize("name", sorted(BUILT_IN))
@given(texts=st.lists(TEXT, max_size=6))
def test_built_in_tokenizers_intern_the_python_tokens(
    kernel: ModuleType, name: str, texts: list[str]
) -> None:
    python_tokenizer = PYTHON_TOKENIZERS[name]
    vocabulary = kernel.Vocabulary()
    ids, lengths = vocabulary.intern_texts(
        texts, name, lambda given: list(map(python_tokenizer, given))
    )
    expected = interned_by_dict([python_tokenizer(text) for text in texts])
    assert (ids.tolist(), lengths.tolist(), len(vocabulary)) == expected


@both_kernels
def test_a_user_tokenizer_gives_the_tokens(kernel: ModuleType) -> None:
    seen = []

    def tokenize(texts: list[str]) -> list[list[str]]:
        seen.append(texts)
        return [text.upper().split("-") for text in texts]

    ids, lengths = kernel.Vocabulary().intern_texts(["a-b", "b-c"], None, tokenize)
    assert (ids.tolist(), lengths.tolist(), seen) == ([0, 1, 1, 2], [2, 2], [["a-b", "b-c"]])
    with pytest.raises(ValueError, match="tokenizer must be one of 'whitespace', '13a', 'char'"):
        kernel.Vocabulary().intern_texts(["a"], "intl", tokenize)


@NOT_BUILT
def test_the_compiled_tokenizers_are_sacrebleus_on_every_code_point() -> None:
    from sacrebleu.metrics import BLEU  # noqa: PLC0415

    code_points = [chr(c) for c in range(0x10000)]
    code_points += [chr(c) for c in range(0x10000, sys.maxunicode + 1, 61)]
    # Each character between letters, digits, periods and an escape, and at either end.
    texts = [f"{c}a{c}b 1{c}2 .{c}, &amp{c};{c}1.{c}-{c}" for c in code_points]
    for name, sacrebleu_name in BUILT_IN.items():
        preprocess = BLEU(tokenize=sacrebleu_name)._preprocess_segment
        assert compiled().tokenize_texts(texts, name) == [preprocess(t).split() for t in texts]


@NOT_BUILT
def test_the_compiled_13a_is_sacrebleus_on_every_code_point_within_words() -> None:
    from sacrebleu.metrics import BLEU  # noqa: PLC0415

    # Each character inside and after long words, of ASCII letters and of Cyrillic ones (a
    # str of two bytes a character), where 13a's kernel reads a word's letters 16 bytes at a
    # time; no escape or pair of marks, so its one pass reads them all.
    code_points = [chr(c) for c in range(0x10000)]
    code_points += [chr(c) for c in range(0x10000, sys.maxunicode + 1, 61)]
    words = ("abcdefghijklmnopqrstuvwxyz", "абвгдежзийклмнопрстуфхцчшщ")
    texts = [
        f"{word[:5]}{c}{word}{c}{c}{word[3:]} {word[:17]}{c}" for c in code_points for word in words
    ]
    preprocess = BLEU(tokenize="13a")._preprocess_segment
    assert compiled().tokenize_texts(texts, "13a") == [preprocess(t).split() for t in texts]


@functools.cache
def wmt22_tokens(folder: Path) -> tuple[list[str], dict[str, list[list[str]]]]:
    """Every distinct line of every WMT22 file in the folder (references and systems), and
    its tokens by sacreBLEU's tokenizer of each built-in name (found once: seconds)."""
    from sacrebleu.metrics import BLEU  # noqa: PLC0415

    lines: dict[str, None] = {}
    for path in sorted(folder.glob("*/*.txt")):
        lines.update(dict.fromkeys(path.read_text(encoding="utf-8").split("\n")))
    tokens = {
        name: [BLEU(tokenize=sacrebleu_name)._preprocess_segment(line).split() for line in lines]
        for name, sacrebleu_name in BUILT_IN.items()
    }
    return list(lines), tokens


@both_kernels
def test_the_kernels_tokenize_every_wmt22_line_as_sacrebleu(
    kernel: ModuleType, shared: Any
) -> None:
    # sacreBLEU's own tokenizers on real text of six language pairs, through the kernels'
    # interning and the compiled one's token lists.
    lines, tokens = wmt22_tokens(shared("data", "wmt22"))
    assert len(lines) > 70_000  # (76,195)
    # The twin (whose tokenizers are Python's own) on every fourth line: the minutes of the
    # suite go to the compiled kernel, which is checked on every line.
    every = 1 if kernel is COMPILED else 4
    for name, all_expected in tokens.items():
        some, expected = lines[::every], all_expected[::every]
        python_tokenizer = functools.partial(map, PYTHON_TOKENIZERS[name])
        ids, lengths = kernel.Vocabulary().intern_texts(some, name, python_tokenizer)
        assert (ids.tolist(), lengths.tolist()) == interned_by_dict(expected)[:2]
        if kernel is COMPILED:
            assert kernel.tokenize_texts(lines, name) == all_expected


# -- a token's id, whatever the str it is in --------------------------------------------------

# CPython keeps a str in the narrowest of three kinds (1, 2 or 4 bytes a character) that holds
# its widest character, so one token is read from texts of every kind; the compiled kernel
# keeps tokens of up to 15 bytes (in their own narrowest kind) in its table's slots, longer
# ones apart. Characters at the kinds' edges, NUL (which pads short keys) and tokens that
# are the same bytes in two kinds ("\x00\x01" and "\u0100").
EDGE_CHARS = ["a", "\x00", "\x01", "\xe9", "\xff", "\u0100", "\u20ac", "\uffff"]
EDGE_CHARS += ["\U00010000", "\U0001d11e"]
EDGE_TOKEN = st.lists(st.sampled_from(EDGE_CHARS), min_size=1, max_size=17).map("".join)
WIDER = ["", " \u20ac", " \U0001d11e"]  # leaves a text's kind as it is, or widens it
TAILS = [" " + "a" * 16, " " + "\u20ac" * 9]  # (16 bytes and more, in kinds 1 and 2)


def widened(texts: list[str]) -> list[str]:
    return [text + wider for text in texts for wider in WIDER]


@both_kernels
@pytest.mark.parametrize("name", sorted(BUILT_IN))
@given(st.lists(st.lists(EDGE_TOKEN, max_size=5).map(" ".join), max_size=4))
@example(["\x00\x01 \u0100 \x00\x01\x00\x00 \u0100\x00 " + "\x00\x01" * 4 + " " + "\u0100" * 4])
@example(["a a\x00 a\x00\x00 \x00a \x00 \x00\x00", "\xe9", "\xe9\u20ac", "\xe9 \u20ac"])
@example(["aaaaaaa aaaaaaaa \u0100\u0100\u0100 \u0100\u0100\u0100\u0100 \U00010000\U00010000"])
@example(["a" * 15 + " " + "a" * 16 + " " + "\u0100" * 7 + " " + "\u0100" * 8 + " " + "\xe9" * 8])
def test_a_token_has_one_id_in_strs_of_every_kind(
    kernel: ModuleType, name: str, texts: list[str]
) -> None:
    python_tokenizer = PYTHON_TOKENIZERS[name]
    # (and longer tails, that let the compiled kernel read 16 bytes from any token on: a
    # short one's key is then made from one load)
    texts = widened(texts) + [text + tail for text in texts for tail in TAILS]
    vocabulary = kernel.Vocabulary()
    ids, lengths = vocabulary.intern_texts(texts, name, functools.partial(map, python_tokenizer))
    expected = interned_by_dict([python_tokenizer(text) for text in texts])
    assert (ids.tolist(), lengths.tolist(), len(vocabulary)) == expected
    # The same tokens as str objects (each of its own narrowest kind) get the same ids.
    again, _ = vocabulary.intern_tokens([python_tokenizer(text) for text in texts])
    assert again.tolist() == ids.tolist()


@both_kernels
def test_long_tokens_and_many_distinct_ones_keep_their_ids(kernel: ModuleType) -> None:
    # 200,000 distinct tokens grow the table from its first 1,024 slots, over two calls;
    # short and long ones, a long one of 100,000 characters, each also in a wider text.
    tokens = [f"{k:x}" for k in range(100_000)] + [f"token-{k}-\xe9" for k in range(100_000)]
    texts = [" ".join(tokens[k : k + 50]) for k in range(0, len(tokens), 50)]
    texts += widened(["\xe9" * 100_000, "\u0100" * 100_000, "\U00010000" * 100_000])
    split = functools.partial(map, str.split)
    vocabulary = kernel.Vocabulary()
    ids, lengths = [], []
    for part in (texts[::2], texts[1::2], texts):
        part_ids, part_lengths = vocabulary.intern_texts(part, "whitespace", split)
        ids += part_ids.tolist()
        lengths += part_lengths.tolist()
    streams = [text.split() for part in (texts[::2], texts[1::2], texts) for text in part]
    assert (ids, lengths, len(vocabulary)) == interned_by_dict(streams)
    assert len(vocabulary) == 200_005  # (and "\u20ac", "\U0001d11e")


# Every character str.split() splits on (U+001C..U+001F and U+0085 among them).
WHITESPACE = [chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace()]


def test_whitespace_is_latin_1_or_in_the_compiled_kernels_range() -> None:
    # The compiled kernel looks up what is below 256 in a table and asks Python about
    # U+1680..U+3000 only.
    assert [c for c in WHITESPACE if 256 <= ord(c) < 0x1680 or ord(c) > 0x3000] == []
    assert len(WHITESPACE) == 29


@both_kernels
@pytest.mark.parametrize("name", sorted(BUILT_IN))
def test_texts_split_on_every_whitespace_and_may_have_no_token(
    kernel: ModuleType, name: str
) -> None:
    python_tokenizer = PYTHON_TOKENIZERS[name]
    tokenize = functools.partial(map, python_tokenizer)
    texts = widened([f"{c}a{c}b\xe9{c}{c}" for c in WHITESPACE] + ["".join(WHITESPACE), ""])
    vocabulary = kernel.Vocabulary()
    ids, lengths = vocabulary.intern_texts(texts, name, tokenize)
    expected = interned_by_dict([python_tokenizer(text) for text in texts])
    assert (ids.tolist(), lengths.tolist(), len(vocabulary)) == expected
    assert lengths.tolist()[-6:] == [0, 1, 1, 0, 1, 1]  # (only spaces; nothing)
    empty_ids, empty_lengths = kernel.Vocabulary().intern_texts([], name, tokenize)
    assert (empty_ids.tolist(), empty_lengths.tolist()) == ([], [])


# Pieces of what 13a's rules look at, among runs of letters and spaces of any length (the
# compiled kernel takes runs of characters no rule looks at in one step).
RULE_PIECES = ["a.,5", "1,000.5", "&quot;", "&amp;", "-\n", "\n", "<skipped>", ".", ",", "-"]
RULE_PIECES += ["1", "9", "$", "%", "'", "(", "é", "中", " ", "  ", "\t", "\u3000"]
RUN = st.text(alphabet="ab ", min_size=1, max_size=7)
RULE_TEXT = st.lists(st.sampled_from(RULE_PIECES) | RUN, max_size=14).map("".join)


@NOT_BUILT
@given(st.lists(RULE_TEXT, min_size=1, max_size=4))
@example(["ab.,5 abc-1 1-abc 1,000.50 x.y abc.,"])
@example(["abcd.", ".abcd", "abc-", "1abcd", "abcd1.", "a,b,cd ,abc"])
def test_the_compiled_13a_is_sacrebleus_on_text_of_its_rules(texts: list[str]) -> None:
    from sacrebleu.metrics import BLEU  # noqa: PLC0415

    preprocess = BLEU(tokenize="13a")._preprocess_segment  # (Tokenizer13a, after rstrip)
    expected = [preprocess(text).split() for text in texts]
    assert compiled().tokenize_texts(texts, "13a") == expected


EDGES = ["a.,5", "1.-G", "&amp;lt;b&amp;gt;", "a-\n", "x-\ny", "<skip<skipped>ped>", ""]
EDGES += [
    " \t\u3000 ",
    "1,000.50-20%!",
    "-\n5",
    "\n.",
    ".\n",
    "\ufeff.",
    "a\u2028.",
    "-<skipped>\n",
]


@NOT_BUILT
@pytest.mark.parametrize("name", sorted(BUILT_IN))
def test_the_compiled_tokenizers_are_the_python_ones(name: str) -> None:
    expected = list(map(PYTHON_TOKENIZERS[name], EDGES))
    assert compiled().tokenize_texts(EDGES, name) == expected
    with pytest.raises(TypeError, match="text 1 is a int, not a str"):
        compiled().tokenize_texts(["a", 1], name)


@NOT_BUILT
@pytest.mark.timing
@pytest.mark.parametrize("name", sorted(BUILT_IN))
@pytest.mark.parametrize("run", [".", ",", ".,", "a.", "1.", "1-", "&amp;", "-\n", "<skipped>"])
def test_the_compiled_tokenizers_are_linear(name: str, run: str) -> None:
    # 40,000 periods took mteval's rule as a regular expression 39 s: here each character is
    # read a few times. The times of a text and of 8x the text are compared, never seconds: 8x
    # the time where linear, 64x where quadratic; the bound between leaves room for a noisy host.
    def best_time(text: str) -> float:
        times = []
        for _ in range(3):
            start = time.process_time()
            compiled().Vocabulary().intern_texts([text], name, None)
            times.append(time.process_time() - start)
        return min(times)

    small = best_time(run * (40_000 // len(run)))
    large = best_time(run * (320_000 // len(run)))
    assert large < 24 * max(small, 1e-4)


# -- scoring ----------------------------------------------------------------------------------

FINITE = st.floats(allow_nan=False, allow_infinity=False)
# Terms that cancel, lie half an ulp apart or span the whole exponent range.
TERMS = st.lists(
    FINITE | st.sampled_from([1.0, -1.0, 1e16, -1e16, 2.0**-1074, 1e308, -1e308, 0.5, -0.0]),
    max_size=8,
)


@NOT_BUILT
@given(TERMS)
@example([1e16, 1.0, 1e-16])
@example([1.0, 2.0**-53, 2.0**-106])  # a tie broken by a third, far smaller term
@example([1.0, -(2.0**-53), -(2.0**-106)])
@example([1e308, 1e308, -1e308])  # math.fsum meets an overflow on the way
def test_rounded_sum_is_math_fsum(terms: list[float]) -> None:
    result = compiled().rounded_sum(terms)
    try:
        expected = math.fsum(terms)
    except OverflowError:
        assert math.isnan(result)  # left to the scalar code, which raises there
    else:
        assert (result, math.copysign(1.0, result)) == (expected, math.copysign(1.0, expected))


PRECISIONS = st.floats(0.0, 1.0) | st.sampled_from([0.0, 1.0, 1e-300, 2.0**-1074])
WEIGHTS = st.floats(-1e3, 1e3, allow_nan=False) | st.sampled_from([0.0, 0.25, -2e3, 1e5])
Rows = list[tuple[list[float], list[bool], list[float]]]


def rows_of(
    precisions: st.SearchStrategy[float], weights: st.SearchStrategy[float]
) -> st.SearchStrategy[Rows]:
    return st.integers(1, 5).flatmap(
        lambda orders: st.lists(
            st.tuples(
                st.lists(precisions, min_size=orders, max_size=orders),
                st.lists(st.booleans(), min_size=orders, max_size=orders),
                st.lists(weights, min_size=orders, max_size=orders),
            ),
            min_size=1,
            max_size=6,
        )
    )


def as_arrays(rows: Rows) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    precisions, defined, weights = zip(*rows)
    return np.array(precisions), np.array(defined, bool), np.array(weights)


def scalar_means(rows: Rows) -> list[float | type[Exception]]:
    """The oracle's mean of each row, or the error it raises."""
    expected: list[float | type[Exception]] = []
    for row_precisions, row_defined, row_weights in rows:
        given = [p if known else None for p, known in zip(row_precisions, row_defined)]
        try:
            expected.append(oracle.geometric_mean(given, row_weights))
        except (OverflowError, ValueError) as error:
            expected.append(type(error))
    return expected


@both_kernels
@given(rows_of(PRECISIONS, WEIGHTS))
def test_kernel_means_are_the_scalar_ones(kernel: ModuleType, rows: Rows) -> None:
    means = kernel.weighted_geometric_means(*as_arrays(rows))
    assert means.dtype == np.float64
    for mean, expected in zip(means.tolist(), scalar_means(rows), strict=True):
        if isinstance(expected, type):
            assert math.isnan(mean)  # the kernel leaves the scalar code's errors to it
        else:
            assert (mean, math.copysign(1.0, mean)) == (expected, math.copysign(1.0, expected))


@given(rows_of(PRECISIONS, WEIGHTS))
def test_the_mean_of_rows_the_kernels_leave_is_the_oracles(rows: Rows) -> None:
    # bleuprint asks _kernels.geometric_mean where a kernel gives NaN: it must give, or raise,
    # what the definition gives or raises.
    for (row_precisions, row_defined, row_weights), expected in zip(rows, scalar_means(rows)):
        if isinstance(expected, type):
            with pytest.raises(expected):
                _kernels.geometric_mean(row_precisions, row_defined, row_weights)
        else:
            mean = _kernels.geometric_mean(row_precisions, row_defined, row_weights)
            assert (mean, math.copysign(1.0, mean)) == (expected, math.copysign(1.0, expected))


ANY_FLOAT = st.floats() | st.sampled_from([math.inf, -math.inf, math.nan, -1.0, 0.0, -0.0])


@NOT_BUILT
@given(rows_of(ANY_FLOAT, ANY_FLOAT))
@example([([math.inf], [True], [-1.0])])  # a term of -inf: the scalar code's mean is 0
@example([([-0.5, 0.5], [True, True], [1.0, 1.0])])
def test_the_kernels_agree_on_every_float(rows: Rows) -> None:
    compiled_means = compiled().weighted_geometric_means(*as_arrays(rows))
    python_means = _python.weighted_geometric_means(*as_arrays(rows))
    assert np.isnan(compiled_means).tolist() == np.isnan(python_means).tolist()
    known = ~np.isnan(compiled_means)
    assert compiled_means[known].tobytes() == python_means[known].tobytes()  # the bits


@both_kernels
def test_means_take_any_layout_and_refuse_other_shapes(kernel: ModuleType) -> None:
    precisions = np.array([[0.5, 0.25, 0.125], [1.0, 0.5, 0.5]])
    weights = np.broadcast_to([0.5, 0.5, 0.0], precisions.shape)  # not contiguous
    means = kernel.weighted_geometric_means(precisions[:, ::-1], [[1, 1, 1], [1, 1, 1]], weights)
    assert means.tolist() == [
        math.exp(math.fsum([0.5 * math.log(0.125), 0.5 * math.log(0.25)])),
        math.exp(math.fsum([0.5 * math.log(0.5), 0.5 * math.log(0.5)])),
    ]
    with pytest.raises(ValueError, match=r"defined must have the shape of precisions, \(2, 3\)"):
        kernel.weighted_geometric_means(precisions, [[True, True]], weights)
    with pytest.raises(ValueError, match="order_weights must be a 2-dimensional array, got 1"):
        kernel.weighted_geometric_means(precisions, precisions > 0, [1.0, 0.0, 0.0])


@given(rows_of(PRECISIONS, WEIGHTS))
def test_scoring_means_are_the_scalar_ones(rows: Rows) -> None:
    expected = scalar_means(rows)
    errors = [outcome for outcome in expected if isinstance(outcome, type)]
    if errors:  # the first row that fails in the scalar code fails the batch, alike
        with pytest.raises(errors[0]):
            _scoring._weighted_geometric_means(*as_arrays(rows))
    else:
        assert _scoring._weighted_geometric_means(*as_arrays(rows)).tolist() == expected


# -- line ends --------------------------------------------------------------------------------


def starts_of_partitions(data: bytes, every: int, first: int) -> tuple[int, list[int]]:
    """The definition: each newline's offset plus one, from newline number ``first`` on, every
    ``every``-th."""
    after_newlines = [offset + 1 for offset, byte in enumerate(data) if byte == ord("\n")]
    return len(after_newlines), after_newlines[first::every]


@both_kernels
@given(
    st.binary(max_size=200)
    | st.lists(st.sampled_from([b"\n", b"a", b"\r\n", b"\xff"])).map(b"".join)
    # (long: the compiled kernel counts a stride of 4 KiB at once, 16 bytes at a time)
    | st.lists(st.sampled_from([b"\n", b"\n\n", b"x" * 15, b"y" * 4000]), max_size=60).map(
        b"".join
    ),
    st.integers(1, 6) | st.just(sys.maxsize),
    st.integers(0, 8) | st.just(sys.maxsize),
)
@example(b"\n\n\n", 1, 0)
@example(b"", 1, 0)
@example(b"\n" * 5000, 4, 4095)  # (byte counters past 255 in one stride)
def test_line_ends_are_the_definitions(
    kernel: ModuleType, data: bytes, every: int, first: int
) -> None:
    expected = starts_of_partitions(data, every, first)
    assert kernel.line_ends(data, every, first) == expected
    assert kernel.line_ends(bytearray(data), every, first) == expected
    shifted = memoryview(b"x\n" + data)[2:]  # a view that starts inside its buffer
    assert kernel.line_ends(shifted, every, first) == expected


@both_kernels
@pytest.mark.parametrize(("every", "first"), [(0, 0), (-1, 0), (1, -1)])
def test_line_ends_refuse_a_partition_of_no_lines(
    kernel: ModuleType, every: int, first: int
) -> None:
    with pytest.raises(ValueError, match="every must be at least 1, first at least 0"):
        kernel.line_ends(b"a\nb\n", every, first)


@both_kernels
@given(
    st.lists(st.integers(0, 255), min_size=1, max_size=6),
    st.lists(st.integers(0, 5), max_size=700),
)
@example([254, 0], [0] * 600 + [1])  # round twice, from near the top
def test_tallies_are_counts_modulo_256_with_each_round_returned(
    kernel: ModuleType, start: list[int], draws: list[int]
) -> None:
    draws = [draw % len(start) for draw in draws]
    counts = np.array(start, np.uint8)
    reached = np.array(start) + np.bincount(draws, minlength=len(start))
    around = kernel.tally(counts, np.array(draws, np.int64))
    assert counts.tolist() == (reached % 256).tolist()
    assert sorted(around.tolist()) == np.repeat(np.arange(len(start)), reached // 256).tolist()


@both_kernels
def test_tallies_refuse_what_they_cannot_count_and_change_nothing(kernel: ModuleType) -> None:
    counts = np.array([1, 2, 3], np.uint8)
    for draws in ([0, 3], [-1]):
        with pytest.raises(ValueError, match=r"tally: draw \d is -?\d, not an index of 3 counts"):
            kernel.tally(counts, np.array(draws))
    assert counts.tolist() == [1, 2, 3]
    for wrong in (counts.astype(np.int64), np.zeros((2, 2), np.uint8)):
        with pytest.raises(ValueError, match="counts must be a 1-dimensional uint8 array"):
            kernel.tally(wrong, np.array([0]))


@both_kernels
@given(
    st.integers(1, 11).flatmap(  # (the compiled kernel inlines 3, 4, 5, 6 and 10)
        lambda columns: st.lists(
            st.tuples(
                st.integers(0, 255),
                st.lists(st.integers(0, 255), min_size=columns, max_size=columns),
            ),
            max_size=40,
        ).map(lambda rows: (columns, rows))
    )
)
def test_weighted_rows_are_the_sums_of_their_definition(
    kernel: ModuleType, case: tuple[int, list[tuple[int, list[int]]]]
) -> None:
    columns, rows = case
    weights = np.array([weight for weight, _ in rows], np.uint8)
    matrix = np.array([row for _, row in rows], np.uint8).reshape(len(rows), columns)
    sums, by_first = kernel.weighted_rows(weights, matrix)
    assert sums.tolist() == [
        sum(weight * row[column] for weight, row in rows) for column in range(columns)
    ]
    expected = [0] * 256
    for weight, row in rows:
        expected[row[0]] += weight
    assert by_first.tolist() == expected


@both_kernels
def test_weighted_rows_refuse_what_they_cannot_sum(kernel: ModuleType) -> None:
    weights, rows = np.ones(3, np.uint8), np.ones((3, 2), np.uint8)
    for wrong, message in (
        ((weights.astype(np.int64), rows), "weights must be a 1-dimensional uint8 array"),
        ((weights, rows.astype(np.uint16)), "rows must be a 2-dimensional uint8 array"),
        ((weights, rows[:2]), "got 3 weights and 2 rows of 2"),
        ((weights, np.ones((3, 0), np.uint8)), "got 3 weights and 3 rows of 0"),
    ):
        with pytest.raises(ValueError, match=message):
            kernel.weighted_rows(*wrong)


# -- settings ---------------------------------------------------------------------------------


def run_python(code: str, **environment: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **environment}
    return subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False
    )


def test_settings_choose_the_kernel_and_the_threads() -> None:
    shown = "import bleuprint._kernels as k; print(k.KERNEL, k.THREADS)"
    chosen = run_python(shown, BLEUPRINT_PURE_PYTHON="1", BLEUPRINT_THREADS="3")
    assert (chosen.stdout, chosen.stderr) == ("python 3\n", "")
    refused = run_python(shown, BLEUPRINT_PURE_PYTHON="yes", BLEUPRINT_THREADS="0")
    assert "BLEUPRINT_THREADS must be a positive whole number, got '0'" in refused.stderr
    refused = run_python(shown, BLEUPRINT_PURE_PYTHON="yes", BLEUPRINT_THREADS="")
    assert "BLEUPRINT_PURE_PYTHON must be 1 (or 0, or unset), got 'yes'" in refused.stderr


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("BLEUPRINT_THREADS", "0"),
        ("BLEUPRINT_THREADS", "abc"),
        ("BLEUPRINT_THREADS", "-2"),
        ("BLEUPRINT_PURE_PYTHON", "yes"),
    ],
)
def test_a_bad_setting_is_a_configuration_error_of_the_command(
    variable: str, value: str, tmp_path: Path
) -> None:
    text = tmp_path / "text.txt"
    text.write_text("a b c\n", encoding="utf-8")
    command = (
        "from bleuprint.cli import main; raise SystemExit(main(['score', '-r', %r, '-i', %r]))"
    )
    ended = run_python(command % (str(text), str(text)), **{variable: value})
    assert ended.returncode == 2  # a configuration error, not "internal error" with status 1
    assert ended.stdout == ""
    assert ended.stderr.splitlines() == [
        f"bleuprint: error: the environment variable {variable} must be "
        + ("a positive whole number" if variable == "BLEUPRINT_THREADS" else "1 (or 0, or unset)")
        + f", got {value!r}"
    ]


def test_a_missing_extension_falls_back_with_one_warning() -> None:
    hidden = "import sys; sys.modules['bleuprint._kernels._compiled'] = None; "
    env_free = {"BLEUPRINT_PURE_PYTHON": ""}
    fallen = run_python(hidden + "import bleuprint._kernels as k; print(k.KERNEL)", **env_free)
    assert fallen.stdout == "python\n"
    warnings = [line for line in fallen.stderr.splitlines() if "Warning" in line]
    assert len(warnings) == 1
    assert "compiled kernel is not available" in warnings[0]
