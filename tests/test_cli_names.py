"""The systems' names in every output of ``score``, ``compare`` and ``explain``: ``--names`` as
given, else each file's name without directory and extension, else (where two collide) the
paths as given; the JSON keeps the file beside the name. Scores are sacreBLEU's, run beside."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from bleuprint import BLEUScore
from bleuprint.cli.systems import SystemScore, named
from tests.cli_helpers import (
    BETTER,
    CANONICAL,
    HYPOTHESES,
    REFERENCES,
    canonical_sacrebleu,
    fails,
    lines,
    run,
    succeed,
    write_examples,
)


def sacrebleu_score(text: str) -> float:
    return canonical_sacrebleu().corpus_score(lines(text), [lines(REFERENCES)]).score


@pytest.fixture
def runs(tmp_path: Path) -> Path:
    """``ref.txt``, ``runs/hyp.txt`` and ``runs/better.txt``."""
    write_examples(tmp_path)
    (tmp_path / "runs").mkdir()
    for name in ("hyp.txt", "better.txt"):
        (tmp_path / name).rename(tmp_path / "runs" / name)
    return tmp_path


SYSTEMS = ("-r", "ref.txt", "-i", "runs/hyp.txt", "runs/better.txt")


@pytest.mark.parametrize("command", ["score", "compare"])
def test_names_label_the_text_table_latex_and_json(runs: Path, command: str) -> None:
    given = ("--names", "Base MT", "New_MT")
    text = lines(succeed(command, *CANONICAL, *SYSTEMS, *given, "-f", "text", cwd=runs))
    rows = [row for row in text if row.startswith(("Base MT", "Baseline: Base MT", "New_MT"))]
    assert [row.split("  ")[0] for row in rows] == [
        "Baseline: Base MT" if command == "compare" else "Base MT",
        "New_MT",
    ]
    assert f" {sacrebleu_score(BETTER):.1f}" in rows[1]
    latex = succeed(command, *CANONICAL, *SYSTEMS, *given, "-f", "latex", cwd=runs)
    cells = [row.split(" & ")[0] for row in lines(latex) if " & " in row][1:]
    assert cells == ["Base MT (baseline)" if command == "compare" else "Base MT", "New\\_MT"]
    document = json.loads(succeed(command, *CANONICAL, *SYSTEMS, *given, cwd=runs))
    assert [(system["system"], system["file"]) for system in document["systems"]] == [
        ("Base MT", "runs/hyp.txt"),
        ("New_MT", "runs/better.txt"),
    ]
    assert document["systems"][0]["score"] == round(sacrebleu_score(HYPOTHESES), 1)


def test_without_names_the_tables_show_the_files_stems(runs: Path) -> None:
    text = succeed("score", *CANONICAL, *SYSTEMS, "-f", "text", cwd=runs)
    assert [row.split()[0] for row in lines(text)[2:4]] == ["hyp", "better"]
    latex = succeed("score", *CANONICAL, *SYSTEMS, "-f", "latex", cwd=runs)
    assert [row.split(" & ")[0] for row in lines(latex) if " & " in row][1:] == ["hyp", "better"]
    assert "runs/" not in text + latex


def test_colliding_stems_show_the_paths_as_given(runs: Path) -> None:
    (runs / "other").mkdir()
    (runs / "other" / "hyp.txt").write_text(BETTER, encoding="utf-8")
    paths = ("-r", "ref.txt", "-i", "runs/hyp.txt", "other/hyp.txt")
    text = succeed("score", *CANONICAL, *paths, "-f", "text", cwd=runs)
    assert [row.split() for row in lines(text)[2:4]] == [
        ["runs/hyp.txt", f"{sacrebleu_score(HYPOTHESES):.1f}"],
        ["other/hyp.txt", f"{sacrebleu_score(BETTER):.1f}"],
    ]


def test_sentence_level_and_explain_name_the_system(runs: Path) -> None:
    segments = json.loads(
        succeed("score", *CANONICAL, "-r", "ref.txt", "-i", "runs/hyp.txt", "-sl", cwd=runs)
    )
    assert segments["systems"][0]["system"] == "hyp"
    explained = json.loads(
        succeed(
            "explain", *CANONICAL, "-r", "ref.txt", "-i", "runs/hyp.txt", "-f", "json", cwd=runs
        )
    )
    system = explained["systems"][0]
    assert (system["system"], system["file"]) == ("hyp", "runs/hyp.txt")


def test_stems_drop_directories_and_every_extension_before_gz(runs: Path) -> None:
    with gzip.open(runs / "runs" / "sys.PROMT.txt.gz", "wt", encoding="utf-8") as compressed:
        compressed.write(HYPOTHESES)
    paths = ("-r", "ref.txt", "-i", "runs/sys.PROMT.txt.gz", "-", "-f", "tsv")
    table = succeed("score", *CANONICAL, *paths, cwd=runs, stdin=BETTER.encode())
    assert [row.split("\t")[0] for row in lines(table)[1:]] == ["sys.PROMT", "stdin"]


@pytest.mark.parametrize(
    ("systems", "names", "message"),
    [
        (["hyp.txt", "better.txt"], ["one"], "--names gives 1 name for 2 systems (-i)"),
        (["hyp.txt"], ["one", "two"], "--names gives 2 names for 1 system (-i)"),
    ],
)
def test_a_wrong_count_of_names_is_refused_before_any_work(
    tmp_path: Path, systems: list[str], names: list[str], message: str
) -> None:
    files = write_examples(tmp_path)
    arguments = ("-r", "ref.txt", "-i", *systems, "--names", *names, "--plot", "c.png")
    fails(run("compare", *arguments, cwd=files), message)
    assert not (files / "c.png").exists()


def test_named_keeps_the_names_given_and_the_files() -> None:
    result = BLEUScore.sacrebleu().corpus_score(["a b"], [["a b"]])
    scores = [SystemScore("runs/a.txt", result), SystemScore("<stdin>", result)]
    renamed = named(scores, ["x", "y"])
    assert [(score.name, score.file) for score in renamed] == [
        ("x", "runs/a.txt"),
        ("y", "<stdin>"),
    ]
    assert [score.name for score in named(scores, None)] == ["a", "stdin"]
