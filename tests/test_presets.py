"""The presets table and what every preset shares, and general parts that the compatibility
presets brought in (explicit weights, add-one, replace/reject zero, code points)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from hypothesis import strategies as st

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

WORD = st.sampled_from(["a", "b", "c", "the", "cat"])
SENTENCE = st.lists(WORD, max_size=8)


def test_explicit_weights_are_taken_as_given() -> None:
    stats = BLEUStats((1, 1, 1), (1, 1, 1), 3, 3)
    assert weights.Explicit((2, 1))(stats, [1.0, 1.0, 1.0]) == [2.0, 1.0, 0.0]


@pytest.mark.parametrize("values", [(), (0, 0), (0.5, -0.5), (math.nan,), (math.inf, 1)])
def test_explicit_weights_refuse_nonsense(values: tuple[float, ...]) -> None:
    with pytest.raises(ConfigurationError, match="values"):
        weights.Explicit(values)


def test_more_explicit_weights_than_orders() -> None:
    with pytest.raises(InputError, match="3 weights given but only 2 orders"):
        weights.Explicit((1, 1, 1))(BLEUStats((1, 1), (1, 1), 2, 2), [1.0, 1.0])


def test_add_one_with_and_without_unigrams() -> None:
    stats = BLEUStats((5, 3, 1, 0), (6, 5, 4, 3), 6, 6)
    assert smoothing.AddOne()(stats) == [5 / 6, 4 / 6, 2 / 5, 1 / 4]
    assert smoothing.AddOne(unigrams=True)(stats) == [6 / 7, 4 / 6, 2 / 5, 1 / 4]


def test_replace_zero_and_reject_zero() -> None:
    stats = BLEUStats((2, 0, 0), (2, 1, 0), 2, 2)
    assert smoothing.ReplaceZero(1e-9)(stats) == [1.0, 1e-9, 1e-9]
    with pytest.raises(InputError, match="2-gram precision is 0"):
        smoothing.RejectZero()(stats)


def test_codepoints_keep_spaces() -> None:
    assert tokenizers.Codepoints()("a b") == ["a", " ", "b"]


def test_token_list_presets_split_text_on_whitespace() -> None:
    for bleu in [BLEUScore.nltk(), BLEUScore.fast_bleu(), BLEUScore.distancia()]:
        assert bleu.tokenizer == tokenizers.Whitespace()
    characters = BLEUScore.nltk(tokenizer=tokenizers.Codepoints())
    assert characters.compute("abcd", ["abcd"]) == 1.0


@pytest.mark.parametrize(
    "name", ["nltk", "torchmetrics", "hf-evaluate", "bleuscore", "fast-bleu", "distancia"]
)
def test_signature_rebuilds_the_preset(name: str) -> None:
    bleu = presets.get(name).build()
    assert BLEUScore.from_signature(str(bleu.signature())) == bleu


def test_the_comparison_page_lists_every_preset_with_its_parts() -> None:
    """The docs' table of parts stays what the presets are (a drift check, not a definition)."""
    page = (Path(__file__).parent.parent / "docs" / "definitions" / "compared.md").read_text()
    section = page.split("## Every part, at the default options")[1].split("\n## ")[0]
    header, _, *rows = [line for line in section.splitlines() if line.startswith("|")]
    families = [cell.strip() for cell in header.strip("|").split("|")][1:]
    listed = set()
    for row in rows:
        name, *parts = [cell.strip().strip("`") for cell in row.strip("|").split("|")]
        listed.add(name)
        assert dict(zip(families, parts)) == dict(presets.get(name).build().signature().parts)
    compared = {"canonical", "unigram", "russian", "sacrebleu", "sacrebleu-sentence", "nltk"}
    compared |= {"torchmetrics", "hf-evaluate", "bleuscore", "fast-bleu", "distancia"}
    assert listed == compared
