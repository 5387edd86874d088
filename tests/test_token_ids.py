"""Token ids wherever segments are accepted (issue 14): lists of ints, integer arrays, padded
batches (:class:`TokenIds`), tensors through the array protocols.

Expected scores come from sacreBLEU and NLTK run here on the ids written as strings (and NLTK
on the id lists themselves), and from bleuprint's string path, which other tests check against
those peers; never from the id path itself.
"""

from __future__ import annotations

import pickle
import subprocess
import sys
import warnings
from typing import Any

import numpy as np
import pytest
import sacrebleu
from hypothesis import given
from hypothesis import strategies as st
from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu, sentence_bleu

from bleuprint import BLEUScore, InputError, TokenIds, _counting, brevity, matching, ngrams
from bleuprint.rewards import bleu_reward

PAD, EOS, UNK = 0, 2, 3


def random_corpus(
    seed: int, segments: int = 40, vocabulary: int = 12, references: int = 2
) -> tuple[list[list[int]], list[list[list[int]]]]:
    """Hypotheses and references of ids 4.., with shared n-grams (edited copies)."""
    rng = np.random.default_rng(seed)
    hypotheses, reference_sets = [], []
    for _ in range(segments):
        source = rng.integers(4, 4 + vocabulary, rng.integers(0, 15))
        refs = []
        for _ in range(rng.integers(1, references + 1)):
            ref = source.copy()
            changed = rng.random(len(ref)) < 0.3
            ref[changed] = rng.integers(4, 4 + vocabulary, changed.sum())
            refs.append(ref[: len(ref) - rng.integers(0, 3)].tolist())
        hypotheses.append(source.tolist())
        reference_sets.append(refs)
    return hypotheses, reference_sets


def as_text(ids: list[int]) -> str:
    return " ".join(f"w{token}" for token in ids)


def padded(sequences: list[list[int]], width: int, eos: bool = False) -> np.ndarray[Any, Any]:
    batch = np.full((len(sequences), width), PAD)
    for row, sequence in enumerate(sequences):
        batch[row, : len(sequence)] = sequence
        if eos:
            batch[row, len(sequence)] = EOS
            batch[row, len(sequence) + 1 :] = 7  # after the end: ignored, whatever it is
    return batch


def streams(references: list[list[Any]]) -> list[list[Any]]:
    """sacreBLEU's reference streams (every segment given the same number of references)."""
    return [list(stream) for stream in zip(*references)]


HYPOTHESES, REFERENCES = random_corpus(0)
TEXT_HYPOTHESES = [as_text(ids) for ids in HYPOTHESES]
TEXT_REFERENCES = [[as_text(ids) for ids in refs] for refs in REFERENCES]


# -- scores equal those of the same tokens as strings ------------------------------------------


@pytest.mark.parametrize(
    "engine",
    [
        BLEUScore.canonical(),
        BLEUScore.sacrebleu(tokenize="none"),
        BLEUScore.sacrebleu_sentence(tokenize="13a"),  # ids are not tokenized: no matter
        BLEUScore.nltk(method=1),
        BLEUScore.nltk(method=7),
        BLEUScore.canonical(max_n=2, reference_length=brevity.Shortest()),
        BLEUScore.fast_bleu(),  # a matcher without array support: the simple path
    ],
    ids=lambda engine: engine.to_dict()["smooth"] + "/" + engine.to_dict()["match"],
)
def test_ids_count_as_the_same_tokens_as_strings(engine: BLEUScore) -> None:
    ids = engine.count_segments(HYPOTHESES, REFERENCES)
    text = engine.count_segments(TEXT_HYPOTHESES, TEXT_REFERENCES)
    tokens = engine.count_segments(
        [text.split() for text in TEXT_HYPOTHESES],
        [[text.split() for text in refs] for refs in TEXT_REFERENCES],
    )
    for column in ("matches", "totals", "hypothesis_lengths", "reference_lengths"):
        assert getattr(ids, column).tolist() == getattr(tokens, column).tolist(), column
    assert ids.reference_counts.tolist() == [len(refs) for refs in REFERENCES]
    assert engine.corpus_score(HYPOTHESES, REFERENCES) == engine.corpus_score(
        [text.split() for text in TEXT_HYPOTHESES],
        [[text.split() for text in refs] for refs in TEXT_REFERENCES],
    )
    if engine.tokenizer.signature == "whitespace":
        assert ids.matches.tolist() == text.matches.tolist()


