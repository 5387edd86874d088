"""The benchmark script still runs, and its distinct corpora are distinct (a tiny run: the
benchmark measures nothing here; its numbers are in docs/performance/one-machine.md)."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import REPOSITORY, require_shared

BENCHMARKS = REPOSITORY / "tests" / "benchmarks"


def test_distinct_corpora_repeat_no_line_and_are_deterministic() -> None:
    require_shared("data", "wmt22")
    sys.path.insert(0, str(BENCHMARKS))
    try:
        import bench_corpora  # noqa: PLC0415 (a script's module, not a package)
    finally:
        sys.path.remove(str(BENCHMARKS))
    # past the ~11,400 real pairs, so that spliced pairs are drawn too
    hypotheses, references = bench_corpora.distinct_corpus(15_000)
    assert len(set(hypotheses)) == len(set(references)) == 15_000
    assert bench_corpora.distinct_corpus(15_000) == (hypotheses, references)
    real = bench_corpora.real_pairs(bench_corpora.wmt22() / "cs-en")  # the first pair
    assert (hypotheses[0], references[0]) in real[0]  # real pairs come first


def test_a_tiny_run_prints_agreeing_rows() -> None:
    require_shared("data", "wmt22")
    command = [
        *(sys.executable, str(BENCHMARKS / "bench.py"), "--sizes", "300", "--repeat", "1"),
        *("--pairwise", "0", "--mbr", "--rewards", "--no-token-ids", "--stream-size", "0"),
        *("--threads-size", "0", "--cold-runs", "0", "--mbr-small"),
        *("--paired-resamples", "20", "--paired-systems", "2", "--paired-runs", "1"),
        *("--skip", "bleuscore", "nltk", "sacrebleu-mojo", "str.split", "bleuprint, plain Python"),
    ]
    output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    rows = [line.split(" | ") for line in output.splitlines() if line.startswith("| corpus 13a")]
    assert [row[1] for row in rows] == ["bleuprint", "sacrebleu"]
    assert rows[1][-1] == "yes |"  # sacreBLEU's score equals bleuprint's
    # Sentence scores read by a loop over the items give the array's; the loop's cost an item
    # is one of the targets.
    items = "| sentence_scores items"
    rows = [line.split(" | ") for line in output.splitlines() if line.startswith(items)]
    assert [row[1] for row in rows] == [
        "bleuprint, the .scores array",
        "bleuprint, a loop of .score",
    ]
    assert rows[1][-1] == "yes |"
    assert "| sentence_scores, 300: a loop reading each .score, <= 1 us an item |" in output
    # The paired tests' whole processes: sacreBLEU's command and bleuprint's print the same
    # first line (the table's top border), and bleuprint compare its table.
    paired = [
        line.split(" | ")
        for line in output.splitlines()
        if line.startswith("| paired") and ">=" not in line  # not the targets' rows
    ]
    assert [row[1] for row in paired] == [
        *("sacrebleu", "bleuprint sacrebleu", "bleuprint compare"),
        *("sacrebleu", "bleuprint sacrebleu"),
    ]
    assert paired[0][-1] == paired[1][-1] and not paired[0][-1].startswith("exit")
