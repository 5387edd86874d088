"""Counting: segments in, statistics out, through the kernel.

:class:`Counting` holds an engine's counting parts, and counts every corpus through one
funnel, :meth:`Counting.counted_chunks`: the corpus is checked and classified once (token ids,
or segments of text or tokens), then counted into :class:`~bleuprint.SegmentStats`. Where the
n-gram, matching and length parts fit the array protocols of :mod:`bleuprint.typing` (every
one bleuprint ships does), the kernel counts, in chunks of ``CHUNK_SEGMENTS`` segments:

1. A chunk of plain text with a built-in tokenizer (whitespace, sacreBLEU's 13a and char,
   lowercased or not), or of string tokens, goes to the kernel in one call,
   ``kernel.count_texts``: texts in, per-segment statistics out. The compiled kernel checks
   the types itself, tokenizes the str objects, interns the tokens into a vocabulary of the
   chunk's own and finds, segment by segment and order by order, the hypothesis n-grams that
   a reference has too, with their counts, all without the GIL: with ``COUNTING_THREADS``
   above 1, whole chunks run on worker threads (``handed_on``, the one hand-off). Nearly all
   shared n-grams are found once on each side; those are only counted, the others listed.
2. The texts of a user's tokenizer are tokenized in the calling thread, each distinct text
   once while it is kept (:class:`InternedTexts`: repeated lines cost one dictionary lookup),
   interned into a :class:`TokenTable`, and counted by ``kernel.shared_ngram_counts`` (on a
   worker thread); token ids are counted the same way, straight from their table.
3. The matcher's credit of those (hypothesis count, reference count) pairs is summed per
   segment and order (``KernelParts.statistics``).

A chunk holding anything else (a str subclass, text and tokens mixed, a segment without
references) is counted in the calling thread segment by segment (``Counting._segment``),
which also raises the right error for bad input. A sentence is a corpus of one, checked as
that path checks one segment and then counted as a chunk of one. A configuration with a part
written for one segment at a time (an n-gram extractor or matcher of dictionaries of n-grams,
or a matcher that chooses one reference) is counted by calling its parts once per segment
(``Counting.count_by_parts``); ``tests/test_arrays.py`` checks on random corpora that the two
give the same statistics. The kernel's functions are documented in
:mod:`bleuprint._kernels._python`.
"""

from __future__ import annotations

import functools
import os
import warnings
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence, Set
from itertools import chain, islice
from typing import TYPE_CHECKING, TypeVar, cast

import attrs
import numpy as np

from bleuprint import _token_ids, brevity, ngrams, tokenizers
from bleuprint._kernels import THREADS, kernel, plain_segments
from bleuprint._segments import SegmentStats
from bleuprint._stats import BLEUStats
from bleuprint.exceptions import InputError, ReferenceLayoutWarning, counted, user_stacklevel
from bleuprint.typing import (
    ArrayLengthMeasure,
    ArrayMatcher,
    ArrayNgramExtractor,
    IntArray,
    LengthMeasure,
    Matcher,
    NgramExtractor,
    ReferenceChoosing,
    ReferenceLength,
    Segment,
    Tokenizer,
    implements,
)

if TYPE_CHECKING:
    from concurrent.futures import Future

COUNTING_THREADS = THREADS
"""Threads counting chunks at once: the environment variable ``BLEUPRINT_THREADS`` (by default,
one per CPU)."""
CHUNK_SEGMENTS = 8192
"""Segments counted together: enough to make the work per chunk in Python small, few enough
that the chunks in flight take little memory."""
CACHED_TEXTS = 2 * CHUNK_SEGMENTS
"""Distinct texts whose tokens one call keeps: those of about one chunk (a hypothesis and a
reference per segment). The vocabulary's tables then stay in the processor's caches: with
four times as many, lines that do not repeat took 30% longer to count."""


