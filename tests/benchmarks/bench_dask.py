"""Corpus BLEU on a local Dask cluster against the same engine in one process.

Not collected by pytest (``tests/benchmarks`` is in ``norecursedirs``). Run it by hand:

    BLEUPRINT_SHARED=/path/to/shared python tests/benchmarks/bench_dask.py --repeat 4

It concatenates every system output of the WMT22 pairs that have two references, ``--repeat``
times, writes the corpus to a temporary folder, and scores it in one process, with the
engine's own worker processes (``jobs=``) and on a local Dask cluster; it checks that every
way gives the same result and prints one row per way with the best of ``--rounds`` wall-clock
times. The cluster's start-up time is printed separately, not counted in the rows.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from distributed import Client, LocalCluster

from bleuprint import BLEUResult, BLEUScore
from bleuprint import dask as bleu_dask

PAIRS = ("de-en", "en-de", "zh-en", "en-zh")


def _lines(path: Path) -> list[str]:
    lines = path.read_text(encoding="utf-8").split("\n")
    return lines[:-1] if lines[-1] == "" else lines


def _corpus(shared: Path, repeat: int) -> tuple[list[str], list[list[str]]]:
    hypotheses: list[str] = []
    references: list[list[str]] = []
    for pair in PAIRS:
        folder = shared / "data" / "wmt22" / pair
        columns = [_lines(folder / f"ref.{name}.txt") for name in "AB"]
        refs = [list(row) for row in zip(*columns, strict=True)]
        for system in sorted(folder.glob("sys.*.txt")):
            hypotheses += _lines(system)
            references += refs
    return hypotheses * repeat, references * repeat


def _best(
    rounds: int, run: Callable[[], BLEUResult], before: Callable[[], None] = lambda: None
) -> tuple[float, BLEUResult]:
    times, result = [], None
    for _ in range(rounds):
        before()
        start = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - start)
    assert result is not None
    return min(times), result


def _tasks_on(dask_scheduler: Any) -> int:
    return len(dask_scheduler.tasks)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2, help="copies of the WMT22 corpus")
    parser.add_argument("--workers", type=int, default=2, help="worker processes")
    parser.add_argument("--rounds", type=int, default=3, help="best of this many runs")
    parser.add_argument("--lines-per-partition", type=int, default=10_000)
    arguments = parser.parse_args()

    shared = Path(os.environ.get("BLEUPRINT_SHARED", Path(__file__).parents[3] / "shared"))
    hypotheses, references = _corpus(shared, arguments.repeat)
    engine = BLEUScore.canonical()
    workers = arguments.workers
    rows: list[tuple[str, int, float, BLEUResult]] = []

    def row(how: str, processes: int, run: Callable[[], BLEUResult], **options: Any) -> None:
        rows.append((how, processes, *_best(arguments.rounds, run, **options)))

    row(
        "one process, engine.corpus_score in memory",
        1,
        lambda: engine.corpus_score(hypotheses, references),
    )
    with tempfile.TemporaryDirectory(prefix="bench-dask-") as folder:
        paths = [Path(folder, name) for name in ("hyp.txt", "ref.A.txt", "ref.B.txt")]
        columns = [hypotheses, *([refs[k] for refs in references] for k in range(2))]
        for path, lines in zip(paths, columns, strict=True):
            path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        row(
            "one process, engine.corpus_score_files",
            1,
            lambda: engine.corpus_score_files(paths[0], paths[1:]),
        )
        row(
            f"engine.corpus_score_files(jobs={workers})",
            workers,
            lambda: engine.corpus_score_files(paths[0], paths[1:], jobs=workers),
        )
        pairs = bleu_dask.read_corpus(
            paths[0], paths[1:], lines_per_partition=arguments.lines_per_partition
        )
        settings = [
            ("Dask's default", contextlib.nullcontext),
            ("adaptive_malloc", bleu_dask.adaptive_malloc),
        ]
        for label, setting in settings:
            start = time.perf_counter()
            with setting():
                cluster = LocalCluster(
                    n_workers=workers,
                    threads_per_worker=1,
                    processes=True,
                    host="127.0.0.1",
                    dashboard_address=None,
                )
            with cluster, Client(cluster) as client:
                started = time.perf_counter() - start

                def forgotten() -> None:
                    # The same graph again would reuse results the scheduler still holds.
                    while client.run_on_scheduler(_tasks_on):
                        time.sleep(0.01)

                row(
                    f"local Dask cluster ({label}), files read by the workers",
                    workers,
                    lambda: client.compute(bleu_dask.corpus_score(engine, pairs)).result(),
                    before=forgotten,
                )
    baseline = rows[0][2]
    for how, _, _, result in rows:
        assert result == rows[0][3], f"{how}: the score differs from the one-process score"

    print(
        f"{len(hypotheses)} segments, 2 references each, canonical BLEU-4, {os.cpu_count()} "
        f"cores, best of {arguments.rounds}; cluster start-up {started:.1f} s (not counted)\n"
    )
    print("| how | processes | seconds | speed-up |")
    print("| --- | ---: | ---: | ---: |")
    for how, processes, seconds, _ in rows:
        print(f"| {how} | {processes} | {seconds:.2f} | {baseline / seconds:.2f} |")


if __name__ == "__main__":
    main()
