"""A sacreBLEU user's habits on bleuprint's commands: a positional reference, a misspelled or
abbreviated option, a preset named in another case, ``-tok``'s names, ``python -m bleuprint``."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest
from sacrebleu.metrics.bleu import _TOKENIZERS

from tests.cli_helpers import SACREBLEU, run, write_examples


@pytest.fixture
def files(tmp_path: Path) -> Path:
    return write_examples(tmp_path)


def _error(completed: subprocess.CompletedProcess[str], command: str) -> str:
    """The one line of a usage error of ``command``, without its prefix."""
    assert completed.returncode == 2 and completed.stdout == ""
    prefix = f"bleuprint {command}: error: "
    assert completed.stderr.startswith(prefix) and completed.stderr.count("\n") == 1
    return completed.stderr[len(prefix) : -1]


@pytest.mark.parametrize("command", ["score", "compare"])
def test_a_positional_reference_gets_the_two_spellings_it_may_mean(
    files: Path, command: str
) -> None:
    message = _error(run(command, "ref.txt", "-i", "hyp.txt", "better.txt", cwd=files), command)
    assert message == (
        "the following arguments are required: -r/--references; did you mean `-r ref.txt`, "
        "or `bleuprint sacrebleu ref.txt -i hyp.txt better.txt`?"
    )


def test_a_positional_reference_beside_r_is_told_where_it_goes(files: Path) -> None:
    message = _error(
        run("score", "better.txt", "-r", "ref.txt", "-i", "hyp.txt", cwd=files), "score"
    )
    assert message == (
        "unrecognized arguments: better.txt; did you mean `-r better.txt`? "
        "score takes every reference file after -r"
    )


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        (["--tokenise", "13a"], "did you mean --tokenize?"),
        (["--sent"], "did you mean --sentence-level?"),  # an abbreviation
        (["--paired-bootstrap"], "did you mean --paired-bs, --paired-bs-n or --paired-ar?"),
        (["--lowercse"], "did you mean --lowercase?"),
    ],
)
def test_a_misspelled_option_gets_the_closest_spellings(
    files: Path, typed: list[str], meant: str
) -> None:
    completed = run("score", "-r", "ref.txt", "-i", "hyp.txt", *typed, cwd=files)
    assert _error(completed, "score") == f"unrecognized arguments: {' '.join(typed)}; {meant}"


def test_several_misspelled_options_are_each_named(files: Path) -> None:
    completed = run("score", "-r", "ref.txt", "-i", "hyp.txt", "--tokenise", "--sent", cwd=files)
    assert _error(completed, "score") == (
        "unrecognized arguments: --tokenise --sent; --tokenise: did you mean --tokenize?; "
        "--sent: did you mean --sentence-level?"
    )


def test_an_option_like_nothing_known_gets_no_guess(files: Path) -> None:
    completed = run("score", "-r", "ref.txt", "-i", "hyp.txt", "--zzzz", cwd=files)
    assert _error(completed, "score") == "unrecognized arguments: --zzzz"


def test_a_misspelled_option_in_a_terminal(files: Path) -> None:
    # What a person sees: the one line, in a pseudo-terminal (progress and colours off).
    command = [sys.executable, "-m", "bleuprint", "score", "-r", "ref.txt", "-i", "hyp.txt"]
    leader, follower = pty.openpty()
    with subprocess.Popen(
        [*command, "--tokenise", "intl"], stdin=follower, stdout=follower, stderr=follower,
        cwd=files, close_fds=True,
    ) as process:  # fmt: skip
        os.close(follower)
        shown = b""
        while True:
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # the terminal is closed once the process has ended
                break
            if not chunk:
                break
            shown += chunk
        os.close(leader)
    assert process.returncode == 2
    assert shown.decode("utf-8") == (
        "bleuprint score: error: unrecognized arguments: --tokenise intl; "
        "did you mean --tokenize?\r\n"
    )


@pytest.mark.parametrize("name", ["SacreBLEU", "SACREBLEU", "sacrebleu"])
def test_preset_names_are_matched_without_regard_to_case(files: Path, name: str) -> None:
    completed = run("score", "-r", "ref.txt", "-i", "hyp.txt", "--preset", name, "-b", cwd=files)
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout == _sacrebleu_score(files)


def test_the_tokenizers_are_listed_in_the_help() -> None:
    completed = run("score", "--help")
    option = " ".join(completed.stdout.split("-tok NAME, --tokenize NAME")[1].split())
    # every one of sacreBLEU's names, in its order
    assert option.startswith(f"the tokenizer, as sacreBLEU's -tok: {', '.join(_TOKENIZERS)};")


def test_python_m_bleuprint_is_the_command(files: Path) -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "bleuprint", "score", "-r", "ref.txt", "-i", "hyp.txt", "-b"],
        capture_output=True, text=True, cwd=files, check=False,
    )  # fmt: skip
    assert (completed.returncode, completed.stdout) == (0, _sacrebleu_score(files))


def _sacrebleu_score(files: Path) -> str:
    """What ``sacrebleu ref.txt -i hyp.txt -b`` prints."""
    return subprocess.run(
        [SACREBLEU, "ref.txt", "-i", "hyp.txt", "-b"], capture_output=True, text=True, cwd=files,
        check=True,
    ).stdout  # fmt: skip