@attrs.frozen
class Counting:
    """An engine's counting parts; ``signature`` names them (statistics carry it).

    Every corpus is counted through one funnel, :meth:`counted_chunks`: it is checked and
    classified once (token ids, or segments of text or tokens), then counted chunk by chunk by
    the kernel, or segment by segment by the parts where one is written for one segment at a
    time (``_segment``). A sentence (:meth:`count_one`) is a corpus of one, counted as that
    path counts one segment: where it is plain text or tokens, the kernel counts it in one call
    that gives Python ints (arrays would cost more than the counting)."""

    tokenizer: Tokenizer
    ngrams: NgramExtractor
    matching: Matcher
    length: LengthMeasure
    reference_length: ReferenceLength
    signature: str

    def count_segments(
        self, hypotheses: Sequence[Segment], references: Sequence[Sequence[Segment]]
    ) -> SegmentStats:
        """The statistics of each segment, on arrays where every counting part supports them,
        else one segment at a time."""
        return SegmentStats.concatenate(self.counted_chunks(hypotheses, references))

    def counted_chunks(
        self, hypotheses: Sequence[Segment], references: Sequence[Sequence[Segment]]
    ) -> Iterator[SegmentStats]:
        """The statistics of each segment, in order, a chunk at a time as each is counted: the
        caller can score or sum a chunk while the worker threads count the next ones."""
        hypotheses = as_corpus(hypotheses, "hypotheses")
        given = references
        references = cast("Sequence[Sequence[Segment]]", as_corpus(references, "references"))
        if references is not given and _token_ids.ids_ndim(references) == 2:  # an array's rows
            raise InputError(_token_ids.reference_rows_problem())
        _check_layout(hypotheses, references)
        if not hypotheses:
            raise InputError("the corpus is empty: there is nothing to score")
        _check_memory(len(hypotheses), self.ngrams.max_n)
        return self._counted(0, hypotheses, references)

    def count_lines(
        self, hypotheses: str | bytes, references: Sequence[str | bytes]
    ) -> SegmentStats | None:
        """The statistics of each line of ``hypotheses`` (lines separated by ``\\n``, at
        least one; a str, or bytes of UTF-8 text) against the same line of each block of
        ``references`` (as many lines each, of the same type), counted by the kernel from the
        blocks themselves, without a str per line; ``None`` where it cannot (a user's
        tokenizer or part, a length measure that reads the text): the caller then counts the
        lines as segments. Bytes that are not valid UTF-8 raise ``UnicodeDecodeError``."""
        parts = self.kernel_parts
        return None if parts is None else parts.count_plain(hypotheses, references)

    def count_one(
        self, index: int, hypothesis: Segment, references: Sequence[Segment]
    ) -> BLEUStats:
        """The statistics of one segment, number ``index`` (which error messages name): a
        corpus of one, counted as the funnel counts a segment on its own (``_segment``)."""
        if type(hypothesis) is str and type(references) is list and _all_text(references):
            return self._plain_segment([hypothesis, *references], text=True)  # nothing to check
        return self._segment(index, hypothesis, references)

    def _counted(
        self, first: int, hypotheses: Sequence[Segment], references: Sequence[Sequence[Segment]]
    ) -> Iterator[SegmentStats]:
        """The funnel's counting, once the corpus is checked: segment ``i`` is number
        ``first + i`` in error messages."""
        if _token_ids.corpus_holds_ids(hypotheses, references):
            corpus = _token_ids.IdCorpus.of(hypotheses, references, first_segment=first)
            return iter([self._count_ids(corpus)])
        parts = self.kernel_parts
        if parts is None:
            return iter([self._by_segment(first, hypotheses, references)])
        arrays = ArrayCounting(parts, InternedTexts(parts.tokenizer))
        return _counted_chunks(self, arrays, first, hypotheses, references)

    def _by_segment(
        self, first: int, hypotheses: Sequence[Segment], references: Sequence[Sequence[Segment]]
    ) -> SegmentStats:
        """Segments counted one at a time (``_segment``), numbered from ``first``."""
        stats = [
            self._segment(first + offset, hypothesis, refs)
            for offset, (hypothesis, refs) in enumerate(zip(hypotheses, references, strict=True))
        ]
        return SegmentStats.from_stats(stats, self.ngrams.max_n, self.signature)

    def _segment(self, index: int, hypothesis: Segment, references: object) -> BLEUStats:
        """One segment checked on its own, which names what is wrong with it, and counted."""
        references = as_corpus(references, "references", segment=index, items="references")
        if not references:
            raise InputError("no references", segment=index)
        if _token_ids.segment_holds_ids(hypothesis, references):
            corpus = _token_ids.IdCorpus.of([hypothesis], [references], first_segment=index)
            return self._count_ids(corpus)[0]
        segments = [
            _checked(index, "hypothesis", hypothesis),
            *(_checked(index, f"reference {k}", ref) for k, ref in enumerate(references)),
        ]
        text = isinstance(segments[0], str)
        for k, ref in enumerate(segments[1:]):
            if isinstance(ref, str) != text:
                raise InputError(
                    f"the hypothesis is {_kind(text)} but reference {k} is "
                    f"{_kind(not text)}; give both as text or both as tokens",
                    segment=index,
                )
        return self._plain_segment(segments, text)

    def _plain_segment(self, segments: list[str | list[str]], text: bool) -> BLEUStats:
        """One segment (its hypothesis, then its references; all text or all tokens): a
        corpus of one, counted as a chunk is (by the kernel at once; a user's tokenizer's
        texts interned first), or, where a part has no array support, by the parts."""
        parts = self.kernel_parts
        if parts is None:
            return self.count_by_parts(segments, text)
        hypothesis, *references = segments
        counted = parts.count_plain([hypothesis], [references])
        if counted is None:  # text for a user's tokenizer
            counted = _user_tokenized(parts, hypothesis, references)
        return counted[0]

    @functools.cached_property
    def kernel_parts(self) -> KernelParts | None:
        """The parts as the kernel uses them, or ``None`` where one has no array support."""
        return KernelParts.of(self)

    def count_by_parts(self, segments: list[str | list[str]], text: bool) -> BLEUStats:
        """One segment (its hypothesis, then its references) counted by calling each part,
        the way a part without array support is written: a dictionary of n-grams per text."""
        texts = segments if text else [None] * len(segments)
        tokens = [
            self.tokenizer(cast("str", segment)) if text else cast("list[str]", segment)
            for segment in segments
        ]
        max_n = self.ngrams.max_n
        hypothesis_ngrams, *reference_ngrams = map(self.ngrams, tokens)
        hypothesis_length, *reference_lengths = [
            self.length(cast("str | None", text_of), tokens_of)
            for text_of, tokens_of in zip(texts, tokens)
        ]
        if implements(self.matching, ReferenceChoosing):
            chosen = self.matching.choose(hypothesis_ngrams, reference_ngrams)
            reference_ngrams, reference_lengths = (
                [reference_ngrams[chosen]],
                [reference_lengths[chosen]],
            )
        return BLEUStats(
            self.matching(hypothesis_ngrams, reference_ngrams, max_n),
            ngrams.order_totals(hypothesis_ngrams, max_n),
            hypothesis_length,
            brevity.reference_length(self.reference_length, hypothesis_length, reference_lengths),
            segments=1,
            reference_counts=frozenset({len(segments) - 1}),
            counting=self.signature,
        )

    def _count_ids(self, corpus: _token_ids.IdCorpus) -> SegmentStats:
        """The statistics of each segment of a corpus of token ids: straight to the kernel
        (the ids are the tokens), or written as string tokens for counting parts without
        array support."""
        parts = self.kernel_parts
        if parts is None:
            return self.count_segments(*corpus.as_tokens())
        table = TokenTable(corpus.token_ids, corpus.starts, corpus.vocabulary_size)
        lengths = _id_lengths(parts, corpus.token_counts)
        offsets = corpus.segments + np.concatenate(([0], np.cumsum(corpus.reference_counts)))
        chunks = [
            InternedChunk(
                parts,
                table,
                np.arange(start, stop),
                np.arange(offsets[start], offsets[stop]),
                corpus.reference_counts[start:stop],
                lengths[start:stop],
                lengths[offsets[start] : offsets[stop]],
            ).statistics
            for start, stop in _chunk_bounds(corpus.segments)
        ]
        return SegmentStats.concatenate(handed_on(chunks))


