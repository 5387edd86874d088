"""bleuprint against the BLEU implementations a Python user can install, on real WMT22 text.

Corpora are built deterministically from ``$BLEUPRINT_SHARED/data/wmt22`` (default
``../shared``): by default from distinct lines (every system output, de-duplicated, then
spliced to reach each size: see ``bench_corpora.py``), or with ``--corpus repeated`` from one
system's 2,037 lines repeated. Every case runs in a fresh process (``python bench.py --child``),
which reports the median time of up to ``--repeat`` runs (fewer where one run is slow: see
``--budget``) and the peak resident memory it added over the loaded input. bleuprint runs on one
thread (``BLEUPRINT_THREADS=1``) unless a row says otherwise, with its compiled kernel and, in
the rows so named, on its plain-Python kernel (``BLEUPRINT_PURE_PYTHON=1``). The peers' scores
are checked against bleuprint's (within 1e-9 on the 0-100 scale, every segment for sentence
scores). A last table times whole processes from a cold start.

Needs the ``bench`` extra: ``pip install -e '.[bench]'``; sacrebleu-mojo and mbrs run in side
environments of their own (``tests/benchmarks/side_venvs.sh``), skipped with a reason where
absent. Quick run::

    python tests/benchmarks/bench.py --sizes 10000 --pairwise 10x10 --mbr 8 --rewards 64 \\
        --stream-size 0 --threads-size 0 --cold-runs 3

See ``docs/performance/one-machine.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))  # this folder's modules, when imported

import bench_cases
import bench_corpora

REPOSITORY = bench_corpora.REPOSITORY
TOLERANCE = 1e-9  # on the 0-100 scale
MBRS_TOLERANCE = 1e-4  # mbrs keeps its scores in float32 tensors
MOJO = "sacrebleu-mojo needs Python 3.12 or newer: it runs in a side environment"
MBRS = "mbrs pulls torch and COMET: it runs in a side environment"


class Case:
    """One tool's run on a task: ``function`` (a name in :mod:`bench_cases`, with ``args``
    before the input) in a fresh process with ``environment`` added, under ``python``."""

    def __init__(
        self,
        tool: str,
        function: str,
        *args: Any,
        environment: dict[str, str] | None = None,
        imports: tuple[str, ...] = (),
        python: str | None = None,
        compare_with: str | None = None,
        tolerance: float = TOLERANCE,
        side: str = "",
    ) -> None:
        self.tool, self.function, self.args = tool, function, list(args)
        self.environment = {"BLEUPRINT_THREADS": "1", **(environment or {})}
        self.imports = imports  # imported before the clock starts: import time is not counted
        self.python = python or sys.executable
        self.compare_with, self.tolerance = compare_with, tolerance
        self.side = side  # why the case runs under another interpreter, if it does


ITEMS = "bleuprint, a loop of .score"
"""The row of a loop over ``sentence_scores``' items, as a user writes it."""


def bleuprint(function: str, *args: Any, tool: str = "bleuprint", **environment: str) -> Case:
    return Case(tool, function, *args, environment=environment, imports=("bleuprint",))


def plain(function: str, *args: Any) -> Case:
    return bleuprint(function, *args, tool="bleuprint, plain Python", BLEUPRINT_PURE_PYTHON="1")


def peer(tool: str, function: str, *args: Any, imports: tuple[str, ...] = ()) -> Case:
    return Case(tool, function, *args, imports=imports)


# -- the measured process -------------------------------------------------------------------------


INPUTS: dict[str, Callable[..., Any]] = {
    "corpus": bench_corpora.read_corpus,
    "groups": bench_corpora.candidate_groups,
    "token_ids": bench_corpora.token_id_pairs,
    "token_id_arrays": bench_corpora.token_id_arrays,
    "paths": lambda *paths: paths,
}


def reward_batches(paths: tuple[str, str], size: int, calls: int) -> list[Any]:
    """``calls`` batches of ``size`` distinct real outputs and references, as a trainer's steps."""
    hypotheses, references = bench_corpora.read_corpus(paths, size * calls)
    return [
        (hypotheses[start : start + size], references[start : start + size])
        for start in range(0, size * calls, size)
    ]


INPUTS["batches"] = reward_batches


def sentence_results(paths: tuple[str, str], size: int) -> Any:
    """The sentence scores of a corpus (sacreBLEU's sentence BLEU), made before a clock starts."""
    from bleuprint import BLEUScore  # noqa: PLC0415 (imported in the measured process)

    hypotheses, references = bench_corpora.read_corpus(paths, size)
    references_each = bench_cases.one_each(references)
    return BLEUScore.sacrebleu_sentence().sentence_scores(hypotheses, references_each)


INPUTS["sentence_results"] = sentence_results


def bleuprint_files(jobs: int, paths: Any) -> float:
    from bleuprint import BLEUScore  # noqa: PLC0415

    hypotheses, references = paths
    return 100 * BLEUScore().corpus_score_files(hypotheses, [references], jobs=jobs).score


def peak_memory_mb() -> float:
    """This process's peak resident memory. Linux's ``VmHWM`` starts anew at ``exec``, where
    ``ru_maxrss`` keeps the peak of the process that forked (here, the one holding a corpus)."""
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # pragma: no cover


