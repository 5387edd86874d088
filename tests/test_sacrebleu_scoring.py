"""Scoring raw statistics like sacreBLEU's ``BLEU.compute_bleu``, and the sacreBLEU API around
the presets: options, signatures, printed lines, the stream layout."""

from __future__ import annotations

import logging
import math
import re
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import BLEU

from bleuprint import (
    BLEUScore,
    BLEUStats,
    ConfigurationError,
    InputError,
    presets,
    smoothing,
    tokenizers,
    weights,
)
from bleuprint.compat.sacrebleu import OPTIONS, AnyAddK, AnyFloor, Arithmetic, from_streams
from bleuprint.compat.sacrebleu import signature as sacrebleu_signature
from tests.sacrebleu_reports import assert_as_sacrebleu

logging.getLogger("sacrebleu").setLevel(logging.ERROR)

# Totals such as 80 make precisions like 23/80 = 28.75% that sacreBLEU rounds half to even.
totals = st.sampled_from([0, 1, 2, 3, 4, 7, 8, 16, 40, 80, 400, 1000, 38914])


@st.composite
def statistics(draw: st.DrawFn) -> dict[str, Any]:
    max_n = draw(st.integers(1, 6))
    total = [draw(totals) for _ in range(max_n)]  # not always decreasing, as raw input may be
    correct = [draw(st.integers(0, count)) for count in total]
    method = draw(st.sampled_from(["none", "floor", "add-k", "exp"]))
    # every value sacreBLEU takes, those it fails on or scores NaN with included
    values = [None, 0, 0.1, 0.5, 1, 3, -0.5, -2, math.nan, math.inf]
    return {
        "correct": correct,
        "total": total,
        "sys_len": draw(st.integers(0, 50)),
        "ref_len": draw(st.integers(0, 50)),
        "max_ngram_order": max_n,
        "smooth_method": method,
        "smooth_value": draw(st.sampled_from(values)),
        "effective_order": draw(st.booleans()),
    }


@settings(max_examples=300)
@given(given_stats=statistics())
def test_scoring_agrees_with_compute_bleu(given_stats: dict[str, Any]) -> None:
    # compute_bleu adds to the lists it is given with add-k: give it copies
    theirs = _compute_bleu(given_stats)
    options = {key: given_stats[key] for key in OPTIONS if key in given_stats}
    bleu = BLEUScore.sacrebleu(**options)
    stats = BLEUStats(
        given_stats["correct"],
        given_stats["total"],
        given_stats["sys_len"],
        given_stats["ref_len"],
        counting=bleu.counting_signature,
    )
    if theirs is None:
        with pytest.raises(InputError, match="bleuprint gives no score"):
            bleu.score(stats)
    else:
        assert_as_sacrebleu(bleu.score(stats), theirs, options)


def _compute_bleu(given_stats: dict[str, Any]) -> Any:
    """sacreBLEU's ``compute_bleu`` of the statistics, or ``None`` where it gives no finite
    score (its log fails on a negative precision, or the score is NaN or infinite)."""
    # compute_bleu adds to the lists it is given with add-k: give it copies
    counts = {"correct": list(given_stats["correct"]), "total": list(given_stats["total"])}
    try:
        theirs = BLEU.compute_bleu(**{**given_stats, **counts})
    except ValueError:
        return None
    return theirs if math.isfinite(theirs.score) else None


@settings(max_examples=100)
@given(given_stats=statistics())
def test_the_commands_arithmetic_is_compute_bleus_to_the_last_bit(
    given_stats: dict[str, Any],
) -> None:
    # bleuprint sacrebleu prints unrounded numbers: Arithmetic must be sacreBLEU's exactly.
    theirs = _compute_bleu(given_stats)
    order = given_stats["max_ngram_order"]
    arithmetic = Arithmetic(
        order,
        given_stats["smooth_method"],
        given_stats["smooth_value"],
        given_stats["effective_order"],
    )
    lengths = [given_stats["sys_len"], given_stats["ref_len"]]
    row = [*lengths, *given_stats["correct"], *given_stats["total"]]  # as counted, not added to
    if theirs is None:
        with pytest.raises(InputError, match="bleuprint gives no score"):
            arithmetic.score(row)
        return
    ours = arithmetic.score(row)
    assert (ours.score, ours.precisions, ours.bp) == (theirs.score, theirs.precisions, theirs.bp)
    assert ours.verbose == str(theirs).split(" ", 3)[3]


