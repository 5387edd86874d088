"""Reading files, for every command that reads them: the same lines as sacreBLEU's command
line, and one clear line on standard error for every kind of bad input."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.cli_helpers import CANONICAL, fails, run, sacrebleu_cli, write_examples


@pytest.fixture
def files(tmp_path: Path) -> Path:
    return write_examples(tmp_path)


# -- Reading files as sacreBLEU does ---------------------------------------------------------


@pytest.mark.parametrize(
    ("ours", "theirs"),
    [(CANONICAL, ("-tok", "none", "-s", "none")), ((), ())],
    ids=["canonical", "default"],
)
def test_bom_crlf_and_unicode_whitespace_as_sacrebleu(
    tmp_path: Path, ours: tuple[str, ...], theirs: tuple[str, ...]
) -> None:
    # A BOM kept as text, CRLF ends, a trailing no-break space, U+2028 and NEL inside lines,
    # a lone CR inside a line, leading spaces: sacreBLEU's own command line is the reference.
    (tmp_path / "hyp.txt").write_bytes(
        b"\xef\xbb\xbfthe cat\xc2\xa0sat \r\na\xe2\x80\xa8b c\xc2\x85d\r\n"
        b"lone\rcr here\n  lead  space\xc2\xa0\n"
    )
    (tmp_path / "ref.txt").write_bytes(b"the cat sat\na b c d\nlone cr here\nlead space\n")
    sacrebleu = sacrebleu_cli("ref.txt", "-i", "hyp.txt", "-w", "6", *theirs, cwd=tmp_path)
    completed = run("score", *ours, "-r", "ref.txt", "-i", "hyp.txt", "-w", "6", cwd=tmp_path)
    expected = json.loads(sacrebleu)
    output = json.loads(completed.stdout)["systems"][0]
    assert output["score"] == expected["score"]
    assert output["verbose_score"] == expected["verbose_score"]
    assert completed.stderr == (
        "bleuprint: warning: hyp.txt:1 starts with a byte-order mark (U+FEFF); like sacreBLEU, "
        "bleuprint keeps it as part of the first segment's text\n"
    )
    quiet = run("score", *ours, "-r", "ref.txt", "-i", "hyp.txt", "-q", cwd=tmp_path)
    assert quiet.returncode == 0 and quiet.stderr == ""


@pytest.mark.parametrize(
    "command",
    [
        ("score", "-r", "ref.txt", "-i", "hyp.txt"),
        ("score", "--jobs", "2", "-r", "ref.txt", "-i", "hyp.txt"),
        ("sacrebleu", "ref.txt", "-i", "hyp.txt"),
    ],
    ids=["score", "score --jobs 2", "sacrebleu"],
)
def test_byte_order_marks_are_named_in_the_order_the_files_are_read(
    tmp_path: Path, command: tuple[str, ...]
) -> None:
    for name in ("hyp.txt", "ref.txt"):
        (tmp_path / name).write_bytes(b"\xef\xbb\xbfthe cat\nsat\n")
    completed = run(*command, cwd=tmp_path)
    assert completed.returncode == 0, completed.stderr
    named = [line.split(":")[2].strip() for line in completed.stderr.splitlines()]
    assert named == ["ref.txt", "hyp.txt"]


# -- Bad input: one line on stderr, status 2, nothing on stdout -----------------------------


def test_files_of_different_lengths(files: Path) -> None:
    (files / "short.txt").write_text("one line\n", encoding="utf-8")
    fails(
        run("score", *CANONICAL, "-r", "ref.txt", "-i", "short.txt", cwd=files),
        "short.txt has 1 line but ref.txt has 3: every file needs one line per segment",
    )
    fails(
        run("score", *CANONICAL, "-r", "ref.txt", "short.txt", "-i", "hyp.txt", cwd=files),
        "hyp.txt has 3 lines but short.txt has 1: every file needs one line per segment",
    )


def test_undecodable_bytes(files: Path) -> None:
    (files / "bad.txt").write_bytes(b"fine\nalso fine\nbroken \xe2\x28\xa1 here\n")
    fails(
        run("score", *CANONICAL, "-r", "ref.txt", "-i", "bad.txt", cwd=files),
        "bad.txt:3: not valid UTF-8 (byte 8 of the line is 0xe2)",
    )
    fails(
        run("score", *CANONICAL, "-r", "ref.txt", stdin=b"ok\n\xff\n", cwd=files),
        "<stdin>:2: not valid UTF-8 (byte 1 of the line is 0xff)",
    )


@pytest.mark.parametrize("options", [(), ("--jobs", "2"), ("-tok", "intl")])
def test_undecodable_bytes_far_into_a_file_name_their_line(
    tmp_path: Path, options: tuple[str, ...]
) -> None:
    # Line 9,000: in the second chunk of lines read, in the second part of two jobs, and read
    # by the kernel (13a) or by Python (intl).
    lines = [b"a line of text"] * 10_000
    lines[8_999] = b"broken \xe2\x28\xa1 here"
    (tmp_path / "hyp.txt").write_bytes(b"\n".join(lines) + b"\n")
    (tmp_path / "ref.txt").write_bytes(b"a line of text\n" * 10_000)
    fails(
        run("score", "-r", "ref.txt", "-i", "hyp.txt", *options, cwd=tmp_path),
        "hyp.txt:9000: not valid UTF-8 (byte 8 of the line is 0xe2)",
    )


def test_a_line_without_its_tab_separated_references(files: Path) -> None:
    (files / "refs.tsv").write_text("a\tb\nc\td\ne\n", encoding="utf-8")
    fails(
        run("score", "-r", "refs.tsv", "-nr", "2", "-i", "hyp.txt", cwd=files),
        "refs.tsv:3: expected 2 tab-separated references, found 1",
    )


def test_missing_empty_and_directory(files: Path) -> None:
    (files / "empty.txt").write_bytes(b"")
    (files / "folder").mkdir()
    fails(
        run("score", *CANONICAL, "-r", "nope.txt", "-i", "hyp.txt", cwd=files),
        "nope.txt: no such file",
    )
    fails(
        run("score", *CANONICAL, "-r", "ref.txt", "-i", "empty.txt", cwd=files),
        "empty.txt: the file is empty",
    )
    fails(
        run("score", *CANONICAL, "-r", "folder", "-i", "hyp.txt", cwd=files),
        "folder: is a directory, not a file",
    )
    fails(run("score", *CANONICAL, "-r", "ref.txt", cwd=files), "<stdin>: the file is empty")
    (files / "hyp.txt.gz").write_bytes(b"not compressed\n")
    fails(
        run("score", *CANONICAL, "-r", "ref.txt", "-i", "hyp.txt.gz", cwd=files),
        "hyp.txt.gz: not a valid gzip file",
    )


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root reads any file")
def test_unreadable_file(files: Path) -> None:
    secret = files / "secret.txt"
    secret.write_text("x\n", encoding="utf-8")
    secret.chmod(0)
    fails(
        run("score", *CANONICAL, "-r", "ref.txt", "-i", "secret.txt", cwd=files),
        "secret.txt: permission denied",
    )