def cpu_seconds() -> float:
    """CPU time of this process (all its threads) and of the children it waited for (mbrs
    scores in worker processes)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def warm_up_input(data: Any) -> Any:
    """A few items of an input, to call a case on once before its clock starts (its first call
    compiles regular expressions and fills caches, which a cold-start table measures)."""
    if isinstance(data, tuple) and all(isinstance(part, list) for part in data):
        return tuple(part[:16] for part in data)
    if isinstance(data, list):
        return data[:1]
    return None  # file paths: no warm-up


def child(specification: dict[str, Any]) -> dict[str, Any]:
    """Run one case here (a fresh process): build its input, import its tool, call it once on
    a few items, then time one call on the whole input."""
    import logging  # noqa: PLC0415

    logging.disable(logging.WARNING)  # sacreBLEU's advice on effective order, once per segment
    try:
        for module in specification["imports"]:
            __import__(module)
    except ImportError as error:
        return {"skipped": f"skipped: not installed ({error})"}
    name = specification["function"]
    run = getattr(bench_cases, name) if hasattr(bench_cases, name) else globals()[name]
    data = INPUTS[specification["input"]](*specification["input_args"])
    try:
        if (sample := warm_up_input(data)) is not None:
            run(*specification["args"], sample)
        baseline = peak_memory_mb()
        start, cpu_start = time.perf_counter(), cpu_seconds()
        result = run(*specification["args"], data)
        seconds, cpu = time.perf_counter() - start, cpu_seconds() - cpu_start
    except Exception as error:  # a peer that fails is reported, not fatal
        return {"error": f"{type(error).__name__}: {error}"[:120]}
    peak = peak_memory_mb()
    if result is not None:
        np.save(specification["result_path"], np.asarray(result, float))
    return {"seconds": seconds, "cpu": cpu, "added_mb": peak - baseline, "peak_mb": peak}


# -- the measuring process -------------------------------------------------------------------------


def measure_once(case: Case, source: str, source_args: list[Any]) -> dict[str, Any]:
    """Run one case in a fresh process and read back its report and its scores."""
    if not Path(case.python).exists():
        where = f"none at {case.python} (make it with tests/benchmarks/side_venvs.sh)"
        return {"skipped": f"skipped: {case.side}; {where}"}
    with tempfile.TemporaryDirectory() as folder:
        result_path = os.path.join(folder, "result.npy")
        specification = {
            "function": case.function,
            "args": case.args,
            "imports": list(case.imports),
            "input": source,
            "input_args": source_args,
            "result_path": result_path,
        }
        process = subprocess.run(
            [case.python, __file__, "--child", json.dumps(specification)],
            env={**os.environ, **case.environment},
            capture_output=True,
            text=True,
            check=False,
        )
        if process.returncode != 0:
            last = (process.stderr.strip().splitlines() or ["no output"])[-1]
            return {"error": f"exit {process.returncode}: {last}"[:120]}
        report: dict[str, Any] = json.loads(process.stdout.strip().splitlines()[-1])
        if os.path.exists(result_path):
            report["result"] = np.load(result_path)
    return report


def measure(
    cases: list[Case], source: str, source_args: list[Any], options: Any
) -> dict[str, dict[str, Any]]:
    """Every case ``--repeat`` times, each run a fresh process, the cases alternated round by
    round (so that a burst of load on a shared machine falls on all of them); a case stops
    repeating once its runs took ``--budget`` seconds. Medians of wall-clock and CPU time."""
    runs: dict[str, list[dict[str, Any]]] = {case.tool: [] for case in cases}
    failures: dict[str, dict[str, Any]] = {}
    for round_number in range(options.repeat):
        turn = round_number % len(cases)
        for case in cases[turn:] + cases[:turn]:
            done = runs[case.tool]
            if case.tool in failures or sum(run["seconds"] for run in done) >= options.budget:
                continue
            report = measure_once(case, source, source_args)
            if "seconds" in report:
                done.append(report)
            else:
                failures[case.tool] = report
    reports: dict[str, dict[str, Any]] = {}
    for case in cases:
        done = runs[case.tool]
        if not done:
            reports[case.tool] = failures[case.tool]
            continue
        reports[case.tool] = {
            "seconds": statistics.median(run["seconds"] for run in done),
            "cpu": statistics.median(run["cpu"] for run in done),
            "runs": len(done),
            "added_mb": max(run["added_mb"] for run in done),
            "peak_mb": max(run["peak_mb"] for run in done),
            "result": done[-1].get("result"),
        }
    return reports


def agreement(result: Any, expected: Any, tolerance: float) -> str:
    """How a tool's scores compare with those it should equal: ``yes``, or by how much not."""
    if result is None or expected is None:
        return ""
    differences = np.abs(np.asarray(result, float) - np.asarray(expected, float))
    if differences.max() <= tolerance:
        return "yes" if tolerance == TOLERANCE else f"yes, within {tolerance:g}"
    share = float(np.mean(differences > tolerance))
    return f"no: max diff {differences.max():.3g} ({share:.1%} differ)"


HEADER = (
    "| task | tool | wall (s) | CPU (s) | runs | added memory (MB) | peak RSS (MB) "
    "| wall / bleuprint's | CPU / bleuprint's | agrees |\n"
    "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
)


def run_task(
    task: str, cases: list[Case], source: str, source_args: list[Any], options: Any
) -> dict[str, dict[str, Any]]:
    """Measure bleuprint (the first case) and the others on one input, and print the rows."""
    cases = [case for case in cases if case.tool not in options.skip]
    reports = measure(cases, source, source_args, options)
    measured = {tool: report for tool, report in reports.items() if "seconds" in report}
    first = next(iter(measured.values()), None)
    for case in cases:
        report = reports[case.tool]
        if "seconds" not in report:
            reason = report.get("skipped") or f"failed: {report['error']}"
            print(f"| {task} | {case.tool} | {reason} | | | | | | | |", flush=True)
            continue
        assert first is not None
        agrees = ""
        if case is not cases[0] and case.compare_with != "":
            expected = measured.get(case.compare_with or cases[0].tool, {}).get("result")
            agrees = agreement(report.get("result"), expected, case.tolerance)
        print(
            f"| {task} | {case.tool} | {report['seconds']:.3f} | {report['cpu']:.3f} | "
            f"{report['runs']} | {report['added_mb']:.0f} | {report['peak_mb']:.0f} | "
            f"{report['seconds'] / first['seconds']:.2f} | {report['cpu'] / first['cpu']:.2f} | "
            f"{agrees} |",
            flush=True,
        )
    RESULTS[task] = {tool: (report["seconds"], report["cpu"]) for tool, report in measured.items()}
    return measured