def test_a_precision_on_an_exact_tie_prints_as_sacrebleu_does() -> None:
    # 100 * 23 / 80 = 28.75 and 100 * 1 / 80 = 1.25 are exact ties, rounded half to even;
    # 100 * (23 / 80) is a hair off 28.75.
    bleu = BLEUScore.sacrebleu(max_ngram_order=3, smooth_method="none")
    stats = BLEUStats((23, 3, 1), (80, 80, 80), 80, 80, counting=bleu.counting_signature)
    theirs = BLEU.compute_bleu([23, 3, 1], [80, 80, 80], 80, 80, max_ngram_order=3)
    assert "28.8/3.8/1.2" in str(theirs)
    assert f"{100 * (23 / 80):.1f}" == "28.7"
    assert str(bleu.score(stats)) == str(theirs)


def test_a_score_on_an_exact_tie_prints_as_sacrebleu_does() -> None:
    # BLEU-1 of 5 matches in 16 is 31.25 exactly; sacreBLEU's exp(log(31.25)) is a hair above
    # it and prints 31.3 with one decimal, where 100 * exp(log(5 / 16)) = 31.25 prints 31.2.
    bleu = BLEUScore.sacrebleu(max_ngram_order=1)
    result = bleu.score(BLEUStats((5,), (16,), 16, 16, counting=bleu.counting_signature))
    theirs = BLEU.compute_bleu([5], [16], 16, 16, max_ngram_order=1)
    assert theirs.format(width=1).startswith("BLEU = 31.3 ")
    assert f"{100 * result.score:.1f}" == "31.2"
    assert result.format(width=1) == theirs.format(width=1)


# -- options -------------------------------------------------------------------------------


def test_options_build_the_parts() -> None:
    bleu = BLEUScore.sacrebleu(
        tokenize="intl",
        lowercase=True,
        smooth_method="add-k",
        smooth_value=2,
        max_ngram_order=6,
        effective_order=True,
    )
    assert bleu.tokenizer == tokenizers.Lowercase(tokenizers.International())
    assert bleu.smoothing == smoothing.AddK(2)
    assert bleu.weights == weights.EffectiveOrder()
    assert bleu.max_n == 6
    assert BLEUScore.sacrebleu(smooth_method="floor").smoothing == smoothing.Floor(0.1)
    assert BLEUScore.sacrebleu(smooth_method="add-k").smoothing == smoothing.AddK(1)
    # sacreBLEU ignores a value given to the methods that take none
    assert BLEUScore.sacrebleu(smooth_method="exp", smooth_value=3).smoothing == smoothing.Exp()
    assert BLEUScore.sacrebleu(trg_lang="zh").tokenizer == tokenizers.Chinese()


def test_defaults_are_sacrebleus() -> None:
    assert BLEUScore.sacrebleu() == BLEUScore(
        tokenizer=tokenizers.Mteval13a(), smoothing=smoothing.Exp()
    )
    assert BLEUScore.sacrebleu_sentence() == BLEUScore.sacrebleu(effective_order=True)
    assert BLEUScore.sacrebleu_sentence(effective_order=False) == BLEUScore.sacrebleu()


def test_a_part_given_wins() -> None:
    bleu = BLEUScore.sacrebleu(tokenize="intl", tokenizer=tokenizers.ChineseFixed())
    assert bleu.tokenizer == tokenizers.ChineseFixed()


