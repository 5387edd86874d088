"""``bleuprint demo``: the bundled corpus under every preset, checked against the peers."""

from __future__ import annotations

import subprocess
import sys
import warnings
from importlib import resources

import pytest
from nltk.translate.bleu_score import corpus_bleu, sentence_bleu
from sacrebleu.metrics import BLEU

from bleuprint import presets


@pytest.fixture(scope="module")
def table(corpus: tuple[list[str], list[list[str]]]) -> dict[str, list[str]]:
    """The demo's rows by preset: corpus score, mean sentence score, summary."""
    completed = subprocess.run(
        [sys.executable, "-m", "bleuprint.cli", "demo"], capture_output=True, text=True, check=False
    )
    assert completed.returncode == 0, completed.stderr
    assert completed.stderr == ""  # no preset's warnings (NLTK's of zero precisions) in a table
    header, _, rows = completed.stdout.partition("\n\n")
    segments = len(corpus[0])
    assert header == (
        f"{segments} segments of the bundled example corpus, each score as its definition prints it"
    )
    table, _, left_out = rows.partition("\n\n")
    on_ids = [name for name, preset in presets.PRESETS.items() if preset.takes == "token ids"]
    assert left_out == f"not shown (they take token ids only): {', '.join(on_ids)}\n"
    body = table.splitlines()[2:]  # below the header and its rule
    return {row.split()[0]: row.split(maxsplit=3)[1:] for row in body}


@pytest.fixture(scope="module")
def corpus() -> tuple[list[str], list[list[str]]]:
    text = resources.files("bleuprint").joinpath("data/demo.tsv").read_text(encoding="utf-8")
    rows = [line.split("\t") for line in text.splitlines() if not line.startswith("#")]
    return [row[0] for row in rows], [row[1:] for row in rows]


def test_every_preset_on_text_has_a_row(table: dict[str, list[str]]) -> None:
    on_text = {name: preset for name, preset in presets.PRESETS.items() if preset.takes == "text"}
    assert sorted(table) == sorted(on_text)
    assert "fairseq" not in on_text  # the demo corpus is words: fairseq's preset refuses them
    for name, preset in on_text.items():
        assert table[name][2] == preset.summary


def test_the_sacrebleu_row_is_sacrebleus(
    table: dict[str, list[str]], corpus: tuple[list[str], list[list[str]]]
) -> None:
    hypotheses, references = corpus
    most = max(map(len, references))
    streams = [[refs[k] if k < len(refs) else None for refs in references] for k in range(most)]
    expected = BLEU().corpus_score(hypotheses, streams).score
    sentence = BLEU(effective_order=True)
    mean = sum(
        sentence.sentence_score(hypothesis, refs).score
        for hypothesis, refs in zip(hypotheses, references)
    ) / len(hypotheses)
    # As sacreBLEU's command prints a score: 0-100, one decimal (its -w 1).
    assert table["sacrebleu"][0] == f"{expected:.1f}"
    assert table["sacrebleu"][1] == f"{mean:.1f}"


def test_the_nltk_row_is_nltks(
    table: dict[str, list[str]], corpus: tuple[list[str], list[list[str]]]
) -> None:
    hypotheses, references = corpus
    tokenized = [[reference.split() for reference in refs] for refs in references]
    with warnings.catch_warnings():  # NLTK warns about orders without matches
        warnings.simplefilter("ignore")
        expected = corpus_bleu(tokenized, [hypothesis.split() for hypothesis in hypotheses])
        scores = [
            sentence_bleu(refs, hypothesis.split())
            for hypothesis, refs in zip(hypotheses, tokenized)
        ]
    assert float(table["nltk"][0]) == pytest.approx(expected, rel=1e-12)
    assert float(table["nltk"][1]) == pytest.approx(sum(scores) / len(scores), rel=1e-12)
