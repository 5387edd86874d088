"""The errors: InputError's places, as fields and in its message."""

from __future__ import annotations

import pickle

import pytest

from bleuprint import BLEUError, InputError


@pytest.mark.parametrize(
    ("places", "message"),
    [
        ({}, "bad"),
        ({"path": "ref.txt"}, "ref.txt: bad"),
        ({"path": "ref.txt", "line": 17}, "ref.txt:17: bad"),
        ({"line": 17}, "line 17: bad"),
        ({"segment": 0}, "segment 0: bad"),
        ({"partition": 2, "segment": 5}, "partition 2: segment 5: bad"),
        (
            {"partition": 1, "path": "h.txt", "line": 9, "segment": 8},
            "partition 1: h.txt:9: segment 8: bad",
        ),
    ],
)
def test_the_message_is_made_from_the_places(places: dict[str, object], message: str) -> None:
    error = InputError("bad", **places)  # type: ignore[arg-type]
    assert str(error) == message
    assert error.reason == "bad"
    for name in ("path", "line", "segment", "partition"):
        assert getattr(error, name) == places.get(name)


def test_a_plain_message_still_works() -> None:
    error = InputError("segment 3: written by hand")
    assert str(error) == "segment 3: written by hand"
    assert error.segment is None  # nothing is parsed out of the text
    assert isinstance(error, BLEUError) and isinstance(error, ValueError)


def test_places_are_keyword_only() -> None:
    with pytest.raises(TypeError):
        InputError("bad", "ref.txt")  # type: ignore[misc]


def test_located_adds_places_and_keeps_the_others() -> None:
    error = InputError("no references", path="a.txt", segment=1)
    moved = error.located(segment=41, partition=3)
    assert (moved.path, moved.segment, moved.partition) == ("a.txt", 41, 3)
    assert str(moved) == "partition 3: a.txt: segment 41: no references"
    assert error.located() is not error and str(error.located()) == str(error)


def test_the_fields_survive_pickling() -> None:
    # Dask and process pools send errors between processes.
    error = InputError("bad", path="ref.txt", line=2, segment=1, partition=0)
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is InputError
    assert (copy.reason, copy.path, copy.line, copy.segment, copy.partition) == (
        "bad",
        "ref.txt",
        2,
        1,
        0,
    )
    assert str(copy) == str(error)