def test_presets_table() -> None:
    assert presets.get("sacrebleu").build(tokenize="char") == BLEUScore.sacrebleu(tokenize="char")
    assert presets.get("sacrebleu-sentence").build() == BLEUScore.sacrebleu_sentence()
    # printed as sacreBLEU's command prints it: 0-100, one decimal
    assert (presets.get("sacrebleu").scale, presets.get("sacrebleu").decimals) == (100, 1)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"spm_model": "x.model"}, "spm_model is the model of a SentencePiece tokenizer"),
        ({"tokenize": "14a"}, "unknown sacreBLEU tokenize '14a'"),
        ({"smooth_method": "add-one"}, "unknown sacreBLEU smooth_method 'add-one'"),
        ({"max_ngram_order": 0}, "max_n must be a whole number from 1 to 1024"),
        ({"smooth_method": "floor", "smooth_value": "2"}, "value must be a number, got '2'"),
        ({"smooth_method": "add-k", "smooth_value": True}, "k must be a number, got True"),
        ({"force": True}, "the sacrebleu preset does not take force"),
    ],
)
def test_bad_options(options: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigurationError, match=message):
        BLEUScore.sacrebleu(**options)


# sacreBLEU takes any smooth_value: a floor above 1 (scores above 100), a negative one (its log
# fails where it floors an order), NaN and infinity (its score is NaN or infinite where used).
SMOOTH_VALUES = [-2.0, -1.0, -0.5, 0.0, 0.05, 1.0, 1.5, 2.0, 10.0, 100.0, math.nan, math.inf]
SMOOTHED_CORPORA = [
    (["a b x d y"], [["a b c d e"]]),  # one order without a match
    (["a b c d e f", "x y"], [["a b c d e f"], ["x z"]]),  # every order matched
    (["a b x y", "p"], [["a b c d"], ["q"]]),  # a segment without any match
    (["a"], [["a"]]),  # no bigrams: the orders above 1 undefined
]


@pytest.mark.parametrize("method", ["floor", "add-k"])
@pytest.mark.parametrize("value", SMOOTH_VALUES, ids=str)
@pytest.mark.parametrize("sentence", [False, True], ids=["corpus", "sentence"])
def test_every_smooth_value_sacrebleu_takes(method: str, value: float, sentence: bool) -> None:
    options = {"smooth_method": method, "smooth_value": value}
    bleu = (BLEUScore.sacrebleu_sentence if sentence else BLEUScore.sacrebleu)(**options)
    theirs = BLEU(**options, effective_order=sentence)
    for hypotheses, references in SMOOTHED_CORPORA:
        try:
            expected = theirs.corpus_score(hypotheses, [list(s) for s in zip(*references)])
        except ValueError:  # math domain error: a negative precision
            expected = None
        if expected is None or not math.isfinite(expected.score):
            with pytest.raises(InputError, match="bleuprint gives no score"):
                bleu.corpus_score(hypotheses, references)
        else:
            result = bleu.corpus_score(hypotheses, references)
            assert_as_sacrebleu(result, expected, options, where=str(hypotheses))
            assert sacrebleu_signature(result) == theirs.get_signature().format()


def test_a_floor_sacrebleu_takes_is_its_own_part() -> None:
    # The general Floor stays within [0, 1]; sacreBLEU's preset takes the rest as its own part,
    # whose signature reads back.
    bleu = BLEUScore.sacrebleu(smooth_method="floor", smooth_value=2)
    assert bleu.smoothing == AnyFloor(2)
    assert BLEUScore.from_signature(str(bleu.signature())) == bleu
    assert BLEUScore.sacrebleu(smooth_method="add-k", smooth_value=-1).smoothing == AnyAddK(-1)
    general = BLEUScore.sacrebleu(smooth_method="floor", smooth_value=1).smoothing
    assert general == smoothing.Floor(1)


# -- signatures ----------------------------------------------------------------------------

CONFIGURATIONS = [
    BLEUScore.sacrebleu(),
    BLEUScore.sacrebleu_sentence(),
    BLEUScore.sacrebleu(tokenize="none", smooth_method="none"),
    BLEUScore.sacrebleu(tokenize="intl", lowercase=True, smooth_method="floor", smooth_value=0.5),
    BLEUScore.sacrebleu(tokenize="char", smooth_method="add-k", max_ngram_order=6),
    BLEUScore.sacrebleu(tokenize="zh", smooth_method="add-k", smooth_value=0.25),
    BLEUScore.sacrebleu(tokenizer=tokenizers.Lowercase(tokenizers.ChineseFixed())),
]


