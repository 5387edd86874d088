"""The kernel's counts of a chunk (``count_texts``; a sentence is a chunk of one) and its
n-gram labels of many streams (``ngram_labels``, for pairwise scores and MBR) against their
definitions, on both kernels."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from bleuprint import tokenizers
from bleuprint.typing import Tokenizer
from tests.test_kernels import both_kernels, shared_by_counter

WORDS = st.lists(st.sampled_from(["a", "b", "c", "dé", "a."]), max_size=12)


def labels_by_definition(
    ids: list[int], lengths: list[int], max_n: int
) -> list[tuple[list[int], list[int]]]:
    """For each order, each n-gram occurrence without a negative id, in order of position:
    its stream, and for a unigram the rank of its id among all the ids, for a longer n-gram
    its rank among those present, compared as tuples of the ranks of their ids."""
    id_rank = {value: rank for rank, value in enumerate(sorted(set(ids)))}
    occurrences = []
    start = 0
    for stream, size in enumerate(lengths):
        occurrences.extend((stream, start + k) for k in range(size))
        start += size
    ends = [start + size for start, size in zip(np.cumsum([0, *lengths]).tolist(), lengths)]
    stream_end = [ends[stream] for stream, _ in occurrences]
    orders = []
    for n in range(1, max_n + 1):
        found = [
            (stream, tuple(id_rank[ids[p + k]] for k in range(n)))
            for (stream, p), end in zip(occurrences, stream_end)
            if p + n <= end and all(ids[p + k] >= 0 for k in range(n))
        ]
        rank = {gram: number for number, gram in enumerate(sorted({gram for _, gram in found}))}
        if n == 1:
            rank = {(number,): number for number in id_rank.values()}
        orders.append(([stream for stream, _ in found], [rank[gram] for _, gram in found]))
    return orders


@both_kernels
@given(
    st.lists(st.lists(st.sampled_from([-2, -1, 0, 1, 2, 9]), max_size=8), max_size=6),
    st.integers(1, 5),
)
@example([[0, 0, 0], [], [-1, 0, 0]], 3)  # an empty stream; an id that never matches
def test_ngram_labels_are_ranks_of_the_ngrams_present(
    kernel: ModuleType, streams: list[list[int]], max_n: int
) -> None:
    ids = [token for stream in streams for token in stream]
    lengths = [len(stream) for stream in streams]
    got = kernel.ngram_labels(np.array(ids, np.int64), np.array(lengths, np.int64), max_n)
    assert [(s.tolist(), labels.tolist()) for s, labels in got] == labels_by_definition(
        ids, lengths, max_n
    )
    assert all(s.dtype == labels.dtype == np.int64 for s, labels in got)


@both_kernels
def test_ngram_labels_refuse_inconsistent_lengths(kernel: ModuleType) -> None:
    with pytest.raises(ValueError, match="lengths add up to 3, but there are 2 token ids"):
        kernel.ngram_labels(np.array([1, 2]), np.array([1, 2]), 2)
    with pytest.raises(ValueError, match="max_n must be at least 1, got 0"):
        kernel.ngram_labels(np.array([1]), np.array([1]), 0)


# -- a chunk counted whole (count_texts) -------------------------------------------------------


@st.composite
def chunks(draw: st.DrawFn) -> tuple[list[list[str]], list[list[list[str]]]]:
    """1 to 6 segments of token lists, with 1 to 3 references each."""
    size = draw(st.integers(1, 6))
    hypotheses = [draw(WORDS) for _ in range(size)]
    references = [[draw(WORDS) for _ in range(draw(st.integers(1, 3)))] for _ in range(size)]
    return hypotheses, references


def as_lists(counted: tuple[np.ndarray, ...] | None) -> list[list[int]] | None:
    return None if counted is None else [array.reshape(-1).tolist() for array in counted]


@both_kernels
@given(chunks(), st.integers(1, 5))
@example(([["a", "a", "a"], []], [[["a", "a"], ["a"]], [["a"]]]), 2)  # an empty hypothesis
@example(([["a", "a", "a", "a"]], [[["a", "a"], ["a", "a", "a"]]]), 3)  # one, repeated
def test_a_chunk_is_counted_as_the_definition(
    kernel: ModuleType, chunk: tuple[list[list[str]], list[list[list[str]]]], max_n: int
) -> None:
    hypotheses, references = chunk
    texts = [*hypotheses, *(reference for refs in references for reference in refs)]
    numbers, first = [], len(hypotheses)
    for refs in references:
        numbers.append(list(range(first, first + len(refs))))
        first += len(refs)
    singles, repeated = shared_by_counter(texts, list(range(len(hypotheses))), numbers, max_n)
    counted = kernel.count_texts(hypotheses, references, None, None, False, max_n)
    token_counts, reference_counts, counted_singles, counted_repeated = counted
    assert token_counts.tolist() == list(map(len, texts))
    assert reference_counts.tolist() == list(map(len, references))
    assert counted_singles.tolist() == singles
    assert list(map(tuple, counted_repeated.tolist())) == repeated
    # Tuples are lists here; the chunk after a larger one is counted in the same way.
    as_tuples = tuple(map(tuple, hypotheses)), tuple(tuple(map(tuple, r)) for r in references)
    again = kernel.count_texts(*as_tuples, None, None, False, max_n)
    assert as_lists(again) == as_lists(counted)


BUILT_IN = [
    ("whitespace", tokenizers.Whitespace()),
    ("13a", tokenizers.Mteval13a()),
    ("char", tokenizers.Chars()),
]
TEXTS = st.lists(st.text(st.sampled_from("aB .,-\u00a0éİ"), max_size=20), min_size=1, max_size=4)


@both_kernels
@pytest.mark.parametrize(("name", "tokenizer"), BUILT_IN)
@given(TEXTS, st.booleans())
def test_a_chunk_of_texts_is_tokenized_as_the_tokenizer_does(
    kernel: ModuleType, name: str, tokenizer: Tokenizer, texts: list[str], lowercase: bool
) -> None:
    tokenize = lambda given: list(map(tokenizer, given))  # noqa: E731
    references = [texts[::-1]] * len(texts)  # each hypothesis against every text
    counted = kernel.count_texts(texts, references, name, tokenize, lowercase, 4)
    if lowercase:
        texts, references = (
            [t.lower() for t in texts],
            [[t.lower() for t in texts[::-1]]] * len(texts),
        )
    as_tokens = tokenize(texts), [tokenize(refs) for refs in references]
    assert as_lists(counted) == as_lists(kernel.count_texts(*as_tokens, None, None, False, 4))


# Lines of blocks: wide characters in some lines only (a block is as wide as its widest line),
# carriage returns, empty lines.
LINES = st.lists(
    st.text(st.sampled_from("aB .,-\u00a0éİ\r\U0001f600"), max_size=12), min_size=1, max_size=5
)


@both_kernels
@pytest.mark.parametrize(("name", "tokenizer"), BUILT_IN)
@given(LINES, st.tuples(st.integers(1, 3), st.booleans()))
def test_blocks_of_lines_are_counted_as_their_lines(
    kernel: ModuleType, name: str, tokenizer: Tokenizer, lines: list[str], options: tuple[int, bool]
) -> None:
    streams, lowercase = options
    tokenize = lambda given: list(map(tokenizer, given))  # noqa: E731
    # Stream k's references are the lines rotated by k.
    rotated = [lines[k % len(lines) :] + lines[: k % len(lines)] for k in range(streams)]
    blocks = ["\n".join(stream) for stream in rotated]
    counted = kernel.count_texts("\n".join(lines), blocks, name, tokenize, lowercase, 4)
    as_segments = lines, [list(references) for references in zip(*rotated)]
    assert as_lists(counted) == as_lists(
        kernel.count_texts(*as_segments, name, tokenize, lowercase, 4)
    )


@both_kernels
def test_blocks_of_utf8_are_decoded_as_python_decodes(kernel: ModuleType) -> None:
    # Each lead of three bytes with continuation bytes at the edges of their ranges (E0 and ED
    # narrow the second's), inside a run of such characters (as CJK text is), and cut short
    # at the end of a line; one character of two or three bytes, or a byte no character
    # starts with, after every length of a run of ASCII (read 16 bytes at a time), with more
    # ASCII after it or none. Python's strict decoder says which are valid.
    middle = "\u4e2d".encode()
    cases = [
        bytes([lead, second, third])
        for lead in range(0xE0, 0xF0)
        for second in (0x7F, 0x80, 0x9F, 0xA0, 0xBF, 0xC0)
        for third in (0x7F, 0x80, 0xBF, 0xC0)
    ]
    lines = [b"a " + middle + case + middle + b" b" for case in cases]
    lines += [b"a " + middle + case[:cut] for case in cases[::4] for cut in (1, 2)]
    lines += [
        b"ab " * (run // 3) + b"ab"[: run % 3] + other + b" c" * after
        for run in range(40)
        for other in ("\u00e9".encode(), middle, b"\x80", b"\xff")
        for after in (0, 1, 5, 12)
    ]
    # A byte of each kind in each place of a run of characters of three bytes (read five at a
    # time where there is SSE2), the run long enough for more than one read, or cut short.
    run = middle * 12
    lines += [
        run[:place] + bytes([byte]) + run[place + 1 : place + 1 + end]
        for place in range(3, 36)
        for byte in (0x20, 0x7F, 0x80, 0x9F, 0xA0, 0xBF, 0xC3, 0xE0, 0xE1, 0xED, 0xEF, 0xF0, 0xFF)
        for end in (3, 40)
    ]
    for line in lines:
        block = line + b"\n" + middle * 9
        try:
            text = block.decode()
        except UnicodeDecodeError:
            with pytest.raises(UnicodeDecodeError):
                kernel.count_texts(block, [block], "13a", None, False, 4)
            continue
        counted = kernel.count_texts(block, [block], "13a", None, False, 4)
        assert as_lists(counted) == as_lists(
            kernel.count_texts(text, [text], "13a", None, False, 4)
        )


def _near(bases: list[int]) -> list[str]:
    """Runs of 64 code points from each base (but surrogates), with a character of each other
    UTF-8 width: characters a wrong decoding would take for one another."""
    runs = (range(base, base + 64) for base in bases)
    return [chr(c) for run in runs for c in run if not 0xD800 <= c < 0xE000] + ["a", "é", "😀"]


_BASES = st.integers(0x800, 0xFFC0) | st.integers(0x80, 0x10FFC0)  # (most of three bytes)


@both_kernels
@given(st.lists(_BASES, min_size=1, max_size=3).map(_near), st.data())
def test_blocks_of_utf8_are_the_characters_of_their_text(
    kernel: ModuleType, alphabet: list[str], data: st.DataObject
) -> None:
    # Every character of runs of nearby ones (most of three bytes, as CJK's, so decoded in runs)
    # against some of them, a token each: a character's bytes decoded as another's would match
    # where its own do not.
    hypothesis = "".join(data.draw(st.permutations(alphabet)))
    reference = "".join(data.draw(st.lists(st.sampled_from(alphabet), unique=True)))
    counted = kernel.count_texts(hypothesis.encode(), [reference.encode()], "char", None, False, 4)
    assert as_lists(counted) == as_lists(
        kernel.count_texts(hypothesis, [reference], "char", None, False, 4)
    )


@both_kernels
def test_runs_of_three_byte_characters_end_where_another_width_starts(kernel: ModuleType) -> None:
    # Another character (of one, two or four bytes) or a run of ASCII (widened 16 at a time in
    # a line of 2-byte characters) in each of the first places of a run of characters of three
    # bytes (decoded five at a time where the processor allows): each character decoded is
    # itself, a token each, against a reference of the same characters in another order.
    run = [chr(0x4E00 + k) for k in range(24)]
    others = ["a", "\u00e9", "\u07ff", "\U0001f600"]
    others += ["".join(chr(ord("a") + k % 26) for k in range(size)) for size in (15, 16, 17, 33)]
    for place in range(12):
        for other in others:
            hypothesis = "".join(run[:place]) + other + "".join(run[place:])
            reference = hypothesis[::-1]
            counted = kernel.count_texts(
                hypothesis.encode(), [reference.encode()], "char", None, False, 4
            )
            assert as_lists(counted) == as_lists(
                kernel.count_texts(hypothesis, [reference], "char", None, False, 4)
            ), (place, other)


@both_kernels
def test_blocks_of_lines_are_checked(kernel: ModuleType) -> None:
    with pytest.raises(ValueError, match="reference block 1 has 3 lines, the hypotheses 2"):
        kernel.count_texts("a\nb", ["a\nb", "a\nb\nc"], "13a", str.split, False, 4)
    with pytest.raises(ValueError, match="blocks of lines are texts: they need a tokenizer"):
        kernel.count_texts("a\nb", ["a\nb"], None, None, False, 4)
    for references in (["a", Text("b")], [], "a", [["a"]]):
        assert kernel.count_texts("a", references, "13a", str.split, False, 4) is None


class Text(str):
    """A str subclass: not plain text (its methods may differ)."""


NOT_PLAIN = [
    pytest.param(["a"], [[]], "whitespace", id="a segment without references"),
    pytest.param(["a"], ["a"], "whitespace", id="references not in a list"),
    pytest.param(["a", Text("b")], [["a"], ["b"]], "whitespace", id="a str subclass"),
    pytest.param(["a"], [[["a"]]], "whitespace", id="tokens where texts are due"),
    pytest.param([["a"]], [["a"]], None, id="texts where tokens are due"),
    pytest.param([["a", 1]], [[["a"]]], None, id="a token that is not a str"),
    pytest.param((t for t in ["a"]), [["a"]], "whitespace", id="hypotheses not a list"),
]


@both_kernels
@pytest.mark.parametrize(("hypotheses", "references", "name"), NOT_PLAIN)
def test_a_chunk_not_plain_is_left_to_the_caller(
    kernel: ModuleType, hypotheses: Any, references: Any, name: str | None
) -> None:
    assert kernel.count_texts(hypotheses, references, name, str.split, False, 4) is None


@both_kernels
def test_count_texts_refuses_what_it_cannot_mean(kernel: ModuleType) -> None:
    with pytest.raises(ValueError, match="max_n must be at least 1, got 0"):
        kernel.count_texts(["a"], [["a"]], "13a", str.split, False, 0)
    with pytest.raises(ValueError, match=r"tokenizer must be one of .* got 'intl'"):
        kernel.count_texts(["a"], [["a"]], "intl", str.split, False, 4)
    with pytest.raises(ValueError, match="lowercase is for texts: it needs a tokenizer"):
        kernel.count_texts([["a"]], [[["a"]]], None, None, True, 4)
    with pytest.raises(ValueError, match="2 hypotheses but 1 reference lists"):
        kernel.count_texts(["a", "b"], [["a"]], "13a", str.split, False, 4)


@both_kernels
def test_chunks_counted_on_threads_at_once_are_counted_alone(kernel: ModuleType) -> None:
    # Each call interns into a vocabulary of its own (the compiled one reuses kept room).
    tokenize = tokenizers.Mteval13a().tokenize_batch

    def counted(k: int) -> list[list[int]] | None:
        hypotheses = [f"w{i} x{k} w{i + 1} . y{i % k}" for i in range(40 * k)]
        references = [[f"w{i + 1} x{k} w{i}", "y0 ."] for i in range(40 * k)]
        return as_lists(kernel.count_texts(hypotheses, references, "13a", tokenize, False, 4))

    alone = [counted(k) for k in range(1, 9)]
    with ThreadPoolExecutor(max_workers=4) as pool:
        at_once = list(pool.map(counted, [*range(1, 9)] * 3))
    assert at_once == alone * 3
