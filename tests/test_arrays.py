"""The fast path (``_counting``, ``_pairwise``) against the simple path, and scoring against
the oracle (``tests/oracle.py``).

The simple path is forced by wrapping each counting part in an object that fits only the plain
protocol, and each scoring part in the oracle's formula written for one set of statistics at a
time (in its family's ``FromScalar`` adapter); the two engines then count the same thing,
and every score must equal the oracle's exactly, down to the last bit of every float.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import attrs
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bleuprint import (
    BLEUScore,
    _counting,
    _pairwise,
    brevity,
    matching,
    ngrams,
    presets,
    smoothing,
    tokenizers,
    weights,
)
from bleuprint._kernels import kernel
from bleuprint.typing import (
    Aggregation,
    ArrayMatcher,
    ArrayNgramExtractor,
    CorpusSmoother,
    ReferenceChoosing,
    Tokenizer,
)
from tests import oracle
from tests.conftest import NLTK_WARNS, as_the_preset_reads

Corpus = tuple[list[Any], list[list[Any]]]


@attrs.frozen
class Plain:
    """A part seen only through its plain protocol: no array methods."""

    part: Any

    @property
    def signature(self) -> str:
        return str(self.part.signature)

    @property
    def max_n(self) -> int:
        return int(self.part.max_n)

    def __call__(self, *arguments: Any) -> Any:
        return self.part(*arguments)


COUNTING_PARTS = ("ngrams", "matching", "length")
SCORING_FAMILIES = {
    "reference_length": "ref",
    "brevity_penalty": "bp",
    "smoothing": "smooth",
    "weights": "weights",
}
ADAPTERS = {
    "ref": brevity.ReferenceLengthFromScalar,
    "bp": brevity.PenaltyFromScalar,
    "smooth": smoothing.FromScalar,
    "weights": weights.FromScalar,
}


def scalar(part: Any, family: str) -> Any:
    if isinstance(part, Aggregation):  # its own corpus sums, around an oracle inner smoother
        inner = getattr(part, "inner", None)
        return part if inner is None else attrs.evolve(part, inner=scalar(inner, family))
    if isinstance(part, CorpusSmoother):
        return ADAPTERS[family](oracle.ScalarCorpusSmoother(part, family))
    return ADAPTERS[family](oracle.Scalar(part, family))


@attrs.frozen
class PlainReferenceChoosing(Plain):
    """A matcher that counts against one chosen reference (NLTK's GLEU), without arrays."""

    def choose(self, hypothesis: Any, references: Any) -> Any:
        return self.part.choose(hypothesis, references)


def plain(part: Any) -> Plain:
    return PlainReferenceChoosing(part) if isinstance(part, ReferenceChoosing) else Plain(part)


def simple(engine: BLEUScore) -> BLEUScore:
    """The same configuration, counting one segment at a time, scoring with the oracle's
    formulas one set of statistics at a time (through the families' adapters)."""
    return attrs.evolve(
        engine,
        **{field: plain(getattr(engine, field)) for field in COUNTING_PARTS},
        **{
            field: scalar(getattr(engine, field), family)
            for field, family in SCORING_FAMILIES.items()
        },
    )


def test_plain_wrapper_hides_the_array_protocols() -> None:
    plain = simple(BLEUScore())
    assert not isinstance(plain.ngrams, ArrayNgramExtractor)
    assert not isinstance(plain.matching, ArrayMatcher)
    assert isinstance(BLEUScore().matching, ArrayMatcher)


WORDS = st.sampled_from(["a", "b", "c", "d", "é", "Ab", "\u200bx", "the"])
SPACES = st.sampled_from([" ", "  ", "\t", "\u00a0", "\u3000"])


@st.composite
def corpora(draw: st.DrawFn, *, as_text: bool) -> Corpus:
    """1 to 25 segments of 0 to 12 words, with 1 to 4 references each."""
    size = draw(st.integers(1, 25))

    def segment() -> Any:
        tokens = draw(st.lists(WORDS, max_size=12))
        return draw(SPACES).join(tokens) if as_text else tokens

    hypotheses = [segment() for _ in range(size)]
    references = [[segment() for _ in range(draw(st.integers(1, 4)))] for _ in range(size)]
    return hypotheses, references


ENGINES = st.builds(
    BLEUScore,
    ngrams=st.builds(ngrams.Contiguous, st.integers(1, 6)),
    matching=st.sampled_from([matching.Clipped(), matching.Distinct()]),
    reference_length=st.sampled_from(
        [brevity.Closest(), brevity.Closest("first"), brevity.Shortest(), brevity.Average()]
    ),
    brevity_penalty=st.sampled_from(
        [brevity.Exponential(), brevity.Ratio(), brevity.Ratio(capped=True)]
    ),
    smoothing=st.sampled_from(
        [
            smoothing.NoSmoothing(),
            smoothing.Floor(),
            smoothing.Floor(0),
            smoothing.AddK(),
            smoothing.AddK(0),
            smoothing.AddK(0.5),
            smoothing.Exp(),
        ]
    ),
    weights=st.sampled_from([weights.Uniform(), weights.EffectiveOrder()]),
)


def assert_same_everywhere(engine: BLEUScore, hypotheses: list[Any], references: Any) -> None:
    reference_engine = simple(engine)
    fast = engine.count_segments(hypotheses, references)
    slow = reference_engine.count_segments(hypotheses, references)
    assert list(fast) == list(slow)
    one_by_one = [  # each segment alone, as a sentence's score counts it: a batch of one
        engine.counting.count_one(index, hypothesis, refs)
        for index, (hypothesis, refs) in enumerate(zip(hypotheses, references))
    ]
    assert one_by_one == list(slow)
    total = sum(slow, engine.empty_stats())
    assert fast.total() == slow.total() == total
    fast_results = engine.sentence_scores(hypotheses, references)
    slow_results = [reference_engine.score(stats) for stats in slow]
    assert fast_results.scores.tolist() == [result.score for result in slow_results]
    assert list(fast_results) == slow_results
    corpus_result = engine.corpus_score(hypotheses, references)
    assert corpus_result == reference_engine.corpus_score(hypotheses, references)
    if isinstance(engine.smoothing, Aggregation):
        return  # its corpus result is its own (tests/test_compat_ignite.py, test_compat_gleu.py)
    assert [as_oracle(result) for result in fast_results] == [
        oracle.score(engine, stats) for stats in slow
    ]
    assert as_oracle(corpus_result) == oracle.score(engine, engine.total(slow))


def as_oracle(result: Any) -> tuple[float, tuple[float, ...], float]:
    return result.score, result.precisions, result.brevity_penalty


@given(ENGINES, corpora(as_text=True))
def test_fast_path_equals_simple_path_on_text(engine: BLEUScore, corpus: Corpus) -> None:
    assert_same_everywhere(engine, *corpus)


@given(ENGINES, corpora(as_text=False))
def test_fast_path_equals_simple_path_on_tokens(engine: BLEUScore, corpus: Corpus) -> None:
    assert_same_everywhere(engine, *corpus)


TOKENIZERS = [
    tokenizers.Mteval13a(),
    tokenizers.Chars(),
    tokenizers.Lowercase(tokenizers.Mteval13a()),
    tokenizers.Lowercase(tokenizers.Whitespace()),
    tokenizers.Letters(),  # one the kernel does not run: its tokens are interned
]


@pytest.mark.parametrize("tokenizer", TOKENIZERS, ids=lambda tokenizer: tokenizer.signature)
@given(corpora(as_text=True))
def test_fast_path_equals_simple_path_with_each_tokenizer(
    tokenizer: Tokenizer, corpus: Corpus
) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_counting, "CHUNK_SEGMENTS", 4)
        patch.setattr(_counting, "COUNTING_THREADS", 2)
        assert_same_everywhere(BLEUScore(tokenizer=tokenizer), *corpus)


