"""Signatures name every part, and parse back into an equal configuration."""

from __future__ import annotations

import pytest

import bleuprint
from bleuprint import BLEUScore, Signature, brevity, presets
from tests.conftest import as_the_preset_reads


@pytest.mark.parametrize("name", sorted(presets.PRESETS))
def test_every_preset_round_trips(name: str) -> None:
    preset = presets.get(name)
    bleu = preset.build()
    (hypothesis,), (references,) = as_the_preset_reads(preset, ["a b c d e"], [["a b c d e f"]])
    result = bleu.sentence_score(hypothesis, references)
    assert BLEUScore.from_signature(str(result.signature)) == bleu


@pytest.mark.parametrize(
    "bleu",
    [
        BLEUScore.canonical(max_n=7),
        BLEUScore.russian(length="words", capped=True),
        BLEUScore(reference_length=brevity.Closest("first")),
        BLEUScore(reference_length=brevity.Average()),
    ],
)
def test_configurations_with_parameters_round_trip(bleu: BLEUScore) -> None:
    assert BLEUScore.from_signature(str(bleu.signature())) == bleu


def test_signature_names_version_parts_and_references() -> None:
    result = BLEUScore().corpus_score(["a b c d", "e f"], [["a b c d", "x"], ["e f"]])
    text = str(result.signature)
    assert text.startswith(f"bleuprint:{bleuprint.__version__}|")
    assert "|ngram:contiguous[4]|" in text
    assert text.endswith("|nrefs:var")
    assert str(BLEUScore().sentence_score("a", ["a"]).signature).endswith("|nrefs:1")


def test_parse_keeps_reference_count_and_version() -> None:
    signature = Signature.parse(str(BLEUScore().sentence_score("a", ["a", "b"]).signature))
    assert signature.nrefs == "2"
    assert signature.version == bleuprint.__version__


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("tok:whitespace", "does not start with bleuprint"),
        ("bleuprint:0.1.0|tok:whitespace", "lacks the parts"),
        ("bleuprint:0.1.0|colour:blue", "unknown fields: colour"),
        ("bleuprint:0.1.0|tok", "not of the form key:value"),
    ],
)
def test_malformed_signatures(text: str, message: str) -> None:
    with pytest.raises(bleuprint.ConfigurationError, match=message):
        BLEUScore.from_signature(text)


def test_unknown_part_names_the_family_and_the_choices() -> None:
    text = str(BLEUScore().signature()).replace("tok:whitespace", "tok:mystery")
    with pytest.raises(bleuprint.ConfigurationError, match=r"unknown tok part 'mystery'.*letters"):
        BLEUScore.from_signature(text)


def test_bad_parameters_are_a_configuration_error() -> None:
    text = str(BLEUScore().signature()).replace("contiguous[4]", "contiguous[0]")
    with pytest.raises(bleuprint.ConfigurationError, match="max_n"):
        BLEUScore.from_signature(text)
    text = str(BLEUScore().signature()).replace("contiguous[4]", "contiguous[4")
    with pytest.raises(bleuprint.ConfigurationError, match="ends"):
        BLEUScore.from_signature(text)
