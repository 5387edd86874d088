"""The general smoothers (``bleuprint.smoothing``): precisions from matches and totals.

The sacreBLEU smoothers are checked against sacreBLEU 2.6.0's ``compute_bleu`` on random
statistics; the others against their formulas, worked by hand.
"""

from __future__ import annotations

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sacrebleu.metrics import BLEU

from bleuprint import (
    BLEUScore,
    BLEUStats,
    ConfigurationError,
    InputError,
    SegmentStats,
    ngrams,
    smoothing,
    weights,
)
from bleuprint.smoothing import precisions as smoothed
from bleuprint.typing import Precision, Smoother
from tests import oracle

MAX_N = 4
SACREBLEU = [
    (smoothing.NoSmoothing(), {"smooth_method": "none"}),
    (smoothing.Floor(), {"smooth_method": "floor", "smooth_value": 0.1}),
    (smoothing.Floor(0.5), {"smooth_method": "floor", "smooth_value": 0.5}),
    (smoothing.AddK(), {"smooth_method": "add-k", "smooth_value": 1}),
    (smoothing.AddK(2.5), {"smooth_method": "add-k", "smooth_value": 2.5}),
    (smoothing.Exp(), {"smooth_method": "exp"}),
]
BOUNDED = [
    smoothing.NoSmoothing(),
    smoothing.Floor(),
    smoothing.AddK(),
    smoothing.Exp(),
    smoothing.AddOne(),
    smoothing.AddOne(unigrams=True),
    smoothing.ReplaceZero(),
]


@st.composite
def counted(draw: st.DrawFn) -> BLEUStats:
    """Statistics as counting makes them: a hypothesis of L tokens has max(L - n + 1, 0)
    n-grams of order n, and at most that many matches."""
    length = draw(st.integers(min_value=0, max_value=8))
    totals = [max(length - n + 1, 0) for n in range(1, MAX_N + 1)]
    matches = [draw(st.integers(min_value=0, max_value=total)) for total in totals]
    return BLEUStats(matches, totals, length, length, reference_counts=frozenset({1}))


def _stats(matches: tuple[int, ...], totals: tuple[int, ...]) -> BLEUStats:
    return BLEUStats(matches, totals, totals[0], totals[0])


def test_every_smoother_fits_the_protocol() -> None:
    for smoother in [*BOUNDED, smoothing.RejectZero(), smoothing.ExpUnzeroed()]:
        assert isinstance(smoother, Smoother)
        assert not callable(smoother)  # one method: rows of statistics


@pytest.mark.parametrize(
    "smoother", [*BOUNDED, smoothing.ExpUnzeroed()], ids=lambda part: part.signature
)
@given(rows=st.lists(counted(), max_size=6))
def test_every_row_is_the_oracles(smoother: Smoother, rows: list[BLEUStats]) -> None:
    segments = SegmentStats.from_stats(rows, MAX_N, "")
    values, defined = smoother.precisions_array(segments)
    for stats, row, known in zip(rows, values.tolist(), defined.tolist(), strict=True):
        assert [p if k else None for p, k in zip(row, known)] == oracle.precisions(smoother, stats)


@pytest.mark.parametrize(
    ("ours", "options"), SACREBLEU, ids=lambda part: getattr(part, "signature", "")
)
@given(stats=counted())
def test_sacrebleu_smoothers_give_sacrebleus_precisions(
    ours: Smoother, options: dict[str, object], stats: BLEUStats
) -> None:
    theirs = BLEU.compute_bleu(
        list(stats.matches),
        list(stats.totals),
        int(stats.hypothesis_length),
        int(stats.reference_length),
        max_ngram_order=MAX_N,
        **options,  # type: ignore[arg-type]
    )
    # sacreBLEU writes an undefined order (no n-grams) as a precision of 0
    precisions = [0.0 if p is None else 100 * p for p in smoothed(ours, stats)]
    assert precisions == pytest.approx(theirs.precisions, rel=1e-12, abs=1e-12)


