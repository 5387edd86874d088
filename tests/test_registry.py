"""The registry of part names, and reading part signatures back into parts."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import attrs
import pytest

from bleuprint import BLEUScore, ConfigurationError, _signature, brevity, smoothing, tokenizers
from bleuprint._signature import MAX_DEPTH, MAX_LENGTH, Part, parse_part
from bleuprint._stats import BLEUStats
from bleuprint.compat import torchmetrics
from bleuprint.typing import Precision


@pytest.fixture(autouse=True)
def own_registry(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Each test registers into a copy, so its classes never leak into other tests (the
    definitions' parts registered first: a test's lookup must not register them in its copy)."""
    _signature._load_deferred()
    copy = {family: dict(parts) for family, parts in _signature._REGISTRY.items()}
    monkeypatch.setattr(_signature, "_REGISTRY", copy)
    yield


def registered(family: str, name: str) -> type:
    return _signature._REGISTRY[family][name]


# -- names -------------------------------------------------------------------------------


def test_a_subclass_that_names_nothing_does_not_take_over_its_parents_name() -> None:
    @attrs.frozen
    class Shouting(tokenizers.Whitespace):
        def __call__(self, text: str) -> list[str]:
            return text.upper().split()

    assert registered("tok", "whitespace") is tokenizers.Whitespace
    bleu = BLEUScore(tokenizer=Shouting())
    rebuilt = BLEUScore.from_signature(str(bleu.signature()))
    assert type(rebuilt.tokenizer) is tokenizers.Whitespace


def test_a_subclass_that_asks_for_a_new_name_is_registered_under_it() -> None:
    @attrs.frozen
    class Mine(tokenizers.Whitespace, Part, family="tok", name="mine"):
        pass

    # attrs rebuilds a slotted class: the registered class is the rebuilt one users get
    assert registered("tok", "mine") is Mine and "__slots__" in Mine.__dict__
    assert Mine().signature == "mine"
    assert type(parse_part("tok", "mine")) is Mine
    assert registered("tok", "whitespace") is tokenizers.Whitespace


def test_a_second_class_asking_for_a_taken_name_is_refused() -> None:
    with pytest.raises(ConfigurationError) as caught:

        @attrs.frozen
        class Impostor(Part, family="tok", name="whitespace"):
            def __call__(self, text: str) -> list[str]:
                return [text]

    message = str(caught.value)
    assert "Impostor" in message and "'whitespace'" in message
    assert "bleuprint.tokenizers.Whitespace" in message and "replace=True" in message
    assert registered("tok", "whitespace") is tokenizers.Whitespace


def test_replace_takes_over_a_name_deliberately() -> None:
    @attrs.frozen
    class Taken(tokenizers.Whitespace, family="tok", name="whitespace", replace=True):
        pass

    assert registered("tok", "whitespace") is Taken
    assert type(parse_part("tok", "whitespace")) is Taken


def test_one_name_in_two_families_is_two_parts() -> None:
    assert registered("smooth", "exp") is smoothing.Exp
    assert registered("bp", "exp") is brevity.Exponential


@pytest.mark.parametrize(
    "keywords",
    [{"family": "tok"}, {"name": "lonely"}, {"family": "tok", "name": "two words"}],
)
def test_a_family_needs_a_name_that_signatures_can_hold(keywords: dict[str, str]) -> None:
    with pytest.raises(ConfigurationError, match="must give both a family and a name"):
        type("Broken", (Part,), {"__call__": lambda self, text: [text]}, **keywords)


# -- parsing -----------------------------------------------------------------------------


def test_a_nested_part_is_found_in_its_enclosing_family_first() -> None:
    # "exp" is both a smoother and a brevity penalty; inside a smoother it is the smoother.
    assert parse_part("smooth", "all-matched[exp[]]") == torchmetrics.RequireAllMatched(
        smoothing.Exp()
    )
    assert parse_part("bp", "exp") == brevity.Exponential()


def test_parameters_are_passed_by_field_name() -> None:
    @attrs.frozen(kw_only=True)  # no positional parameters at all
    class Scaled(Part, family="smooth", name="scaled-test"):
        numerator: float = 1.0
        denominator: float = 2.0

        def __call__(self, stats: BLEUStats) -> list[Precision]:
            return [self.numerator / self.denominator] * stats.max_n

    assert parse_part("smooth", "scaled-test[3,4]") == Scaled(numerator=3, denominator=4)
    assert parse_part("smooth", "scaled-test[3]") == Scaled(numerator=3)