_Result = TypeVar("_Result")


def handed_on(works: Iterable[Callable[[], _Result]]) -> Iterator[_Result]:
    """Each work's result, in order, as each is done.

    Where there are several works and ``COUNTING_THREADS`` is above 1, worker threads do them
    (the kernel counts without the GIL), a bounded number in flight, while this thread makes
    the next ones (a user's tokenizer runs as a work is made; a file's next lines are read);
    otherwise this thread does them: handing a single work to a pool costs more than a small
    batch takes to count, and the pool's module costs start-up time."""
    works = iter(works)
    first = list(islice(works, 2))
    if len(first) < 2 or COUNTING_THREADS == 1:
        for work in chain(first, works):
            yield work()
        return
    from concurrent.futures import ThreadPoolExecutor  # noqa: PLC0415 - start-up time

    pending: deque[Future[_Result]] = deque()
    with ThreadPoolExecutor(max_workers=COUNTING_THREADS) as threads:
        for work in chain(first, works):
            pending.append(threads.submit(work))
            if len(pending) > 2 * COUNTING_THREADS:  # works held at once: a bounded number
                yield pending.popleft().result()
        for future in pending:
            yield future.result()


def _user_tokenized(
    parts: KernelParts, hypothesis: str | list[str], references: list[str | list[str]]
) -> SegmentStats:
    """The statistics of one segment of text for a user's tokenizer: its tokens counted as
    given tokens are where the length counts tokens (a sentence's shortest way), else its
    texts interned as in a chunk."""
    if type(parts.length) is brevity.Tokens:
        tokenizer = parts.tokenizer
        tokens = list(
            tokenizer.tokenize(tokenizer.texts(cast("list[str]", [hypothesis, *references])))
        )
        counted = parts.count_plain([tokens[0]], [tokens[1:]])
        if counted is not None:
            return counted
    arrays = ArrayCounting(parts, InternedTexts(parts.tokenizer))
    return InternedChunk.of(arrays, [hypothesis], [references], "text").statistics()


def _all_text(references: list[object]) -> bool:
    """Whether there are references and every one is a str (no subclass: a str exactly)."""
    return bool(references) and all(type(reference) is str for reference in references)


def _checked(index: int, role: str, segment: Segment) -> str | list[str]:
    """A segment of text or of string tokens, as exact strs (see ``exact_strings``); anything
    else is refused."""
    if isinstance(segment, str):
        return str.__str__(segment)
    if isinstance(segment, Sequence) and all(isinstance(token, str) for token in segment):
        return list(map(str.__str__, segment))
    raise InputError(
        f"the {role} must be a string, a list of string tokens or token ids, got "
        f"{type(segment).__name__}",
        segment=index,
    )


