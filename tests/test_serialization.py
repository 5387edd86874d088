"""Statistics, configurations and results travel between processes: pickling and dictionaries."""

from __future__ import annotations

import json
import math
import pickle

import pytest
import sacrebleu
from hypothesis import given
from hypothesis import strategies as st
from nltk.translate.bleu_score import corpus_bleu

from bleuprint import (
    BLEUScore,
    BLEUStats,
    ConfigurationError,
    InputError,
    Signature,
    presets,
)
from bleuprint.compat.nltk import NLTKStats
from tests.conftest import NLTK_WARNS, as_the_preset_reads

PRESET_NAMES = sorted(presets.PRESETS)
HYPOTHESES = ["the cat is on the mat", "", "a dog barks"]
REFERENCES = [["the cat sat on the mat", "there is a cat"], ["nothing"], ["the dog barks"]]
PERFECT = "the cat sat on a mat"
# Two references per segment, as sacreBLEU's streams need; scores well above 0 at four orders.
ORACLE_HYPOTHESES = ["the cat sat on the mat today", "a dog barks at the red car"]
ORACLE_REFERENCES = [
    ["the cat sat on the mat", "there is a cat"],
    ["a dog barks at the car", "a dog"],
]


def _roundtrip(value: object) -> object:
    return pickle.loads(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_every_preset_pickles_to_an_equal_engine(name: str) -> None:
    engine = presets.get(name).build()
    copy = _roundtrip(engine)
    assert copy is not engine
    assert copy == engine


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_every_pickled_preset_scores_a_hypothesis_equal_to_its_reference_one(name: str) -> None:
    # no n-gram repeats, so every definition's precisions are 1/1 (distinct matching too),
    # and equal lengths give no brevity penalty: 1 by every definition but coco-caption's,
    # whose constants make each precision (m + 1e-15) / (m + 1e-9), and the length ratio
    # (6 + 1e-15) / (6 + 1e-9) below 1, so the score is a hair below
    preset = presets.get(name)
    copy = _roundtrip(preset.build())
    score = copy.corpus_score(*as_the_preset_reads(preset, [PERFECT], [[PERFECT]])).score
    if name == "coco":
        # m = 6, 5, 4, 3 matched n-grams of orders 1..4; 6 words on each side
        precisions = [(m + 1e-15) / (m + 1e-9) for m in (6, 5, 4, 3)]
        penalty = math.exp(1 - (6 + 1e-9) / (6 + 1e-15))
        assert score == pytest.approx(penalty * math.prod(precisions) ** 0.25, rel=1e-12)
    else:
        assert score == 1.0


@NLTK_WARNS
def test_pickled_sacrebleu_and_nltk_presets_score_as_the_libraries_do() -> None:
    sacrebleu_copy = _roundtrip(presets.get("sacrebleu").build())
    theirs = sacrebleu.corpus_bleu(
        ORACLE_HYPOTHESES, [list(refs) for refs in zip(*ORACLE_REFERENCES)]
    )
    assert 100 * sacrebleu_copy.corpus_score(ORACLE_HYPOTHESES, ORACLE_REFERENCES).score == (
        pytest.approx(theirs.score, abs=1e-9)
    )
    nltk_copy = _roundtrip(presets.get("nltk").build())
    expected = corpus_bleu(
        [[reference.split() for reference in refs] for refs in ORACLE_REFERENCES],
        [hypothesis.split() for hypothesis in ORACLE_HYPOTHESES],
    )
    assert nltk_copy.corpus_score(ORACLE_HYPOTHESES, ORACLE_REFERENCES).score == (
        pytest.approx(expected, rel=1e-12)
    )


@NLTK_WARNS
@pytest.mark.parametrize("name", PRESET_NAMES)
def test_results_and_their_statistics_pickle(name: str) -> None:
    preset = presets.get(name)
    result = preset.build().corpus_score(*as_the_preset_reads(preset, HYPOTHESES, REFERENCES))
    assert _roundtrip(result) == result
    assert _roundtrip(result.stats) == result.stats


def test_statistics_dictionary_is_plain_json_with_every_field() -> None:
    stats = BLEUStats(
        (5, 2), (6, 4), 6, 7.5, segments=2, reference_counts=frozenset({2, 1}), counting="tok:x"
    )
    assert json.loads(json.dumps(stats.to_dict())) == {
        "matches": [5, 2],
        "totals": [6, 4],
        "hypothesis_length": 6,
        "reference_length": 7.5,
        "segments": 2,
        "reference_counts": [1, 2],
        "counting": "tok:x",
    }


_counts = st.integers(min_value=0, max_value=10**9)


@st.composite
def _statistics(draw: st.DrawFn) -> BLEUStats:
    orders = draw(st.integers(min_value=1, max_value=6))
    totals = draw(st.lists(_counts, min_size=orders, max_size=orders))
    # Statistics as counting makes them: matches within totals, a whole hypothesis length, a
    # reference length that may be an average.
    return BLEUStats(
        [draw(st.integers(min_value=0, max_value=total)) for total in totals],
        totals,
        draw(_counts),
        draw(_counts | st.floats(min_value=0, max_value=1e9)),
        segments=draw(_counts),
        reference_counts=draw(st.frozensets(st.integers(min_value=1, max_value=9))),
        counting=draw(st.text(max_size=40)),
    )


@given(_statistics(), _statistics())
def test_statistics_survive_a_trip_through_json(stats: BLEUStats, other: BLEUStats) -> None:
    for value in (stats, _same_orders(other, stats) + stats):
        copy = BLEUStats.from_dict(json.loads(json.dumps(value.to_dict())))
        assert copy == value


def test_nltk_statistics_survive_a_trip_through_json_with_their_extra_fields() -> None:
    bleu = BLEUScore.nltk(method=5)
    stats = bleu.count([["a", "b"], ["a"]], [[["a", "b"]], [["b"]]])
    copy = NLTKStats.from_dict(json.loads(json.dumps(stats.to_dict())))
    assert copy == stats
    # "a b": no 3- to 5-grams; "a": no 2- to 5-grams; the last segment is "a" against "b".
    assert copy.empty_orders == (0, 1, 2, 2, 2)
    assert copy.last == BLEUStats(
        (0, 0, 0, 0, 0),
        (1, 0, 0, 0, 0),
        1,
        1,
        reference_counts=frozenset({1}),
        counting=stats.counting,
    )
    assert bleu.score(copy).score == bleu.score(stats).score


def _same_orders(stats: BLEUStats, like: BLEUStats) -> BLEUStats:
    """``stats`` cut or padded to the orders and counting of ``like``, so that they add."""
    orders = like.max_n

    def fit(values: tuple[int, ...]) -> tuple[int, ...]:
        return (values + (0,) * orders)[:orders]

    return BLEUStats(
        fit(stats.matches),
        fit(stats.totals),
        stats.hypothesis_length,
        stats.reference_length,
        segments=stats.segments,
        counting=like.counting,
    )


@NLTK_WARNS
@pytest.mark.parametrize("name", PRESET_NAMES)
def test_statistics_read_back_score_the_same_under_every_preset(name: str) -> None:
    # NLTK's definition sums into statistics of its own, with fields that equality ignores:
    # they must travel too.
    preset = presets.get(name)
    engine = preset.build()
    stats = engine.count(*as_the_preset_reads(preset, HYPOTHESES, REFERENCES))
    read_back = type(stats).from_dict(json.loads(json.dumps(stats.to_dict())))
    for copy in (read_back, _roundtrip(stats)):
        assert type(copy) is type(stats)
        assert engine.score(copy) == engine.score(stats)
        assert copy.to_dict() == stats.to_dict()


def test_statistics_dictionary_may_leave_out_fields_with_defaults() -> None:
    assert BLEUStats.from_dict(
        {"matches": [1], "totals": [2], "hypothesis_length": 2, "reference_length": 3}
    ) == BLEUStats((1,), (2,), 2, 3)


def test_statistics_dictionary_with_a_missing_or_unknown_key_is_refused() -> None:
    data = BLEUStats((1,), (1,), 1, 1).to_dict()
    del data["totals"]
    with pytest.raises(InputError, match="totals"):
        BLEUStats.from_dict(data)
    with pytest.raises(InputError, match="extra"):
        BLEUStats.from_dict({**BLEUStats((1,), (1,), 1, 1).to_dict(), "extra": 1})


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_every_preset_survives_a_trip_through_a_json_dictionary(name: str) -> None:
    engine = presets.get(name).build()
    data = json.loads(json.dumps(engine.to_dict()))
    assert BLEUScore.from_dict(data) == engine


@NLTK_WARNS
@pytest.mark.parametrize("name", PRESET_NAMES)
def test_configuration_dictionary_names_the_parts_the_signature_names(name: str) -> None:
    preset = presets.get(name)
    engine = preset.build()
    signature = engine.corpus_score(*as_the_preset_reads(preset, HYPOTHESES, REFERENCES)).signature
    assert engine.to_dict() == dict(Signature.parse(str(signature)).parts)


def test_configuration_dictionary_of_canonical_bleu_by_definition() -> None:
    assert BLEUScore.canonical().to_dict() == {
        "tok": "whitespace",
        "ngram": "contiguous[4]",
        "match": "clipped",
        "len": "tokens",
        "ref": "closest[shorter]",
        "bp": "exp",
        "smooth": "none",
        "weights": "uniform",
    }


def test_configuration_dictionary_lacking_a_part_or_with_an_unknown_key_is_refused() -> None:
    parts = BLEUScore.canonical().to_dict()
    del parts["smooth"]
    with pytest.raises(ConfigurationError, match="smooth"):
        BLEUScore.from_dict(parts)
    with pytest.raises(ConfigurationError, match="colour"):
        BLEUScore.from_dict({**BLEUScore.canonical().to_dict(), "colour": "blue"})
