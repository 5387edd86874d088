"""The one JSON layout of bleuprint's own commands: every command's JSON output, under every
kind of option, is valid under the shipped schema; the sacreBLEU keys are those the real
``sacrebleu`` command prints for the same files and options, and only where sacreBLEU can
compute the configuration."""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import BLEU

from bleuprint import BLEUScore, presets
from bleuprint.cli import render_scores
from bleuprint.cli.document import (
    ScoreFormat,
    document,
    schema,
    score_fields,
    segment_fields,
)
from bleuprint.cli.systems import SystemScore
from bleuprint.exceptions import InputError
from tests.cli_helpers import run, sacrebleu_cli

_REFERENCES = [
    "The cat sat on the mat, quietly.",
    "A dog barked all night long!",
    "It rained in the morning; then it cleared.",
    "She reads a book every evening.",
    "The train leaves at noon (sharp).",
    "We walked along the river.",
] * 3
_BASE = [
    "The cat sat on a mat, quietly.",
    "The dog barked at night!",
    "It rained in morning; then it cleared.",
    "She reads books every evening.",
    "Train leaves at noon (sharp).",
    "We walked by the river.",
] * 3
_NEW = [line.replace("a mat", "the mat").replace("by the", "along the") for line in _BASE]

# Option sets of every kind: one system or several, tests, sentence level, other presets.
_COMMANDS = {
    "score": ["score", "-r", "ref.txt", "-i", "base.txt"],
    "score two systems": ["score", "-r", "ref.txt", "-i", "base.txt", "new.txt"],
    "score -ci": ["score", "-r", "ref.txt", "-i", "base.txt", "-ci", "-cin", "50"],
    "score -pbs": ["score", "-r", "ref.txt", "-i", "base.txt", "new.txt", "-pbs", "-pbsn", "50"],
    "score -par -ci": [
        *("score", "-r", "ref.txt", "-i", "base.txt", "new.txt"),
        *("-par", "-parn", "50", "-ci", "-cin", "20"),
    ],
    "score -sl": ["score", "-r", "ref.txt", "-i", "new.txt", "-sl"],
    "score two references": ["score", "-r", "ref.txt", "new.txt", "-i", "base.txt"],
    "score canonical": ["score", "-r", "ref.txt", "-i", "base.txt", "--preset", "canonical"],
    "score nltk": ["score", "-r", "ref.txt", "-i", "base.txt", "--preset", "nltk"],
    "score shortest": ["score", "-r", "ref.txt", "-i", "base.txt", "--part", "ref=shortest"],
    "compare": ["compare", "-r", "ref.txt", "-i", "base.txt", "new.txt", "-pbsn", "50"],
    "explain": ["explain", "-r", "ref.txt", "-i", "base.txt", "-f", "json", "--worst", "2"],
    "explain --segment": [
        "explain",
        "-r",
        "ref.txt",
        "-i",
        "base.txt",
        "-f",
        "json",
        "--segment",
        "2",
    ],
}


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("json")
    for name, lines in {"ref.txt": _REFERENCES, "base.txt": _BASE, "new.txt": _NEW}.items():
        (path / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _document(arguments: list[str], folder: Path, stdin: bytes = b"") -> dict[str, Any]:
    completed = run(*arguments, cwd=folder, stdin=stdin)
    assert completed.returncode == 0, completed.stderr
    loaded: dict[str, Any] = json.loads(completed.stdout)
    return loaded


def _validate(document: dict[str, Any]) -> None:
    validator = jsonschema.Draft202012Validator(schema())
    errors = [
        f"{list(error.absolute_path)}: {error.message}" for error in validator.iter_errors(document)
    ]
    assert errors == []


def test_the_schema_is_a_valid_json_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(schema())


@pytest.mark.parametrize("name", list(_COMMANDS))
def test_every_json_output_is_valid_under_the_schema(folder: Path, name: str) -> None:
    document = _document(_COMMANDS[name], folder)
    _validate(document)
    assert document["command"] == _COMMANDS[name][0]


def test_pair_json_is_valid_under_the_schema(folder: Path) -> None:
    document = _document(["pair", "-f", "json"], folder, stdin=b"a b c d\na b c e\n")
    _validate(document)
    # Canonical BLEU of "a b c e" against "a b c d" by hand: 3/4, 2/3, 1/2, 0/1: zero.
    assert document["systems"][0]["counts"] == [3, 2, 1, 0]
    assert document["systems"][0]["score"] == 0.0


def test_the_schema_refuses_what_the_layout_is_not(folder: Path) -> None:
    document = _document(_COMMANDS["score"], folder)
    document["systems"][0]["sacrebleu_signature"] = None  # the old layout's key
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(document, schema())


def test_one_layout_whatever_the_options(folder: Path) -> None:
    keys = {name: list(_document(arguments, folder)) for name, arguments in _COMMANDS.items()}
    assert all(found == list(schema()["required"]) for found in keys.values()), keys


_SACREBLEU_KEYS = ["name", "score", "signature", "verbose_score", "nrefs", "case", "eff", "tok"]


@pytest.mark.parametrize(
    "options",
    [[], ["-ci", "-cin", "50"], ["-lc"], ["-tok", "intl", "-s", "floor"], ["-w", "3"]],
    ids=["default", "confidence", "lowercase", "intl floor", "width"],
)
def test_the_sacrebleu_keys_are_sacrebleus(folder: Path, options: list[str]) -> None:
    theirs = json.loads(sacrebleu_cli("ref.txt", "-i", "base.txt", *options, cwd=folder))
    ours = _document(["score", "-r", "ref.txt", "-i", "base.txt", *options], folder)
    system = ours["systems"][0]
    assert {key: system[key] for key in theirs} == theirs
    assert set(_SACREBLEU_KEYS) <= set(theirs)


def test_sentence_level_segments_carry_sacrebleus_keys(folder: Path) -> None:
    # sacreBLEU's command prints sentence scores as text only: its API gives their JSON.
    bleu = BLEU(effective_order=True)
    scores = [bleu.sentence_score(hyp, [ref]) for hyp, ref in zip(_NEW, _REFERENCES)]
    signature = str(bleu.get_signature())  # known once the metric has run
    theirs = [json.loads(score.format(1, False, signature, True)) for score in scores]
    segments = _document(_COMMANDS["score -sl"], folder)["systems"][0]["segments"]
    assert [{key: ours[key] for key in line} for ours, line in zip(segments, theirs)] == theirs
    assert [segment["segment"] for segment in segments] == list(range(1, len(_NEW) + 1))


@pytest.mark.parametrize("name", ["score nltk", "score shortest"])
def test_no_sacrebleu_signature_where_sacrebleu_cannot_compute_it(folder: Path, name: str) -> None:
    system = _document(_COMMANDS[name], folder)["systems"][0]
    signature_keys = {"signature", "nrefs", "case", "eff", "tok", "smooth", "version"}
    assert not signature_keys & set(system)
    assert {"name", "score", "verbose_score"} <= set(system)


def test_paired_tests_give_a_p_value_to_every_system_but_the_baseline(folder: Path) -> None:
    document = _document(_COMMANDS["score -pbs"], folder)
    baseline, system = document["systems"]
    assert baseline["p_value"] is None and 0 <= system["p_value"] <= 1
    assert "p_value" not in _document(_COMMANDS["score"], folder)["systems"][0]
    assert document["significance"] == {"test": "bs", "samples": 50, "seed": 12345}
    # sacreBLEU's signature of a paired bootstrap test names it.
    assert system["signature"].startswith("nrefs:1|bs:50|seed:12345|")


def test_a_document_writes_each_segment_on_a_line_and_keeps_their_text_as_given() -> None:
    signature = BLEUScore.sacrebleu().signature()
    tricky = {"segment": 1, "tokens": ["\0segments-0", '"\\u0000segments-1"', "é"]}
    systems = [{"system": "a", "segments": [tricky, {"segment": 2}]}, {"system": "b"}]
    systems.append({"system": "c", "segments": []})
    text = document("score", "sacrebleu", signature, systems)
    assert json.loads(text)["systems"] == systems
    lines = text.splitlines()
    assert '    {"segment": 2}' in lines
    assert any(line.startswith('    {"segment": 1, "tokens": ') for line in lines)


_WORDS = st.sampled_from(["a", "b", "c", "d", "a.", "b,", "é"])
_SEGMENTS = st.lists(_WORDS, max_size=8).map(" ".join)


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(sorted(presets.PRESETS)),
    st.lists(st.tuples(_SEGMENTS, st.lists(_SEGMENTS, min_size=1, max_size=3)), min_size=1),
    st.none() | st.integers(0, 4),
)
def test_segments_are_written_as_their_results(
    preset: str, corpus: list[tuple[str, list[str]]], width: int | None
) -> None:
    # `score -sl` writes each segment from the columns of the sentence scores, not from a
    # result object each: the same score object, line and TSV row as the segment's own result
    # gives, whatever the preset, the number of references (which may vary) and the score's
    # digits.
    hypotheses = [hypothesis for hypothesis, _ in corpus]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (NLTK's warning of orders without a match)
        try:
            scores = BLEUScore.preset(preset).sentence_scores(
                hypotheses, [refs for _, refs in corpus]
            )
        except InputError:  # a definition that has no score here (Moses's, of no tokens)
            assume(False)
    printed = ScoreFormat(presets.get(preset), width)
    assert segment_fields(scores, printed) == [score_fields(result, printed) for result in scores]
    lines = render_scores._text_lines(list(scores), printed, signature_line=False)
    assert render_scores._segment_lines(scores, printed) == lines
    numbers = range(1, len(scores) + 1)
    rows = [SystemScore(str(number), result) for number, result in zip(numbers, scores)]
    tsv = "".join(render_scores._tsv_row(row, None, printed) for row in rows)
    assert render_scores._tsv_segment_rows(numbers, scores, printed) == tsv