def exact_strings(
    hypotheses: Sequence[Segment], references: Sequence[Sequence[Segment]]
) -> tuple[list[Segment], list[list[Segment]]] | None:
    """The segments with every str subclass in them (``numpy.str_``, a pandas column's), as
    text or as a token, made the exact str of its value; ``None`` where there is none. The
    kernel reads exact strs only (a subclass may hash and compare its own way), and a string
    token is scored as its str value, whatever its class. Called only where the kernel found
    a chunk not plain: plain corpora pay nothing."""
    found = False

    def exact(segment: object) -> object:
        nonlocal found
        if isinstance(segment, str):
            found = found or type(segment) is not str
            return str.__str__(segment)  # (its value: a subclass's own __str__ is not called)
        if type(segment) in {list, tuple}:
            tokens = cast("Sequence[object]", segment)
            if any(type(token) is not str and isinstance(token, str) for token in tokens):
                found = True
                return [str.__str__(t) if isinstance(t, str) else t for t in tokens]
        return segment

    exact_hypotheses = [exact(hypothesis) for hypothesis in hypotheses]
    exact_references = [
        list(map(exact, refs)) if type(refs) in {list, tuple} else refs for refs in references
    ]
    if not found:
        return None
    return cast("tuple[list[Segment], list[list[Segment]]]", (exact_hypotheses, exact_references))


def _chunk_bounds(segments: int) -> list[tuple[int, int]]:
    return [
        (start, min(start + CHUNK_SEGMENTS, segments))
        for start in range(0, max(segments, 1), CHUNK_SEGMENTS)
    ]


def _id_lengths(parts: KernelParts, token_counts: IntArray) -> IntArray:
    """The lengths of sequences of ids, as the length measure measures them; one that needs
    the text (characters) is refused, naming why."""
    try:
        return parts.length.lengths_array(None, token_counts)
    except InputError as error:
        raise InputError(
            f"token ids have no text, and this configuration needs it: {error.reason} "
            f"(len:{parts.counting.length.signature}); decode the ids, or measure in tokens"
        ) from None


def as_corpus(
    texts: object, what: str, *, segment: int | None = None, items: str = "segments"
) -> Sequence[Segment]:
    """``texts`` as a sequence, if it is one of segments: any sequence as it is; an integer
    array or tensor as :class:`~bleuprint.TokenIds` (rows of token ids); another numpy array,
    a pandas Series, a generator or another iterable as a list of its items. A string, bytes,
    a mapping, a set, ``None`` or a number is refused, naming what was given: a string would
    otherwise be read as one segment per character, a dictionary as its keys."""
    if isinstance(texts, (str, bytes)):
        raise InputError(
            f"{what} must be a list of {items}, got a single {type(texts).__name__} "
            "(wrap one in a list: [text])",
            segment=segment,
        )
    ids = _token_ids.as_id_corpus(texts)
    if ids is not None:
        if ids.ndim == 1:
            raise InputError(
                f"{what} must be a list of {items}, got one sequence of token ids (wrap one "
                "in a list: [ids])",
                segment=segment,
            )
        return ids
    if isinstance(texts, (Mapping, Set)) or not isinstance(texts, Iterable):
        raise InputError(
            f"{what} must be a list (or another ordered sequence) of {items}, "
            f"got {type(texts).__name__}",
            segment=segment,
        )
    if isinstance(texts, Sequence):
        return texts
    tolist = getattr(texts, "tolist", None)  # numpy arrays and pandas Series: Python strings
    return cast("list[Segment]", tolist() if callable(tolist) else list(texts))


def _check_layout(hypotheses: Sequence[Segment], references: Sequence[object]) -> None:
    """Refuse references per hypothesis of another length, and warn where they may be
    sacreBLEU's reference streams (one list per reference set, each as long as the corpus),
    which bleuprint's layout would read transposed (sacrebleu#275)."""
    size = len(hypotheses)
    streams = all(
        isinstance(stream, Sequence) and not isinstance(stream, str) and len(stream) == size
        for stream in references
    )
    convert = (
        "if they are sacreBLEU's reference streams (references[k][i], the k-th reference of "
        "hypothesis i), convert them with "
        "bleuprint.compat.sacrebleu.from_streams(hypotheses, streams)"
    )
    if len(references) != size:
        hint = f"; {convert}" if streams and references else ""
        raise InputError(
            f"{counted(size, 'hypothesis', 'hypotheses')} but "
            f"{counted(len(references), 'reference list')}: give one list of "
            f"references per hypothesis (references[i] holds those of hypothesis i){hint}"
        )
    # Only texts are ambiguous (references per segment given as tokens are lists of lists),
    # and only when sacreBLEU's reading fits the hypotheses better.
    texts = streams and all(
        isinstance(text, str)
        for stream in (hypotheses, *cast("list[Sequence[object]]", references))
        for text in stream
    )
    if texts and size > 1 and _streams_fit_better(hypotheses, references):
        warnings.warn(
            f"references holds {size} lists of {size} references for {size} hypotheses, and "
            "they share more words with the hypotheses read as sacreBLEU's streams: bleuprint "
            f"reads references[i] as the references of hypothesis i; {convert}",
            ReferenceLayoutWarning,
            stacklevel=user_stacklevel(),
        )


