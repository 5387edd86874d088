"""Scoring from files, as whole processes: bleuprint's command and API against the floor of a
plain Python loop that reads both files and splits every line, and against sacreBLEU's command,
on distinct WMT22-derived lines (``bench_corpora.write_distinct_files``: no line repeats, so no
cache is measured).

Each run is one process tree, timed by ``os.wait4``: CPU (user + system, the tree's), wall and
peak resident memory (``ru_maxrss``: the largest process of the tree); each row gives the
medians of ``--rounds`` runs, the commands taken in turn (and the largest peak), since a
shared machine's speed drifts. bleuprint counts on one thread a process
(``BLEUPRINT_THREADS=1``), so ``--jobs 2`` and 2 Dask workers use two cores, as does the row
of ``score`` with two counting threads (the default on two cores)::

    python tests/benchmarks/bench_files.py --sizes 1000000 10000000 --sacrebleu-up-to 1000000
    python tests/benchmarks/bench_files.py --sizes 10000000 --significance 10   # tests' memory
    python tests/benchmarks/bench_files.py --sizes 1000000 --sentence-level       # score -sl

See docs/performance/benchmark.md, "From files".
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_corpora

FLOOR = """
import sys
with open(sys.argv[1], encoding="utf-8") as hyp, open(sys.argv[2], encoding="utf-8") as ref:
    for hypothesis, reference in zip(hyp, ref):
        hypothesis.split(), reference.split()
"""
API = """
import sys
from bleuprint import BLEUScore
print(BLEUScore.sacrebleu().corpus_score_files(sys.argv[1], [sys.argv[2]], jobs=int(sys.argv[3])))
"""
DASK = """
import importlib, sys, time
from distributed import Client, LocalCluster
from bleuprint import BLEUScore
from bleuprint.dask import adaptive_malloc, corpus_score_files
workers = int(sys.argv[3])
with adaptive_malloc():  # (as the documentation asks of a LocalCluster of one's own)
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True)
with cluster:
    with Client(cluster) as client:
        # (a running cluster's rate: its workers have imported what a task runs)
        client.run(lambda: importlib.import_module("bleuprint.dask.files") and None)
        start = time.perf_counter()
        print(corpus_score_files(BLEUScore.sacrebleu(), sys.argv[1], [sys.argv[2]],
                                 scheduler=client))
        with open(sys.argv[4], "w") as report:  # the scoring alone
            report.write(str(time.perf_counter() - start))
"""


SCORING = os.path.join(tempfile.gettempdir(), f"bench_files_scoring_{os.getpid()}.txt")
"""Where a Dask row's script writes the wall time of its scoring alone."""

Run = tuple[float, float, float, float | None] | None
"""A command's CPU seconds, wall seconds, peak MB and (a Dask row's) wall seconds of the
scoring alone; ``None`` past the timeout."""


def measure(command: list[str], timeout: float) -> Run:
    """CPU seconds, wall seconds and peak MB of the command's process tree, and the wall
    seconds of a Dask row's scoring alone; ``None`` past the timeout. What the command says on
    standard error (its warnings about the data) is shown only where it fails."""
    environment = {**os.environ, "BLEUPRINT_THREADS": "1"}
    with tempfile.TemporaryFile() as said:
        start = time.perf_counter()
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=said, env=environment)
        deadline = start + timeout
        while True:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() > deadline:
                process.kill()
                os.wait4(process.pid, 0)
                return None
            time.sleep(0.02)
        wall = time.perf_counter() - start
        if os.waitstatus_to_exitcode(status) != 0:
            said.seek(0)
            raise SystemExit(f"failed: {' '.join(command)}\n{said.read().decode(errors='replace')}")
    # (a Dask row writes the wall time of its scoring alone, its cluster running)
    scoring = float(Path(SCORING).read_text()) if SCORING in command else None
    return usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss / 1024, scoring


def read_once(*paths: str) -> None:
    """Read the files through, so that every command finds them in the page cache, as any
    second run does (the first command would otherwise also time the disk: seconds at
    10,000,000 lines)."""
    buffer = bytearray(1 << 20)  # (one small buffer: a command's peak counts this process's)
    for path in paths:
        with open(path, "rb", buffering=0) as file:
            while file.readinto(buffer):
                pass


