"""The results in ``sentence_scores(...)`` (issue 26): each item is the segment's BLEUResult,
read from the arrays when asked, so that a loop over them is cheap; it is that result in every
way a user meets it (fields, equality, printing, pickling, ``attrs.evolve``).

The expected numbers are sacreBLEU's ``sentence_bleu`` (and hand counts) on the same segments.
"""

from __future__ import annotations

import copy
import pickle

import attrs
import pytest
import sacrebleu

from bleuprint import BLEUResult, BLEUScore

HYPOTHESES = ["the cat is here", "a dog barks", "nothing in common"]
REFERENCES = [["the cat was here"], ["a dog barks loudly"], ["zzz"]]


def test_each_item_is_the_sentence_score() -> None:
    bleu = BLEUScore.sacrebleu_sentence()
    results = bleu.sentence_scores(HYPOTHESES, REFERENCES)
    assert len(list(results)) == len(HYPOTHESES)
    for number, result in enumerate(results):
        expected = sacrebleu.sentence_bleu(HYPOTHESES[number], REFERENCES[number])
        assert isinstance(result, BLEUResult)
        assert result.score * 100 == pytest.approx(expected.score, abs=1e-9)
        assert result.matches == tuple(expected.counts)
        assert result.totals == tuple(expected.totals)
        assert (result.hypothesis_length, result.reference_length) == (
            expected.sys_len,
            expected.ref_len,
        )
        alone = bleu.sentence_score(HYPOTHESES[number], REFERENCES[number])
        assert result == alone
        assert alone == result
        assert not result != alone  # noqa: SIM202 (the != operator itself)
        assert repr(result) == repr(alone)
        assert str(result) == str(alone)
        assert result.signature == alone.signature
        assert attrs.asdict(result) == attrs.asdict(alone)
    assert results[0] != results[1]
    assert results[-1] == results[2]
    assert results[:2] == [results[0], results[1]]
    with pytest.raises(IndexError):
        results[3]


def test_an_item_copies_pickles_and_evolves_as_a_plain_result() -> None:
    result = BLEUScore.canonical(max_n=2).sentence_scores(HYPOTHESES[:1], REFERENCES[:1])[0]
    # "the cat is here" against "the cat was here": 3 of 4 unigrams, 1 of 3 bigrams.
    assert (result.matches, result.totals) == ((3, 1), (4, 3))
    assert result.score == pytest.approx(0.5, rel=1e-15)  # sqrt(3/4 * 1/3)
    for copied in (pickle.loads(pickle.dumps(result)), copy.copy(result), copy.deepcopy(result)):
        assert type(copied) is BLEUResult
        assert copied == result
    evolved = attrs.evolve(result, score=0.25)
    assert type(evolved) is BLEUResult
    assert (evolved.score, evolved.totals) == (0.25, (4, 3))
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        result.score = 1.0  # type: ignore[misc]


def test_each_item_has_the_signature_of_its_own_number_of_references() -> None:
    # A signature is made once for each number of references: segments with one, two and
    # one again each carry their own, as the segment scored alone does.
    bleu = BLEUScore.canonical(max_n=2)
    references = [["the cat was here"], ["a dog barks loudly", "a dog barks"], ["zzz"]]
    results = bleu.sentence_scores(HYPOTHESES, references)
    nrefs = [result.signature.nrefs for result in results]
    assert nrefs == ["1", "2", "1"]
    for number, result in enumerate(results):
        alone = bleu.sentence_score(HYPOTHESES[number], references[number])
        assert result.signature == alone.signature
        assert result.stats == alone.stats


def test_items_read_in_any_order_are_their_segments_results() -> None:
    # More segments than the rows read from the arrays at once (1,024), read backwards: each
    # item is the result of its own statistics, scored alone.
    bleu = BLEUScore.canonical(max_n=2)
    hypotheses = [f"w{i % 7} w{i % 5} w{i % 3}" for i in range(2500)]
    references = [[f"w{i % 5} w{i % 7} w{i % 3} w{i % 2}"] for i in range(2500)]
    results = bleu.sentence_scores(hypotheses, references)
    for number in reversed(range(len(hypotheses))):
        result = results[number]
        alone = bleu.score(result.stats)
        assert result.stats == bleu.count([hypotheses[number]], [references[number]])
        assert (result.matches, result.totals) == (alone.matches, alone.totals)
        assert (result.hypothesis_length, result.reference_length) == (
            alone.hypothesis_length,
            alone.reference_length,
        )
        assert (result.score, result.precisions, result.brevity_penalty) == (
            alone.score,
            alone.precisions,
            alone.brevity_penalty,
        )
