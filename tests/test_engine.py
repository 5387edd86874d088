"""The engine's API: configuration, input checking, statistics, signatures, and laws."""

from __future__ import annotations

import inspect
import pickle
import warnings
from collections import Counter

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import bleuprint
from bleuprint import (
    BLEUScore,
    BLEUStats,
    ConfigurationError,
    brevity,
    matching,
    ngrams,
    presets,
    tokenizers,
    weights,
)
from bleuprint.brevity import reference_length

WORDS = st.sampled_from(["the", "cat", "a", "mat", "on", "sat", "dog", "The", "."])
SENTENCE = st.lists(WORDS, max_size=12)
REFERENCES = st.lists(SENTENCE, min_size=1, max_size=4)


class TestConfiguration:
    def test_engine_is_frozen_and_compares_by_value(self) -> None:
        assert BLEUScore() == BLEUScore.canonical()
        assert hash(BLEUScore()) == hash(BLEUScore.canonical(max_n=4))
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            BLEUScore().tokenizer = tokenizers.Letters()  # type: ignore[misc]

    def test_keyword_only(self) -> None:
        with pytest.raises(TypeError):
            BLEUScore(tokenizers.Whitespace())  # type: ignore[misc]

    def test_presets_accept_overrides_of_any_part(self) -> None:
        bleu = BLEUScore.unigram(tokenizer=tokenizers.Letters())
        assert bleu.tokenizer == tokenizers.Letters()
        assert bleu.max_n == 1
        russian = BLEUScore.russian(reference_length=brevity.Shortest())
        assert russian.reference_length == brevity.Shortest()
        assert russian.matching == matching.Distinct()

    def test_a_part_that_does_not_fit_is_rejected_at_construction(self) -> None:
        with pytest.raises(bleuprint.ConfigurationError, match="tokenizer must be a part fitting"):
            BLEUScore(tokenizer=str.split)  # type: ignore[arg-type]

    def test_unknown_tie_rule(self) -> None:
        with pytest.raises(bleuprint.ConfigurationError, match="ties"):
            brevity.Closest("longer")

    def test_user_part_plugs_in_without_subclassing(self) -> None:
        @attrs.frozen
        class FirstLetters:
            signature = "first-letters"

            def __call__(self, text: str) -> list[str]:
                return [word[0] for word in text.split()]

        bleu = BLEUScore.canonical(max_n=1, tokenizer=FirstLetters())
        assert bleu.compute("apple banana", ["avocado blueberry"]) == 1.0
        assert "tok:first-letters" in str(bleu.signature())

    def test_function_wrapped_as_tokenizer(self) -> None:
        upper = tokenizers.from_callable(lambda text: text.upper().split(), signature="upper")
        assert BLEUScore.canonical(max_n=1, tokenizer=upper).compute("A b", ["a B"]) == 1.0

    def test_pickling_round_trips(self) -> None:
        bleu = BLEUScore.russian(length="words", capped=True)
        assert pickle.loads(pickle.dumps(bleu)) == bleu


class TestInput:
    def test_token_lists_are_taken_as_they_are(self) -> None:
        # A multi-word token among others stays one token (a corpus of sentences does not:
        # tests/test_corpus_given_as_one_segment.py).
        tokens = ["New York", "is", "big"]
        assert BLEUScore.canonical(max_n=1).compute(tokens, [tokens]) == 1.0

    def test_mixing_text_and_tokens_is_an_error(self) -> None:
        with pytest.raises(bleuprint.InputError, match="segment 0: the hypothesis is tokens"):
            BLEUScore().compute(["a", "b"], ["a b"])

    def test_references_given_as_one_string(self) -> None:
        with pytest.raises(bleuprint.InputError, match="references must be a list"):
            BLEUScore().compute("a b", "a b")  # type: ignore[arg-type]

    def test_no_references(self) -> None:
        with pytest.raises(bleuprint.InputError, match="segment 0: no references"):
            BLEUScore().compute("a b", [])

    def test_segment_index_is_named(self) -> None:
        with pytest.raises(bleuprint.InputError, match="segment 1: the reference 0 must be"):
            BLEUScore().corpus_score(["a", "b"], [["a"], [None]])  # type: ignore[list-item]

    def test_hypotheses_and_reference_lists_of_different_lengths(self) -> None:
        with pytest.raises(bleuprint.InputError, match="2 hypotheses but 1 reference list:"):
            BLEUScore().corpus_score(["a", "b"], [["a"]])

    def test_empty_corpus(self) -> None:
        with pytest.raises(bleuprint.InputError, match="empty"):
            BLEUScore().corpus_score([], [])

    def test_statistics_of_another_order_cannot_be_scored(self) -> None:
        stats = BLEUScore.canonical(max_n=2).count(["a b"], [["a b"]])
        with pytest.raises(bleuprint.InputError, match="2 orders"):
            BLEUScore().score(stats)


