"""``bleuprint pair``: one candidate against one reference on standard input."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from nltk.translate.bleu_score import sentence_bleu

from tests.cli_helpers import SACREBLEU


def run(*arguments: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "bleuprint.cli", "pair", *arguments],
        input=stdin,
        capture_output=True,
        check=False,
    )


@pytest.mark.parametrize(
    ("preset", "stdin", "expected"),
    [
        ("unigram", b"the cat sat on the mat\nthe cat sat\n", "0.3679"),
        ("russian", b"This is the wolf.\nThe the the the the.\n", "0.000000"),
        # 21 / 24 characters, every n-gram shared: 0.875 to six decimals.
        ("russian", b"Hello, World! It's fine.\r\nhello world it s fine", "0.875000"),
        ("canonical", b"a b c d e f\na b c d e f\n", "100.0"),
        # The lines as given, trailing spaces included: BP = 9 / 7 characters.
        ("russian", b"a b c d\r\na b c d  \n", "1.285714"),
    ],
)
def test_pair_prints_the_preset_format(preset: str, stdin: bytes, expected: str) -> None:
    completed = run("--preset", preset, stdin=stdin)
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.decode() == expected + "\n"
    assert completed.stderr == b""


def test_pair_defaults_to_canonical() -> None:
    # p = 5/6, 3/5, 2/4, 1/3: BLEU-4 = (1/12) ** (1/4), printed as bleuprint prints BLEU
    # (0-100, one decimal), or to -w decimals.
    stdin = b"the cat sat on a mat\nthe cat sat on the mat\n"
    assert run(stdin=stdin).stdout.decode() == f"{100 * (1 / 12) ** 0.25:.1f}\n"
    assert run("-w", "6", stdin=stdin).stdout.decode() == f"{100 * (1 / 12) ** 0.25:.6f}\n"
    assert "(default: canonical)" in " ".join(run("--help").stdout.decode().split())


def test_pair_prints_sacrebleus_score_as_sacrebleu_prints_it(tmp_path: Path) -> None:
    (tmp_path / "ref.txt").write_text("the cat sat on the mat\n", "utf-8")
    (tmp_path / "hyp.txt").write_text("the cat sat on a mat\n", "utf-8")
    expected = subprocess.run(
        [SACREBLEU, "ref.txt", "-i", "hyp.txt", "-b"], capture_output=True, cwd=tmp_path,
        check=True,
    ).stdout  # fmt: skip
    stdin = b"the cat sat on the mat\nthe cat sat on a mat\n"
    for preset in ("sacrebleu", "SacreBLEU"):
        assert run("--preset", preset, stdin=stdin).stdout == expected


def test_pair_prints_nltks_score_as_nltk_prints_it() -> None:
    reference, hypothesis = (
        ["the", "cat", "sat", "on", "the", "mat"],
        ["the", "cat", "sat", "on", "a", "mat"],
    )
    expected = sentence_bleu([reference], hypothesis)
    completed = run("--preset", "nltk", stdin=b"the cat sat on the mat\nthe cat sat on a mat\n")
    assert completed.stdout.decode() == f"{expected!r}\n"


@pytest.mark.parametrize(
    ("arguments", "stdin", "message"),
    [
        ((), b"only one line\n", "expected two lines"),
        # A third line (another reference?) is not silently left out.
        ((), b"a b\na b\na c\n", "got 3; score more lines with bleuprint score"),
        ((), b"", "got 0"),
        ((), b"ok\n\xff\xfe\n", "<stdin>:2: not valid UTF-8"),
        (("--preset", "nope"), b"a\nb\n", "argument --preset: unknown preset 'nope'; known"),
    ],
)
def test_errors_are_one_line_with_status_2(
    arguments: tuple[str, ...], stdin: bytes, message: str
) -> None:
    completed = run(*arguments, stdin=stdin)
    assert completed.returncode == 2
    assert completed.stdout == b""
    error = completed.stderr.decode()
    assert error.count("\n") == 1 and message in error
    assert "Traceback" not in error


def test_a_byte_order_mark_is_kept_and_warned_of_as_score_does() -> None:
    # The mark stays part of the reference's first token, so "the" no longer matches.
    completed = run("--preset", "unigram", stdin=b"\xef\xbb\xbfthe cat\nthe cat\n")
    assert completed.returncode == 0
    assert completed.stdout.decode() == "0.5000\n"
    warning = completed.stderr.decode()
    assert warning.count("\n") == 1
    assert warning.startswith("bleuprint: warning: <stdin>:1 starts with a byte-order mark")
