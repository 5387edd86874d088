"""The general weights (``bleuprint.weights``): uniform, effective order, explicit."""

from __future__ import annotations

import math

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bleuprint import BLEUScore, BLEUStats, ConfigurationError, InputError, ngrams, weights
from bleuprint.typing import Precision, Weights
from bleuprint.weights import order_weights
from tests import oracle

PRECISION = st.one_of(st.none(), st.floats(min_value=0, max_value=1))


def _stats(max_n: int) -> BLEUStats:
    return BLEUStats((1,) * max_n, (1,) * max_n, 1, 1)


def test_every_weights_part_fits_the_protocol() -> None:
    for part in (weights.Uniform(), weights.EffectiveOrder(), weights.Explicit((1.0,))):
        assert isinstance(part, Weights)
        assert not callable(part)  # one method: rows of statistics


PARTS = [weights.Uniform(), weights.EffectiveOrder(), weights.Explicit((0.7, 0.1, 0.2))]


@pytest.mark.parametrize("part", PARTS, ids=lambda part: part.signature)
@given(st.lists(st.lists(PRECISION, min_size=3, max_size=3), max_size=5))
def test_every_row_is_the_oracles(part: Weights, rows: list[list[Precision]]) -> None:
    for precisions in rows:
        expected = oracle.order_weights(part, _stats(3), precisions)
        assert order_weights(part, _stats(3), precisions) == expected


def test_uniform_by_hand() -> None:
    # 1 / max_n each, whatever the precisions (an undefined one then makes the score 0)
    assert order_weights(weights.Uniform(), _stats(4), [1.0, 0.5, None, None]) == [0.25] * 4
    assert order_weights(weights.Uniform(), _stats(2), [0.0, 0.0]) == [0.5, 0.5]


def test_effective_order_by_hand() -> None:
    # two leading defined orders: 1/2 each, the rest 0
    assert order_weights(weights.EffectiveOrder(), _stats(4), [1.0, 0.5, None, None]) == [
        0.5,
        0.5,
        0.0,
        0.0,
    ]
    # an order with n-grams but no match (0.0) is defined and counts: 1/3 each
    third = 1 / 3
    assert order_weights(weights.EffectiveOrder(), _stats(4), [0.5, 0.0, 1.0, None]) == [
        third
    ] * 3 + [0.0]
    # only the leading run counts: a defined order after an undefined one weighs 0
    assert order_weights(weights.EffectiveOrder(), _stats(3), [1.0, None, 1.0]) == [1.0, 0.0, 0.0]
    # nothing defined: nothing weighs anything
    assert order_weights(weights.EffectiveOrder(), _stats(2), [None, None]) == [0.0, 0.0]


def test_explicit_weights_are_taken_as_given_and_padded_with_zeros() -> None:
    # not normalised: 0.7 + 0.1 = 0.8; the third order weighs 0
    assert order_weights(weights.Explicit((0.7, 0.1)), _stats(3), [0.5, 0.5, 0.5]) == [
        0.7,
        0.1,
        0.0,
    ]


@pytest.mark.parametrize("values", [(), (math.nan,), (0.0, 0.0), (0.5, -0.5), (math.inf,)])
def test_explicit_weights_refuse_what_cannot_weigh_orders(values: tuple[float, ...]) -> None:
    with pytest.raises(ConfigurationError, match="values"):
        weights.Explicit(values)


def test_explicit_weights_are_floats() -> None:
    assert weights.Explicit([1, 2]).values == (1.0, 2.0)  # type: ignore[arg-type]


@given(st.lists(PRECISION, min_size=1, max_size=6))
def test_uniform_and_effective_weights_are_non_negative_and_sum_to_one_or_zero(
    precisions: list[Precision],
) -> None:
    stats = _stats(len(precisions))
    uniform = order_weights(weights.Uniform(), stats, precisions)
    effective = order_weights(weights.EffectiveOrder(), stats, precisions)
    assert all(w >= 0 for w in uniform + effective)
    assert math.fsum(uniform) == pytest.approx(1.0)
    # effective weights sum to 1 when the first order is defined, else to 0
    assert math.fsum(effective) == pytest.approx(1.0 if precisions[0] is not None else 0.0)


def test_more_explicit_weights_than_orders() -> None:
    with pytest.raises(InputError, match="3 weights given, more than the 2 orders scored"):
        order_weights(weights.Explicit((1, 1, 1)), BLEUStats((1, 1), (1, 1), 2, 2), [1.0, 1.0])


def test_from_scalar_weighs_each_row_with_a_plain_function() -> None:
    seen: list[list[Precision]] = []

    def unigrams_only(stats: BLEUStats, precisions: list[Precision]) -> list[float]:
        seen.append(precisions)
        return [1.0] + [0.0] * (len(precisions) - 1)

    part = weights.FromScalar(unigrams_only, signature="unigrams-only")
    assert isinstance(part, Weights) and part.signature == "unigrams-only"
    assert order_weights(part, _stats(3), [0.5, None, 0.25]) == [1.0, 0.0, 0.0]
    assert seen == [[0.5, None, 0.25]]  # undefined precisions reach the function as None
    # every unigram matches, no bigram does: uniform weights score 0, these 1
    engine = BLEUScore(ngrams=ngrams.Contiguous(2), weights=part)
    assert engine.compute("a b c d", ["a c b d"]) == 1.0
    assert BLEUScore(ngrams=ngrams.Contiguous(2)).compute("a b c d", ["a c b d"]) == 0.0


def test_from_scalar_says_what_its_part_says_of_the_orders() -> None:
    plain = weights.FromScalar(lambda stats, precisions: [1.0], signature="plain")
    assert plain.order_problem(1) is None  # a plain function says nothing of the orders
    explicit = weights.FromScalar(_ExplicitScalar((0.5, 0.5)))
    assert explicit.order_problem(1) == "2 weights given, more than the 1 order scored"
    with pytest.raises(ConfigurationError, match="2 weights given, more than the 1 order scored"):
        BLEUScore(ngrams=ngrams.Contiguous(1), weights=explicit)


@attrs.frozen
class _ExplicitScalar:
    values: tuple[float, ...]
    signature = "explicit-scalar"

    def order_problem(self, max_n: int) -> str | None:
        return weights.Explicit(self.values).order_problem(max_n)

    def __call__(self, stats: BLEUStats, precisions: list[Precision]) -> list[float]:
        return list(self.values)
