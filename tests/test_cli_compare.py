"""``bleuprint compare`` (and the paired tests of ``score``) against sacreBLEU's paired tests,
on the systems of the shared significance vectors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from sacrebleu.significance import PairedTest

from tests.cli_helpers import (
    CANONICAL,
    canonical_sacrebleu,
    fails,
    lines,
    run,
    succeed,
    write_examples,
    write_vector_systems,
)


@pytest.fixture(scope="module")
def vector_systems(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    folder = tmp_path_factory.mktemp("systems")
    return folder, write_vector_systems(folder)


@pytest.mark.parametrize(
    ("test", "settings", "options"),
    [
        ("bs", {}, ()),
        ("ar", {}, ()),
        ("bs", {"n_samples": 200}, ("--paired-bs-n", "200")),
        (
            "ar",
            {"n_samples": 300, "n_ar_confidence": 60},
            ("--paired-ar-n", "300", "-ci", "--confidence-n", "60"),
        ),
    ],
)
def test_paired_tests_agree_with_sacrebleu(
    vector_systems: tuple[Path, dict[str, Any]],
    test: str,
    settings: dict[str, int],
    options: tuple[str, ...],
) -> None:
    folder, vectors = vector_systems
    named = [(name, hypotheses) for name, hypotheses in vectors["hypotheses"].items()]
    _, expected = PairedTest(
        named, {"BLEU": canonical_sacrebleu()}, vectors["references"], test_type=test, **settings
    )()
    systems = ("-i", "baseline.txt", "sysA.txt", "sysB.txt")
    command = ("score", f"--paired-{test}") if test == "ar" else ("compare",)
    output = json.loads(
        succeed(*command, *CANONICAL, "-r", "ref.txt", *systems, *options, cwd=folder)
    )
    assert output["significance"]["test"] == test
    for system, wanted in zip(output["systems"], expected["BLEU"], strict=True):
        assert system["p_value"] == wanted.p_value
        for field in ("mean", "ci"):
            if getattr(wanted, field) is None:
                assert system[field] is None
            else:  # sacreBLEU's resampled precisions are float32 under numpy 2
                assert system[field] == pytest.approx(getattr(wanted, field), abs=1e-5)


def test_compare_text_table(vector_systems: tuple[Path, dict[str, Any]]) -> None:
    folder, vectors = vector_systems
    output = lines(
        succeed(
            "compare",
            *CANONICAL,
            "-r",
            "ref.txt",
            "-i",
            "baseline.txt",
            "sysA.txt",
            "sysB.txt",
            "-f",
            "text",
            "--paired-bs-n",
            "100",
            cwd=folder,
        )
    )
    named = [(name, hypotheses) for name, hypotheses in vectors["hypotheses"].items()]
    _, expected = PairedTest(
        named, {"BLEU": canonical_sacrebleu()}, vectors["references"], "bs", n_samples=100
    )()
    assert output[0].split() == ["system", "BLEU", "μ", "±", "95%", "CI", "p-value"]
    assert output[2].startswith("Baseline: baseline ")
    for row, wanted in zip(output[2:5], expected["BLEU"]):
        assert f" {wanted.score:.1f} " in row
        assert row.endswith("*") == (wanted.p_value is not None and wanted.p_value < 0.05)
    assert output[4].startswith("sysB ") and output[4].endswith("*")
    assert "Paired bootstrap resampling, 100 resamples, seed 12345" in output


def test_plot_without_matplotlib_is_a_clear_error(tmp_path: Path) -> None:
    files = write_examples(tmp_path)
    hide_matplotlib = (
        "import sys; sys.modules['matplotlib'] = None; "
        "from bleuprint.cli import main; sys.exit(main(sys.argv[1:]))"
    )
    completed = subprocess.run(
        [
            sys.executable,
            "-c",
            hide_matplotlib,
            "compare",
            "-r",
            "ref.txt",
            "-i",
            "hyp.txt",
            "better.txt",
            "--plot",
            "out.png",
        ],
        capture_output=True,
        text=True,
        cwd=files,
        check=False,
    )
    assert completed.returncode == 2 and completed.stdout == ""
    assert completed.stderr == (
        "bleuprint: error: --plot needs matplotlib, which is not installed: "
        "pip install '.[plot]' (from the repository)\n"
    )
    assert not (files / "out.png").exists()


def test_compare_latex_table(vector_systems: tuple[Path, dict[str, Any]]) -> None:
    folder, vectors = vector_systems
    output = succeed(
        "compare", *CANONICAL, "-r", "ref.txt", "-i", "baseline.txt", "sysA.txt", "sysB.txt",
        "-f", "latex", "--paired-bs-n", "100", cwd=folder,
    ).splitlines()  # fmt: skip
    named = [(name, hypotheses) for name, hypotheses in vectors["hypotheses"].items()]
    _, expected = PairedTest(
        named, {"BLEU": canonical_sacrebleu()}, vectors["references"], "bs", n_samples=100
    )()
    rows = []
    for name, wanted in zip(["baseline (baseline)", "sysA", "sysB"], expected["BLEU"]):
        star = "$^*$" if wanted.p_value is not None and wanted.p_value < 0.05 else ""
        p_value = "" if wanted.p_value is None else f"{wanted.p_value:.4f}{star}"
        interval = f"{wanted.mean:.1f} $\\pm$ {wanted.ci:.1f}"
        rows.append(f"{name} & {wanted.score:.1f} & {interval} & {p_value} \\\\")
    assert output[0].startswith("% BLEU|bleuprint:")
    assert output[1:3] == [
        "% Paired bootstrap resampling, 100 resamples, seed 12345",
        "% *: p < 0.05, the difference from the baseline is significant",
    ]
    assert output[3:] == [
        "\\begin{tabular}{lrrr}",
        "\\toprule",
        "System & BLEU & $\\mu \\pm$ 95\\% CI & $p$-value \\\\",
        "\\midrule",
        *rows,
        "\\bottomrule",
        "\\end{tabular}",
    ]


def test_latex_escapes_system_names_and_refuses_sentence_level(tmp_path: Path) -> None:
    files = write_examples(tmp_path)
    (files / "my_sys&1.txt").write_bytes((files / "hyp.txt").read_bytes())
    output = succeed(
        "score", *CANONICAL, "-r", "ref.txt", "-i", "my_sys&1.txt", "-f", "latex", cwd=files
    )
    hypotheses = (files / "hyp.txt").read_text(encoding="utf-8").splitlines()
    references = (files / "ref.txt").read_text(encoding="utf-8").splitlines()
    score = canonical_sacrebleu().corpus_score(hypotheses, [references]).score
    assert f"my\\_sys\\&1 & {score:.1f} \\\\" in output.splitlines()
    fails(
        run("score", "-r", "ref.txt", "-i", "hyp.txt", "-sl", "-f", "latex", cwd=files),
        "-f latex writes a table of systems: not with --sentence-level",
    )
