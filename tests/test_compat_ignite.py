"""ignite's Bleu: every case of ``circulation_vectors.json`` through the preset, and the
aggregation it needs (the mean of sentence scores) through the engine's other paths."""

from __future__ import annotations

from typing import Any

import pytest

from bleuprint import BLEUScore, ConfigurationError, InputError, StatisticsMismatchError
from bleuprint.aggregation import AggregatedStats

from .conftest import CIRCULATION, circulation_cases, require_shared

# The micro average is Python arithmetic: only the order of operations differs.
ROUNDING = 1e-12
# A macro average's sentence scores pass through float32 tensors (ignite divides Python
# numbers by them without smoothing), off by about one float32 unit.
FLOAT32 = 1e-6


@pytest.mark.parametrize("case", circulation_cases("ignite Bleu"))
def test_bleu(case: dict[str, Any] | None) -> None:
    if case is None:
        require_shared(*CIRCULATION)
        return
    options, expected = case["options"], case["expected"]
    bleu = BLEUScore.ignite(**options)
    hypotheses, references = case["hypotheses"], case["references"]
    tokens = [hypothesis.split() for hypothesis in hypotheses]
    reference_tokens = [[reference.split() for reference in refs] for refs in references]
    result = bleu.corpus_score(tokens, reference_tokens)
    # the vectors split text with str.split, as the preset does
    assert bleu.corpus_score(hypotheses, references).score == result.score
    tolerance = ROUNDING if options["average"] == "micro" else FLOAT32
    assert result.score == pytest.approx(expected["score"], rel=tolerance, abs=ROUNDING)
    state = expected["state"]
    if options["average"] == "micro":
        assert list(result.matches) == state["p_numerators"]
        assert list(result.totals) == state["p_denominators"]
        assert result.hypothesis_length == state["hyp_length_sum"]
        assert result.reference_length == state["ref_length_sum"]
    else:
        assert result.stats.segments == state["num_sentences"]
        assert isinstance(result.stats, AggregatedStats)
        aggregate = result.stats.aggregate / 2**1074  # in units of 2**-1074
        assert aggregate == pytest.approx(state["sum_of_bleu"], rel=tolerance)
        scores = bleu.sentence_scores(tokens, reference_tokens).scores.tolist()
        assert scores == pytest.approx(expected["scores"], rel=tolerance, abs=ROUNDING)


def test_the_macro_average_holds_through_every_way_of_summing() -> None:
    """The mean of sentence scores survives running totals, ``+`` and storage."""
    bleu = BLEUScore.ignite(ngram=2)
    hypotheses = ["a b c d", "x a y b", "a b", "c d e"]
    references = [["a b c d"], ["a b c d"], ["a b c"], ["c d f"]]
    # sentence scores: 1, 0 (no bigram match), sqrt(1 * 1) * exp(1 - 3/2), sqrt(2/3 * 1/2)
    expected = (1 + 0 + 0.6065306597126334 + 0.5773502691896257) / 4
    assert bleu.corpus_score(hypotheses, references).score == pytest.approx(expected, rel=1e-15)
    segments = bleu.count_segments(hypotheses, references)
    halves = bleu.total(segments[:2]) + bleu.total(segments[2:])
    assert bleu.score(halves).score == pytest.approx(expected, rel=1e-15)
    running = bleu.total(segments[2:], bleu.total(segments[:2]))
    assert bleu.score(running).score == pytest.approx(expected, rel=1e-15)
    accumulator = bleu.accumulator()
    accumulator.update(hypotheses[:1], references[:1])
    accumulator.update(hypotheses[1:], references[1:])
    assert accumulator.compute().score == pytest.approx(expected, rel=1e-15)
    stored = AggregatedStats.from_dict(running.to_dict())
    assert bleu.score(stored).score == pytest.approx(expected, rel=1e-15)
    # the micro average of the same corpus: (8/13 ...) is the score of the sums
    micro = BLEUScore.ignite(ngram=2, average="micro")
    assert micro.corpus_score(hypotheses, references).score == pytest.approx(
        micro.score(segments.total()).score
    )


def test_stored_aggregates_are_checked() -> None:
    stored = BLEUScore.ignite().count(["a b c d"], [["a b c d"]]).to_dict()
    assert AggregatedStats.from_dict(stored).aggregate == 2**1074  # one sentence scoring 1
    with pytest.raises(InputError, match="aggregate must be a whole number"):
        AggregatedStats.from_dict({**stored, "aggregate": 0.5})


def test_plain_sums_of_many_segments_are_refused() -> None:
    bleu = BLEUScore.ignite()
    segments = bleu.count_segments(["a b c d", "a b"], [["a b c d"], ["a b"]])
    with pytest.raises(StatisticsMismatchError, match="summed without the per-segment"):
        bleu.total(segments) + segments.total()


def test_options_are_checked() -> None:
    with pytest.raises(ConfigurationError, match='average must be "macro" or "micro"'):
        BLEUScore.ignite(average="mean")
    with pytest.raises(ConfigurationError, match="smooth1"):
        BLEUScore.ignite(smooth="method1")
