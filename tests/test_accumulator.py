"""The training-loop accumulator: its result is ``corpus_score`` of every update, exactly,
whatever the batches, the processes and the order of merges (where the definition allows)."""

from __future__ import annotations

import json
import math
import pickle
from typing import Any

import pytest
import sacrebleu
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu

from bleuprint import BLEUScore, InputError, StatisticsMismatchError, brevity, smoothing
from bleuprint._accumulator import Accumulator
from bleuprint.compat.nltk import NLTKStats
from tests.conftest import NLTK_WARNS

WORDS = st.sampled_from(["the", "cat", "a", "dog", "sat", "on", "mat", "."])
TEXT = st.lists(WORDS, min_size=0, max_size=9).map(" ".join)
SEGMENT = st.tuples(TEXT, st.lists(TEXT, min_size=1, max_size=3))

# Definitions whose statistics are whole numbers: the order of segments does not matter.
WHOLE = {
    "canonical": BLEUScore.canonical(),
    "canonical-2": BLEUScore.canonical(max_n=2),
    "sacrebleu": BLEUScore.sacrebleu(),
    "sacrebleu-sentence": BLEUScore.sacrebleu_sentence(),
    "unigram": BLEUScore.unigram(),
    "russian": BLEUScore.russian(),
    "torchmetrics": BLEUScore.torchmetrics(),
    "hf-evaluate": BLEUScore.hf_evaluate(),
    "bleuscore": BLEUScore.bleuscore(),
    "fast-bleu": BLEUScore.fast_bleu(),
    "distancia": BLEUScore.distancia(),
    **{f"nltk-method{n}": BLEUScore.nltk(method=n) for n in range(5)},
    "nltk-reweigh": BLEUScore.nltk(auto_reweigh=True),
}
# NLTK's methods 5 to 7 read the last segment: the order of the last batch matters.
LAST_SEGMENT = {f"nltk-method{n}": BLEUScore.nltk(method=n) for n in (5, 6, 7)}


@st.composite
def runs(draw: st.DrawFn) -> tuple[list[list[tuple[str, list[str]]]], list[int], list[int]]:
    """Batches of segments, the worker each batch goes to (in order), and the order in
    which the workers' accumulators are merged into the first of that order."""
    batches = draw(st.lists(st.lists(SEGMENT, min_size=1, max_size=4), min_size=1, max_size=6))
    workers = draw(st.integers(1, 3))
    assignment = [draw(st.integers(0, workers - 1)) for _ in batches]
    order = draw(st.permutations(range(workers)))
    return batches, assignment, order


def accumulate(
    engine: BLEUScore,
    batches: list[list[tuple[str, list[str]]]],
    assignment: list[int],
    order: list[int],
) -> tuple[Accumulator, list[tuple[str, list[str]]]]:
    """Each worker updates its accumulator with its batches, sends it as JSON (or pickled)
    and the first in ``order`` merges the others; with the segments in the order their
    statistics were added."""
    workers = [engine.accumulator() for _ in order]
    for batch, worker in zip(batches, assignment):
        workers[worker].update([h for h, _ in batch], [refs for _, refs in batch])
    received = [
        Accumulator.from_dict(engine, json.loads(json.dumps(metric.to_dict())))
        if number % 2
        else pickle.loads(pickle.dumps(metric))
        for number, metric in enumerate(workers)
    ]
    total = received[order[0]]
    for worker in order[1:]:
        total.merge(received[worker])
    segments = [
        segment
        for worker in order
        for batch, owner in zip(batches, assignment)
        if owner == worker
        for segment in batch
    ]
    return total, segments


def corpus_result(engine: BLEUScore, segments: list[tuple[str, list[str]]]) -> Any:
    """The corpus score, or the message of the error that says there is none."""
    try:
        return engine.corpus_score([h for h, _ in segments], [refs for _, refs in segments])
    except InputError as error:
        return str(error)


def computed(metric: Accumulator) -> Any:
    try:
        return metric.compute()
    except InputError as error:
        return str(error)


def assert_same(result: Any, expected: Any, *, last_too: bool = True) -> None:
    """Equal results, or the same error (a definition without a score for that corpus)."""
    if isinstance(result, str) or isinstance(expected, str):
        assert result == expected
        return
    assert result.score == expected.score
    assert result.precisions == expected.precisions
    assert result.brevity_penalty == expected.brevity_penalty
    stats, expected_stats = result.stats.to_dict(), expected.stats.to_dict()
    if not last_too:  # NLTK's record of the last segment, which only methods 5 to 7 read
        stats.pop("last", None)
        expected_stats.pop("last", None)
    assert stats == expected_stats
    assert result.signature == expected.signature


@NLTK_WARNS
@pytest.mark.parametrize("name", sorted(WHOLE))
@settings(max_examples=25)  # per definition
@given(run=runs())
def test_any_order_of_updates_and_merges_is_corpus_score_of_the_corpus(
    name: str, run: tuple[Any, list[int], list[int]]
) -> None:
    engine = WHOLE[name]
    batches, assignment, order = run
    total, merged_order = accumulate(engine, batches, assignment, order)
    in_corpus_order = [segment for batch in batches for segment in batch]
    assert_same(computed(total), corpus_result(engine, in_corpus_order), last_too=False)
    assert_same(computed(total), corpus_result(engine, merged_order))


