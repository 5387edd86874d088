"""``bleuprint pair``: one candidate against one reference on standard input."""

from __future__ import annotations

import subprocess
import sys

import pytest


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
        ("canonical", b"a b c d e f\na b c d e f\n", "1.0"),
        # The lines as given, trailing spaces included: BP = 9 / 7 characters.
        ("russian", b"a b c d\r\na b c d  \n", "1.285714"),
    ],
)
def test_pair_prints_the_preset_format(preset: str, stdin: bytes, expected: str) -> None:
    completed = run("--preset", preset, stdin=stdin)
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.decode() == expected + "\n"
    assert completed.stderr == b""


def test_pair_defaults_to_canonical_full_precision() -> None:
    # p = 5/6, 3/5, 2/4, 1/3: BLEU-4 = (1/12) ** (1/4), printed with full precision.
    completed = run(stdin=b"the cat sat on a mat\nthe cat sat on the mat\n")
    assert float(completed.stdout) == pytest.approx((1 / 12) ** 0.25, abs=1e-15)
    assert len(completed.stdout.strip()) > 12


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
