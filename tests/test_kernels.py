"""The compiled scoring loop against the scalar arithmetic it must reproduce bit for bit."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from bleuprint import _scoring
from bleuprint._exact import weighted_geometric_mean
from bleuprint._kernels import _rounded_sum

FINITE = st.floats(allow_nan=False, allow_infinity=False)
# Terms that cancel, lie half an ulp apart or span the whole exponent range.
TERMS = st.lists(
    FINITE | st.sampled_from([1.0, -1.0, 1e16, -1e16, 2.0**-1074, 1e308, -1e308, 0.5, -0.0]),
    max_size=8,
)


@given(TERMS)
@example([1e16, 1.0, 1e-16])
@example([1.0, 2.0**-53, 2.0**-106])  # a tie broken by a third, far smaller term
@example([1.0, -(2.0**-53), -(2.0**-106)])
@example([1e308, 1e308, -1e308])  # math.fsum meets an overflow on the way
def test_rounded_sum_is_math_fsum(terms: list[float]) -> None:
    result = _rounded_sum(np.array(terms, np.float64), np.empty(len(terms)))
    try:
        expected = math.fsum(terms)
    except OverflowError:
        assert math.isnan(result)  # left to the scalar code, which raises there
    else:
        assert (result, math.copysign(1.0, result)) == (expected, math.copysign(1.0, expected))


PRECISIONS = st.floats(0.0, 1.0) | st.sampled_from([0.0, 1.0, 1e-300, 2.0**-1074])
WEIGHTS = st.floats(-1e3, 1e3, allow_nan=False) | st.sampled_from([0.0, 0.25, -2e3, 1e5])


@given(
    st.integers(1, 5).flatmap(
        lambda orders: st.lists(
            st.tuples(
                st.lists(PRECISIONS, min_size=orders, max_size=orders),
                st.lists(st.booleans(), min_size=orders, max_size=orders),
                st.lists(WEIGHTS, min_size=orders, max_size=orders),
            ),
            min_size=1,
            max_size=6,
        )
    )
)
def test_geometric_means_are_the_scalar_ones(
    rows: list[tuple[list[float], list[bool], list[float]]],
) -> None:
    precisions, defined, weights = (np.array(column) for column in zip(*rows))
    expected: list[float | type[Exception]] = []
    for row_precisions, row_defined, row_weights in rows:
        given = [p if known else None for p, known in zip(row_precisions, row_defined)]
        try:
            expected.append(weighted_geometric_mean(given, row_weights))
        except (OverflowError, ValueError) as error:
            expected.append(type(error))
    errors = [outcome for outcome in expected if isinstance(outcome, type)]
    if errors:  # the first row that fails in the scalar code fails the batch, alike
        with pytest.raises(errors[0]):
            _scoring._weighted_geometric_means(precisions, defined.astype(bool), weights)
    else:
        means = _scoring._weighted_geometric_means(precisions, defined.astype(bool), weights)
        assert means.tolist() == expected