class TestStatistics:
    def test_different_counting_configurations_refuse_to_add(self) -> None:
        words = BLEUScore().count(["a b c d"], [["a b c d"]])
        letters = BLEUScore(tokenizer=tokenizers.Letters()).count(["a b c d"], [["a b c d"]])
        with pytest.raises(bleuprint.StatisticsMismatchError, match="different counting"):
            _ = words + letters

    def test_rescoring_needs_no_text(self) -> None:
        stats = BLEUScore().count(["a b c d"], [["a b c d"]])
        assert BLEUScore().score(stats).score == 1.0

    def test_empty_is_neutral(self) -> None:
        bleu = BLEUScore()
        stats = bleu.count(["a b c d e"], [["a b c d"]])
        assert bleu.empty_stats() + stats == stats

    @given(
        corpus=st.lists(st.tuples(SENTENCE, REFERENCES), min_size=1, max_size=8),
        cut=st.integers(min_value=0, max_value=8),
    )
    def test_statistics_of_any_split_add_up_to_the_whole(
        self, corpus: list[tuple[list[str], list[list[str]]]], cut: int
    ) -> None:
        bleu = BLEUScore()
        hypotheses = [hypothesis for hypothesis, _ in corpus]
        references = [refs for _, refs in corpus]
        whole = bleu.count(hypotheses, references)
        cut = min(cut, len(corpus))
        parts = [
            bleu.count(hypotheses[:cut], references[:cut]) if cut else bleu.empty_stats(),
            bleu.count(hypotheses[cut:], references[cut:])
            if cut < len(corpus)
            else bleu.empty_stats(),
        ]
        assert sum(parts) == whole
        assert sum(bleu.count_segments(hypotheses, references)) == whole
        assert whole.segments == len(corpus)

    def test_statistics_by_hand(self) -> None:
        stats = BLEUScore.canonical(max_n=2).count(["a b a", "c"], [["a b", "b a a"], ["c d"]])
        # Segment 0: unigrams a a b (a clipped at 2 by "b a a"), bigrams "a b" "b a": 3/3 and 2/2;
        # lengths 3 against references 2 and 3: r = 3. Segment 1: 1/1, 0/0, length 1 vs 2.
        assert stats == BLEUStats(
            (4, 2),
            (4, 2),
            4,
            5,
            segments=2,
            reference_counts=frozenset({1, 2}),
            counting=BLEUScore.canonical(max_n=2).counting_signature,
        )


class TestLaws:
    @given(hypothesis=SENTENCE, references=REFERENCES, max_n=st.integers(1, 4))
    def test_bounded_presets_stay_in_the_unit_interval(
        self, hypothesis: list[str], references: list[list[str]], max_n: int
    ) -> None:
        for bleu in (BLEUScore.canonical(max_n=max_n), BLEUScore.unigram()):
            assert 0.0 <= bleu.compute(hypothesis, references) <= 1.0

    @given(sentence=st.lists(WORDS, min_size=4, max_size=12), max_n=st.integers(1, 4))
    def test_identical_candidate_scores_one(self, sentence: list[str], max_n: int) -> None:
        assert BLEUScore.canonical(max_n=max_n).compute(sentence, [sentence]) == 1.0
        assert BLEUScore.unigram().compute(sentence, [sentence]) == 1.0

    @given(hypothesis=SENTENCE, references=REFERENCES, data=st.data())
    def test_reference_order_does_not_matter(
        self, hypothesis: list[str], references: list[list[str]], data: st.DataObject
    ) -> None:
        shuffled = data.draw(st.permutations(references))
        for bleu in (BLEUScore(), BLEUScore.unigram(), BLEUScore.russian(length="words")):
            assert bleu.sentence_score(hypothesis, references) == bleu.sentence_score(
                hypothesis, shuffled
            )