_STATISTICS_SHARE = 4  # the statistics may take at most this fraction (1/4) of the memory


def _check_memory(segments: int, max_n: int) -> None:
    """Refuse, before counting, statistics larger than a quarter of the machine's memory
    (matches and totals take 16 bytes per segment and order), naming the options that help."""
    need = segments * max_n * 16
    allowed = _physical_memory() // _STATISTICS_SHARE
    if need > allowed:
        raise InputError(
            f"counting {segments:,} segments at max_n={max_n:,} needs about {_size(need)} for "
            f"the statistics alone (segments x orders x 16 bytes), more than a quarter of this "
            f"machine's memory ({_size(allowed)}): lower max_n (an order longer than every "
            "segment counts nothing), or count fewer segments at a time and add the statistics"
        )


def _physical_memory() -> int:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, OSError, ValueError):  # no sysconf (Windows): assume 16 GiB
        return 16 << 30


def _size(size: float) -> str:
    return f"{size / (1 << 30):,.1f} GiB"


_LAYOUT_SAMPLE = 50  # segments compared: the check stays cheap on a large corpus


def _streams_fit_better(hypotheses: Sequence[Segment], references: Sequence[object]) -> bool:
    """Whether the words of the first hypotheses are found more in ``references[k][i]``
    (sacreBLEU's streams) than in ``references[i][k]`` (bleuprint's layout): the references
    of one segment translate the same sentence, so the right reading shares more words.

    The diagonal (``k == i``) is the same text in both readings, so it is left out: it only
    blurs the difference. "Clearly more" is more than twice as many, plus one word per pair
    compared: on WMT22 that finds 97% of transposed 2-segment corpora (the ratio with the
    diagonal: 20%) and never warns on real per-segment ones, while tiny corpora of random
    words from a small vocabulary, where either reading is noise, warn 0.6% of the time (1.6%
    before)."""
    table = cast("Sequence[Sequence[str]]", references)
    sample = min(len(hypotheses), _LAYOUT_SAMPLE)
    ours = theirs = 0
    for index in range(sample):
        words = set(str(hypotheses[index]).split())
        for other in range(sample):
            if other != index:
                ours += len(words.intersection(table[index][other].split()))
                theirs += len(words.intersection(table[other][index].split()))
    return theirs > 2 * ours + sample * (sample - 1)


def _kind(text: bool) -> str:
    return "text" if text else "tokens"


@attrs.frozen
class TokenTable:
    """Texts as token ids: text ``t`` is ``token_ids[starts[t]:starts[t + 1]]``, and every id
    is in ``range(vocabulary_size)``."""

    token_ids: IntArray
    starts: IntArray
    vocabulary_size: int

    @classmethod
    def of(cls, streams: Sequence[Sequence[str]]) -> TokenTable:
        """The table of these token lists, text ``t`` being ``streams[t]``."""
        token_ids, lengths = kernel.Vocabulary().intern_tokens(streams)
        starts = np.concatenate(([0], np.cumsum(lengths)))
        return cls(token_ids, starts, int(token_ids.max(initial=-1)) + 1)

    def lengths(self, texts: IntArray) -> IntArray:
        """The number of tokens of each of these texts."""
        lengths: IntArray = self.starts[texts + 1] - self.starts[texts]
        return lengths

    def laid_end_to_end(self, texts: IntArray) -> tuple[IntArray, IntArray]:
        """The token ids of these texts one after the other, and the length of each."""
        lengths = self.lengths(texts)
        return self.token_ids[_token_ids.run_positions(self.starts[texts], lengths)], lengths


# The tokenizers the compiled kernel runs itself (exactly these classes: a subclass may differ).
_BUILT_IN_TOKENIZERS: dict[type, str] = {
    tokenizers.Whitespace: "whitespace",
    tokenizers.Mteval13a: "13a",
    tokenizers.Chars: "char",
}


@attrs.frozen
class KernelTokenizer:
    """How the kernel tokenizes for a tokenizer: ``name``, the built-in tokenizer it runs
    itself (``None`` for a user's), after lowercasing the texts where ``lowercase`` says so
    (sacreBLEU's ``lowercase=True`` around a built-in one); ``tokenize`` gives the tokens of
    texts otherwise (and on the plain-Python kernel)."""

    name: str | None
    lowercase: bool
    tokenize: Callable[[Sequence[str]], Iterable[list[str]]]

    @classmethod
    def of(cls, tokenizer: Tokenizer) -> KernelTokenizer:
        if type(tokenizer) is tokenizers.Lowercase:
            inner = _BUILT_IN_TOKENIZERS.get(type(tokenizer.inner))
            if inner is not None:
                return cls(
                    inner, True, functools.partial(tokenizers.tokenize_texts, tokenizer.inner)
                )
        name = _BUILT_IN_TOKENIZERS.get(type(tokenizer))
        return cls(name, False, functools.partial(tokenizers.tokenize_texts, tokenizer))

    def texts(self, texts: Sequence[str]) -> Sequence[str]:
        """The texts as the tokenizer ``name`` (or ``tokenize``) is given them."""
        return [text.lower() for text in texts] if self.lowercase else texts