@pytest.mark.parametrize("smoother", BOUNDED, ids=lambda part: part.signature)
@given(stats=counted())
def test_precisions_lie_in_the_unit_interval(smoother: Smoother, stats: BLEUStats) -> None:
    precisions = smoothed(smoother, stats)
    assert len(precisions) == MAX_N
    assert all(p is None or 0 <= p <= 1 for p in precisions)


@pytest.mark.parametrize("smoother", BOUNDED, ids=lambda part: part.signature)
@given(length=st.integers(min_value=MAX_N, max_value=10))
def test_every_ngram_matched_gives_precision_one(smoother: Smoother, length: int) -> None:
    totals = tuple(length - n + 1 for n in range(1, MAX_N + 1))
    assert smoothed(smoother, _stats(totals, totals)) == [1.0] * MAX_N


def test_no_smoothing_by_hand() -> None:
    # 3/4 and 0/3; the third order has no n-grams: undefined, and so is every order after it
    assert smoothed(smoothing.NoSmoothing(), _stats((3, 0, 0, 0), (4, 3, 0, 0))) == [
        0.75,
        0.0,
        None,
        None,
    ]


def test_floor_by_hand() -> None:
    # an order with n-grams and no match counts 0.1 matches: 0.1 / 3
    assert smoothed(smoothing.Floor(), _stats((3, 0, 1), (4, 3, 2))) == pytest.approx(
        [0.75, 0.1 / 3, 0.5]
    )
    # no match at all: every precision is 0, nothing is floored (sacreBLEU)
    assert smoothed(smoothing.Floor(), _stats((0, 0, 0), (4, 3, 2))) == [0.0, 0.0, 0.0]


def test_add_k_by_hand() -> None:
    # unigrams as they are; k = 2 added to matches and totals above: (1+2)/(3+2), (0+2)/(0+2)
    assert smoothed(smoothing.AddK(2), _stats((3, 1, 0), (4, 3, 0))) == pytest.approx(
        [0.75, 0.6, 1.0]
    )


def test_exp_by_hand() -> None:
    # the k-th unmatched order gets 1 / (2**k * totals): order 2 is the first (1 / (2 * 3)),
    # order 4 the second (1 / (4 * 1))
    assert smoothed(smoothing.Exp(), _stats((3, 0, 1, 0), (4, 3, 2, 1))) == pytest.approx(
        [0.75, 1 / 6, 0.5, 1 / 4]
    )


def test_add_one_by_hand() -> None:
    # (m + 1) / (t + 1) from order 2: 2/4, 1/3; unigrams alone unless asked: 3/4 or 4/5
    stats = _stats((3, 1, 0), (4, 3, 2))
    assert smoothed(smoothing.AddOne(), stats) == pytest.approx([0.75, 0.5, 1 / 3])
    assert smoothed(smoothing.AddOne(unigrams=True), stats) == pytest.approx([0.8, 0.5, 1 / 3])
    # no unigrams at all: the plain unigram ratio is undefined
    assert smoothed(smoothing.AddOne(), _stats((0, 0), (0, 0))) == [None, 1.0]


def test_replace_zero_by_hand() -> None:
    # 3/4 stays; 0/3 and the undefined 0/0 become the value
    stats = _stats((3, 0, 0), (4, 3, 0))
    assert smoothed(smoothing.ReplaceZero(), stats) == [0.75, 1e-9, 1e-9]
    assert smoothed(smoothing.ReplaceZero(0.5), stats) == [0.75, 0.5, 0.5]


def test_reject_zero_keeps_positive_precisions_and_names_the_order_that_is_zero() -> None:
    assert smoothed(smoothing.RejectZero(), _stats((3, 1), (4, 3))) == pytest.approx([0.75, 1 / 3])
    with pytest.raises(InputError, match="the 2-gram precision is 0"):
        smoothed(smoothing.RejectZero(), _stats((3, 0), (4, 3)))
    with pytest.raises(InputError, match="the 3-gram precision is 0"):
        smoothed(smoothing.RejectZero(), _stats((3, 1, 0), (4, 3, 0)))