def test_sentence_and_corpus_scores_equal_sacrebleu_on_the_id_strings() -> None:
    hypotheses, references = random_corpus(1, references=1)
    texts = [as_text(ids) for ids in hypotheses]
    reference_texts = [[as_text(ids) for ids in refs] for refs in references]
    sentence = BLEUScore.sacrebleu_sentence(tokenize="none")
    expected = [
        sacrebleu.sentence_bleu(text, refs, tokenize="none").score / 100
        for text, refs in zip(texts, reference_texts)
    ]
    assert sentence.sentence_scores(hypotheses, references).scores == pytest.approx(
        expected, abs=1e-12
    )
    corpus = sacrebleu.corpus_bleu(texts, streams(reference_texts), tokenize="none")
    assert BLEUScore.sacrebleu(tokenize="none").corpus_score(
        hypotheses, references
    ).score == pytest.approx(corpus.score / 100, abs=1e-12)


def test_sentence_and_corpus_scores_equal_nltk_on_the_ids_themselves() -> None:
    smoothing = SmoothingFunction().method1
    bleu = BLEUScore.nltk(method=1)
    expected = [
        sentence_bleu(refs, ids, smoothing_function=smoothing)
        for ids, refs in zip(HYPOTHESES, REFERENCES)
    ]
    assert bleu.sentence_scores(HYPOTHESES, REFERENCES).scores.tolist() == pytest.approx(
        expected, abs=1e-12
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # NLTK warns of orders without matches
        total = corpus_bleu(REFERENCES, HYPOTHESES, smoothing_function=smoothing)
    assert bleu.corpus_score(HYPOTHESES, REFERENCES).score == pytest.approx(total, abs=1e-12)


def _expected_scores(engine: BLEUScore) -> list[float]:
    tokens = [text.split() for text in TEXT_HYPOTHESES]
    refs = [[text.split() for text in refs] for refs in TEXT_REFERENCES]
    scores: list[float] = engine.sentence_scores(tokens, refs).scores.tolist()
    return scores


class ArrayProtocol:
    """A tensor seen only through ``__array__`` (as torch and JAX arrays offer it)."""

    def __init__(self, array: np.ndarray[Any, Any]) -> None:
        self._array = array

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray[Any, Any]:
        return self._array if dtype is None else self._array.astype(dtype)


class DLPackOnly:
    """A tensor seen only through ``__dlpack__``."""

    def __init__(self, array: np.ndarray[Any, Any]) -> None:
        self._array = array

    def __dlpack__(self, **options: Any) -> Any:
        return self._array.__dlpack__(**options)

    def __dlpack_device__(self) -> Any:
        return self._array.__dlpack_device__()


class NumpyMethod:
    """A tensor offering only ``.numpy()`` (as TensorFlow's eager tensors do)."""

    def __init__(self, array: np.ndarray[Any, Any]) -> None:
        self._array = array

    def numpy(self) -> np.ndarray[Any, Any]:
        return self._array


class OnAnotherDevice:
    """A GPU tensor: converting it fails until ``.cpu()`` brings it over, as in torch."""

    def __init__(self, array: np.ndarray[Any, Any]) -> None:
        self._array = array

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray[Any, Any]:
        raise TypeError("can't convert cuda:0 device type tensor to numpy")

    def cpu(self) -> ArrayProtocol:
        return ArrayProtocol(self._array)


HYPOTHESIS_FORMS = {
    "lists": lambda: HYPOTHESES,
    "tuples": lambda: [tuple(ids) for ids in HYPOTHESES],
    "int32 arrays": lambda: [np.array(ids, np.int32) for ids in HYPOTHESES],
    "uint16 arrays": lambda: [np.array(ids, np.uint16) for ids in HYPOTHESES],
    "numpy ints": lambda: [[np.int64(token) for token in ids] for ids in HYPOTHESES],
    "padded with eos": lambda: TokenIds(padded(HYPOTHESES, 20, eos=True), pad=PAD, eos=EOS),
    "left padded": lambda: TokenIds(padded(HYPOTHESES, 16)[:, ::-1].copy(), pad=PAD)[:],
    "with lengths": lambda: TokenIds(
        padded(HYPOTHESES, 16) + 100 * (padded(HYPOTHESES, 16) == PAD),
        lengths=[len(ids) for ids in HYPOTHESES],
    ),
    "ragged TokenIds": lambda: TokenIds([[*ids, EOS, 9] for ids in HYPOTHESES], eos=EOS),
    "__array__": lambda: [ArrayProtocol(np.array(ids, np.int64)) for ids in HYPOTHESES],
    "__dlpack__": lambda: [DLPackOnly(np.array(ids, np.int64)) for ids in HYPOTHESES],
    ".numpy()": lambda: [NumpyMethod(np.array(ids, np.int64)) for ids in HYPOTHESES],
    "on a GPU": lambda: [OnAnotherDevice(np.array(ids, np.int64)) for ids in HYPOTHESES],
}


@pytest.mark.parametrize("form", HYPOTHESIS_FORMS)
def test_every_form_of_ids_scores_alike(form: str) -> None:
    hypotheses = HYPOTHESIS_FORMS[form]()
    if form == "left padded":  # reversed sequences: score them against reversed references
        references = [[ids[::-1] for ids in refs] for refs in REFERENCES]
        expected = BLEUScore.canonical().sentence_scores(
            [ids[::-1] for ids in HYPOTHESES], references
        )
    else:
        references, expected = REFERENCES, None
    scores = BLEUScore.canonical().sentence_scores(hypotheses, references).scores
    if expected is None:
        assert scores.tolist() == _expected_scores(BLEUScore.canonical())
    else:
        assert scores.tolist() == expected.scores.tolist()


def test_references_as_a_padded_3d_batch_with_absent_references() -> None:
    width = 16
    batch = np.full((len(REFERENCES), 2, width), PAD)
    for segment, refs in enumerate(REFERENCES):
        # Each reference ends with eos (so an empty one is there); a missing one is all pad.
        batch[segment, : len(refs)] = padded(refs, width, eos=True)
    scores = BLEUScore.canonical().sentence_scores(
        TokenIds(padded(HYPOTHESES, width), pad=PAD), TokenIds(batch, pad=PAD, eos=EOS)
    )
    assert scores.scores.tolist() == _expected_scores(BLEUScore.canonical())
    assert scores.stats.reference_counts.tolist() == [len(refs) for refs in REFERENCES]


def test_references_as_one_2d_array_or_list_per_segment() -> None:
    expected = _expected_scores(BLEUScore.canonical())
    for references in (
        [TokenIds(padded(refs, 16), pad=PAD) for refs in REFERENCES],
        [[np.array(ref, np.int16) for ref in refs] for refs in REFERENCES],
        [tuple(ArrayProtocol(np.array(ref)) for ref in refs) for refs in REFERENCES],
    ):
        scores = BLEUScore.canonical().sentence_scores(HYPOTHESES, references)
        assert scores.scores.tolist() == expected


def test_a_corpus_as_an_integer_array_or_tensor_is_rows_of_ids() -> None:
    rows = np.array([[4, 5, 6, 7], [5, 6, 7, 8]])
    references = np.array([[[4, 5, 6, 7]], [[5, 6, 7, 9]]])
    expected = BLEUScore.canonical(max_n=2).sentence_scores(
        ["w4 w5 w6 w7", "w5 w6 w7 w8"], [["w4 w5 w6 w7"], ["w5 w6 w7 w9"]]
    )
    for hypotheses, refs in ((rows, references), (ArrayProtocol(rows), DLPackOnly(references))):
        scores = BLEUScore.canonical(max_n=2).sentence_scores(hypotheses, refs)
        assert scores.scores.tolist() == expected.scores.tolist()


def test_any_integers_are_ids_large_negative_or_beyond_64_bits() -> None:
    # Ids relabelled per call: only equality counts, so any integers map like small ones.
    small = BLEUScore.canonical().sentence_scores(HYPOTHESES, REFERENCES).scores.tolist()
    for mapping in (
        lambda token: token * 2**40 - 2**62,  # large and negative, int64
        lambda token: 2**64 - 1 - token,  # beyond int64: uint64
        lambda token: token * 2**70,  # beyond 64 bits: Python ints
    ):
        hypotheses = [[mapping(token) for token in ids] for ids in HYPOTHESES]
        references = [[[mapping(token) for token in ids] for ids in refs] for refs in REFERENCES]
        scores = BLEUScore.canonical().sentence_scores(hypotheses, references).scores.tolist()
        assert scores == small


def test_mixed_dtypes_keep_every_id_exact() -> None:
    # int64 and uint64 together would be floats to numpy: 2**63 + 1 and 2**63 would collide.
    hypothesis = np.array([2**63, 5], np.uint64)
    reference = np.array([2**63 + 1, 5], np.uint64)
    other = np.array([-1, 5], np.int64)
    result = BLEUScore.canonical(max_n=1).corpus_score([hypothesis, other], [[reference], [other]])
    assert result.matches == (3,)


@given(
    st.lists(
        st.tuples(
            st.lists(st.integers(-3, 5), max_size=8),
            st.lists(st.lists(st.integers(-3, 5), max_size=8), min_size=1, max_size=3),
        ),
        min_size=1,
        max_size=6,
    )
)
def test_ids_equal_strings_on_any_corpus(corpus: list[tuple[list[int], list[list[int]]]]) -> None:
    hypotheses = [ids for ids, _ in corpus]
    references = [refs for _, refs in corpus]
    bleu = BLEUScore.sacrebleu_sentence(tokenize="none")
    scores = bleu.sentence_scores(hypotheses, references).scores
    expected = [
        sacrebleu.sentence_bleu(as_text(ids), [as_text(ref) for ref in refs], tokenize="none").score
        / 100
        for ids, refs in corpus
    ]
    assert scores == pytest.approx(expected, abs=1e-12)


# -- padding, end of sequence, lengths, an id that never matches --------------------------------


def test_pad_eos_and_lengths_are_read_as_documented() -> None:
    ids = TokenIds(np.array([[PAD, 5, 6, EOS, 7], [5, PAD, 6, 7, 8]]), pad=PAD, eos=EOS)
    assert ids.tolist() == [[5, 6], [5, 6, 7, 8]]
    cut = TokenIds(np.array([[5, 6, 7], [5, 6, 7]]), lengths=np.array([1, 3]))
    assert cut.tolist() == [[5], [5, 6, 7]]
    assert TokenIds([[5, EOS], [EOS, 5]], eos=EOS).tolist() == [[5], []]
    assert len(TokenIds(np.zeros((3, 2, 4), np.int64), pad=PAD)) == 3
    assert TokenIds(np.zeros((3, 2, 4), np.int64), pad=PAD)[0].tolist() == []  # all absent


def read_by_hand(row: list[int], pad: int | None, eos: int | None, length: int | None) -> list[int]:
    """The documented reading of one row: its first ``length`` ids, up to the first eos,
    without pad."""
    row = row[:length] if length is not None else row
    if eos is not None and eos in row:
        row = row[: row.index(eos)]
    return [token for token in row if token != pad]


@pytest.mark.filterwarnings("ignore::bleuprint.PaddingWarning")  # (tiny vocabularies: it may)
@given(
    st.integers(1, 5).flatmap(
        lambda width: st.lists(
            st.lists(st.integers(0, 3), min_size=width, max_size=width), max_size=5
        )
    ),
    st.none() | st.integers(0, 3),
    st.none() | st.integers(0, 3),
    st.booleans(),
    st.randoms(use_true_random=False),
)
def test_token_ids_read_rows_as_documented(
    rows: list[list[int]], pad: int | None, eos: int | None, cut: bool, random: Any
) -> None:
    lengths = [random.randint(0, len(row)) for row in rows] if cut else None
    expected = [
        read_by_hand(row, pad, eos, None if lengths is None else lengths[number])
        for number, row in enumerate(rows)
    ]
    ragged = [row[: random.randint(0, len(row))] for row in rows]  # lists of any lengths
    expected_ragged = [read_by_hand(row, pad, eos, None) for row in ragged]
    if rows:
        array = np.array(rows, np.int64)
        assert TokenIds(array, pad=pad, eos=eos, lengths=lengths).tolist() == expected
        batch = TokenIds(array[None], pad=pad, eos=eos)  # one segment's references
        present = [
            read_by_hand(row, pad, eos, None) for row in rows if pad is None or set(row) != {pad}
        ]
        assert (batch[0].tolist() if len(batch) else []) == present
        assert TokenIds(rows, pad=pad, eos=eos, lengths=lengths).tolist() == expected
        assert TokenIds(ragged, pad=pad, eos=eos).tolist() == expected_ragged


def test_an_unknown_id_never_matches_not_even_itself() -> None:
    bleu = BLEUScore.canonical(max_n=2)
    # "5 unk 6" against "5 unk 6": unigrams 5 and 6 match (2 of 3), no bigram holds no unk.
    result = bleu.corpus_score(TokenIds([[5, UNK, 6]], unk=UNK), [[[5, UNK, 6]]])
    assert (result.matches, result.totals) == ((2, 0), (3, 2))
    # As fairseq's scorer does it: the references' unk made unmatchable (given there).
    fairseq_like = bleu.corpus_score([[5, UNK, 6]], TokenIds([[[5, UNK, 6]]], unk=UNK))
    assert fairseq_like.matches == (2, 0)
    # Same as strings where every unk is a word of its own.
    strings = bleu.corpus_score([["5", "u1", "6"]], [[["5", "u2", "6"]]])
    assert result.matches == strings.matches and result.score == strings.score


class RecordingMatcher:
    """Clipped matching that records the hypothesis n-grams it is given (no array support:
    the engine counts one segment at a time)."""

    signature = "recording"

    def __init__(self) -> None:
        self.seen: list[list[tuple[str, ...]]] = []

    def __call__(self, hypothesis: Any, references: Any, max_n: int) -> list[int]:
        self.seen.append(sorted(hypothesis))
        return matching.Clipped()(hypothesis, references, max_n)


def test_parts_without_array_support_see_the_ids_written_in_decimal() -> None:
    matcher = RecordingMatcher()
    bleu = BLEUScore(ngrams=ngrams.Contiguous(1), matching=matcher)
    result = bleu.corpus_score(TokenIds([[2**40, -7, UNK]], unk=UNK), [[[2**40, UNK]]])
    assert matcher.seen == [[("-7",), ("1099511627776",), ("never-1",)]]
    assert result.matches == (1,)


def test_unknown_ids_never_match_in_pairwise_scores() -> None:
    group = TokenIds([[5, UNK], [5, UNK], [UNK, UNK]], unk=UNK)
    (matrix,) = BLEUScore.canonical(max_n=1).pairwise_scores([group])
    assert matrix.tolist() == [[0.5, 0.5, 0.0], [0.5, 0.5, 0.0], [0.0, 0.0, 0.0]]


# -- every entry point -----------------------------------------------------------------------


def test_compute_sentence_score_count_and_the_accumulator_take_ids() -> None:
    bleu = BLEUScore.sacrebleu_sentence(tokenize="none")
    hypothesis, refs = HYPOTHESES[0], REFERENCES[0]
    expected = sacrebleu.sentence_bleu(
        as_text(hypothesis), [as_text(ref) for ref in refs], tokenize="none"
    )
    assert bleu.compute(hypothesis, refs) == pytest.approx(expected.score / 100, abs=1e-12)
    assert bleu.compute(np.array(hypothesis), [np.array(ref) for ref in refs]) == bleu.compute(
        hypothesis, refs
    )
    assert bleu.sentence_score(hypothesis, TokenIds(padded(refs, 16), pad=PAD)).score == (
        bleu.compute(hypothesis, refs)
    )
    assert bleu.count(HYPOTHESES, REFERENCES) == bleu.count(
        [text.split() for text in TEXT_HYPOTHESES],
        [[text.split() for text in refs] for refs in TEXT_REFERENCES],
    )
    metric = bleu.accumulator()
    metric.update(HYPOTHESES[:10], REFERENCES[:10])
    metric.update(TokenIds(padded(HYPOTHESES[10:], 16), pad=PAD), REFERENCES[10:])
    assert pickle.loads(pickle.dumps(metric)).compute() == bleu.corpus_score(HYPOTHESES, REFERENCES)


def test_mbr_pairwise_and_self_bleu_take_ids() -> None:
    bleu = BLEUScore.sacrebleu_sentence(tokenize="none")
    groups = [HYPOTHESES[:8], HYPOTHESES[8:20]]
    text_groups = [[as_text(ids) for ids in group] for group in groups]
    for ours, theirs in zip(bleu.pairwise_scores(groups), bleu.pairwise_scores(text_groups)):
        assert ours.tolist() == theirs.tolist()
    expected_pair = sacrebleu.sentence_bleu(text_groups[0][1], [text_groups[0][2]], tokenize="none")
    assert bleu.pairwise_scores(groups)[0][1, 2] == pytest.approx(
        expected_pair.score / 100, abs=1e-12
    )
    for mode in ("exact", "aggregate"):
        ours = bleu.mbr([TokenIds(padded(group, 16), pad=PAD) for group in groups], mode=mode)
        theirs = bleu.mbr(text_groups, mode=mode)
        assert [choice.index for choice in ours] == [choice.index for choice in theirs]
        for a, b in zip(ours, theirs):
            # Aggregation sums expected counts (floats) in the order of the n-grams' labels.
            assert a.utilities == pytest.approx(b.utilities, rel=1e-12, abs=0)
    # All groups as one 3-D batch (group, candidate, position).
    batch = TokenIds(np.stack([padded(HYPOTHESES[:8], 16), padded(HYPOTHESES[8:16], 16)]), pad=PAD)
    assert [choice.index for choice in bleu.mbr(batch)] == [
        choice.index for choice in bleu.mbr([text_groups[0], text_groups[1][:8]])
    ]
    assert bleu.self_bleu(HYPOTHESES[:8]) == bleu.self_bleu(text_groups[0])


def test_rewards_read_completion_ids_with_their_end_of_sequence() -> None:
    reward = bleu_reward(
        BLEUScore.sacrebleu_sentence(tokenize="none"),
        hypotheses="completion_ids",
        references="reference_ids",
        eos=EOS,
    )
    completion_ids = [[*ids, EOS] for ids in HYPOTHESES[:6]]  # as TRL passes them
    rewards = reward(
        completions=["..."] * 6,
        completion_ids=completion_ids,
        reference_ids=[refs[0] for refs in REFERENCES[:6]],  # one sequence per sample
        prompts=["p"] * 6,
    )
    expected = [
        sacrebleu.sentence_bleu(as_text(ids), [as_text(refs[0])], tokenize="none").score / 100
        for ids, refs in zip(HYPOTHESES[:6], REFERENCES[:6])
    ]
    assert rewards == pytest.approx(expected, abs=1e-12)
    # Completions given as ids themselves, with several references per sample.
    direct = bleu_reward(BLEUScore.sacrebleu_sentence(tokenize="none"))
    assert direct(HYPOTHESES[:6], references=REFERENCES[:6]) == pytest.approx(
        _expected_scores(BLEUScore.sacrebleu_sentence(tokenize="none"))[:6], abs=1e-12
    )


@pytest.mark.parametrize("threads", [1, 2])
def test_a_corpus_of_many_chunks_counts_as_one(monkeypatch: Any, threads: int) -> None:
    whole = BLEUScore.canonical().count_segments(HYPOTHESES, REFERENCES)
    monkeypatch.setattr(_counting, "CHUNK_SEGMENTS", 7)
    monkeypatch.setattr(_counting, "COUNTING_THREADS", threads)
    chunked = BLEUScore.canonical().count_segments(HYPOTHESES, REFERENCES)
    for column in ("matches", "totals", "hypothesis_lengths", "reference_lengths"):
        assert getattr(chunked, column).tolist() == getattr(whole, column).tolist()


def test_no_tensor_library_is_imported() -> None:
    """Arrays are read through their protocols, and only bleuprint.distributed needs the torch
    extra: scoring an array, every preset, the command line and the Dask functions import no
    tensor library (in a process of its own, as other tests import torch)."""
    program = (
        "import sys, numpy as np\n"
        "import bleuprint.cli, bleuprint.dask, bleuprint.rewards, bleuprint.mbr\n"
        "import bleuprint.presets\n"
        "from bleuprint import BLEUScore\n"
        "class Tensorish:\n"
        "    def __init__(self, ids): self.ids = ids\n"
        "    def __array__(self, dtype=None, copy=None): return self.ids\n"
        "BLEUScore.canonical().corpus_score([Tensorish(np.array([4, 5]))], [[[4, 5]]])\n"
        "for name in bleuprint.presets.PRESETS: BLEUScore.preset(name)\n"
        "libraries = {'torch', 'torchmetrics', 'jax', 'tensorflow'}\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in libraries))"
    )
    completed = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, check=True
    )
    assert completed.stdout.strip() == "[]"


