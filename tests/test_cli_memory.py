"""The command's memory does not grow with the corpus: ``score`` reads its files a chunk at a
time, keeps per-segment statistics only where a test needs them, and writes sentence scores as
each chunk is counted."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest


def _peak_mb(folder: Path, lines: int, *options: str) -> float:
    """The peak resident memory of ``bleuprint score`` on two files of ``lines`` distinct
    lines, in MB (``os.wait4``: of the child itself)."""
    hypotheses, references = folder / f"hyp{lines}.txt", folder / f"ref{lines}.txt"
    with (
        hypotheses.open("w", encoding="utf-8") as hyp,
        references.open("w", encoding="utf-8") as ref,
    ):
        for number in range(lines):
            hyp.write(f"line {number} of a corpus that grows, with words {number % 977}\n")
            ref.write(f"line {number} of the corpus that grows, with words {number % 991}\n")
    command = [sys.executable, "-m", "bleuprint.cli", "score", "-r", str(references)]
    process = subprocess.Popen(
        [*command, "-i", str(hypotheses), "-q", *options], stdout=subprocess.DEVNULL
    )
    _, status, usage = os.wait4(process.pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    return usage.ru_maxrss / 1024


@pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss in kilobytes is Linux's")
@pytest.mark.parametrize(
    ("options", "lines"),
    [
        ((), 400_000),
        (("--jobs", "2"), 400_000),
        (("-sl",), 40_000),
        (("-sl", "-f", "json"), 40_000),
    ],
    ids=["corpus", "two jobs", "sentences", "sentences in JSON"],
)
def test_a_score_reads_files_in_bounded_memory(
    tmp_path: Path, options: tuple[str, ...], lines: int
) -> None:
    # 400,000 lines are about 50 MB of text a file: held whole, as Python strings, several
    # times that. Sentence scores held whole took about 1.5 KB a segment as text and 3.5 KB
    # as JSON: 60 MB and 140 MB more at 40,000 segments than at a tenth of them.
    small, large = _peak_mb(tmp_path, lines // 10, *options), _peak_mb(tmp_path, lines, *options)
    assert large < small + 20
