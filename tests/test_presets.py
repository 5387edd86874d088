"""The presets table and what every preset shares."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import strategies as st

from bleuprint import (
    BLEUScore,
    presets,
    tokenizers,
)

WORD = st.sampled_from(["a", "b", "c", "the", "cat"])
SENTENCE = st.lists(WORD, max_size=8)


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
    compared |= {"moses-multi-bleu", "moses-multi-bleu-detok", "mteval-v13a", "mteval-v14"}
    compared |= {"coco", "torcheval", "tensor2tensor", "ignite", "gleu", "google-bleu", "fairseq"}
    assert listed == compared