@pytest.mark.parametrize("name", sorted(LAST_SEGMENT))
@settings(max_examples=50)
@given(run=runs())
def test_nltk_methods_reading_the_last_segment_follow_the_order_of_merges(
    name: str, run: tuple[Any, list[int], list[int]]
) -> None:
    engine = LAST_SEGMENT[name]
    batches, assignment, order = run
    total, merged_order = accumulate(engine, batches, assignment, order)
    assert isinstance(total.stats, NLTKStats)
    assert_same(computed(total), corpus_result(engine, merged_order))


def test_the_last_segment_decides_nltk_method7_as_nltk_computes_it() -> None:
    engine = BLEUScore.nltk(method=7)
    first = (["the", "cat", "sat", "on", "the", "mat"], [["the", "cat", "sat", "on", "a", "mat"]])
    last = (["the", "dog", "sat", "on", "the", "mat"], [["the", "dog", "sat", "on", "the", "mat"]])
    method7 = SmoothingFunction().method7
    for ordered in ([first, last], [last, first]):
        metric = engine.accumulator()
        for hypothesis, references in ordered:
            metric.update([hypothesis], [references])
        expected = corpus_bleu(
            [refs for _, refs in ordered], [h for h, _ in ordered], smoothing_function=method7
        )
        assert metric.compute().score == pytest.approx(expected, rel=1e-12)
    # ... so merging the same two accumulators both ways gives two results.
    a, b = engine.accumulator(), engine.accumulator()
    a.update([first[0]], [first[1]])
    b.update([last[0]], [last[1]])
    a_then_b, b_then_a = pickle.loads(pickle.dumps(a)), pickle.loads(pickle.dumps(b))
    a_then_b.merge(b)
    b_then_a.merge(a)
    assert a_then_b.compute().score != b_then_a.compute().score


@given(run=runs())
def test_averaged_reference_lengths_are_exact_in_order_and_close_after_merges(
    run: tuple[Any, list[int], list[int]],
) -> None:
    engine = BLEUScore(reference_length=brevity.Average())
    batches, assignment, order = run
    in_order = engine.accumulator()
    for batch in batches:
        in_order.update([h for h, _ in batch], [refs for _, refs in batch])
    corpus = [segment for batch in batches for segment in batch]
    assert_same(computed(in_order), corpus_result(engine, corpus))
    # A merge adds the workers' sums, a different order of floating-point additions.
    total, _ = accumulate(engine, batches, assignment, order)
    expected = corpus_result(engine, corpus)
    assert math.isclose(total.stats.reference_length, expected.stats.reference_length)
    assert math.isclose(total.compute().score, expected.score, rel_tol=1e-12, abs_tol=1e-15)


def test_batches_score_as_sacrebleu_scores_the_corpus() -> None:
    hypotheses = ["The cat sat on the mat.", "A dog barked!", "It rains, again."]
    references = ["The cat sat on a mat.", "The dog barked.", "It is raining again."]
    metric = BLEUScore.sacrebleu().accumulator()
    metric.update(hypotheses[:2], [[ref] for ref in references[:2]])
    metric.update(hypotheses[2:], [[ref] for ref in references[2:]])
    expected = sacrebleu.corpus_bleu(hypotheses, [references])
    assert list(metric.stats.matches) == expected.counts
    assert list(metric.stats.totals) == expected.totals
    assert 100 * metric.compute().score == pytest.approx(expected.score, abs=1e-12)


def test_hand_computed_state_reset_and_empty() -> None:
    metric = BLEUScore.canonical(max_n=2).accumulator()
    with pytest.raises(InputError, match="holds no segment"):
        metric.compute()
    metric.update(["the cat is here"], [["the cat was here"]])
    metric.update(["a dog"], [["a dog"]])
    assert (metric.stats.matches, metric.stats.totals, metric.stats.segments) == (
        (5, 2),
        (6, 4),
        2,
    )
    assert metric.compute().score == pytest.approx(math.sqrt(5 / 6 * 2 / 4), rel=1e-15)
    metric.reset()
    assert metric.stats.segments == 0
    assert metric.stats == BLEUScore.canonical(max_n=2).empty_stats()


def test_merging_other_configurations_or_other_objects_is_refused() -> None:
    metric = BLEUScore.canonical().accumulator()
    smoothed = BLEUScore.canonical(smoothing=smoothing.Exp()).accumulator()
    with pytest.raises(StatisticsMismatchError, match="differ in smooth"):
        metric.merge(smoothed)
    with pytest.raises(StatisticsMismatchError, match="differ in ngram"):
        Accumulator.from_dict(metric.engine, BLEUScore.canonical(max_n=2).accumulator().to_dict())
    with pytest.raises(TypeError, match="takes an Accumulator, got dict"):
        metric.merge(smoothed.to_dict())  # type: ignore[arg-type]
    with pytest.raises(InputError, match="keys configuration and stats"):
        Accumulator.from_dict(metric.engine, {"stats": {}})


def test_nltk_state_reads_back_as_nltk_statistics() -> None:
    engine = BLEUScore.nltk(method=5)
    metric = engine.accumulator()
    metric.update([["a", "b"], ["a"]], [[["a", "b"]], [["a"]]])
    back = Accumulator.from_dict(engine, json.loads(json.dumps(metric.to_dict())))
    assert isinstance(back.stats, NLTKStats)
    assert back.stats.empty_orders == (0, 1, 2, 2, 2)  # method5 counts 5 orders
    assert back.stats.last == metric.stats.last
    assert back.compute() == metric.compute()