@pytest.mark.parametrize("value", [-0.1, "x", True, None])
def test_floor_and_add_k_refuse_a_value_that_is_not_a_number_at_least_zero(
    value: object,
) -> None:
    with pytest.raises(ConfigurationError, match="value must be a finite number from 0 to 1"):
        smoothing.Floor(value)  # type: ignore[arg-type]
    with pytest.raises(ConfigurationError, match="k must be a finite number of at least 0"):
        smoothing.AddK(value)  # type: ignore[arg-type]


# -- a user's smoother written for one set of statistics at a time -----------------------------


def _halves(stats: BLEUStats) -> list[Precision]:
    return [0.5] * (stats.max_n - 1) + [None]


def test_from_scalar_calls_a_plain_function_once_per_row_under_the_signature_given() -> None:
    part = smoothing.FromScalar(_halves, signature="halves")
    assert isinstance(part, Smoother) and part.signature == "halves"
    rows = SegmentStats.concatenate(
        [
            SegmentStats.of(_stats((1, 0, 0), (2, 1, 0))),
            SegmentStats.of(_stats((0, 0, 0), (1, 0, 0))),
        ]
    )
    precisions, defined = part.precisions_array(rows)
    assert precisions.tolist() == [[0.5, 0.5, 0.0]] * 2
    assert defined.tolist() == [[True, True, False]] * 2
    # its geometric mean: uniform weights over an undefined order score 0; effective order 0.5
    engine = BLEUScore(ngrams=ngrams.Contiguous(3), smoothing=part)
    assert engine.compute("a b", ["a b"]) == 0.0
    effective = attrs.evolve(engine, weights=weights.EffectiveOrder())
    assert effective.compute("a b", ["a b"]) == 0.5
    assert effective.signature().parts["smooth"] == "halves"


def test_from_scalar_takes_a_part_s_own_signature_and_refuses_a_function_without_one() -> None:
    @attrs.frozen
    class Halves:
        signature = "halves"
        __call__ = staticmethod(_halves)

    assert smoothing.FromScalar(Halves()).signature == "halves"
    with pytest.raises(ConfigurationError, match="FromScalar: signature must be a non-empty"):
        smoothing.FromScalar(_halves)
    with pytest.raises(ConfigurationError, match="FromScalar: part must be callable"):
        smoothing.FromScalar("halves", signature="halves")  # type: ignore[arg-type]


def test_a_scalar_part_given_bare_is_refused_pointing_to_its_adapter() -> None:
    @attrs.frozen
    class Halves:
        signature = "halves"
        __call__ = staticmethod(_halves)

    with pytest.raises(ConfigurationError, match=r"plugs in as smoothing\.FromScalar\(part\)"):
        BLEUScore(smoothing=Halves())  # type: ignore[arg-type]


def test_from_scalar_sums_a_corpus_with_the_part_s_own_total_where_it_has_one() -> None:
    @attrs.frozen
    class CountingTotals:
        signature = "counting-totals"
        __call__ = staticmethod(_halves)

        def total(self, segments: SegmentStats, start: BLEUStats) -> BLEUStats:
            summed = segments.total(start)
            return attrs.evolve(summed, hypothesis_length=summed.hypothesis_length + 100)

    rows = SegmentStats.of(_stats((1, 0), (2, 1)))
    start = BLEUStats.empty(2)
    own = smoothing.FromScalar(CountingTotals()).total(rows, start)
    plain = smoothing.FromScalar(_halves, signature="halves").total(rows, start)
    assert (own.hypothesis_length, plain.hypothesis_length) == (102, 2)


def test_corpus_from_scalar_is_a_deprecated_name_of_from_scalar() -> None:
    with pytest.deprecated_call(match=r"smoothing\.CorpusFromScalar is deprecated"):
        assert smoothing.CorpusFromScalar is smoothing.FromScalar
    with pytest.raises(AttributeError, match="has no attribute 'on_rows'"):
        smoothing.on_rows  # noqa: B018