@pytest.mark.parametrize("bleu", CONFIGURATIONS, ids=lambda bleu: bleu.counting_signature)
def test_bleuprint_signature_round_trips(bleu: BLEUScore) -> None:
    result = bleu.corpus_score(["a b c d"], [["a b c", "a b d"]])
    assert BLEUScore.from_signature(str(result.signature)) == bleu


@pytest.mark.parametrize(("tokenize", "module"), [("ja-mecab", "MeCab"), ("ko-mecab", "mecab_ko")])
def test_mecab_signatures_round_trip(tokenize: str, module: str) -> None:
    pytest.importorskip(module)
    bleu = BLEUScore.sacrebleu(tokenize=tokenize, lowercase=True)
    result = bleu.sentence_score("a b", ["a b"])
    assert BLEUScore.from_signature(str(result.signature)) == bleu
    # sacreBLEU's own signature names MeCab's and the dictionary's versions; bleuprint's
    # signature (issue 26) and its sacreBLEU signature carry the same versions.
    metric = BLEU(tokenize=tokenize, lowercase=True)
    metric.sentence_score("a b", ["a b"])
    expected = str(metric.get_signature())
    version = re.search(rf"\|tok:{tokenize}-([^|]+)\|", expected)
    assert version is not None
    assert sacrebleu_signature(result) == expected
    assert f"|tok:lowercase[{tokenize}[{version[1]}]]|" in str(result.signature)


@pytest.mark.parametrize(("tokenize", "module"), [("ja-mecab", "MeCab"), ("ko-mecab", "mecab_ko")])
def test_a_signature_of_another_mecab_version_is_refused(tokenize: str, module: str) -> None:
    pytest.importorskip(module)
    signature = str(BLEUScore.sacrebleu(tokenize=tokenize).sentence_score("a", ["a"]).signature)
    other = re.sub(rf"tok:{tokenize}\[[^]]*\]", f"tok:{tokenize}[0.1-OLD]", signature)
    with pytest.raises(
        ConfigurationError, match=r"asked for MeCab 0\.1-OLD, but MeCab .* installed"
    ):
        BLEUScore.from_signature(other)


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"tokenize": "none", "smooth_method": "none"},
        {"tokenize": "intl", "lowercase": True, "smooth_method": "floor", "smooth_value": 0.5},
        {"tokenize": "char", "smooth_method": "add-k", "effective_order": True},
        {"tokenize": "zh", "smooth_method": "add-k", "smooth_value": 2, "max_ngram_order": 2},
        {"smooth_method": "floor", "smooth_value": 0},
    ],
)
def test_sacrebleu_signature(options: dict[str, Any]) -> None:
    hypotheses = ["a b c d", "e f"]
    streams: list[list[str | None]] = [["a b c", "e f"], ["a b d", None]]
    metric = BLEU(**options)
    metric.corpus_score(hypotheses, streams)
    result = BLEUScore.sacrebleu(**options).corpus_score(
        hypotheses, from_streams(hypotheses, streams)
    )
    assert sacrebleu_signature(result) == str(metric.get_signature())


def test_no_sacrebleu_signature_for_what_sacrebleu_cannot_compute() -> None:
    result = BLEUScore.russian().sentence_score("a b", ["a b"])
    with pytest.raises(ConfigurationError, match="no sacreBLEU signature"):
        _ = sacrebleu_signature(result)
    own = BLEUScore.sacrebleu(tokenizer=tokenizers.from_callable(str.split, signature="mine"))
    with pytest.raises(ConfigurationError, match=r"no sacreBLEU signature.*'mine'"):
        _ = sacrebleu_signature(own.sentence_score("a b", ["a b"]))
    chinese_fixed = BLEUScore.sacrebleu(tokenizer=tokenizers.ChineseFixed())
    with pytest.raises(ConfigurationError, match="zh-fixed"):
        _ = sacrebleu_signature(chinese_fixed.sentence_score("a b", ["a b"]))


