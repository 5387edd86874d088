"""``bleuprint sacrebleu -m chrf`` and ``-m bleu chrf`` beside the real ``sacrebleu`` command:
the same standard output, byte for byte, on the first 150 lines of WMT22 de-en files of
``../shared`` (three systems, two references); chrF's bootstrap arithmetic beside sacreBLEU's
own on resampled statistics; and what is refused, in one line."""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from sacrebleu.metrics import BLEU, CHRF
from sacrebleu.significance import PairedTest

from bleuprint.compat.sacrebleu import ChrFArithmetic, chrf
from tests.cli_helpers import both_commands

LINES = 150
FILES = {
    "REF": "ref.A.txt",
    "REF2": "ref.B.txt",
    "SYS1": "sys.LT22.txt",
    "SYS2": "sys.Online-A.txt",
    "SYS3": "sys.JDExploreAcademy.txt",
}
THREE = ["SYS1", "SYS2", "SYS3"]

# Options after the reference; "SYS1" and so on name the files above.
OPTION_SETS = {
    "chrf-json": ["-i", "SYS1", "-m", "chrf"],
    "bleu-chrf-json": ["-i", "SYS1", "-m", "bleu", "chrf"],
    # One system: sacreBLEU reports BLEU first whatever the order of -m, lines aligned at "=".
    "chrf-bleu-text": ["-i", "SYS1", "-m", "chrf", "bleu", "-f", "text"],
    "chrf-bleu-score-only-json": ["-i", "SYS1", "-m", "chrf", "bleu", "-b"],
    "chrf-bleu-score-only-text": [
        "-i", "SYS1", "-m", "chrf", "bleu", "-b", "-f", "text", "-w", "3",
    ],
    "metric-given-twice": ["-i", "SYS1", "-m", "chrf", "bleu", "chrf", "-f", "text"],
    "chrf-plus-plus-two-references": ["REF2", "-i", "SYS1", "-m", "chrf", "-cw", "2", "-f", "text"],
    "chrf-options": [
        "-i", "SYS1", "-m", "chrf", "-cc", "4", "-cw", "1", "--chrf-beta", "1",
        "--chrf-lowercase", "--chrf-whitespace", "-w", "3",
    ],
    "chrf-eps-smoothing-short": [
        "-i", "SYS1", "-m", "chrf", "bleu", "--chrf-eps-smoothing", "-f", "text", "-sh",
    ],
    "chrf-sentence-level": ["-i", "SYS1", "-m", "chrf", "-sl", "-w", "2"],
    "chrf-plus-plus-sentence-level-score-only": [
        "-i", "SYS1", "-m", "chrf", "-cw", "2", "-sl", "-b",
    ],
    "confidence-json": ["-i", "SYS1", "-m", "bleu", "chrf", "-ci", "-cin", "100"],
    "confidence-text-short": [
        "-i", "SYS1", "-m", "chrf", "bleu", "-cw", "2", "-ci", "-cin", "100", "-f", "text", "-sh",
    ],
    "confidence-score-only": ["-i", "SYS1", "-m", "chrf", "bleu", "-ci", "-cin", "60", "-b"],
    "detail": ["-i", "SYS1", "-m", "chrf", "bleu", "-d"],
    "systems-json": ["-i", *THREE, "-m", "bleu", "chrf"],
    "systems-text": ["-i", *THREE, "-m", "chrf", "bleu", "-f", "text", "-w", "2", "-sh"],
    "systems-latex": ["-i", "SYS1", "SYS2", "-m", "chrf", "bleu", "-cw", "2", "-f", "latex"],
    # Paired tests: the metrics in the order of -m.
    "paired-bs-text": ["-i", *THREE, "-m", "chrf", "bleu", "-pbs", "-pbsn", "100", "-f", "text"],
    "paired-bs-latex-chrf-plus-plus": [
        "-i", *THREE, "-m", "chrf", "-cw", "2", "-pbs", "-pbsn", "100", "-f", "latex",
    ],
    "paired-bs-eps-smoothing": [
        "-i", "SYS1", "SYS2", "-m", "bleu", "chrf", "--chrf-eps-smoothing", "-pbs", "-pbsn",
        "100", "-f", "text", "-w", "4", "-sh",
    ],
    "paired-ar-json": ["-i", *THREE, "-m", "bleu", "chrf", "-par", "-parn", "100"],
    "paired-ar-text": [
        "-i", *THREE, "-m", "chrf", "bleu", "-cw", "2", "-par", "-parn", "100", "-f", "text",
    ],
}  # fmt: skip


