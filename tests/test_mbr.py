"""Minimum-Bayes-risk decoding and self-BLEU, against sacreBLEU and NLTK run here and against
the definition of reference aggregation computed with Python counters."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import attrs
import numpy as np
import pytest
import sacrebleu
from hypothesis import given
from hypothesis import strategies as st
from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

from bleuprint import BLEUScore, ConfigurationError, InputError, TokenIds, matching

WORDS = st.sampled_from(["the", "cat", "a", "dog", "sat", "on", "mat"])
CANDIDATE = st.lists(WORDS, min_size=1, max_size=8).map(" ".join)
GROUP = st.lists(CANDIDATE, min_size=2, max_size=7)


def real_groups(shared: Callable[..., Path], count: int) -> list[list[str]]:
    """Every en-de system's output for the same source, one group per source (the lines read
    as the shared data's README says: split on \\n only)."""
    folder = shared("data", "wmt22", "en-de")
    outputs = [
        path.read_text(encoding="utf-8").split("\n") for path in sorted(folder.glob("sys.*.txt"))
    ]
    return [[output[source] for output in outputs] for source in range(count)]


def sacrebleu_utilities(group: list[str], weights: list[float], include_self: bool) -> list[float]:
    """The weighted mean of ``sacrebleu.sentence_bleu`` of each candidate against each other."""
    utilities = []
    for i, hypothesis in enumerate(group):
        pairs = [(j, reference) for j, reference in enumerate(group) if include_self or j != i]
        scores = [sacrebleu.sentence_bleu(hypothesis, [ref]).score / 100 for _, ref in pairs]
        mass = sum(weights[j] for j, _ in pairs)
        utilities.append(sum(weights[j] * s for (j, _), s in zip(pairs, scores)) / mass)
    return utilities


def test_exact_utilities_are_mean_sacrebleu_sentence_scores_on_real_outputs(
    shared: Callable[..., Path],
) -> None:
    groups = real_groups(shared, 20)
    bleu = BLEUScore.sacrebleu_sentence()
    for group, choice in zip(groups, bleu.mbr(groups)):
        expected = sacrebleu_utilities(group, [1.0] * len(group), include_self=False)
        assert choice.utilities.tolist() == pytest.approx(expected, rel=1e-12, abs=1e-15)
        # Equal outputs of two systems tie, up to the order of sacreBLEU's additions.
        assert expected[choice.index] == pytest.approx(max(expected), rel=1e-12)


@given(group=GROUP, data=st.data(), include_self=st.booleans())
def test_weighted_exact_utilities_are_weighted_means_of_sacrebleu(
    group: list[str], data: st.DataObject, include_self: bool
) -> None:
    weights = data.draw(st.lists(st.floats(0.1, 5), min_size=len(group), max_size=len(group)))
    (choice,) = BLEUScore.sacrebleu_sentence().mbr(
        [group], reference_weights=[weights], include_self=include_self
    )
    expected = sacrebleu_utilities(group, weights, include_self)
    assert choice.utilities.tolist() == pytest.approx(expected, rel=1e-12, abs=1e-15)


def aggregated_bleu(
    group: list[str], weights: list[float], include_self: bool, max_n: int = 4
) -> list[float]:
    """Canonical BLEU of each candidate against the weighted mean n-gram counts and the
    weighted mean length of its pseudo-references (DeNero et al., 2009), with counters."""

    def counts(tokens: list[str], n: int) -> Counter[tuple[str, ...]]:
        return Counter(tuple(tokens[k : k + n]) for k in range(len(tokens) - n + 1))

    tokenized = [candidate.split() for candidate in group]
    utilities = []
    for i, tokens in enumerate(tokenized):
        others = [j for j in range(len(group)) if include_self or j != i]
        mass = sum(weights[j] for j in others)
        log_precisions = []
        for n in range(1, max_n + 1):
            expected: Counter[tuple[str, ...]] = Counter()
            for j in others:
                for ngram, count in counts(tokenized[j], n).items():
                    expected[ngram] += weights[j] * count / mass
            own = counts(tokens, n)
            matched = sum(min(count, expected[ngram]) for ngram, count in own.items())
            total = sum(own.values())
            log_precisions.append(math.log(matched / total) if matched and total else -math.inf)
        reference_length = sum(weights[j] * len(tokenized[j]) for j in others) / mass
        length = len(tokens)
        penalty = 1.0 if length >= reference_length else math.exp(1 - reference_length / length)
        mean = sum(log_precisions) / max_n
        utilities.append(0.0 if mean == -math.inf else penalty * math.exp(mean))
    return utilities


