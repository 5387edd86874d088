"""``bleuprint.typing``: the protocols of the parts and of the engine as its callers see it."""

from __future__ import annotations

import inspect

import pytest

from bleuprint import BLEUScore, typing
from bleuprint._signature import Part

_DEFINED_HERE = [
    name
    for name, value in vars(typing).items()
    if not name.startswith("_")
    and (inspect.isclass(value) or inspect.isfunction(value))
    and getattr(value, "__module__", None) == typing.__name__
]


def test_every_public_class_and_function_defined_here_is_listed_in_all() -> None:
    assert set(_DEFINED_HERE) <= set(typing.__all__)
    assert all(hasattr(typing, name) for name in typing.__all__)


def test_the_classes_defined_here_are_protocols_only() -> None:
    classes = [name for name in _DEFINED_HERE if inspect.isclass(getattr(typing, name))]
    assert classes
    for name in classes:
        assert getattr(getattr(typing, name), "_is_protocol", False), name


def test_part_is_public_here() -> None:
    assert typing.Part is Part


@pytest.mark.parametrize("protocol", [typing.PairwiseScorer, typing.StatsScorer])
def test_the_engine_has_every_member_its_callers_protocols_ask_for(protocol: type) -> None:
    engine = BLEUScore()
    asked = [
        name
        for name, value in vars(protocol).items()
        if not name.startswith("_") and (callable(value) or isinstance(value, property))
    ]
    assert asked
    for name in asked:
        assert hasattr(engine, name), name
        if callable(getattr(protocol, name)):  # the same parameters, by name and in order
            ours = inspect.signature(getattr(engine, name)).parameters
            theirs = list(inspect.signature(getattr(protocol, name)).parameters)[1:]  # no self
            assert list(ours)[: len(theirs)] == theirs, name