@given(corpora(as_text=True))
def test_fast_path_measures_characters(corpus: Corpus) -> None:
    assert_same_everywhere(BLEUScore.russian(), *corpus)
    assert_same_everywhere(BLEUScore(length=brevity.Characters()), *corpus)


@given(ENGINES, corpora(as_text=True))
def test_chunks_and_cache_resets_change_nothing(engine: BLEUScore, corpus: Corpus) -> None:
    # Tiny chunks cross chunk borders, and the token cache is emptied again and again.
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_counting, "CHUNK_SEGMENTS", 3)
        patch.setattr(_counting, "CACHED_TEXTS", 5)
        assert_same_everywhere(engine, *corpus)


def clipped_by_counter(
    segments: list[tuple[list[str], list[list[str]]]], max_n: int
) -> list[list[int]]:
    """Matches per segment and order, straight from the definition with Counters."""

    def grams(stream: list[str], n: int) -> Counter[tuple[str, ...]]:
        return Counter(tuple(stream[i : i + n]) for i in range(len(stream) - n + 1))

    matches = [[0] * max_n for _ in segments]
    for segment, (hypothesis, references) in enumerate(segments):
        for n in range(1, max_n + 1):
            for gram, times in grams(hypothesis, n).items():
                most = max(grams(reference, n)[gram] for reference in references)
                matches[segment][n - 1] += min(times, most)
    return matches