class TestAgainstReferenceImplementations:
    """Canonical BLEU equals sacreBLEU without tokenization and smoothing, and NLTK where NLTK
    does not replace a zero precision by a tiny value (scores below 1e-12 count as 0)."""

    @given(corpus=st.lists(st.tuples(SENTENCE, SENTENCE, SENTENCE), min_size=1, max_size=6))
    def test_corpus_bleu_equals_sacrebleu(
        self, corpus: list[tuple[list[str], list[str], list[str]]]
    ) -> None:
        sacrebleu = pytest.importorskip("sacrebleu")
        hypotheses = [" ".join(h) for h, _, _ in corpus]
        streams = [[" ".join(r) for _, r, _ in corpus], [" ".join(r) for _, _, r in corpus]]
        expected = sacrebleu.metrics.BLEU(tokenize="none", smooth_method="none").corpus_score(
            hypotheses, streams
        )
        result = BLEUScore().corpus_score(hypotheses, [list(refs) for refs in zip(*streams)])
        assert 100 * result.score == pytest.approx(expected.score, abs=1e-9)
        assert list(result.matches) == expected.counts
        assert list(result.totals) == expected.totals
        assert (result.hypothesis_length, result.reference_length) == (
            expected.sys_len,
            expected.ref_len,
        )

    @given(hypothesis=SENTENCE, references=REFERENCES, max_n=st.integers(1, 4))
    def test_sentence_bleu_equals_nltk(
        self, hypothesis: list[str], references: list[list[str]], max_n: int
    ) -> None:
        bleu_module = pytest.importorskip("nltk.translate.bleu_score")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected = bleu_module.sentence_bleu(
                references, hypothesis, weights=(1 / max_n,) * max_n
            )
        actual = BLEUScore.canonical(max_n=max_n).compute(hypothesis, references)
        assert actual == pytest.approx(expected, rel=1e-12, abs=1e-12)


class TestPartsDirectly:
    def test_contiguous_ngrams(self) -> None:
        assert ngrams.Contiguous(2)(["a", "b", "a"]) == Counter(
            {("a",): 2, ("b",): 1, ("a", "b"): 1, ("b", "a"): 1}
        )

    def test_closest_with_ties_to_the_first(self) -> None:
        assert reference_length(brevity.Closest("first"), 5, [6, 4]) == 6
        assert reference_length(brevity.Closest(), 5, [6, 4]) == 4

    def test_shortest_and_average(self) -> None:
        assert reference_length(brevity.Shortest(), 5, [6, 4, 9]) == 4
        assert reference_length(brevity.Average(), 5, [6, 4, 9]) == pytest.approx(19 / 3)

    def test_letters_keep_combining_marks(self) -> None:
        assert tokenizers.Letters()("Cafe\u0301 DÉJÀ-vu") == ["cafe\u0301", "déjà", "vu"]


class TestPresetTable:
    def test_names(self) -> None:
        assert {"canonical", "unigram", "russian"} <= set(presets.PRESETS)

    def test_table_is_read_only(self) -> None:
        with pytest.raises(TypeError):
            presets.PRESETS["mine"] = presets.PRESETS["canonical"]  # type: ignore[index]

    def test_unknown_preset(self) -> None:
        with pytest.raises(bleuprint.ConfigurationError, match="unknown preset 'nope'"):
            presets.get("nope")

    def test_formats(self) -> None:
        assert presets.get("unigram").format_score(0.36787944) == "0.3679"
        assert presets.get("russian").format_score(0.2) == "0.200000"
        assert presets.get("canonical").format_score(0.5) == "50.0"
        # each as the definition prints it: sacreBLEU 0-100 to one decimal, NLTK a float
        assert presets.get("sacrebleu").format_score(0.53714) == "53.7"
        assert presets.get("sacrebleu").format_score(0.53714, 3) == "53.714"
        assert presets.get("nltk").format_score(0.53714) == "0.53714"
        assert presets.get("mteval-v13a").format_score(0.53714) == "0.5371"
        assert presets.get("moses-multi-bleu").format_score(0.53714) == "53.71"


def test_the_engine_class_stays_small() -> None:
    # Issue 11: definitions, serialization details, streaming and pairwise scoring live in
    # their own modules; the class keeps its fields, counting, scoring and signature.
    lines, _ = inspect.getsourcelines(BLEUScore)
    assert len(lines) < 250


def test_parts_that_do_not_fit_each_other_fail_when_built() -> None:
    with pytest.raises(ConfigurationError, match=r"weights explicit\[.*contiguous\[2\]"):
        BLEUScore(ngrams=ngrams.Contiguous(2), weights=weights.Explicit((0.5, 0.3, 0.2)))


def test_a_preset_refuses_an_unknown_option_by_name() -> None:
    with pytest.raises(ConfigurationError, match="canonical preset does not take foo"):
        BLEUScore.canonical(foo=1)