# -- stream layout -------------------------------------------------------------------------


def test_the_old_home_of_from_streams_warns_and_gives_the_same() -> None:
    from bleuprint import sacrebleu_compat  # noqa: PLC0415 - the deprecated alias module

    streams: list[list[str | None]] = [["a b", "c"], [None, "c d"]]
    with pytest.warns(DeprecationWarning, match=r"use bleuprint\.compat\.sacrebleu\.from_st"):
        old = sacrebleu_compat.from_streams(["a b", "c"], streams)
    assert old == from_streams(["a b", "c"], streams) == [["a b"], ["c", "c d"]]


def test_streams_drop_none_but_keep_empty_references() -> None:
    assert from_streams(["x", "y"], [["a", ""], [None, "b"]]) == [
        ["a"],
        ["", "b"],
    ]


@pytest.mark.parametrize(
    ("hypotheses", "streams", "message"),
    [
        (["a", "b", "c"], [["a"], ["b"], ["c"]], "stream 0 has 1 segment for 3 hypotheses"),
        (["a b", "c"], ["a b", "c"], r"reference stream 0 is a single string.*\[references\]"),
        (["a", "b"], [["a", "b"], ["a"]], "reference stream 1 has 1 segment for 2 hypotheses"),
        (["a"], [[None], [None]], "segment 0: every reference stream has None there"),
        (["a"], [[3]], "reference stream 0, segment 0: expected a string, got int"),
        ("a b", [["a b"]], "hypotheses is a single string"),
        ({"a b"}, [["a b"]], "hypotheses must be a list of strings, one per segment, got set"),
        (["a", None], [["a", "b"]], "hypotheses, segment 1: expected a string, got NoneType"),
        (["a"], [], "no reference stream"),
        (["a"], "a", "references must be a list of reference streams"),
    ],
)
def test_streams_in_the_wrong_layout(hypotheses: Any, streams: Any, message: str) -> None:
    with pytest.raises(InputError, match=message):
        from_streams(hypotheses, streams)


@settings(max_examples=150)
@given(
    given_stats=statistics(),
    more=st.lists(st.tuples(st.integers(0, 50), st.integers(0, 50), st.randoms()), max_size=6),
    number_type=st.sampled_from([np.float32, np.int64]),
)
def test_the_commands_resampled_scores_are_sacrebleus_to_the_last_bit(
    given_stats: dict[str, Any], more: list[Any], number_type: Any
) -> None:
    # The paired tests score rows of numpy arrays, float32 sums (bootstrap) or int64 ones
    # (approximate randomization), many at once: each must be what sacreBLEU's
    # _compute_score_from_stats makes of that row, given as a numpy array as sacreBLEU gives it.
    order = given_stats["max_ngram_order"]
    first = [given_stats["sys_len"], given_stats["ref_len"]]
    rows = [[*first, *given_stats["correct"], *given_stats["total"]]]
    for sys_len, ref_len, random in more:  # other rows of the same shape, zeros included
        total = [random.choice([0, 1, 3, 16, 80, 38914]) for _ in range(order)]
        rows.append([sys_len, ref_len, *(random.randint(0, t) for t in total), *total])
    stats = np.array(rows, dtype=number_type)
    options = {key: given_stats[key] for key in ("smooth_method", "smooth_value")}
    metric = BLEU(max_ngram_order=order, effective_order=given_stats["effective_order"], **options)
    arithmetic = Arithmetic(
        order, options["smooth_method"], options["smooth_value"], given_stats["effective_order"]
    )
    try:
        with np.errstate(all="ignore"):
            theirs = [metric._compute_score_from_stats(row.copy()).score for row in stats]
    except (ValueError, OverflowError):  # a math domain error; NaN or infinity added to an int
        theirs = None
    if theirs is None or not all(math.isfinite(score) for score in theirs):
        with pytest.raises(InputError, match="bleuprint gives no score"):
            arithmetic.scores(stats)
        return
    assert arithmetic.scores(stats).tolist() == theirs
