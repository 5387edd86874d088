"""The commands' memory does not grow with the corpus: ``score`` and ``sacrebleu`` read their
files a chunk at a time, keep per-segment statistics only where a test needs them (compactly),
and write sentence scores as each chunk is counted."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest


def _peak_mb(folder: Path, lines: int, *arguments: str, hypotheses_on_stdin: bool = False) -> float:
    """The peak resident memory of ``bleuprint ARGUMENTS...`` on two files of ``lines`` distinct
    lines, ``HYP`` and ``REF`` in the arguments (or the hypotheses on standard input), in MB
    (``os.wait4``: of the child itself), counted on one thread: the chunks a second thread has
    in flight are a constant that a small corpus does not reach (sacreBLEU's command on 20,000
    lines peaked at 47 MB, on 100,000 to 400,000 lines at 64-69 MB), so the two sizes compared
    would differ by it, not by the corpus."""
    hypotheses, references = folder / f"hyp{lines}.txt", folder / f"ref{lines}.txt"
    with (
        hypotheses.open("w", encoding="utf-8") as hyp,
        references.open("w", encoding="utf-8") as ref,
    ):
        for number in range(lines):
            hyp.write(f"line {number} of a corpus that grows, with words {number % 977}\n")
            ref.write(f"line {number} of the corpus that grows, with words {number % 991}\n")
    files = {"HYP": str(hypotheses), "REF": str(references)}
    command = [sys.executable, "-m", "bleuprint.cli", *(files.get(a, a) for a in arguments)]
    with hypotheses.open("rb") as stdin:
        given = stdin if hypotheses_on_stdin else subprocess.DEVNULL
        environment = {**os.environ, "BLEUPRINT_THREADS": "1"}
        process = subprocess.Popen(
            [*command, "-q"], stdin=given, stdout=subprocess.DEVNULL, env=environment
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
    score = ("score", "-r", "REF", "-i", "HYP", *options)
    small, large = _peak_mb(tmp_path, lines // 10, *score), _peak_mb(tmp_path, lines, *score)
    assert large < small + 20


@pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss in kilobytes is Linux's")
@pytest.mark.parametrize(
    "command",
    [
        ("score", "-r", "REF", "-i", "HYP", "--confidence", "-cin", "10"),
        ("compare", "-r", "REF", "-i", "HYP", "REF", "-pbsn", "10"),
        ("compare", "-r", "REF", "-i", "HYP", "REF", "--paired-ar", "-parn", "10"),
    ],
    ids=["interval", "paired bootstrap", "approximate randomization"],
)
def test_a_test_keeps_its_segments_compactly(tmp_path: Path, command: tuple[str, ...]) -> None:
    # A test keeps each segment's statistics: as int64 arrays, 88 bytes a segment and system,
    # joined at the end (twice that for a while): 70 MB more at 400,000 lines than at 40,000
    # for one system; kept compactly, a byte a count and the totals derived, 6 bytes, in one
    # store that grows as chunks are counted.
    small, large = _peak_mb(tmp_path, 40_000, *command), _peak_mb(tmp_path, 400_000, *command)
    assert large < small + 20


@pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss in kilobytes is Linux's")
@pytest.mark.parametrize(
    ("options", "hypotheses_on_stdin"),
    [
        (("-i", "HYP", "-m", "bleu", "chrf"), False),
        (("-i", "HYP", "-sl"), False),
        (("-i", "HYP", "-e", "latin-1"), False),
        ((), True),
        (("-sl",), True),
    ],
    ids=["BLEU and chrF", "sentences", "another encoding", "standard input", "stdin sentences"],
)
def test_sacrebleus_command_reads_files_in_bounded_memory(
    tmp_path: Path, options: tuple[str, ...], hypotheses_on_stdin: bool
) -> None:
    # Read whole, as sacreBLEU reads them, 200,000 lines took 200 MB more than 20,000 with
    # both metrics, and 130 MB more with their sentence scores held whole; streamed, 8 MB.
    # Standard input and -e were read whole until they were read as files are.
    sacrebleu = ("sacrebleu", "REF", *options)
    small, large = (
        _peak_mb(tmp_path, lines, *sacrebleu, hypotheses_on_stdin=hypotheses_on_stdin)
        for lines in (20_000, 200_000)
    )
    assert large < small + 20


@pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss in kilobytes is Linux's")
@pytest.mark.parametrize(
    "options",
    [
        ("-i", "HYP", "-ci", "-cin", "3"),
        ("-i", "HYP", "REF", "-pbs", "-pbsn", "3"),
        ("-i", "HYP", "REF", "-par", "-parn", "3"),
    ],
    ids=["interval", "paired bootstrap", "paired randomization"],
)
def test_sacrebleus_tests_keep_each_segment_compactly(
    tmp_path: Path, options: tuple[str, ...]
) -> None:
    # A test keeps each segment's statistics: as 32-bit rows, with a float64 copy and blocks
    # of four million draws, 400,000 lines took 80 to 120 MB more than 40,000; as a byte a
    # number (4 MB a system; 2.4 MB once BLEU's totals were derived, not kept), summed from
    # pieces of 65,536 draws, 5 to 14 MB more.
    sacrebleu = ("sacrebleu", "REF", *options)
    small, large = _peak_mb(tmp_path, 40_000, *sacrebleu), _peak_mb(tmp_path, 400_000, *sacrebleu)
    assert large < small + 20