RESULTS: dict[str, dict[str, tuple[float, float]]] = {}
"""Every task's median wall-clock and CPU time by tool, for the targets at the end."""


def side_python(name: str, options: Any) -> str:
    return str(Path(options.side_venvs) / name / "bin" / "python")


def corpus_tasks(size: int, paths: list[str], options: Any) -> None:
    name = f"{size:,}{' repeated' if options.corpus == 'repeated' else ''}"
    mojo = side_python("mojo", options)
    source_args = [paths, size]
    run_task(
        f"corpus 13a, {name}",
        [
            bleuprint("bleuprint_corpus", "13a"),
            plain("bleuprint_corpus", "13a"),
            peer("sacrebleu", "sacrebleu_corpus", "13a", imports=("sacrebleu",)),
            peer("bleuscore", "bleuscore_corpus", imports=("bleuscore",)),
            Case(
                "sacrebleu-mojo",
                "mojo_corpus",
                "13a",
                imports=("sacrebleu_mojo",),
                python=mojo,
                side=MOJO,
            ),
        ],
        "corpus",
        source_args,
        options,
    )
    run_task(
        f"corpus whitespace, {name}",
        [
            bleuprint("bleuprint_corpus", "none"),
            plain("bleuprint_corpus", "none"),
            peer("sacrebleu", "sacrebleu_corpus", "none", imports=("sacrebleu",)),
            Case(
                "sacrebleu-mojo",
                "mojo_corpus",
                "none",
                imports=("sacrebleu_mojo",),
                python=mojo,
                side=MOJO,
            ),
            peer("str.split", "split_only"),
        ],
        "corpus",
        source_args,
        options,
    )
    run_task(
        f"corpus NLTK's definition, {name}",
        [
            bleuprint("bleuprint_nltk_corpus"),
            peer("nltk", "nltk_corpus", imports=("nltk.translate.bleu_score",)),
        ],
        "corpus",
        source_args,
        options,
    )
    for metric, word_order in (("chrF", 0), ("chrF++", 2)):
        run_task(
            f"corpus {metric}, {name}",
            [
                bleuprint("bleuprint_chrf", word_order),
                plain("bleuprint_chrf", word_order),
                peer("sacrebleu", "sacrebleu_chrf", word_order, imports=("sacrebleu",)),
            ],
            "corpus",
            source_args,
            options,
        )
    run_task(
        f"sentence, {name}",
        [
            bleuprint("bleuprint_sentences"),
            plain("bleuprint_sentences"),
            peer("sacrebleu", "sacrebleu_sentences", imports=("sacrebleu",)),
        ],
        "corpus",
        source_args,
        options,
    )
    # The sentence scores made before the clock starts: the rows time reading them alone.
    run_task(
        f"sentence_scores items, {name}",
        [
            bleuprint("bleuprint_score_array", tool="bleuprint, the .scores array"),
            bleuprint("bleuprint_score_items", tool=ITEMS),
        ],
        "sentence_results",
        source_args,
        options,
    )


def thread_tasks(size: int, paths: list[str], options: Any) -> None:
    for task, function, args in (
        ("corpus 13a", "bleuprint_corpus", ("13a",)),
        ("sentence", "bleuprint_sentences", ()),
    ):
        run_task(
            f"threads, {task}, {size:,}",
            [
                bleuprint(function, *args, tool="bleuprint, 1 thread"),
                bleuprint(function, *args, tool="bleuprint, 2 threads", BLEUPRINT_THREADS="2"),
            ],
            "corpus",
            [paths, size],
            options,
        )


def token_id_tasks(options: Any) -> None:
    run_task(
        "token ids, NLTK's sentence_bleu, 1,024 x 64-256",
        [
            bleuprint("bleuprint_ids", "nltk"),
            peer("nltk loop", "nltk_ids", imports=("nltk.translate.bleu_score",)),
        ],
        "token_ids",
        [],
        options,
    )
    run_task(
        "token ids as numpy arrays, NLTK's sentence_bleu, 1,024 x 64-256",
        [
            bleuprint("bleuprint_ids", "nltk"),
            peer("nltk loop", "nltk_ids", imports=("nltk.translate.bleu_score",)),
        ],
        "token_id_arrays",
        [],
        options,
    )
    run_task(
        "token ids, sacreBLEU's sentence BLEU, 1,024 x 64-256",
        [
            bleuprint("bleuprint_ids", "sacrebleu"),
            peer("sacrebleu, ids joined", "sacrebleu_joined_ids", imports=("sacrebleu",)),
        ],
        "token_ids",
        [],
        options,
    )
    for batch, calls in bench_cases.ID_CALLS.items():
        run_task(
            f"token ids, {calls:,} calls of {batch}",
            [bleuprint("bleuprint_id_calls", batch)],
            "token_ids",
            [],
            options,
        )


SMALL_GROUP_SOURCES = 1_984
"""Sources of the small-group MBR rows (issue 26: 1,984 groups of 6 candidates)."""