@pytest.mark.parametrize(
    ("family", "text", "message"),
    [
        ("ngram", "contiguous[4,5]", r"takes 0 to 1 parameters \(max_n\), got 2"),
        ("tok", "whitespace[1]", "takes no parameters, got 1"),
        ("tok", "lowercase[]", r"takes 1 parameter \(inner\), got 0"),
        ("tok", "lowercase[13a[],13a[]]", r"takes 1 parameter \(inner\), got 2"),
        ("weights", "nltk[(1,1),true,4]", r"takes 0 to 2 parameters \(values, auto_reweigh\)"),
    ],
)
def test_a_wrong_number_of_parameters_is_a_clear_error(
    family: str, text: str, message: str
) -> None:
    with pytest.raises(ConfigurationError, match=message):
        parse_part(family, text)


def test_bad_parameter_values_are_refused_by_the_part() -> None:
    with pytest.raises(ConfigurationError, match="ties must be one of 'shorter', 'first'"):
        parse_part("ref", "closest[middle]")
    with pytest.raises(ConfigurationError, match="capped must be True or False, got 1"):
        parse_part("bp", "ratio[1]")


def lowercased(depth: int) -> str:
    """``whitespace[]`` wrapped in lowercase tokenizers, nested ``depth`` brackets deep."""
    return "lowercase[" * (depth - 1) + "whitespace[]" + "]" * (depth - 1)


def test_signatures_split_at_unicode_white_space_as_the_regex_modules_classes() -> None:
    """The reader's patterns use the standard module; every code point is a space, a name's
    character or neither exactly as the regex module's classes say (its ``\\s`` is Unicode
    White_Space, which leaves U+001C..U+001F in names)."""
    import regex  # noqa: PLC0415 - the patterns' reference

    every = "".join(map(chr, range(sys.maxunicode + 1)))
    assert re.findall(_signature._SPACE, every) == regex.findall(r"\s", every)
    name_characters = regex.findall(r"[^\[\](),\s]", every)
    assert re.findall(_signature._NAME_CHARACTER, every) == name_characters
    assert "\x1c" in name_characters and " " not in name_characters
    text = "  lowercase[\u2003 13a\x1f[ ]\u3000] "
    assert [match.groups() for match in _signature._TOKEN.finditer(text)] == [
        match.groups() for match in regex.finditer(r"\s*(?:([\[\](),])|([^\[\](),\s]+))", text)
    ]


def test_signatures_nested_up_to_the_limit_are_read() -> None:
    part = parse_part("tok", lowercased(MAX_DEPTH))
    for _ in range(MAX_DEPTH - 1):
        assert isinstance(part, tokenizers.Lowercase)
        part = part.inner
    assert part == tokenizers.Whitespace()


@pytest.mark.parametrize(
    "text",
    [lowercased(MAX_DEPTH + 1), "explicit[" + "(" * 3000 + ")" * 3000 + "]", "lowercase[" * 900],
)
def test_signatures_nested_deeper_are_refused(text: str) -> None:
    assert len(text) <= MAX_LENGTH
    family = "weights" if text.startswith("explicit") else "tok"
    with pytest.raises(ConfigurationError, match=f"nests deeper than {MAX_DEPTH} levels"):
        parse_part(family, text)


def test_signatures_longer_than_the_limit_are_refused() -> None:
    padded = "whitespace".center(MAX_LENGTH)
    assert parse_part("tok", padded) == tokenizers.Whitespace()
    with pytest.raises(ConfigurationError, match=f"{MAX_LENGTH + 1} characters"):
        parse_part("tok", padded + " ")


def test_a_signature_that_is_not_text_is_refused() -> None:
    with pytest.raises(ConfigurationError, match="must be a string, got None"):
        parse_part("tok", None)  # type: ignore[arg-type]


def test_a_deeply_nested_part_on_the_command_line_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "text.txt").write_text("a b\n", encoding="utf-8")
    deep = "explicit[" + "(" * 3000 + ")" * 3000 + "]"
    command = [sys.executable, "-m", "bleuprint.cli", "score", "-r", "text.txt", "-i", "text.txt"]
    completed = subprocess.run(
        [*command, "--part", f"weights={deep}"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
    )
    assert completed.returncode == 2 and completed.stdout == ""
    assert completed.stderr.count("\n") == 1
    assert f"nests deeper than {MAX_DEPTH} levels" in completed.stderr