class InternedTexts:
    """The token ids of the distinct texts seen lately: each is tokenized and interned once
    while it is kept (sacreBLEU caches tokenized lines too), so repeated lines cost one
    dictionary lookup. At most ``CACHED_TEXTS`` texts are kept (more only within one batch);
    the ids of one batch always come from one vocabulary. Used for a user's tokenizer (which
    may be slow) and for candidates of pairwise scores and MBR; the built-in tokenizers' chunks
    are counted whole by the kernel (on distinct lines, numbering them cost more than it
    saved)."""

    def __init__(self, tokenizer: KernelTokenizer) -> None:
        self.tokenizer = tokenizer
        self._forget()

    def _forget(self) -> None:
        self.numbers: dict[str, int] = {}
        self.vocabulary = kernel.Vocabulary()
        self.table = TokenTable(np.zeros(0, np.int64), np.zeros(1, np.int64), 0)

    def __call__(self, texts: Sequence[str]) -> tuple[TokenTable, IntArray]:
        """A table holding every one of the texts, and the number of each text in it."""
        try:  # one dictionary lookup per text where all are known, as with repeated lines
            return self.table, np.fromiter(map(self.numbers.__getitem__, texts), np.int64)
        except KeyError:
            pass
        if len(self.numbers) + len(texts) > CACHED_TEXTS:
            self._forget()
        numbers = self.numbers
        known = len(numbers)
        # One pass: a new text is numbered len(numbers), the next number, as it is added.
        text_numbers = np.array([numbers.setdefault(text, len(numbers)) for text in texts])
        self._add(list(islice(numbers, known, None)))  # (a dictionary keeps its order)
        return self.table, text_numbers.astype(np.int64, copy=False)

    def _add(self, new: list[str]) -> None:
        """Tokenize and intern the texts just numbered (all of them new)."""
        tokenizer = self.tokenizer
        token_ids, lengths = self.vocabulary.intern_texts(
            tokenizer.texts(new), tokenizer.name, tokenizer.tokenize
        )
        self.table = TokenTable(
            np.concatenate((self.table.token_ids, token_ids)),
            np.concatenate((self.table.starts, self.table.starts[-1] + np.cumsum(lengths))),
            len(self.vocabulary),
        )


_ARRAY_PROTOCOLS = (ArrayNgramExtractor, ArrayMatcher, ArrayLengthMeasure)


def _fit_arrays(*parts: object) -> bool:
    """Whether the n-gram, matching and length parts fit the array protocols."""
    return all(map(implements, parts, _ARRAY_PROTOCOLS))