@given(group=GROUP, data=st.data(), include_self=st.booleans())
def test_aggregated_utilities_are_bleu_against_expected_counts(
    group: list[str], data: st.DataObject, include_self: bool
) -> None:
    weights = data.draw(st.lists(st.floats(0.1, 5), min_size=len(group), max_size=len(group)))
    (choice,) = BLEUScore.canonical().mbr(
        [group], mode="aggregate", reference_weights=[weights], include_self=include_self
    )
    expected = aggregated_bleu(group, weights, include_self)
    assert choice.utilities.tolist() == pytest.approx(expected, rel=1e-9, abs=1e-12)


@given(pair=st.lists(CANDIDATE, min_size=2, max_size=2))
def test_one_pseudo_reference_aggregates_to_itself(pair: list[str]) -> None:
    bleu = BLEUScore.sacrebleu_sentence()
    (exact,) = bleu.mbr([pair])
    (aggregated,) = bleu.mbr([pair], mode="aggregate")
    assert aggregated.utilities.tolist() == pytest.approx(exact.utilities.tolist(), rel=1e-12)


def test_ties_choose_the_first_and_a_lone_candidate_has_no_utility() -> None:
    bleu = BLEUScore.canonical(max_n=1)
    for mode in ("exact", "aggregate"):
        tie, alone, zero_weights = bleu.mbr(
            [["a b", "c d", "a b", "c d"], ["a b"], ["a b", "a c"]],
            mode=mode,
            reference_weights=[[1, 1, 1, 1], [1], [0, 0]],
        )
        # "a b" matches one of its three pseudo-references fully, "c d" too: a tie.
        assert tie.index == 0
        assert tie.utilities.tolist() == pytest.approx([1 / 3] * 4)
        assert alone.index == 0
        assert np.isnan(alone.utilities).all()
        assert zero_weights.index == 0
        assert np.isnan(zero_weights.utilities).all()


def test_token_lists_are_candidates_too() -> None:
    bleu = BLEUScore.canonical(max_n=1)
    text = bleu.mbr([["a b", "a c", "a b c"]], mode="aggregate")[0].utilities
    tokens = bleu.mbr([[["a", "b"], ["a", "c"], ["a", "b", "c"]]], mode="aggregate")
    assert tokens[0].utilities.tolist() == text.tolist()


@attrs.frozen
class PlainClipped:
    """Clipped matching without array support."""

    signature: str = "clipped"

    def __call__(self, *arguments: object) -> list[int]:
        return matching.Clipped()(*arguments)  # type: ignore[arg-type]


def test_errors_name_what_is_wrong() -> None:
    bleu = BLEUScore.canonical()
    with pytest.raises(ConfigurationError, match="mode must be one of exact, aggregate"):
        bleu.mbr([["a"]], mode="fast")
    with pytest.raises(InputError, match="group 1 has no candidate"):
        bleu.mbr([["a"], []])
    with pytest.raises(InputError, match="group 0 has 2 candidates but its reference weights"):
        bleu.mbr([["a", "b"]], reference_weights=[[1.0]])
    with pytest.raises(InputError, match="finite and non-negative"):
        bleu.mbr([["a", "b"]], reference_weights=[[1.0, -1.0]])
    with pytest.raises(InputError, match="1 list of reference weights for 2 groups"):
        bleu.mbr([["a"], ["b"]], reference_weights=[[1.0]])
    with pytest.raises(InputError, match="candidates of group 0 must all be text"):
        bleu.mbr([["a b", ["a", "b"]]], mode="aggregate")
    with pytest.raises(ConfigurationError, match="needs counting parts with array support"):
        BLEUScore(matching=PlainClipped()).mbr([["a", "b"]], mode="aggregate")
    with pytest.raises(InputError, match="at least 2 samples, got 1"):
        bleu.self_bleu(["a"])


