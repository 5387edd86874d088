"""Significance and sacreBLEU conformance through the command line, on the systems of the
shared significance vectors (120 segments each, with punctuation for the 13a tokenizer).

The default preset is sacreBLEU's BLEU, so ``bleuprint score`` must print sacreBLEU's own
numbers, checked against the ``sacrebleu`` command run beside it, and its paired tests must
give the vectors' p-values.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from sacrebleu.metrics import BLEU
from sacrebleu.significance import PairedTest

from bleuprint import BLEUScore
from bleuprint.significance import SegmentStatistics, paired_bootstrap
from tests.conftest import load_shared_json
from tests.test_cli_score import CANONICAL, lines, succeed


@pytest.fixture(scope="module")
def vector_systems(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """The significance vectors' systems and reference as files."""
    vectors = load_shared_json("vectors", "sacrebleu_stats_vectors.json")["significance"]
    folder = tmp_path_factory.mktemp("systems")
    for name, hypotheses in vectors["hypotheses"].items():
        (folder / f"{name}.txt").write_text("\n".join(hypotheses) + "\n", encoding="utf-8")
    (folder / "ref.txt").write_text("\n".join(vectors["references"][0]) + "\n", encoding="utf-8")
    return folder, vectors


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
    # The canonical preset is sacreBLEU's BLEU without tokenization and without smoothing.
    folder, vectors = vector_systems
    named = [(name, hypotheses) for name, hypotheses in vectors["hypotheses"].items()]
    _, expected = PairedTest(
        named,
        {"BLEU": BLEU(tokenize="none", smooth_method="none")},
        vectors["references"],
        test_type=test,
        **settings,
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


def test_sample_counts_seed_and_confidence(vector_systems: tuple[Path, dict[str, Any]]) -> None:
    folder, vectors = vector_systems
    engine = BLEUScore.canonical()
    references = [[reference] for reference in vectors["references"][0]]
    tables = [
        SegmentStatistics.count(engine, vectors["hypotheses"][name], references)
        for name in ("baseline", "sysB")
    ]
    expected = paired_bootstrap(*tables, engine, resamples=50, seed=3)
    output = json.loads(
        succeed(
            "score",
            *CANONICAL,
            "-r",
            "ref.txt",
            "-i",
            "baseline.txt",
            "sysB.txt",
            "--paired-bs",
            "--paired-bs-n",
            "50",
            "--seed",
            "3",
            cwd=folder,
        )
    )
    assert output["significance"] == {"test": "bs", "samples": 50, "seed": 3}
    assert output["systems"][1]["p_value"] == expected.p_value
    assert output["systems"][1]["mean"] == 100 * (expected.mean or 0)

    single = json.loads(
        succeed(
            "score",
            *CANONICAL,
            "-r",
            "ref.txt",
            "-i",
            "sysA.txt",
            "-ci",
            "--confidence-n",
            "40",
            cwd=folder,
        )
    )
    assert single["significance"] == {"test": "ci", "samples": 40, "seed": 12345}
    assert single["systems"][0]["p_value"] is None and single["systems"][0]["ci"] > 0

    trials = json.loads(
        succeed(
            "score",
            *CANONICAL,
            "-r",
            "ref.txt",
            "-i",
            "baseline.txt",
            "sysB.txt",
            "--paired-ar",
            "--paired-ar-n",
            "99",
            "-ci",
            "--confidence-n",
            "20",
            cwd=folder,
        )
    )
    assert trials["significance"]["confidence_resamples"] == 20
    # sysB is far better: no trial beats it, p = 1 / (99 + 1).
    assert trials["systems"][1]["p_value"] == 1 / 100
    assert all(system["mean"] is not None for system in trials["systems"])


def test_compare_text_table(vector_systems: tuple[Path, dict[str, Any]]) -> None:
    folder, _ = vector_systems
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
    assert output[0].split() == ["system", "BLEU", "μ", "±", "95%", "CI", "p-value"]
    assert output[2].startswith("Baseline: baseline.txt")
    assert output[4].startswith("sysB.txt") and output[4].endswith("*")
    assert "Paired bootstrap resampling, 100 resamples, seed 12345" in output


def test_compare_plot(vector_systems: tuple[Path, dict[str, Any]], tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    folder, _ = vector_systems
    target = tmp_path / "chart.png"
    succeed(
        "compare",
        *CANONICAL,
        "-r",
        "ref.txt",
        "-i",
        "baseline.txt",
        "sysB.txt",
        "--paired-bs-n",
        "20",
        "--plot",
        str(target),
        cwd=folder,
    )
    assert target.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


# -- The default preset is sacreBLEU's -------------------------------------------------------


def sacrebleu_cli(*arguments: str, cwd: Path) -> str:
    completed = subprocess.run(
        [sys.executable, "-m", "sacrebleu", *arguments],
        capture_output=True,
        text=True,
        cwd=cwd,
        check=True,
    )
    return completed.stdout


@pytest.mark.parametrize(
    "options",
    [
        (),
        ("-lc",),
        ("-tok", "intl"),
        ("-tok", "char"),
        ("--smooth", "floor"),
        ("--smooth", "add-k", "--smooth-value", "2"),
        ("--smooth", "none", "-lc", "-tok", "none"),
    ],
)
def test_default_preset_prints_sacrebleus_numbers(
    vector_systems: tuple[Path, dict[str, Any]], options: tuple[str, ...]
) -> None:
    folder, _ = vector_systems
    # sacreBLEU calls the smoothing option --smooth-method (-s); the others are spelled alike.
    theirs_options = ["-s" if option == "--smooth" else option for option in options]
    ours = json.loads(
        succeed("score", "-r", "ref.txt", "-i", "sysA.txt", "-w", "6", *options, cwd=folder)
    )
    theirs = json.loads(
        sacrebleu_cli("ref.txt", "-i", "sysA.txt", "-w", "6", *theirs_options, cwd=folder)
    )
    assert ours["score"] == theirs["score"]
    assert ours["verbose_score"] == theirs["verbose_score"]
    assert ours["sacrebleu_signature"] == theirs["signature"]


def test_default_sentence_level_is_sacrebleus(vector_systems: tuple[Path, dict[str, Any]]) -> None:
    # sacreBLEU's --sentence-level turns effective order on; so does bleuprint's default.
    folder, _ = vector_systems
    ours = succeed("score", "-r", "ref.txt", "-i", "sysB.txt", "-sl", "-b", "-w", "6", cwd=folder)
    theirs = sacrebleu_cli("ref.txt", "-i", "sysB.txt", "-sl", "-b", "-w", "6", cwd=folder)
    assert lines(ours) == lines(theirs)


@pytest.mark.parametrize("test", ["bs", "ar"])
def test_default_paired_tests_give_the_vectors(
    vector_systems: tuple[Path, dict[str, Any]], test: str
) -> None:
    folder, vectors = vector_systems
    output = json.loads(
        succeed(
            "score",
            "-r",
            "ref.txt",
            "-i",
            "baseline.txt",
            "sysA.txt",
            "sysB.txt",
            f"--paired-{test}",
            cwd=folder,
        )
    )
    for system, wanted in zip(output["systems"], vectors[f"paired_{test}"]["results"], strict=True):
        assert system["p_value"] == wanted["p_value"]
        assert system["score"] == round(wanted["score"], 1)
        for field in ("mean", "ci"):
            if wanted[field] is None:
                assert system[field] is None
            else:  # sacreBLEU's resampled precisions are float32 under numpy 2
                assert system[field] == pytest.approx(wanted[field], abs=1e-5)


def test_default_confidence_interval_gives_the_vector(
    vector_systems: tuple[Path, dict[str, Any]],
) -> None:
    folder, vectors = vector_systems
    wanted = vectors["single_system_bootstrap"]
    output = json.loads(
        succeed("score", "-r", "ref.txt", "-i", "baseline.txt", "-ci", "-w", "2", cwd=folder)
    )
    system = output["systems"][0]
    assert system["score"] == round(wanted["score"], 2)
    assert system["mean"] == pytest.approx(wanted["mean"], abs=1e-5)
    assert system["ci"] == pytest.approx(wanted["ci"], abs=1e-5)


@pytest.mark.parametrize(
    ("pair", "hypotheses", "references"),
    [
        (
            "en-zh",
            "我们今天去公园散步。\n天气很好\uff01\n",
            "今天我们去公园散步了。\n天气非常好\uff01\n",
        ),
        (
            "en-ja",
            "私は学校に行きます。\n猫が好きです。\n",
            "私は学校へ行きます。\n私は猫が好きです。\n",
        ),
        (
            "en-ko",
            "나는 학교에 갑니다.\n고양이를 좋아해요.\n",
            "저는 학교에 갑니다.\n고양이를 좋아합니다.\n",
        ),
        ("de-en", "The cat sat on the mat.\n", "The cat sat on a mat.\n"),
    ],
)
def test_language_pair_picks_sacrebleus_tokenizer(
    tmp_path: Path, pair: str, hypotheses: str, references: str
) -> None:
    (tmp_path / "hyp.txt").write_text(hypotheses, encoding="utf-8")
    (tmp_path / "ref.txt").write_text(references, encoding="utf-8")
    ours = json.loads(
        succeed("score", "-r", "ref.txt", "-i", "hyp.txt", "-l", pair, "-w", "6", cwd=tmp_path)
    )
    theirs = json.loads(
        sacrebleu_cli("ref.txt", "-i", "hyp.txt", "-l", pair, "-w", "6", cwd=tmp_path)
    )
    assert ours["score"] == theirs["score"]
    assert ours["sacrebleu_signature"] == theirs["signature"]


def test_tab_separated_references_as_sacrebleu(
    vector_systems: tuple[Path, dict[str, Any]], tmp_path: Path
) -> None:
    # Two references per line in one file, the first with a space before the tab.
    _, vectors = vector_systems
    first = vectors["references"][0]
    second = [" ".join(reversed(reference.split())) for reference in first]
    rows = [f"{a} \t{b}" for a, b in zip(first, second)]
    (tmp_path / "refs.tsv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    (tmp_path / "sys.txt").write_text(
        "\n".join(vectors["hypotheses"]["sysA"]) + "\n", encoding="utf-8"
    )
    ours = json.loads(
        succeed("score", "-r", "refs.tsv", "-nr", "2", "-i", "sys.txt", "-w", "6", cwd=tmp_path)
    )
    theirs = json.loads(
        sacrebleu_cli("refs.tsv", "-nr", "2", "-i", "sys.txt", "-w", "6", cwd=tmp_path)
    )
    assert ours["score"] == theirs["score"]
    assert ours["verbose_score"] == theirs["verbose_score"]
    assert ours["sacrebleu_signature"] == theirs["signature"]  # nrefs:2