TOKENS = st.lists(st.sampled_from("abcd"), max_size=9)  # few kinds: n-grams repeat often


@given(st.data(), st.integers(1, 6))
def test_kernel_counts_shared_ngrams_as_the_definition(data: st.DataObject, max_n: int) -> None:
    texts = data.draw(st.lists(TOKENS, min_size=1, max_size=8))
    numbers = st.integers(0, len(texts) - 1)
    hypotheses = data.draw(st.lists(numbers, min_size=1, max_size=6))
    references = [data.draw(st.lists(numbers, min_size=1, max_size=3)) for _ in hypotheses]
    table = _counting.TokenTable.of(texts)
    singles, repeated = kernel.shared_ngram_counts(
        table.token_ids,
        table.starts,
        np.array(hypotheses, np.int64),
        np.array([text for refs in references for text in refs], np.int64),
        np.cumsum([0, *map(len, references)]),
        table.vocabulary_size,
        max_n,
    )
    cells, in_hypothesis, in_reference = repeated.T
    assert np.all((in_hypothesis > 1) | (in_reference > 1))
    clipped = singles.reshape(-1).copy()
    np.add.at(clipped, cells, np.minimum(in_hypothesis, in_reference))
    expected = clipped_by_counter(
        [(texts[h], [texts[r] for r in refs]) for h, refs in zip(hypotheses, references)], max_n
    )
    assert clipped.reshape(-1, max_n).tolist() == expected


def test_many_repeated_ngrams_in_one_chunk() -> None:
    # Thousands of n-grams found more than once: the kernel's list of them grows.
    hypotheses = [f"a a b b c{i} c{i} d d" for i in range(2000)]
    references = [[f"a a b b c{i} d d d", "b b"] for i in range(2000)]
    assert_same_everywhere(BLEUScore(), hypotheses, references)


def test_empty_and_short_segments() -> None:
    hypotheses = ["", "a", "a b", "", "a b c d e", "a a"]
    references = [[""], ["a"], ["b a", ""], ["x y"], ["a b c d e", "a b"], ["a", "a"]]
    assert_same_everywhere(BLEUScore(), hypotheses, references)
    assert_same_everywhere(BLEUScore.canonical(max_n=9), hypotheses, references)
    long_ones = ["a b " * 15, "a " * 30], [["a b " * 14 + "a", "b a " * 15], ["a " * 29]]
    assert_same_everywhere(BLEUScore.canonical(max_n=25), *long_ones)


def test_chunks_counted_in_threads_keep_their_order() -> None:
    hypotheses: list[Any] = [f"w{i % 7} w{i % 5} x w{i % 3}" for i in range(40)]
    references: list[Any] = [[f"w{i % 5} w{i % 7} x", f"x w{i}"] for i in range(40)]
    # A chunk of text and token lists together takes the simple path, in its place.
    hypotheses[20], references[20] = hypotheses[20].split(), [r.split() for r in references[20]]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_counting, "CHUNK_SEGMENTS", 3)
        patch.setattr(_counting, "COUNTING_THREADS", 2)
        assert_same_everywhere(BLEUScore(), hypotheses, references)


OWN_SUMS = {  # definitions whose corpus is more than the plain sum of its rows
    "nltk": BLEUScore.nltk(),
    "nltk method 4": BLEUScore.nltk(method=4),
    "nltk method 7": BLEUScore.nltk(method=7),  # reads the last segment
    "gleu": BLEUScore.gleu(),
    "ignite macro": BLEUScore.ignite(average="macro"),
}


@NLTK_WARNS
@pytest.mark.parametrize("engine", OWN_SUMS.values(), ids=OWN_SUMS.keys())
@pytest.mark.parametrize("threads", [1, 2])
def test_chunks_summed_and_scored_as_counted_change_nothing(
    engine: BLEUScore, threads: int
) -> None:
    # corpus_score sums, and sentence_scores scores, each chunk as it is counted: crossing
    # chunk borders must give what one batch gives, for the sums that read more than rows.
    hypotheses = [f"w{i % 7} w{i % 5} x w{i % 3} y" for i in range(40)]
    references = [[f"w{i % 5} w{i % 7} x y", f"x w{i} y w{i % 3}"] for i in range(40)]
    whole = engine.corpus_score(hypotheses, references)
    sentences = engine.sentence_scores(hypotheses, references)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_counting, "CHUNK_SEGMENTS", 3)
        patch.setattr(_counting, "COUNTING_THREADS", threads)
        assert engine.corpus_score(hypotheses, references) == whole
        chunked = engine.sentence_scores(hypotheses, references)
    assert list(chunked) == list(sentences)
    assert list(chunked.stats) == list(sentences.stats)