# -- what is refused, by name and place ----------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda bleu: bleu.corpus_score([[4, 5], [4, 5], "w4 w5"], [[[4]], [[4]], ["w4"]]),
            "segment 2: the hypothesis is text .* this corpus gives token ids",
        ),
        (
            lambda bleu: bleu.corpus_score([[4, 5], ["w4", "w5"]], [[[4]], [["w4"]]]),
            "segment 1: the hypothesis is a list of string tokens, .* token ids",
        ),
        (
            lambda bleu: bleu.corpus_score([[4, 5]], [["w4 w5"]]),
            "segment 0: reference 0 is text .* token ids",
        ),
        (
            lambda bleu: bleu.corpus_score(["w4 w5"], [[[4, 5]]]),
            "segment 0: reference 0 is text|segment 0: the hypothesis is text",
        ),
        (
            lambda bleu: bleu.corpus_score([[4, 5], [4, 1.5]], [[[4]], [[4]]]),
            r"segment 1: the hypothesis must hold integer token ids only, but item 1 is a float",
        ),
        (
            lambda bleu: bleu.corpus_score([[4, None]], [[[4]]]),
            "segment 0: .* item 1 is a NoneType",
        ),
        (
            lambda bleu: bleu.corpus_score([[4, 5], [4, 5]], [[[4]], ([4], [4, 2.5])]),
            r"segment 1: reference 1 must hold integer token ids only, but item 1 is a float",
        ),
        (
            lambda bleu: bleu.corpus_score(((4, 5), (4, 5)), ([(4,)], [(4, "w5")])),
            r"segment 1: reference 0 must hold .* item 1 is a string \('w5'\): give every",
        ),
        (
            lambda bleu: bleu.corpus_score([[4, 5], [4], [True]], [[[4]], [[4]], [[4]]]),
            r"segment 2: .* item 0 is a bool",
        ),
        (
            lambda bleu: bleu.corpus_score([np.array([4.0, 5.0])], [[[4]]]),
            "segment 0: .* numbers of dtype float64, not integer token ids",
        ),
        (
            lambda bleu: bleu.corpus_score([np.array([True, False])], [[[4]]]),
            r"segment 0: .* booleans \(a mask\?\)",
        ),
        (
            lambda bleu: bleu.corpus_score([[True, False]], [[[4]]]),
            r"segment 0: .* item 0 is a bool",
        ),
        (
            lambda bleu: bleu.corpus_score(np.array([4, 5]), [[[4]]]),
            r"hypotheses must be a list of segments, got one sequence of token ids",
        ),
        (
            lambda bleu: bleu.corpus_score([[4, 5]], [[4, 5]]),
            r"segment 0: the references must be a list of references .* \(\[ids\] for one",
        ),
        (
            lambda bleu: bleu.compute([4, 5], np.array([4, 5])),
            r"segment 0: references must be a list of references, got one sequence of token",
        ),
        (
            lambda bleu: bleu.corpus_score([[4, 5]], [[]]),
            "segment 0: no references",
        ),
        (
            lambda bleu: bleu.corpus_score(
                TokenIds(np.zeros((2, 2, 3), np.int64)), TokenIds(np.ones((2, 1, 3), np.int64))
            ),
            "hypotheses given as TokenIds must be 2-D",
        ),
        (
            lambda bleu: bleu.corpus_score(TokenIds([[4, 5]]), TokenIds([[4, 5]])),
            r"references given as TokenIds must be 3-D .* \(ids\[:, None, :\]\)",
        ),
        (
            lambda bleu: BLEUScore.canonical(length=brevity.Characters()).corpus_score(
                [[4]], [[[4]]]
            ),
            "token ids have no text, and this configuration needs it: a length in characters",
        ),
        (
            lambda bleu: bleu.mbr([[[4, 5], "w4 w5"]]),
            "group 0: candidate 1 is text",
        ),
        (
            lambda bleu: bleu.mbr([[[4, 5], "w4 w5"]], mode="aggregate"),
            "group 0: candidate 1 is text",
        ),
    ],
)
def test_mixed_or_non_integer_input_is_refused_by_place(call: Any, message: str) -> None:
    with pytest.raises(InputError, match=message):
        call(BLEUScore.canonical(max_n=2))


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: TokenIds([[4, 5]], pad=1.5), "pad must be an integer id, got 1.5"),
        (lambda: TokenIds([[4, 5]], eos=True), "eos must be an integer id, got True"),
        (lambda: TokenIds(np.zeros((2, 2, 2, 2), np.int64)), "1 to 3 dimensions .* got 4"),
        (lambda: TokenIds([[4, 5]], lengths=[1, 2]), "lengths must be 1 whole numbers"),
        (lambda: TokenIds([[4, 5]], lengths=[-1]), "lengths must not be negative"),
        (lambda: TokenIds([[4, 5], [[4]]]), "items have 1 and 2 dimensions"),
        (lambda: TokenIds("4 5"), "must be token ids .* got text"),
        (lambda: TokenIds(TokenIds([4])), "wraps ids, not TokenIds"),
    ],
)
def test_token_ids_refuse_what_they_cannot_read(make: Any, message: str) -> None:
    with pytest.raises(InputError, match=message):
        make()


def test_token_ids_are_a_sequence() -> None:
    ids = TokenIds(np.array([[4, 5, PAD], [6, PAD, PAD], [7, 8, 9]]), pad=PAD)
    assert len(ids) == 3 and ids.ndim == 2
    assert ids[-1].tolist() == [7, 8, 9] and ids[1:].tolist() == [[6], [7, 8, 9]]
    assert ids[0][1] == 5 and ids[0][:1].tolist() == [4]
    assert [item.tolist() for item in ids] == [[4, 5], [6], [7, 8, 9]]
    with pytest.raises(IndexError):
        ids[3]
    assert repr(ids) == "TokenIds([[4, 5], [6], [7, 8, 9]], ndim=2)"