def mbr_tasks(size: int, options: Any, sources: int = 100) -> None:
    mbrs = side_python("mbrs", options)
    cases = [
        bleuprint("bleuprint_mbr", "exact", tool="bleuprint exact"),
        bleuprint("bleuprint_mbr", "aggregate", tool="bleuprint aggregate"),
    ]
    cases[1].compare_with = ""  # another definition: not expected to equal the exact one
    if size <= options.mbr_peer_up_to:
        cases += [
            Case(
                "mbrs exact",
                "mbrs_mbr",
                "exact",
                imports=("mbrs.decoders",),
                python=mbrs,
                tolerance=MBRS_TOLERANCE,
                side=MBRS,
            ),
            peer("sacrebleu per pair", "sacrebleu_mbr", imports=("sacrebleu",)),
        ]
    cases.append(
        Case(
            "mbrs aggregate",
            "mbrs_mbr",
            "aggregate",
            imports=("mbrs.decoders",),
            python=mbrs,
            compare_with="bleuprint aggregate",
            tolerance=MBRS_TOLERANCE,
            side=MBRS,
        )
    )
    task = f"MBR, {sources:,} x {size} candidates"
    reports = run_task(task, cases, "groups", [sources, size], options)
    if "bleuprint exact" in reports and "bleuprint aggregate" in reports:
        exact, aggregate = (
            reports[f"bleuprint {mode}"]["result"] for mode in ("exact", "aggregate")
        )
        same = np.mean(exact.argmax(axis=1) == aggregate.argmax(axis=1))
        print(f"|  | (aggregate chooses the exact choice in {same:.0%} of groups) | | | | | | |")