def test_bad_input_gets_the_simple_paths_error() -> None:
    with pytest.raises(ValueError, match="segment 2: no references"):
        BLEUScore().count_segments(["a", "b", "c"], [["a"], ["b"], []])
    with pytest.raises(ValueError, match="segment 1: the hypothesis is text but reference 0 is"):
        BLEUScore().count_segments(["a", "b"], [["a"], [["b"]]])


CANDIDATES = st.sampled_from(["a b c", "a b", "b c a", "", "c c c a", "a b c d"])


@given(ENGINES, st.lists(st.lists(CANDIDATES, max_size=6), max_size=3))
def test_pairwise_scores_are_sentence_scores(engine: BLEUScore, groups: list[list[str]]) -> None:
    reference_engine = simple(engine)
    matrices = engine.pairwise_scores(groups)
    assert len(matrices) == len(groups)
    for group, matrix in zip(groups, matrices, strict=True):
        expected = [[reference_engine.compute(h, [r]) for r in group] for h in group]
        assert matrix.tolist() == expected
    slow_matrices = reference_engine.pairwise_scores(groups)
    assert [matrix.tolist() for matrix in slow_matrices] == [matrix.tolist() for matrix in matrices]


def test_pairwise_blocks_and_large_counts_change_nothing() -> None:
    # 300 copies of one word need counts wider than 8 bits; one n-gram per block
    groups = [["a " * 300, "a " * 299 + "b", "a b a b", "b"], ["c d", "c d e"]]
    reference_engine = simple(BLEUScore())
    expected = [
        [[reference_engine.compute(h, [r]) for r in group] for h in group] for group in groups
    ]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_pairwise, "_PAIRWISE_BLOCK_ENTRIES", 1)
        assert [matrix.tolist() for matrix in BLEUScore().pairwise_scores(groups)] == expected


@pytest.mark.parametrize(
    ("pair", "options"),
    [
        ("en-de", {}),
        ("de-en", {"tokenize": "intl", "smooth_method": "floor"}),
        ("en-zh", {"tokenize": "zh", "smooth_method": "add-k"}),
        ("cs-en", {"tokenize": "char", "lowercase": True}),
        ("zh-en", {"smooth_method": "none"}),
    ],
)
def test_every_sentence_score_of_a_wmt22_system_is_sacrebleus(
    shared: Any, pair: str, options: dict[str, Any]
) -> None:
    sacrebleu = pytest.importorskip("sacrebleu")
    folder = shared("data", "wmt22", pair)
    read = lambda path: path.read_text(encoding="utf-8").split("\n")[:-1]  # noqa: E731
    hypotheses = read(sorted(folder.glob("sys.*.txt"))[0])
    references = [
        list(refs) for refs in zip(*map(read, sorted(folder.glob("ref.*.txt"))), strict=True)
    ]
    ours = BLEUScore.sacrebleu_sentence(**options).sentence_scores(hypotheses, references)
    theirs = sacrebleu.metrics.BLEU(effective_order=True, **options)
    expected = [
        theirs.sentence_score(h, refs).score for h, refs in zip(hypotheses, references, strict=True)
    ]
    assert np.abs(100 * ours.scores - np.array(expected)).max() <= 1e-9


# torcheval raises on a segment without n-grams of some order, as "x y" has no 4-gram.
_SHORT_SEGMENT_OPTIONS = {"torcheval": {"n_gram": 2}}


# NLTK's preset warns of an order without matches, as NLTK does (tests/test_compat_nltk.py).
@pytest.mark.filterwarnings("ignore:(?s).*The hypothesis contains 0 counts:UserWarning")
@pytest.mark.parametrize("name", sorted(presets.PRESETS))
def test_every_preset_takes_the_same_path_to_the_same_numbers(name: str) -> None:
    hypotheses = ["the cat sat on the mat .", "x y", "a dog", "the the the", "one two three four"]
    references = [
        ["the cat is on the mat .", "there is a cat on the mat"],
        ["x"],
        ["a dog", "one dog here"],
        ["the cat"],
        ["one two three four five"],
    ]
    preset = presets.get(name)
    engine = preset.build(**_SHORT_SEGMENT_OPTIONS.get(name, {}))
    assert_same_everywhere(engine, *as_the_preset_reads(preset, hypotheses, references))