def test_self_bleu_is_texygen_with_nltk_method1() -> None:
    samples = ["the cat sat on the mat", "a cat sat on a mat", "the dog sat", "a dog ran off"]
    tokens = [sample.split() for sample in samples]
    method1 = SmoothingFunction().method1
    expected = np.mean(
        [
            sentence_bleu(tokens[:i] + tokens[i + 1 :], tokens[i], smoothing_function=method1)
            for i in range(len(tokens))
        ]
    )
    assert BLEUScore.nltk(method=1).self_bleu(samples) == pytest.approx(expected, rel=1e-12)


def test_self_bleu_is_mean_sacrebleu_against_the_other_samples(
    shared: Callable[..., Path],
) -> None:
    samples = real_groups(shared, 1)[0]
    expected = np.mean(
        [
            sacrebleu.sentence_bleu(sample, samples[:i] + samples[i + 1 :]).score / 100
            for i, sample in enumerate(samples)
        ]
    )
    assert BLEUScore.sacrebleu_sentence().self_bleu(samples) == pytest.approx(expected, rel=1e-12)


def pair_matrix(bleu: BLEUScore, group: list[str]) -> list[list[float]]:
    """A group's pairwise matrix by its definition, alone: every ordered pair a segment."""
    if not group:
        return []
    hypotheses = [hypothesis for hypothesis in group for _ in group]
    references = [[reference] for _ in group for reference in group]
    scores = bleu.sentence_scores(hypotheses, references).scores
    return scores.reshape(len(group), len(group)).tolist()


def test_small_groups_counted_together_equal_each_group_alone(
    shared: Callable[..., Path],
) -> None:
    # Issue 26: groups of up to 64 candidates are counted together, their pairs as one corpus.
    # Sizes 0 to 70 in one call: empty, lone, small (batched) and large (counted on their own).
    lines = [line for group in real_groups(shared, 40) for line in group if line]
    sizes = [6, 0, 1, 2, 4, 16, 65, 3, 70, 5]
    starts = np.cumsum([0, *sizes])
    groups = [lines[start : start + size] for start, size in zip(starts, sizes)]
    bleu = BLEUScore.sacrebleu_sentence()
    matrices = bleu.pairwise_scores(groups)
    assert [matrix.shape for matrix in matrices] == [(size, size) for size in sizes]
    for group, matrix in zip(groups, matrices):
        assert matrix.tolist() == pair_matrix(bleu, group)  # exactly
    candidates = [group for group in groups if group]  # (MBR refuses an empty group)
    for group, choice in zip(candidates, bleu.mbr(candidates)):
        if len(group) > 1:  # (a lone candidate has no pseudo-reference: nan, tested above)
            expected = sacrebleu_utilities(group, [1.0] * len(group), include_self=False)
            assert choice.utilities.tolist() == pytest.approx(expected, rel=1e-12, abs=1e-15)
        (alone,) = bleu.mbr([group])
        assert choice.index == alone.index
        np.testing.assert_array_equal(choice.utilities, alone.utilities)


def test_small_groups_of_ids_with_an_id_that_never_matches() -> None:
    # An unk never matches, not even itself: "5 unk 6" against itself credits 5 and 6 only.
    bleu = BLEUScore.canonical(max_n=1)
    with_unk, plain = bleu.pairwise_scores(
        [TokenIds([[5, 3, 6], [5, 3, 6]], unk=3), [[5, 6], [5, 7]]]
    )
    assert with_unk.ravel().tolist() == pytest.approx([2 / 3] * 4)
    assert plain.tolist() == [[1.0, 0.5], [0.5, 1.0]]
    # A refused candidate is named in its group, as when each group is counted alone.
    with pytest.raises(InputError, match=r"group 1: candidate 1 is text \('a'\)"):
        bleu.pairwise_scores([["a b", "c"], [[1, 2], "a"]])