def timed_process(
    command: list[str], environment: dict[str, str], stdin: str | None = None
) -> tuple[float, float, str]:
    """Run a command to its end, with ``stdin`` as its standard input (none if ``None``):
    wall-clock seconds, CPU seconds (its own, user and system, from ``wait4``) and a few words
    of what it printed."""
    start = time.perf_counter()
    process = _RusagePopen(
        command,
        env=environment,
        stdin=subprocess.DEVNULL if stdin is None else subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    stdout, stderr = process.communicate(stdin)
    seconds = time.perf_counter() - start
    usage = process.rusage if hasattr(process, "rusage") else None
    cpu = usage.ru_utime + usage.ru_stime if usage else float("nan")
    if process.returncode != 0:
        return (
            seconds,
            cpu,
            f"exit {process.returncode}: {(stderr.strip().splitlines() or [''])[-1][:60]}",
        )
    text = stdout.strip()
    if text.startswith("{"):
        document = json.loads(text)
        # sacreBLEU prints one result; bleuprint's own commands print a document of systems.
        result = document["systems"][0] if "systems" in document else document
        return seconds, cpu, f"score {result['score']}"
    return seconds, cpu, text.splitlines()[0][:40] if text else ""


class _RusagePopen(subprocess.Popen[str]):
    """``Popen`` that keeps the child's resource usage (``wait4``) when it reaps it."""

    rusage: resource.struct_rusage | None = None

    def _try_wait(self, wait_flags: int) -> tuple[int, int]:
        try:
            pid, status, self.rusage = os.wait4(self.pid, wait_flags)
        except ChildProcessError:
            pid, status = self.pid, 0
        return pid, status


def paired_tests(options: Any) -> None:
    """Paired significance tests of several systems as whole processes (issue 26): sacreBLEU's
    command against ``bleuprint sacrebleu`` (the same arguments, its output byte for byte) and
    ``bleuprint compare``, alternated run by run; medians of CPU and wall time."""
    print(
        "\nPaired tests: whole processes, one thread, alternated; medians in seconds; the "
        "ratios are sacreBLEU's time over each tool's.\n\n"
        "| task | tool | wall (s) | CPU (s) | sacreBLEU's wall / tool's | "
        "sacreBLEU's CPU / tool's | output |\n| --- | --- | ---: | ---: | ---: | ---: | --- |"
    )
    folder = bench_corpora.wmt22() / bench_corpora.PAIR
    # The language pair's systems, and its second reference as one more system (7 in all).
    systems = [str(path) for path in sorted(folder.glob("sys.*.txt"))]
    systems += [str(path) for path in sorted(folder.glob("ref.*.txt"))[1:]]
    systems = systems[: options.paired_systems]
    reference = str(folder / f"ref.{bench_corpora.REFERENCE}.txt")
    scripts = Path(sys.executable).parent
    resamples = str(options.paired_resamples)
    environment = {**os.environ, "BLEUPRINT_THREADS": "1"}
    for test, flags in (("bootstrap", ["-pbs", "-pbsn"]), ("randomization", ["-par", "-parn"])):
        commands = [
            ("sacrebleu", [str(scripts / "sacrebleu"), reference, "-i", *systems]),
            (
                "bleuprint sacrebleu",
                [str(scripts / "bleuprint"), "sacrebleu", reference, "-i", *systems],
            ),
        ]
        commands = [
            (tool, [*command, flags[0], flags[1], resamples, "-f", "text"])
            for tool, command in commands
        ]
        if test == "bootstrap":
            compare = [str(scripts / "bleuprint"), "compare", "-r", reference, "-i", *systems]
            commands.append(
                ("bleuprint compare", [*compare, "-pbs", "-pbsn", resamples, "-f", "text"])
            )
        times: dict[str, list[tuple[float, float]]] = {tool: [] for tool, _ in commands}
        outputs: dict[str, str] = {}
        for number in range(options.paired_runs):
            turn = number % len(commands)
            for tool, command in commands[turn:] + commands[:turn]:
                seconds, cpu, outputs[tool] = timed_process(command, environment)
                times[tool].append((seconds, cpu))
        name = f"paired {test}, {len(systems)} systems x {options.paired_resamples:,}"
        first_wall, first_cpu = (
            statistics.median(run[k] for run in times["sacrebleu"]) for k in (0, 1)
        )
        RESULTS[name] = {}
        for tool, runs in times.items():
            wall, cpu = (statistics.median(run[k] for run in runs) for k in (0, 1))
            RESULTS[name][tool] = (wall, cpu)
            print(
                f"| {name} | {tool} | {wall:.2f} | {cpu:.2f} | {first_wall / wall:.2f} | "
                f"{first_cpu / cpu:.2f} | {outputs[tool][:30]} |",
                flush=True,
            )


IMPORT_FLOOR = [sys.executable, "-c", "import numpy, attrs"]
"""The imports every run of the command makes before bleuprint's own: its floor."""

FIRST_RUNS = ("import", "one test set, en-de Online-B")
"""The cold-start tasks also timed as a first run (an empty bytecode cache)."""


def cold_start(options: Any) -> None:
    """Whole processes from a cold start, alternated run by run; medians in milliseconds."""
    with tempfile.TemporaryDirectory(prefix="bench-cold-") as folder:
        _cold_start(options, Path(folder))


def _cold_start(options: Any, folder: Path) -> None:
    # (Imported here: a side environment's child process has no bleuprint to import.)
    from bleuprint.cli import BLAS_THREAD_VARIABLES as blas_variables  # noqa: PLC0415

    scripts = Path(sys.executable).parent
    hypotheses, references = (str(path) for path in bench_corpora.test_set())
    score = [str(scripts / "bleuprint"), "score", "-r", references, "-i", hypotheses]
    # ``pair`` reads the reference, then the candidate (the test set's first lines), from
    # standard input; sacreBLEU's command is given the same two lines as two one-line files.
    line_pair = [
        Path(path).read_text(encoding="utf-8").splitlines()[0] for path in (references, hypotheses)
    ]
    for name, line in zip(("ref.txt", "hyp.txt"), line_pair, strict=True):
        (folder / name).write_text(line + "\n", encoding="utf-8")
    one_line = [str(folder / "ref.txt"), "-i", str(folder / "hyp.txt")]
    stdin_of = {"bleuprint pair": "\n".join(line_pair) + "\n"}
    rows: list[tuple[str, list[tuple[str, list[str], dict[str, str]]]]] = [
        (
            "import",
            [
                ("bleuprint", [sys.executable, "-c", "import bleuprint"], {}),
                ("sacrebleu", [sys.executable, "-c", "import sacrebleu"], {}),
            ],
        ),
        (
            "--version",
            [
                ("bleuprint", [str(scripts / "bleuprint"), "--version"], {}),
                ("sacrebleu", [str(scripts / "sacrebleu"), "--version"], {}),
            ],
        ),
        (
            "one test set, en-de Online-B",
            [
                ("bleuprint score", score, {}),
                ("sacrebleu", [str(scripts / "sacrebleu"), references, "-i", hypotheses], {}),
                (
                    "bleuprint sacrebleu",
                    [str(scripts / "bleuprint"), "sacrebleu", references, "-i", hypotheses],
                    {},
                ),
                ("bleuprint score, plain Python", score, {"BLEUPRINT_PURE_PYTHON": "1"}),
            ],
        ),
        (
            "pair, one line",
            [
                ("bleuprint pair", [str(scripts / "bleuprint"), "pair"], {}),
                ("sacrebleu", [str(scripts / "sacrebleu"), *one_line], {}),
                # What any bleuprint run imports before its own modules: the interpreter,
                # numpy (its BLAS on one thread, as the command sets it) and attrs.
                ("numpy and attrs alone", IMPORT_FLOOR, dict.fromkeys(blas_variables, "1")),
            ],
        ),
    ]
    print(
        f"\nCold start: whole processes, {options.cold_runs} runs each, the tools alternated run "
        "by run; medians. 'first run' rows start each process with an empty bytecode cache for "
        "every module, the standard library's and numpy's too (PYTHONPYCACHEPREFIX set to a "
        "new folder): more than any install leaves to do; the first run after `pip install` "
        "is timed after this table.\n"
    )
    print(
        "| task | tool | wall (ms) | CPU (ms) | wall / bleuprint's | CPU / bleuprint's | output |"
        "\n| --- | --- | ---: | ---: | ---: | ---: | --- |"
    )
    # Each command is run once first: the runs that are not "first runs" find the files in the
    # page cache, and bytecode written (main's compile_bytecode wrote bleuprint's).
    base = dict(os.environ)
    for _, commands in rows:
        for tool, command, extra in commands:
            timed_process(command, {**base, "BLEUPRINT_THREADS": "1", **extra}, stdin_of.get(tool))
    for task, commands in rows:
        for first_run in (False, True) if task in FIRST_RUNS else (False,):
            times: dict[str, list[tuple[float, float]]] = {tool: [] for tool, _, _ in commands}
            outputs: dict[str, str] = {}
            for number in range(options.cold_runs):
                turn = number % len(commands)
                for tool, command, extra in commands[turn:] + commands[:turn]:
                    environment = {**base, "BLEUPRINT_THREADS": "1", **extra}
                    with tempfile.TemporaryDirectory() as cache:
                        if first_run:
                            environment["PYTHONPYCACHEPREFIX"] = cache
                        seconds, cpu, outputs[tool] = timed_process(
                            command, environment, stdin_of.get(tool)
                        )
                    times[tool].append((seconds, cpu))
            name = f"{task}{', first run' if first_run else ''}"
            medians = {
                tool: tuple(statistics.median(run[k] for run in runs) for k in (0, 1))
                for tool, runs in times.items()
            }
            first_wall, first_cpu = medians[commands[0][0]]
            RESULTS[f"cold {name}"] = medians  # type: ignore[assignment]
            for tool, (wall, cpu) in medians.items():
                print(
                    f"| {name} | {tool} | {1000 * wall:.0f} | {1000 * cpu:.0f} | "
                    f"{wall / first_wall:.2f} | {cpu / first_cpu:.2f} | {outputs[tool]} |",
                    flush=True,
                )
    if options.instructions:
        instruction_counts(rows, {**base, "BLEUPRINT_THREADS": "1"}, stdin_of)
    after_install(options, folder, score[1:], {**base, "BLEUPRINT_THREADS": "1"})


def instruction_counts(
    rows: list[tuple[str, list[tuple[str, list[str], dict[str, str]]]]],
    environment: dict[str, str],
    stdin_of: dict[str, str],
) -> None:
    """The cold-start commands' instructions, counted by valgrind's callgrind in one run each:
    the same count whatever else the machine does, where times move by half from one minute to
    the next (it weighs an instruction of numpy's loader as one of the interpreter's loop)."""
    if shutil.which("valgrind") is None:
        print("\n(instruction counts: skipped, valgrind is not installed)")
        return
    print(
        "\nInstructions of each cold-start command, counted by `valgrind --tool=callgrind` "
        "(one run each; millions):\n\n"
        "| task | tool | instructions (M) | / bleuprint's |\n| --- | --- | ---: | ---: |"
    )
    with tempfile.TemporaryDirectory() as folder:
        counter = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={folder}/out"]
        for task, commands in rows:
            counts: dict[str, int] = {}
            for tool, command, extra in commands:
                completed = subprocess.run(
                    [*counter, *command],
                    env={**environment, **extra},
                    input=stdin_of.get(tool, ""),
                    capture_output=True,
                    text=True,
                    check=True,
                )
                counted = _COLLECTED.search(completed.stderr)
                if counted is None:
                    raise RuntimeError(f"callgrind printed no count for {tool}: {completed.stderr}")
                counts[tool] = int(counted[1])
            first = counts[commands[0][0]]
            for tool, count in counts.items():
                print(f"| {task} | {tool} | {count / 1e6:.0f} | {count / first:.2f} |", flush=True)


_COLLECTED = re.compile(r"Collected : (\d+)")
"""callgrind's line of the instructions it counted."""


def after_install(
    options: Any, folder: Path, arguments: list[str], environment: dict[str, str]
) -> None:
    """The first run of ``bleuprint score`` after ``pip install`` of a wheel, and the run after
    it: a wheel of this checkout is built once, then, run by run, installed into a new folder
    (``pip install --target``, which writes bytecode as any pip install does) and run twice."""
    wheels = folder / "wheel"
    pip = [sys.executable, "-m", "pip"]
    build = [*pip, "wheel", "--no-deps", "-q", "-w", str(wheels), str(REPOSITORY)]
    if subprocess.run(build, capture_output=True, check=False).returncode != 0:
        print("\n(first run after install: skipped, the wheel did not build)")
        return
    wheel = str(next(wheels.glob("bleuprint-*.whl")))
    runs: dict[str, list[tuple[float, float]]] = {"first": [], "second": []}
    for number in range(options.cold_runs):
        target = folder / f"installed-{number}"
        install = [*pip, "install", "--no-deps", "--no-index", "-q", "--target", str(target)]
        subprocess.run([*install, wheel], check=True)
        command = [sys.executable, "-m", "bleuprint.cli", *arguments]
        for run in runs.values():  # PYTHONPATH puts the installed copy before the checkout
            seconds, cpu, _ = timed_process(command, {**environment, "PYTHONPATH": str(target)})
            run.append((seconds, cpu))
    medians = {
        run: tuple(statistics.median(times[k] for times in runs[run]) for k in (0, 1))
        for run in runs
    }
    RESULTS["cold one test set, after pip install"] = medians  # type: ignore[assignment]
    print(
        f"\nAfter `pip install` of a wheel ({options.cold_runs} installs), `bleuprint score` on "
        "the same test set: its first run and the next, medians.\n\n"
        "| run | wall (ms) | CPU (ms) |\n| --- | ---: | ---: |"
    )
    for run, (wall, cpu) in medians.items():
        print(f"| {run} run after install | {1000 * wall:.0f} | {1000 * cpu:.0f} |")


REWARD_CALLS = 100  # calls of a reward task, each on a batch of the task's size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--sizes", type=int, nargs="*", default=[10_000, 100_000, 1_000_000])
    parser.add_argument(
        "--corpus", choices=["distinct", "repeated"], default="distinct", help="see bench_corpora"
    )
    parser.add_argument(
        "--threads-size", type=int, default=1_000_000, help="1 against 2 threads; 0 skips"
    )
    parser.add_argument("--pairwise", default="100x100", help="SOURCESxCANDIDATES, or 0 to skip")
    parser.add_argument(
        "--mbr",
        type=int,
        nargs="*",
        default=[64, 256],
        help="candidates per source (100 sources); 0 or none skips",
    )
    parser.add_argument(
        "--mbr-small",
        type=int,
        nargs="*",
        default=[4, 6, 16],
        help=f"candidates per source of small groups ({SMALL_GROUP_SOURCES:,} sources); 0 skips",
    )
    parser.add_argument(
        "--mbr-peer-up-to", type=int, default=64, help="largest group the exact peers score"
    )
    parser.add_argument(
        "--rewards",
        type=int,
        nargs="*",
        default=[64, 256, 1024],
        help="reward batch sizes; 0 or none skips",
    )
    parser.add_argument("--token-ids", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument("--stream-size", type=int, default=10_000_000, help="0 to skip")
    parser.add_argument("--repeat", type=int, default=3, help="runs per case at most (median)")
    parser.add_argument(
        "--budget", type=float, default=60, help="no further run of a case after this many seconds"
    )
    parser.add_argument("--cold-runs", type=int, default=11, help="cold-start runs; 0 skips")
    parser.add_argument(
        "--instructions",
        action=argparse.BooleanOptionalAction,
        default=False,
        help="also count the cold-start commands' instructions under valgrind (deterministic)",
    )
    parser.add_argument(
        "--side-venvs",
        default=str(REPOSITORY / ".bench-venvs"),
        help="where side_venvs.sh made the peers' environments",
    )
    parser.add_argument("--skip", nargs="*", default=[], help="tools to leave out, e.g. nltk")
    parser.add_argument(
        "--paired-resamples", type=int, default=10_000, help="paired tests' resamples; 0 skips"
    )
    parser.add_argument("--paired-systems", type=int, default=7, help="systems in a paired test")
    parser.add_argument("--paired-runs", type=int, default=3, help="runs of each paired test")
    options = parser.parse_args()
    # A size of 0 skips, as for --pairwise and --stream-size (no value skips too).
    options.rewards, options.mbr, options.mbr_small = (
        [size for size in sizes if size]
        for sizes in (options.rewards, options.mbr, options.mbr_small)
    )
    if options.child:
        print(json.dumps(child(json.loads(options.child))))
        return
    bench_corpora.compile_bytecode()
    print(
        f"# {platform.platform()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, repeat {options.repeat}, "
        f"budget {options.budget:g} s, corpus {options.corpus}, load average "
        f"{' '.join(f'{load:.1f}' for load in os.getloadavg())}"
    )
    print(HEADER)
    largest = max(
        [
            *options.sizes,
            options.threads_size,
            min(options.stream_size, 100_000),  # the block the stream files repeat
            *(size * REWARD_CALLS for size in options.rewards),
            1,
        ]
    )
    with tempfile.TemporaryDirectory() as folder:
        paths = [
            str(path) for path in bench_corpora.write_corpus(options.corpus, largest, Path(folder))
        ]
        for size in options.sizes:
            corpus_tasks(size, paths, options)
        if options.threads_size:
            thread_tasks(options.threads_size, paths, options)
        if options.pairwise != "0":
            sources, candidates = (int(part) for part in options.pairwise.split("x"))
            run_task(
                f"pairwise, {sources} x {candidates}x{candidates} distinct",
                [
                    bleuprint("bleuprint_pairwise"),
                    peer("sacrebleu", "sacrebleu_pairwise", imports=("sacrebleu",)),
                    peer("fast-bleu", "fast_bleu_pairwise", imports=("fast_bleu",)),
                ],
                "groups",
                [sources, candidates],
                options,
            )
        for size in options.rewards:
            run_task(
                f"reward, {REWARD_CALLS} calls of {size}",
                [
                    bleuprint("bleuprint_rewards"),
                    peer("sacrebleu", "sacrebleu_rewards", imports=("sacrebleu",)),
                ],
                "batches",
                [paths, size, REWARD_CALLS],
                options,
            )
        if options.token_ids:
            token_id_tasks(options)
        for size in options.mbr:
            mbr_tasks(size, options)
        for size in options.mbr_small:
            mbr_tasks(size, options, sources=SMALL_GROUP_SOURCES)
        if options.stream_size:
            stream_paths = write_stream_files(options.stream_size, paths, folder)
            run_task(
                f"stream files, {options.stream_size:,}",
                [
                    bleuprint("bleuprint_files", 1),
                    bleuprint("bleuprint_files", 2, tool="bleuprint jobs=2"),
                ],
                "paths",
                list(stream_paths),
                options,
            )
    if options.paired_resamples:
        paired_tests(options)
    if options.cold_runs:
        cold_start(options)
    targets(options)


def write_stream_files(size: int, corpus_paths: list[str], folder: str) -> tuple[str, str]:
    """A file pair of ``size`` segments: the corpus's first 100,000 (or fewer) repeated."""
    block_lines = bench_corpora.read_corpus((corpus_paths[0], corpus_paths[1]), 100_000)
    paths = (os.path.join(folder, "stream.hyp.txt"), os.path.join(folder, "stream.ref.txt"))
    for path, lines in zip(paths, block_lines, strict=True):
        block = "".join(line + "\n" for line in lines)
        with open(path, "w", encoding="utf-8") as handle:
            for _ in range(size // len(lines)):
                handle.write(block)
            handle.write("".join(line + "\n" for line in lines[: size % len(lines)]))
    return paths


def targets(options: Any) -> None:
    """The targets of issues 12, 14 and 26 against this run's medians (where it measured them):
    by CPU time, which a shared machine's load disturbs least, except where threads or whole
    processes are compared (wall-clock time)."""
    repeated = " repeated" if options.corpus == "repeated" else ""
    million = f"{1_000_000:,}{repeated}"
    pairwise = "pairwise, 100 x 100x100 distinct"
    ids = "token ids, NLTK's sentence_bleu, 1,024 x 64-256"
    paired = f"{options.paired_systems} systems x {options.paired_resamples:,}"
    id_arrays = "token ids as numpy arrays, NLTK's sentence_bleu, 1,024 x 64-256"
    checks = [
        (
            "corpus 13a, 1M: >= 50x sacreBLEU",
            f"corpus 13a, {million}",
            "sacrebleu",
            "bleuprint",
            50,
        ),
        ("corpus chrF, 10k: >= 20x sacreBLEU", "corpus chrF, 10,000", "sacrebleu", "bleuprint", 20),
        (
            "corpus chrF++, 10k: >= 20x sacreBLEU",
            "corpus chrF++, 10,000",
            "sacrebleu",
            "bleuprint",
            20,
        ),
        ("corpus 13a, 1M: >= 5x bleuscore", f"corpus 13a, {million}", "bleuscore", "bleuprint", 5),
        (
            "corpus 13a, 1M: >= 10x sacrebleu-mojo",
            f"corpus 13a, {million}",
            "sacrebleu-mojo",
            "bleuprint",
            10,
        ),
        (
            "corpus whitespace, 1M: within 2x of str.split",
            f"corpus whitespace, {million}",
            "str.split",
            "bleuprint",
            0.5,
        ),
        (
            "sentence, 1M: >= 30x sacreBLEU's loop",
            f"sentence, {million}",
            "sacrebleu",
            "bleuprint",
            30,
        ),
        ("reward batches of 256: >= 20x", "reward, 100 calls of 256", "sacrebleu", "bleuprint", 20),
        ("pairwise 100 x 100: >= 50x sacreBLEU", pairwise, "sacrebleu", "bleuprint", 50),
        ("pairwise 100 x 100: >= 5x fast-bleu", pairwise, "fast-bleu", "bleuprint", 5),
        ("token ids: >= 50x the NLTK loop", ids, "nltk loop", "bleuprint", 50),
        ("token ids as arrays: >= 50x the NLTK loop", id_arrays, "nltk loop", "bleuprint", 50),
        (
            "exact MBR 100 x 64: >= 20x mbrs",
            "MBR, 100 x 64 candidates",
            "mbrs exact",
            "bleuprint exact",
            20,
        ),
        *(
            (
                f"exact MBR {SMALL_GROUP_SOURCES:,} x {size}: >= 20x sacreBLEU per pair",
                f"MBR, {SMALL_GROUP_SOURCES:,} x {size} candidates",
                "sacrebleu per pair",
                "bleuprint exact",
                20,
            )
            for size in options.mbr_small
        ),
        *(
            (
                f"paired {test}, {paired}: bleuprint sacrebleu >= 2x sacreBLEU",
                f"paired {test}, {paired}",
                "sacrebleu",
                "bleuprint sacrebleu",
                2,
            )
            for test in ("bootstrap", "randomization")
        ),
        (
            "aggregate MBR 100 x 256: >= 10x exact",
            "MBR, 100 x 256 candidates",
            "bleuprint exact",
            "bleuprint aggregate",
            10,
        ),
    ]
    wall_checks = [
        (
            "2 threads >= 1.7x 1 thread, corpus 13a, 1M",
            "threads, corpus 13a, 1,000,000",
            "bleuprint, 1 thread",
            "bleuprint, 2 threads",
            1.7,
        ),
        (
            "2 threads >= 1.7x 1 thread, sentence, 1M",
            "threads, sentence, 1,000,000",
            "bleuprint, 1 thread",
            "bleuprint, 2 threads",
            1.7,
        ),
        (
            "one test set: >= 2.5x faster than sacrebleu",
            "cold one test set, en-de Online-B",
            "sacrebleu",
            "bleuprint score",
            2.5,
        ),
        (
            "import bleuprint no slower than import sacrebleu",
            "cold import",
            "sacrebleu",
            "bleuprint",
            1.0,
        ),
        ("--version no slower than sacrebleu's", "cold --version", "sacrebleu", "bleuprint", 1.0),
        (
            "pair on one line no slower than sacrebleu's command",
            "cold pair, one line",
            "sacrebleu",
            "bleuprint pair",
            1.0,
        ),
    ]
    print("\nTargets (issues 12, 14 and 26): how many times faster bleuprint was\n")
    print("| target | CPU ratio | wall ratio | |\n| --- | ---: | ---: | --- |")
    for clock, rows in ((1, checks), (0, wall_checks)):
        for name, task, slower, faster, needed in rows:
            times = RESULTS.get(task, {})
            if slower in times and faster in times:
                cpu, wall = (times[slower][k] / times[faster][k] for k in (1, 0))
                met = "met" if (cpu, wall)[1 - clock] >= needed else "not met"
                by = "CPU" if clock else "wall"
                print(f"| {name} | {cpu:.2f}x | {wall:.2f}x | {met} (by {by} time) |")
    for size in options.sizes:
        times = RESULTS.get(f"sentence_scores items, {size:,}{repeated}", {})
        if ITEMS in times:
            cpu, wall = (1e6 * times[ITEMS][k] / size for k in (1, 0))
            met = "met" if cpu <= 1 else "not met"
            name = f"sentence_scores, {size:,}: a loop reading each .score, <= 1 us an item"
            print(f"| {name} | {cpu:.2f} us | {wall:.2f} us | {met} (by CPU time) |")
    pair = RESULTS.get("cold pair, one line", {})
    if "numpy and attrs alone" in pair and "sacrebleu" in pair:
        cpu, wall = (pair["numpy and attrs alone"][k] / pair["sacrebleu"][k] for k in (1, 0))
        name = "pair's floor: numpy and attrs imported alone, against sacrebleu's pair"
        print(f"| {name} | {cpu:.2f} | {wall:.2f} | the floor's time / sacrebleu's |")
    installed = RESULTS.get("cold one test set, after pip install", {})
    if installed:
        cpu, wall = (installed["first"][k] / installed["second"][k] for k in (1, 0))
        name = "one test set, first run after pip install as fast as the next"
        print(f"| {name} | {cpu:.2f} | {wall:.2f} | the first run's time / the next's |")
    task = "cold one test set, en-de Online-B"
    if task in RESULTS and f"{task}, first run" in RESULTS:
        second, first = (
            RESULTS[task]["bleuprint score"],
            RESULTS[f"{task}, first run"]["bleuprint score"],
        )
        cpu, wall = (first[k] / second[k] for k in (1, 0))
        name = "one test set, first run with no bytecode cache at all (not pip's case)"
        print(f"| {name} | {cpu:.2f} | {wall:.2f} | the first run's time / the next's |")
    for batch, calls in bench_cases.ID_CALLS.items():
        times = RESULTS.get(f"token ids, {calls:,} calls of {batch}", {})
        if "bleuprint" in times:
            wall, cpu = (1000 * value / calls for value in times["bleuprint"])
            verdict = ("met" if cpu <= 2 else "not met") if batch == 1 else "(for comparison)"
            name = f"token ids, one call of {batch}: <= 2 ms fixed (by CPU time)"
            print(f"| {name} | {cpu:.3f} ms | {wall:.3f} ms | {verdict} |")


if __name__ == "__main__":
    main()