@pytest.fixture(scope="module")
def files(shared: object, tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The first lines of each file, in a folder of their own: placeholder to path."""
    source: Path = shared("data", "wmt22", "de-en")  # type: ignore[operator]
    folder = tmp_path_factory.mktemp("chrf")
    paths = {}
    for placeholder, name in FILES.items():
        lines = (source / name).read_text("utf-8").splitlines(keepends=True)[:LINES]
        (folder / name).write_text("".join(lines), "utf-8")
        paths[placeholder] = str(folder / name)
    return paths


def _arguments(options: list[str], files: dict[str, str]) -> list[str]:
    return [files["REF"], *(files.get(option, option) for option in options)]


@pytest.mark.parametrize("name", sorted(OPTION_SETS))
def test_same_output_as_sacrebleu(files: dict[str, str], name: str) -> None:
    expected, got = both_commands(_arguments(OPTION_SETS[name], files))
    assert expected.returncode == 0, expected.stderr
    assert got.returncode == 0, got.stderr
    assert got.stdout == expected.stdout


def test_standard_input_and_seed(files: dict[str, str]) -> None:
    # Two systems, tab-separated on standard input, under another seed.
    columns = (Path(files[name]).read_text("utf-8").splitlines() for name in ("SYS1", "SYS2"))
    stdin = "".join("\t".join(pair) + "\n" for pair in zip(*columns)).encode("utf-8")
    arguments = [files["REF"], "-m", "chrf", "bleu", "-pbs", "-pbsn", "50", "-f", "text"]
    expected, got = both_commands(arguments, stdin=stdin, env={"SACREBLEU_SEED": "7"})
    assert expected.returncode == 0, expected.stderr
    assert (got.returncode, got.stdout) == (0, expected.stdout)


def test_resamples_without_a_match(tmp_path: Path) -> None:
    # Four segments, two of them empty hypotheses: some resamples match no character n-gram,
    # and sacreBLEU scores those with Python floats among its float32 ones (an array of
    # double precision, then): the p-values, means and intervals are still its own.
    (tmp_path / "ref.txt").write_text("a b c\nq\nxyz\nhello world\n", "utf-8")
    (tmp_path / "one.txt").write_text("\nq\n\nhullo\n", "utf-8")
    (tmp_path / "two.txt").write_text("a\n\nxyz\nhello\n", "utf-8")
    files = [str(tmp_path / name) for name in ("ref.txt", "one.txt", "two.txt")]
    for test in (["-pbs", "-pbsn", "200"], ["-par", "-parn", "200"]):
        for word_order in ("0", "2"):
            options = ["-m", "chrf", "-cw", word_order, *test, "-f", "text", "-w", "6"]
            expected, got = both_commands([files[0], "-i", *files[1:], *options])
            assert expected.returncode == 0, expected.stderr
            assert (got.returncode, got.stdout) == (0, expected.stdout), got.stderr


def test_interval_which_sacrebleu_fails_to_average(tmp_path: Path) -> None:
    # -ci on the same files: sacreBLEU cannot average its Python 0.0 with its float32 scores
    # (statistics.mean raises a TypeError); bleuprint prints the score, the mean of those
    # scores and half their 95% interval.
    references = ["a b c", "q", "xyz", "hello world"]
    hypotheses = ["", "q", "", "hullo"]
    for name, lines in (("ref.txt", references), ("hyp.txt", hypotheses)):
        (tmp_path / name).write_text("".join(f"{line}\n" for line in lines), "utf-8")
    arguments = [str(tmp_path / "ref.txt"), "-i", str(tmp_path / "hyp.txt"), "-m", "chrf"]
    expected, got = both_commands([*arguments, "-ci", "-cin", "200", "-f", "text", "-w", "6"])
    assert expected.returncode == 1
    assert b"TypeError: don't know how to coerce" in expected.stderr
    theirs = CHRF(references=[references])
    stats = theirs._extract_corpus_statistics(hypotheses, None)
    draws = np.random.default_rng(12345).choice(len(stats), size=(200, len(stats)))
    scored = sorted(
        float(theirs._compute_score_from_stats(rows.sum(0)).score)
        for rows in np.array(stats, np.float32)[draws]
    )
    score = theirs._aggregate_and_compute(stats).score
    mean, half = statistics.mean(scored), 0.5 * (scored[-6] - scored[5])
    signature = "nrefs:1|bs:200|seed:12345|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0"
    line = f"chrF2|{signature} = {score:.6f} (μ = {mean:.6f} ± {half:.6f})\n"
    assert (got.returncode, got.stdout.decode("utf-8")) == (0, line)


def test_paired_bootstrap_json_which_sacrebleu_fails_to_write(files: dict[str, str]) -> None:
    # sacreBLEU 2.6.0 computes the test, then fails on its float32 chrF means: bleuprint
    # writes the numbers sacreBLEU's test computed, as its JSON writes BLEU's.
    options = ["-i", "SYS1", "SYS2", "-m", "chrf", "bleu", "-pbs", "-pbsn", "100"]
    expected, got = both_commands(_arguments(options, files))
    assert expected.returncode == 1
    assert b"float32 is not JSON serializable" in expected.stderr
    assert got.returncode == 0, got.stderr
    references = [Path(files["REF"]).read_text("utf-8").splitlines()]
    systems = [
        (name, Path(files[key]).read_text("utf-8").splitlines())
        for name, key in (("Baseline: " + files["SYS1"], "SYS1"), (files["SYS2"], "SYS2"))
    ]
    metrics = {"CHRF": CHRF(references=references), "BLEU": BLEU(references=references)}
    _, scores = PairedTest(systems, metrics, None, test_type="bs", n_samples=100)()
    theirs = [
        {
            "system": name,
            **{metric: _as_floats(vars(scores[metric][number])) for metric in ("chrF2", "BLEU")},
        }
        for number, (name, _) in enumerate(systems)
    ]
    assert json.loads(got.stdout) == theirs
    assert list(json.loads(got.stdout)[0]) == ["system", "chrF2", "BLEU"]


def _as_floats(result: dict[str, object]) -> dict[str, object]:
    return {key: None if value is None else float(value) for key, value in result.items()}  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"word_order": 2},
        {"eps_smoothing": True, "word_order": 1},
        {"char_order": 3, "beta": 1, "lowercase": True, "whitespace": True},
    ],
)
def test_bootstrap_scores_are_sacrebleus_float32_numbers(
    files: dict[str, str], options: dict[str, object]
) -> None:
    # sacreBLEU scores each resample's float32 sums with its scalar code: the same numbers
    # of the same type, bit for bit.
    references = Path(files["REF"]).read_text("utf-8").splitlines()
    hypotheses = Path(files["SYS1"]).read_text("utf-8").splitlines()
    theirs = CHRF(**options)  # type: ignore[arg-type]
    stats = np.array(theirs._extract_corpus_statistics(hypotheses, [references]), np.float32)
    draws = np.random.default_rng(1).choice(len(stats), size=(100, len(stats)))
    expected = np.array(
        [theirs._compute_score_from_stats(rows.sum(0)).score for rows in stats[draws]]
    )
    arithmetic = ChrFArithmetic(chrf(**options).definition)  # type: ignore[arg-type]
    rows = arithmetic.rows(
        chrf(**options).count_segments(hypotheses, [[reference] for reference in references])  # type: ignore[arg-type]
    ).astype(np.float32)
    got = arithmetic.scores(np.stack([rows[draw].sum(0) for draw in draws]))
    assert got.dtype == expected.dtype == np.float32
    assert got.tolist() == expected.tolist()


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["-m", "ter"], "-m ter: bleuprint computes BLEU and chrF, not TER"),
        (["-m", "chrf", "bleu", "-sl"], "-sl/--sentence-level scores one metric"),
        (["-m", "chrf", "-cc", "0"], "-cc 0 -cw 0 --chrf-beta 2: chrF needs at least one order"),
        (["-m", "chrf", "-cw", "-1"], "-cc 6 -cw -1 --chrf-beta 2: SacreBLEUChrF: word_order"),
    ],
)
def test_refused_in_one_line(tmp_path: Path, arguments: list[str], message: str) -> None:
    for name in ("ref.txt", "hyp.txt"):
        (tmp_path / name).write_text("a b c\n", "utf-8")
    command = ["sacrebleu", "ref.txt", "-i", "hyp.txt", *arguments]
    completed = subprocess.run(
        [sys.executable, "-m", "bleuprint.cli", *command],
        capture_output=True, check=False, cwd=tmp_path, text=True,
    )  # fmt: skip
    assert completed.returncode == 2
    assert completed.stdout == ""
    assert completed.stderr.startswith(f"bleuprint: error: {message}")
    assert completed.stderr.count("\n") == 1