@attrs.frozen
class KernelParts:
    """The counting parts of an engine whose n-gram, matching and length parts support arrays,
    as the kernel counts with them (kept by the engine's :class:`Counting`)."""

    counting: Counting
    tokenizer: KernelTokenizer
    ngrams: ArrayNgramExtractor
    matching: ArrayMatcher
    length: ArrayLengthMeasure
    reference_length: ReferenceLength
    single_credit: int  # the credit of an n-gram found once on each side, as nearly all are

    @property
    def signature(self) -> str:
        return self.counting.signature

    @classmethod
    def of(cls, counting: Counting) -> KernelParts | None:
        """The parts, or ``None`` where one of them has no array support, or where the
        matcher chooses one reference (its choice reads dictionaries of n-grams)."""
        parts = (counting.ngrams, counting.matching, counting.length)
        if not _fit_arrays(*parts) or implements(counting.matching, ReferenceChoosing):
            return None
        matching = cast("ArrayMatcher", counting.matching)  # (as _fit_arrays found)
        return cls(
            counting,
            KernelTokenizer.of(counting.tokenizer),
            cast("ArrayNgramExtractor", counting.ngrams),
            matching,
            cast("ArrayLengthMeasure", counting.length),
            counting.reference_length,
            int(matching.credit_array(np.ones(1, np.int64), np.ones(1, np.int64))[0]),
        )

    def count_plain(
        self,
        hypotheses: str | bytes | Sequence[Segment],
        references: Sequence[str | bytes] | Sequence[Sequence[Segment]],
    ) -> SegmentStats | None:
        """The statistics of a chunk of segments (at least one) given as text (with a built-in
        tokenizer) or as string tokens throughout, tokenized, interned and counted by the kernel
        in one call (``kernel.count_texts``, without the GIL); ``None`` where they are not
        given so, or where the texts need a user's tokenizer. The chunk may also be given as
        blocks of lines, where the length measure counts tokens (``kernel.count_texts``'
        lines: a str of hypotheses, and one of each reference stream)."""
        tokenizer, max_n = self.tokenizer, self.ngrams.max_n
        blocks = type(hypotheses) in {str, bytes}
        text = blocks or type(hypotheses[0]) is str
        # (a length in tokens reads no text: the list of every reference is not made for it)
        reads_text = text and type(self.length) is not brevity.Tokens
        if (text and tokenizer.name is None) or (blocks and reads_text):
            return None
        counted = kernel.count_texts(
            hypotheses,
            references,
            tokenizer.name if text else None,
            tokenizer.tokenize,
            text and tokenizer.lowercase,
            max_n,
        )
        if counted is None:
            return None
        token_counts, reference_counts, singles, repeated = counted
        segments = len(reference_counts)
        flat_references = list(chain.from_iterable(references)) if reads_text else None
        hypothesis_lengths = self.length.lengths_array(
            cast("Sequence[str]", hypotheses) if reads_text else None, token_counts[:segments]
        )
        reference_lengths = self.length.lengths_array(
            cast("list[str] | None", flat_references), token_counts[segments:]
        )
        return self.statistics(
            singles,
            repeated,
            token_counts[:segments],
            (hypothesis_lengths, reference_lengths),
            reference_counts,
        )

    def statistics(
        self,
        singles: IntArray,
        repeated: IntArray,
        hypothesis_tokens: IntArray,
        lengths: tuple[IntArray, IntArray],
        reference_counts: IntArray,
    ) -> SegmentStats:
        """Every segment's statistics from the kernel's shared n-grams (``singles`` and
        ``repeated``, as ``kernel.shared_ngram_counts`` gives them), the
        hypotheses' token counts, the lengths of the hypotheses and of the references (as the
        length measure measures them) and the number of references of each segment."""
        hypothesis_lengths, reference_lengths = lengths
        return SegmentStats(
            self._matches(singles, repeated),
            self.ngrams.order_totals_array(hypothesis_tokens),
            hypothesis_lengths,
            self.reference_length.reference_length_array(
                hypothesis_lengths, reference_lengths, reference_counts
            ),
            reference_counts,
            self.signature,
        )

    def _matches(self, singles: IntArray, repeated: IntArray) -> IntArray:
        """Every segment's matches per order: the matcher's credit of the shared n-grams
        (``singles`` and ``repeated``, as ``kernel.shared_ngram_counts`` gives them)."""
        matches = singles * self.single_credit if self.single_credit != 1 else singles
        if len(repeated):  # the credit of an n-gram depends only on its two counts
            cells, in_hypothesis, in_reference = repeated.T
            credits = self.matching.credit_array(in_hypothesis, in_reference)
            others = np.bincount(cells, weights=credits, minlength=singles.size)
            matches = matches + others.astype(np.int64).reshape(singles.shape)
        return matches


@attrs.frozen
class ArrayCounting:
    """Counting parts known to support arrays, with a cache of tokens (for one call)."""

    parts: KernelParts
    texts: InternedTexts

    @classmethod
    def of(cls, counting: Counting) -> ArrayCounting | None:
        """The parts, or ``None`` where one of them has no array support."""
        parts = counting.kernel_parts
        return None if parts is None else cls(parts, InternedTexts(parts.tokenizer))

    def token_table(self, segments: Sequence[Segment], kind: str) -> tuple[TokenTable, IntArray]:
        """A table of the tokens of segments that are all text or all tokens (see
        ``plain_kind``), and the number of each segment's text in it."""
        if kind == "text":
            return self.texts(cast("Sequence[str]", segments))
        return TokenTable.of(cast("Sequence[Sequence[str]]", segments)), np.arange(len(segments))

    def lengths(self, segments: Sequence[Segment], kind: str, token_counts: IntArray) -> IntArray:
        texts = cast("Sequence[str]", segments) if kind == "text" else None
        return self.parts.length.lengths_array(texts, token_counts)


# -- counting on arrays -----------------------------------------------------------------------


def _counted_chunks(
    counting: Counting,
    parts: ArrayCounting,
    first: int,
    hypotheses: Sequence[Segment],
    references: Sequence[Sequence[Segment]],
) -> Iterator[SegmentStats]:
    """Every chunk's statistics, in order, counted as ``_prepared`` prepares them (on worker
    threads where there are several chunks: ``handed_on``); a chunk that was not plain is
    counted segment by segment in this thread (``Counting._by_segment``), which also raises the
    right error for bad input."""
    # (the kernel takes lists and tuples: another sequence's slices may be of its own type)
    hypotheses = hypotheses if type(hypotheses) in {list, tuple} else list(hypotheses)
    references = references if type(references) in {list, tuple} else list(references)
    chunks = (
        (
            start,
            hypotheses[start : start + CHUNK_SEGMENTS],
            references[start : start + CHUNK_SEGMENTS],
        )
        for start in range(0, len(hypotheses), CHUNK_SEGMENTS)  # sliced as they are counted
    )
    works = (
        functools.partial(_with_chunk, chunk, _prepared(parts, *chunk[1:])) for chunk in chunks
    )
    for (start, chunk_hypotheses, chunk_references), stats in handed_on(works):
        exact = None if stats is not None else exact_strings(chunk_hypotheses, chunk_references)
        # str subclasses: counted as their str values, as plain text
        plain = _prepared(parts, *exact)() if exact is not None else stats
        if plain is not None:
            yield plain
        else:  # not plain: counted one segment at a time
            yield counting._by_segment(first + start, chunk_hypotheses, chunk_references)


