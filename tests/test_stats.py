"""BLEUStats (``bleuprint.BLEUStats``): additive statistics and their dictionary form."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bleuprint import BLEUStats, InputError, StatisticsMismatchError

MAX_N = 3
COUNT = st.integers(min_value=0, max_value=50)


@st.composite
def statistics(draw: st.DrawFn, counting: str = "tok:x") -> BLEUStats:
    totals = draw(st.tuples(*[COUNT] * MAX_N))
    # Matches within totals, as counting makes them (statistics are checked when built).
    return BLEUStats(
        tuple(draw(st.integers(min_value=0, max_value=total)) for total in totals),
        totals,
        draw(COUNT),
        # quarters add exactly, so the laws hold to the bit (other reals add up to rounding)
        draw(st.one_of(COUNT, st.integers(min_value=0, max_value=200).map(lambda q: q / 4))),
        segments=draw(st.integers(min_value=0, max_value=5)),
        reference_counts=draw(st.frozensets(st.integers(min_value=1, max_value=4), max_size=3)),
        counting=counting,
    )


def test_addition_by_hand() -> None:
    a = BLEUStats((3, 1), (4, 3), 4, 5, segments=1, reference_counts=frozenset({1}), counting="c")
    b = BLEUStats((2, 0), (2, 1), 2, 3.5, segments=2, reference_counts=frozenset({2}), counting="c")
    # every count adds (3+2, 1+0 / 4+2, 3+1), lengths add (4+2, 5+3.5), segments add (1+2),
    # the reference counts seen are the union
    assert a + b == BLEUStats(
        (5, 1), (6, 4), 6, 8.5, segments=3, reference_counts=frozenset({1, 2}), counting="c"
    )


@given(statistics(), statistics(), statistics())
def test_addition_is_associative_and_commutative(a: BLEUStats, b: BLEUStats, c: BLEUStats) -> None:
    assert (a + b) + c == a + (b + c)
    assert a + b == b + a


@given(statistics())
def test_empty_statistics_are_neutral(stats: BLEUStats) -> None:
    empty = BLEUStats.empty(MAX_N, counting="tok:x")
    assert empty + stats == stats
    assert stats + empty == stats


def test_empty_by_its_definition() -> None:
    empty = BLEUStats.empty(2, counting="c")
    assert (empty.matches, empty.totals) == ((0, 0), (0, 0))
    assert (empty.hypothesis_length, empty.reference_length, empty.segments) == (0, 0, 0)
    assert empty.reference_counts == frozenset()
    assert empty.counting == "c"
    assert empty.max_n == 2


@given(st.lists(statistics(), min_size=1, max_size=5))
def test_sum_is_the_same_as_adding_one_after_another(parts: list[BLEUStats]) -> None:
    total = parts[0]
    for stats in parts[1:]:
        total = total + stats
    assert sum(parts) == total


def test_statistics_of_other_counting_refuse_to_add() -> None:
    a = BLEUStats((1,), (1,), 1, 1, counting="tok:13a")
    with pytest.raises(StatisticsMismatchError, match="tok:13a with 1 order and tok:intl"):
        a + BLEUStats((1,), (1,), 1, 1, counting="tok:intl")
    with pytest.raises(StatisticsMismatchError, match=r"with 1 order and .* with 2 orders"):
        a + BLEUStats((1, 1), (1, 1), 1, 1, counting="tok:13a")


def test_only_statistics_add_to_statistics() -> None:
    with pytest.raises(TypeError):
        BLEUStats((1,), (1,), 1, 1) + 1  # type: ignore[operator]


def test_matches_and_totals_must_have_the_same_orders() -> None:
    with pytest.raises(InputError, match="matches has 2 orders but totals has 3"):
        BLEUStats((1, 1), (1, 1, 1), 1, 1)


def test_dictionary_is_json_with_the_field_values() -> None:
    stats = BLEUStats(
        (5, 2), (6, 4), 6, 7.5, segments=2, reference_counts=frozenset({2, 1}), counting="tok:x"
    )
    data = json.loads(json.dumps(stats.to_dict()))
    expected = {
        "matches": [5, 2],
        "totals": [6, 4],
        "hypothesis_length": 6,
        "reference_length": 7.5,
        "segments": 2,
        "reference_counts": [1, 2],  # a set, written sorted
        "counting": "tok:x",
    }
    assert {key: data[key] for key in expected} == expected


@given(statistics())
def test_dictionary_reads_back_equal(stats: BLEUStats) -> None:
    assert BLEUStats.from_dict(json.loads(json.dumps(stats.to_dict()))) == stats


def test_dictionary_fields_with_defaults_may_be_left_out() -> None:
    data = {"matches": [1], "totals": [2], "hypothesis_length": 2, "reference_length": 3}
    assert BLEUStats.from_dict(data) == BLEUStats((1,), (2,), 2, 3)


def test_dictionary_without_a_required_field_or_with_an_unknown_key_is_refused() -> None:
    with pytest.raises(InputError, match="reference_length"):
        BLEUStats.from_dict({"matches": [1], "totals": [2], "hypothesis_length": 2})
    complete = {"matches": [1], "totals": [2], "hypothesis_length": 2, "reference_length": 3}
    with pytest.raises(InputError, match="colour"):
        BLEUStats.from_dict({**complete, "colour": "red"})