def rows(size: int, hypotheses: str, references: str, options: argparse.Namespace) -> None:
    python, bleuprint = sys.executable, str(Path(sys.executable).with_name("bleuprint"))
    read_once(hypotheses, references)
    commands: list[tuple[str, list[str]]] = [
        ("read and split (floor)", [python, "-c", FLOOR, hypotheses, references]),
        ("bleuprint score", [bleuprint, "score", "-r", references, "-i", hypotheses]),
        (
            "bleuprint score --jobs 2",
            [bleuprint, "score", "-r", references, "-i", hypotheses, "--jobs", "2"],
        ),
        (
            "bleuprint score, 2 counting threads",
            ["env", "BLEUPRINT_THREADS=2", bleuprint, "score", "-r", references, "-i", hypotheses],
        ),
        ("bleuprint sacrebleu", [bleuprint, "sacrebleu", references, "-i", hypotheses]),
        ("corpus_score_files jobs=1", [python, "-c", API, hypotheses, references, "1"]),
        ("corpus_score_files jobs=2", [python, "-c", API, hypotheses, references, "2"]),
        ("bleuprint.dask, 1 worker", [python, "-c", DASK, hypotheses, references, "1", SCORING]),
        ("bleuprint.dask, 2 workers", [python, "-c", DASK, hypotheses, references, "2", SCORING]),
    ]
    if options.sentence_level:
        commands.append(
            (
                "bleuprint score -sl",
                [bleuprint, "score", "-r", references, "-i", hypotheses, "--sentence-level"],
            )
        )
    if options.significance:
        # (the second system is the reference file itself: a test needs two)
        samples = str(options.significance)
        commands += [
            (
                f"bleuprint score --confidence -cin {samples}",
                [
                    bleuprint,
                    "score",
                    "-r",
                    references,
                    "-i",
                    hypotheses,
                    "--confidence",
                    "-cin",
                    samples,
                ],
            ),
            (
                f"bleuprint compare -pbsn {samples}, 2 systems",
                [
                    bleuprint,
                    "compare",
                    "-r",
                    references,
                    "-i",
                    hypotheses,
                    references,
                    "-pbsn",
                    samples,
                ],
            ),
            (
                f"bleuprint sacrebleu -ci -cin {samples}",
                [bleuprint, "sacrebleu", references, "-i", hypotheses, "-ci", "-cin", samples],
            ),
            (
                f"bleuprint sacrebleu -pbs -pbsn {samples}, 2 systems",
                [
                    bleuprint,
                    "sacrebleu",
                    references,
                    "-i",
                    hypotheses,
                    references,
                    "-pbs",
                    "-pbsn",
                    samples,
                ],
            ),
        ]
    if size <= options.sacrebleu_up_to:
        sacrebleu = str(Path(sys.executable).with_name("sacrebleu"))
        commands.append(("sacrebleu command", [sacrebleu, references, "-i", hypotheses]))
    runs: dict[str, list[Run]] = {name: [] for name, _ in commands}
    for number in range(options.rounds):  # (the commands in turn, each first once)
        turn = number % len(commands)
        for name, command in commands[turn:] + commands[:turn]:
            if runs[name] == [None] or (name == "sacrebleu command" and runs[name]):
                continue  # (past the timeout once, or sacreBLEU's minutes: run once)
            runs[name].append(measure(command, options.timeout))
    floor_cpu: float | None = None
    for name, _ in commands:
        if runs[name] == [None]:
            print(f"| {size:,} | {name} | > {options.timeout:g} s | | | |")
            continue
        done = [run for run in runs[name] if run is not None]
        cpu = statistics.median(run[0] for run in done)
        wall = statistics.median(run[1] for run in done)
        peak = max(run[2] for run in done)
        floor_cpu = floor_cpu or cpu
        print(
            f"| {size:,} | {name} | {cpu:.2f} | {wall:.2f} | {peak:.0f} | {cpu / floor_cpu:.2f} |"
        )
        scorings = [run[3] for run in done if run[3] is not None]
        if scorings:
            print(f"| {size:,} | {name}, scoring alone | | {statistics.median(scorings):.2f} | | |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000_000, 10_000_000])
    parser.add_argument("--sacrebleu-up-to", type=int, default=1_000_000)
    parser.add_argument("--timeout", type=float, default=900, help="seconds a command may take")
    parser.add_argument(
        "--rounds",
        type=int,
        default=3,
        help="runs of each command (sacreBLEU's once), taken in turn: medians of CPU and wall",
    )
    parser.add_argument(
        "--folder",
        type=Path,
        help="keep the files here, and use those already written (10,000,000 lines take minutes "
        "to write); by default they are written to a temporary folder and removed",
    )
    parser.add_argument(
        "--sentence-level",
        action="store_true",
        help="also time sentence scores (score -sl: a JSON object a segment)",
    )
    parser.add_argument(
        "--significance",
        type=int,
        default=0,
        metavar="SAMPLES",
        help="also time significance tests with this many resamples (their peak memory: each "
        "segment's statistics are kept)",
    )
    parser.add_argument("--write", nargs=2, metavar=("SIZE", "FOLDER"), help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.write:
        bench_corpora.write_distinct_files(int(options.write[0]), Path(options.write[1]))
        return
    bench_corpora.compile_bytecode()
    print(f"# {os.cpu_count()} CPUs, load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print("| lines | command | CPU s | wall s | peak MB | CPU / floor |")
    print("|---|---|---|---|---|---|")
    with contextlib.ExitStack() as stack:
        folder = options.folder or Path(stack.enter_context(tempfile.TemporaryDirectory()))
        folder.mkdir(parents=True, exist_ok=True)
        for size in options.sizes:
            hypotheses, references = bench_corpora.distinct_file_names(size, folder)
            if not (hypotheses.exists() and references.exists()):
                # Written by a child: a process forked from one holding the corpus would report
                # its parent's memory as its peak (ru_maxrss counts what it had before exec).
                command = [sys.executable, __file__, "--write", str(size), str(folder)]
                subprocess.run(command, check=True)
            rows(size, str(hypotheses), str(references), options)


if __name__ == "__main__":
    main()