_Chunk = tuple[int, Sequence[Segment], Sequence[Sequence[Segment]]]
"""A chunk: the number of its first segment, its hypotheses and their references."""


def _with_chunk(
    chunk: _Chunk, count: Callable[[], SegmentStats | None]
) -> tuple[_Chunk, SegmentStats | None]:
    return chunk, count()


def _prepared(
    parts: ArrayCounting, hypotheses: Sequence[Segment], references: Sequence[Sequence[Segment]]
) -> Callable[[], SegmentStats | None]:
    """The counting of a chunk, to be called on any thread; it gives ``None`` for a chunk
    holding anything but plain text or plain token lists throughout. Text, where the kernel
    runs the tokenizer itself, and token lists are counted by the kernel in one call
    (``KernelParts.count_plain``); a user's tokenizer runs here, in this thread, as texts are
    interned (``InternedChunk``), and only the counting is left."""
    if type(hypotheses[0]) is not str or parts.parts.tokenizer.name is not None:
        return functools.partial(parts.parts.count_plain, hypotheses, references)
    if plain_kind(hypotheses, references) != "text":
        return _not_plain
    return InternedChunk.of(parts, hypotheses, references, "text").statistics


def _not_plain() -> None:
    return None


def candidate_tokens(
    parts: ArrayCounting, candidates: Sequence[Segment], what: str
) -> tuple[IntArray, IntArray, IntArray] | None:
    """The token ids of candidates (of MBR or pairwise scoring) laid end to end, how many each
    has and each one's length as the length measure measures it; ``None`` where they are not
    all text, all string tokens or all token ids. Errors name ``{what} i``."""
    if _token_ids.corpus_holds_ids(candidates, []):
        corpus = _token_ids.sequences(candidates, what)
        return corpus.token_ids, corpus.token_counts, _id_lengths(parts.parts, corpus.token_counts)
    kind = plain_kind(candidates, [[candidate] for candidate in candidates])
    if kind is None:
        exact = exact_strings(candidates, [])
        if exact is None:
            return None
        return candidate_tokens(parts, exact[0], what)
    table, texts = parts.token_table(candidates, kind)
    token_ids, token_counts = table.laid_end_to_end(texts)
    return token_ids, token_counts, parts.lengths(candidates, kind, token_counts)


def plain_kind(
    hypotheses: Sequence[Segment], references: Sequence[Sequence[Segment]]
) -> str | None:
    """``"text"`` or ``"tokens"`` if every segment is given that way, with at least one
    reference in a list; ``None`` for anything else."""
    if plain_segments(hypotheses, references, tokens=False):
        return "text"
    return "tokens" if plain_segments(hypotheses, references, tokens=True) else None


@attrs.frozen
class InternedChunk:
    """A chunk of segments tokenized and interned, with their lengths, waiting to be counted.

    Token ids from elsewhere (integers in ``range(vocabulary_size)``) are counted the same
    way: a :class:`TokenTable` of them, built directly, and the text numbers of each segment's
    hypothesis and references; ``statistics()`` calls the kernel."""

    parts: KernelParts
    table: TokenTable
    hypothesis_texts: IntArray
    reference_texts: IntArray
    reference_counts: IntArray
    hypothesis_lengths: IntArray  # as the length measure measures them
    reference_lengths: IntArray

    @classmethod
    def of(
        cls,
        arrays: ArrayCounting,
        hypotheses: Sequence[Segment],
        references: Sequence[Sequence[Segment]],
        kind: str,
    ) -> InternedChunk:
        segments = len(hypotheses)
        flat_references = list(chain.from_iterable(references))
        table, texts = arrays.token_table([*hypotheses, *flat_references], kind)
        token_counts = table.lengths(texts)
        return cls(
            arrays.parts,
            table,
            texts[:segments],
            texts[segments:],
            np.fromiter(map(len, references), np.int64, segments),
            arrays.lengths(hypotheses, kind, token_counts[:segments]),
            arrays.lengths(flat_references, kind, token_counts[segments:]),
        )

    def statistics(self) -> SegmentStats:
        """Every segment's statistics."""
        singles, repeated = kernel.shared_ngram_counts(
            self.table.token_ids,
            self.table.starts,
            self.hypothesis_texts,
            self.reference_texts,
            np.concatenate(([0], np.cumsum(self.reference_counts))),
            self.table.vocabulary_size,
            self.parts.ngrams.max_n,
        )
        return self.parts.statistics(
            singles,
            repeated,
            self.table.lengths(self.hypothesis_texts),
            (self.hypothesis_lengths, self.reference_lengths),
            self.reference_counts,
        )
