"""``bleuprint`` as a whole: the entry point, usage errors, and how output is written."""

from __future__ import annotations

import importlib.metadata
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli_helpers import CANONICAL, run, write_examples


@pytest.fixture
def files(tmp_path: Path) -> Path:
    return write_examples(tmp_path)


def test_the_console_script_runs_the_command() -> None:
    (entry,) = importlib.metadata.entry_points(group="console_scripts", name="bleuprint")
    assert entry.value == "bleuprint.__main__:run"
    script = Path(sys.executable).parent / "bleuprint"
    if not script.exists():
        pytest.skip("the bleuprint script is not installed beside this Python")
    completed = subprocess.run([script, "--version"], capture_output=True, text=True, check=False)
    assert completed.returncode == 0
    assert completed.stdout == f"bleuprint {importlib.metadata.version('bleuprint')}\n"


def test_a_command_is_required() -> None:
    completed = run()
    assert completed.returncode == 2 and completed.stdout == ""
    assert completed.stderr.count("\n") == 1 and "required" in completed.stderr
    assert "Traceback" not in completed.stderr


@pytest.mark.parametrize(
    ("command", "arguments", "message"),
    [
        ("score", ("-i", "hyp.txt"), "the following arguments are required: -r/--references"),
        ("score", ("-w", "-1"), "argument -w/--width: must be at least 0, got -1"),
        ("score", ("--seed", "-5"), "argument --seed: must be at least 0, got -5"),
        ("score", ("--seed", "x"), "argument --seed: 'x' is not a whole number"),
        ("score", ("--max-n", "0"), "argument --max-n: must be at least 1, got 0"),
        (
            "score",
            ("--paired-bs-n", "0"),
            "argument -pbsn/--paired-bs-n: must be at least 1, got 0",
        ),
        (
            "score",
            ("--paired-ar-n", "0"),
            "argument -parn/--paired-ar-n: must be at least 1, got 0",
        ),
        (
            "compare",
            ("--confidence-n", "0"),
            "argument -cin/--confidence-n: must be at least 1, got 0",
        ),
        ("explain", ("--worst", "0"), "argument --worst: must be at least 1, got 0"),
        ("explain", ("--segment", "0"), "argument --segment: must be at least 1, got 0"),
        ("explain", ("--segment", "1", "--worst", "2"), "not allowed with argument --segment"),
        ("score", ("-l", "en"), "argument -l/--language-pair: expected SRC-TRG, such as en-de"),
    ],
)
def test_usage_errors_are_one_line(
    files: Path, command: str, arguments: tuple[str, ...], message: str
) -> None:
    completed = run(
        command, *arguments, *(("-r", "ref.txt") if "-i" not in arguments else ()), cwd=files
    )
    assert completed.returncode == 2 and completed.stdout == ""
    assert completed.stderr.startswith(f"bleuprint {command}: error: ")
    assert completed.stderr.count("\n") == 1 and message in completed.stderr


def test_output_is_utf8_whatever_the_locale(files: Path) -> None:
    # A Latin-1 terminal cannot encode "μ ± 95% CI"; bleuprint writes UTF-8 regardless.
    environment = {**os.environ, "PYTHONIOENCODING": "latin-1", "LC_ALL": "C"}
    completed = run(
        "compare",
        *CANONICAL,
        "-r",
        "ref.txt",
        "-i",
        "hyp.txt",
        "better.txt",
        "-f",
        "text",
        "--paired-bs-n",
        "10",
        cwd=files,
        env=environment,
    )
    assert completed.returncode == 0, completed.stderr
    assert "μ ± 95% CI" in completed.stdout


def test_a_closed_pipe_ends_quietly(files: Path) -> None:
    # The reader is gone before bleuprint writes (as with "| head"): no traceback, status 1.
    process = subprocess.Popen(
        [sys.executable, "-m", "bleuprint.cli", "score", "-r", "ref.txt", "-i", "hyp.txt"],
        cwd=files,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()
    error = process.stderr.read()
    assert process.wait() == 1
    assert error == b""


def test_a_library_warning_is_one_line_of_the_command_and_quiet_hides_it(tmp_path: Path) -> None:
    # NLTK's definition warns, as NLTK does, of orders without a match (issue 26: one line
    # each, "bleuprint: warning: ...", not Python's "<frozen runpy>:88: ZeroOverlapWarning:"
    # and NLTK's line breaks); -q, "no warnings on standard error", hides them.
    import warnings  # noqa: PLC0415

    from nltk.translate.bleu_score import sentence_bleu  # noqa: PLC0415

    (tmp_path / "ref.txt").write_text("the cat sat here\n", encoding="utf-8")
    (tmp_path / "hyp.txt").write_text("a cat is there\n", encoding="utf-8")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        expected = sentence_bleu([["the", "cat", "sat", "here"]], ["a", "cat", "is", "there"])
    said = [f"bleuprint: warning: {' '.join(str(one.message).split())}" for one in caught]
    assert len(said) == 3  # bigrams, trigrams and 4-grams
    command = ("score", "--preset", "nltk", "-r", "ref.txt", "-i", "hyp.txt", "-b")
    completed = run(*command, cwd=tmp_path)
    assert (completed.returncode, completed.stdout) == (0, f"{expected!r}\n")
    assert completed.stderr.splitlines() == said
    quiet = run(*command, "-q", cwd=tmp_path)
    assert (quiet.returncode, quiet.stdout, quiet.stderr) == (0, completed.stdout, "")


def test_main_leaves_the_warnings_machinery_as_it_was(
    files: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import warnings  # noqa: PLC0415

    from bleuprint.cli import main  # noqa: PLC0415

    monkeypatch.chdir(files)
    before = (warnings.showwarning, list(warnings.filters))
    assert main(["score", *CANONICAL, "-r", "ref.txt", "-i", "hyp.txt", "-b", "-q"]) == 0
    assert main(["score", *CANONICAL, "-r", "ref.txt", "-i", "hyp.txt", "-b"]) == 0
    assert (warnings.showwarning, list(warnings.filters)) == before
