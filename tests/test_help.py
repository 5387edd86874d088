"""``help(BLEUScore)`` reads like a reference (issue 26): the parts' defaults as values, the
methods first (not a page of the special methods attrs writes), and the methods defined in
other modules shown with ``self`` first, as every method is, not with the engine to pass."""

from __future__ import annotations

import inspect
import pydoc

import bleuprint.mbr
from bleuprint import BLEUScore


def page() -> str:
    return pydoc.render_doc(BLEUScore, renderer=pydoc.plaintext)


def test_defaults_are_the_parts_they_make() -> None:
    text = page()
    assert "NOTHING" not in text
    signature = inspect.signature(BLEUScore)
    assert repr(signature.parameters["tokenizer"].default) == "Whitespace()"
    assert repr(signature.parameters["ngrams"].default) == "Contiguous(max_n=4)"
    assert BLEUScore() == BLEUScore.canonical()  # (the defaults are still made by attrs)


def test_the_methods_come_first_and_no_special_method_is_listed() -> None:
    text = page()
    methods = text.split("Methods defined here:", 1)[1].split("\n |  \n |  ", 1)[1]
    assert methods.startswith("accumulator(self)")
    for special in ("__eq__", "__repr__", "__setattr__", "__getstate__", "__attrs_post_init__"):
        assert special not in text
    assert BLEUScore() == BLEUScore()  # they are there all the same
    assert repr(BLEUScore()).startswith("BLEUScore(tokenizer=Whitespace()")


def test_methods_from_other_modules_show_self_not_the_engine() -> None:
    text = page()
    for name in ("accumulator", "mbr", "corpus_score_files", "count_stream", "pairwise_scores"):
        first = next(iter(inspect.signature(getattr(BLEUScore, name)).parameters))
        assert first == "self", name
        assert f"\n |  {name}(self" in text, name
    assert "(engine" not in text
    assert "corpus_score_files = " not in text  # (not shown as an alias of score_files)
    # The module-level function keeps its engine, which a caller of it passes.
    assert next(iter(inspect.signature(bleuprint.mbr.mbr).parameters)) == "engine"
    (choice,) = BLEUScore.canonical(max_n=1).mbr([["a b", "a b", "c"]])
    assert choice.index == 0
