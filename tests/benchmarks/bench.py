"""bleuprint against the BLEU implementations a Python user can install, on real WMT22 text.

Corpora are built deterministically from ``$BLEUPRINT_SHARED/data/wmt22`` (default
``../shared``): one system's output and its reference, repeated line by line up to each
size. Every case runs in a fresh process, which reports the median time of ``--repeat`` runs
and the peak resident memory it added over the loaded input. The peers' scores are checked
against bleuprint's (within 1e-9 on the 0-100 scale, every segment for sentence scores).

Needs the ``bench`` extra: ``pip install -e '.[bench]'``. Quick run::

    python tests/benchmarks/bench.py --sizes 10000 --pairwise 10x10 --stream-size 0

See ``docs/performance/one-machine.md``.
"""

from __future__ import annotations

import argparse
import logging
import multiprocessing
import os
import platform
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

REPOSITORY = Path(__file__).resolve().parents[2]
PAIR, SYSTEM, REFERENCE = "en-de", "Online-B", "A"
TOLERANCE = 1e-9  # on the 0-100 scale


def shared_root() -> Path:
    return Path(os.environ.get("BLEUPRINT_SHARED", REPOSITORY.parent / "shared"))


def read_segments(path: Path) -> list[str]:
    """As the shared data's README says: UTF-8, split on \\n only, no final empty string."""
    lines = path.read_text(encoding="utf-8").split("\n")
    return lines[:-1] if lines and lines[-1] == "" else lines


def repeated(lines: list[str], size: int) -> list[str]:
    return [lines[index % len(lines)] for index in range(size)]


def corpus(size: int, distinct: bool = False) -> tuple[list[str], list[str]]:
    """``size`` segments of real output and reference, the real ones repeated in order. With
    ``distinct``, each line also ends with its number, so that no line repeats and no cache of
    tokenized lines helps any tool."""
    folder = shared_root() / "data" / "wmt22" / PAIR
    hypotheses = repeated(read_segments(folder / f"sys.{SYSTEM}.txt"), size)
    references = repeated(read_segments(folder / f"ref.{REFERENCE}.txt"), size)
    if distinct:
        hypotheses = [f"{line} {number}" for number, line in enumerate(hypotheses)]
        references = [f"{line} {number}" for number, line in enumerate(references)]
    return hypotheses, references


def candidate_groups(groups: int, size: int) -> list[list[str]]:
    """Groups of real candidates: every system's output for neighbouring sources of one
    document, taken in order, so a group shares vocabulary as samples of one source do."""
    folder = shared_root() / "data" / "wmt22" / PAIR
    systems = sorted(folder.glob("sys.*.txt"))
    outputs = [read_segments(path) for path in systems]
    pool = [output[source] for source in range(len(outputs[0])) for output in outputs]
    return [repeated(pool[group * size :] + pool, size) for group in range(groups)]


def distinct_candidate_groups(groups: int, size: int) -> list[list[str]]:
    """Groups of ``size`` distinct real lines: the systems' outputs for neighbouring sources,
    each line once, as the samples of one source differ from each other."""
    folder = shared_root() / "data" / "wmt22" / PAIR
    outputs = [read_segments(path) for path in sorted(folder.glob("sys.*.txt"))]
    lines = (output[source] for source in range(len(outputs[0])) for output in outputs)
    pool = list(dict.fromkeys(line for line in lines if line))
    starts = np.linspace(0, len(pool) - size, groups).astype(int)
    return [pool[start : start + size] for start in starts]


# -- the cases: each a function of its input, run in a fresh process --------------------------


def one_each(references: list[str]) -> list[tuple[str]]:
    """One reference per segment, as bleuprint takes them: tuples made by ``zip`` in C (a
    million one-element lists would cost CPython's garbage collector about 0.4 s here)."""
    return list(zip(references))


def bleuprint_corpus(tokenize: str, data: Any) -> float:
    from bleuprint import BLEUScore  # noqa: PLC0415 (imported in the measured process)

    hypotheses, references = data
    engine = BLEUScore() if tokenize == "none" else BLEUScore.sacrebleu(tokenize=tokenize)
    return 100 * engine.corpus_score(hypotheses, one_each(references)).score


def sacrebleu_corpus(tokenize: str, data: Any) -> float:
    import sacrebleu  # noqa: PLC0415

    hypotheses, references = data
    return float(sacrebleu.corpus_bleu(hypotheses, [references], tokenize=tokenize).score)


def bleuscore_corpus(data: Any) -> float:
    import bleuscore  # noqa: PLC0415

    hypotheses, references = data
    references = [[reference] for reference in references]
    return 100 * float(bleuscore.compute(references, hypotheses, ref_len_method="closest")["bleu"])


def bleuprint_nltk_corpus(data: Any) -> float:
    from bleuprint import BLEUScore  # noqa: PLC0415

    hypotheses, references = data
    engine = BLEUScore.nltk()  # NLTK's definition differs from canonical BLEU: see its page
    return 100 * engine.corpus_score(hypotheses, one_each(references)).score


def nltk_corpus(data: Any) -> float:
    from nltk.translate.bleu_score import corpus_bleu  # noqa: PLC0415

    hypotheses, references = data
    tokenized_references = [[reference.split()] for reference in references]
    return 100 * float(corpus_bleu(tokenized_references, [text.split() for text in hypotheses]))


def bleuprint_sentences(data: Any) -> Any:
    from bleuprint import BLEUScore  # noqa: PLC0415

    hypotheses, references = data
    bleu = BLEUScore.sacrebleu_sentence()
    return 100 * bleu.sentence_scores(hypotheses, one_each(references)).scores


def sacrebleu_sentences(data: Any) -> Any:
    from sacrebleu.metrics import BLEU  # noqa: PLC0415

    hypotheses, references = data
    bleu = BLEU(effective_order=True)  # what sacrebleu.sentence_bleu computes: 13a, exp
    pairs = zip(hypotheses, references, strict=True)
    return np.array(
        [bleu.sentence_score(hypothesis, [reference]).score for hypothesis, reference in pairs]
    )


def split_only(data: Any) -> None:
    for texts in data:
        for text in texts:
            text.split()


def bleuprint_pairwise(groups: Any) -> Any:
    from bleuprint import BLEUScore  # noqa: PLC0415

    return 100 * np.stack(BLEUScore().pairwise_scores(groups))


def sacrebleu_pairwise(groups: Any) -> Any:
    from sacrebleu.metrics import BLEU  # noqa: PLC0415

    bleu = BLEU(tokenize="none", smooth_method="none")
    return np.array(
        [
            [
                [bleu.sentence_score(hypothesis, [reference]).score for reference in group]
                for hypothesis in group
            ]
            for group in groups
        ]
    )


def fast_bleu_pairwise(groups: Any) -> Any:
    from fast_bleu import BLEU  # noqa: PLC0415

    matrices = []
    for group in groups:
        tokens = [candidate.split() for candidate in group]
        # fast-bleu scores hypotheses against one fixed reference set: one set per column
        columns = [
            BLEU([reference], {4: (0.25,) * 4}, smoothing_func=0).get_score(tokens)[4]
            for reference in tokens
        ]
        matrices.append(np.array(columns).T)
    return 100 * np.stack(matrices)


def bleuprint_mbr(mode: str, groups: Any) -> Any:
    from bleuprint import BLEUScore  # noqa: PLC0415

    choices = BLEUScore.sacrebleu_sentence().mbr(groups, mode=mode)
    return 100 * np.stack([choice.utilities for choice in choices])


def sacrebleu_mbr(groups: Any) -> Any:
    """What mbrs's BLEU does: one sacreBLEU ``sentence_score`` per candidate pair (mbrs
    itself pulls torch and COMET, so it is not installed here)."""
    from sacrebleu.metrics import BLEU  # noqa: PLC0415

    bleu = BLEU(effective_order=True)  # mbrs's defaults: 13a, exp smoothing
    utilities = []
    for group in groups:
        scores = np.array(
            [
                [bleu.sentence_score(hypothesis, [ref]).score for ref in group]
                for hypothesis in group
            ]
        )
        np.fill_diagonal(scores, 0.0)  # a candidate is not its own pseudo-reference
        utilities.append(scores.sum(axis=1) / (len(group) - 1))
    return np.stack(utilities)


REWARD_CALLS = 100


def reward_batches(size: int) -> list[tuple[list[str], list[str]]]:
    """``REWARD_CALLS`` batches of ``size`` real outputs and references, as a trainer's steps."""
    hypotheses, references = corpus(size * REWARD_CALLS)
    return [
        (hypotheses[start : start + size], references[start : start + size])
        for start in range(0, size * REWARD_CALLS, size)
    ]


def bleuprint_rewards(batches: Any) -> Any:
    from bleuprint.rewards import bleu_reward  # noqa: PLC0415

    reward = bleu_reward(scale=100)  # sacreBLEU's sentence_bleu, on its 0-100 scale
    return np.concatenate(
        [reward(completions, references=references) for completions, references in batches]
    )


def sacrebleu_rewards(batches: Any) -> Any:
    """The reward functions written for TRL today: ``sacrebleu.sentence_bleu`` per sample."""
    import sacrebleu  # noqa: PLC0415

    return np.array(
        [
            sacrebleu.sentence_bleu(completion, [reference]).score
            for completions, references in batches
            for completion, reference in zip(completions, references, strict=True)
        ]
    )


def bleuprint_files(jobs: int, paths: Any) -> float:
    from bleuprint import BLEUScore  # noqa: PLC0415

    hypotheses, references = paths
    return 100 * BLEUScore().corpus_score_files(hypotheses, [references], jobs=jobs).score


def write_stream_files(size: int, folder: str) -> tuple[str, str]:
    """A file pair of ``size`` segments, written a block at a time."""
    hypotheses, references = corpus(size=min(size, 100_000))
    paths = (os.path.join(folder, "hyp.txt"), os.path.join(folder, "ref.txt"))
    for path, lines in zip(paths, (hypotheses, references), strict=True):
        block = "".join(line + "\n" for line in lines)
        with open(path, "w", encoding="utf-8") as handle:
            for _ in range(size // len(lines)):
                handle.write(block)
            handle.write("".join(line + "\n" for line in lines[: size % len(lines)]))
    return paths


# -- measuring ----------------------------------------------------------------------------------


def measure(
    run: Callable[[Any], Any], make_input: Callable[[], Any], repeat: int
) -> dict[str, Any]:
    """Run one case in a fresh process: the median time, the peak memory, the last result."""
    context = multiprocessing.get_context("spawn")
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(target=_measure_here, args=(sender, run, make_input, repeat))
    process.start()
    sender.close()
    report: dict[str, Any] = receiver.recv()
    process.join()
    return report


def _measure_here(
    sender: Any, run: Callable[[Any], Any], make_input: Callable[[], Any], repeat: int
) -> None:
    logging.disable(logging.WARNING)  # sacreBLEU's advice on effective order, once per segment
    data = make_input()
    baseline = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    times, result = [], None
    for _ in range(repeat):
        result = None
        start = time.perf_counter()
        try:
            result = run(data)
        except Exception as error:  # a peer that fails is reported, not fatal
            sender.send({"error": f"{type(error).__name__}: {error}"[:80]})
            return
        times.append(time.perf_counter() - start)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # kilobytes on Linux
    sender.send(
        {
            "seconds": statistics.median(times),
            "added_mb": (peak - baseline) / 1024,
            "peak_mb": peak / 1024,
            "result": result,
        }
    )
    sender.close()


def agreement(result: Any, expected: Any) -> str:
    """How a peer's scores compare with bleuprint's: ``yes``, or by how much they differ."""
    if result is None or expected is None:
        return ""
    differences = np.abs(np.asarray(result, float) - np.asarray(expected, float))
    if differences.max() <= TOLERANCE:
        return "yes"
    share = float(np.mean(differences > TOLERANCE))
    return f"no: max diff {differences.max():.3g} ({share:.1%} differ)"


def run_task(
    task: str,
    cases: list[tuple[str, Callable[[Any], Any]]],
    make_input: Callable[[], Any],
    repeat: int,
    rows: list[dict[str, Any]],
) -> None:
    """Measure bleuprint (the first case) and its peers on one input, and print the rows."""
    reference = None
    for tool, run in cases:
        report = measure(run, make_input, repeat)
        if "error" in report:
            print(f"| {task} | {tool} | failed: {report['error']} | | | | |", flush=True)
            continue
        if tool == "bleuprint":
            reference = report
        ratio = report["seconds"] / reference["seconds"] if reference else float("nan")
        row = {
            "task": task,
            "tool": tool,
            "seconds": report["seconds"],
            "added_mb": report["added_mb"],
            "peak_mb": report["peak_mb"],
            "ratio": ratio,
            "agrees": ""
            if tool in ("bleuprint", "str.split")
            else agreement(report["result"], reference["result"] if reference else None),
        }
        rows.append(row)
        print(format_row(row), flush=True)


HEADER = (
    "| task | tool | time (s) | added memory (MB) | peak RSS (MB) | time / bleuprint's | agrees |"
)


def format_row(row: dict[str, Any]) -> str:
    return (
        f"| {row['task']} | {row['tool']} | {row['seconds']:.3f} | {row['added_mb']:.0f} | "
        f"{row['peak_mb']:.0f} | {row['ratio']:.2f} | {row['agrees']} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="*", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--pairwise", default="100x100", help="SOURCESxCANDIDATES, or 0 to skip")
    parser.add_argument(
        "--mbr", type=int, nargs="*", default=[64, 256], help="candidates per source (100 sources)"
    )
    parser.add_argument(
        "--mbr-peer-up-to", type=int, default=64, help="largest group the sacreBLEU loop scores"
    )
    parser.add_argument(
        "--rewards", type=int, nargs="*", default=[64, 256, 1024], help="reward batch sizes"
    )
    parser.add_argument("--stream-size", type=int, default=10_000_000, help="0 to skip")
    parser.add_argument("--repeat", type=int, default=3, help="runs per case (median)")
    parser.add_argument("--distinct", action="store_true", help="no line repeats (see corpus)")
    parser.add_argument("--skip", nargs="*", default=[], help="tools to leave out, e.g. nltk")
    options = parser.parse_args()
    print(
        f"# {platform.platform()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, repeat {options.repeat}"
    )
    print(HEADER)
    print("|" + " --- |" * 7)
    rows: list[dict[str, Any]] = []

    def keep(
        cases: list[tuple[str, Callable[[Any], Any]]],
    ) -> list[tuple[str, Callable[[Any], Any]]]:
        return [(tool, run) for tool, run in cases if tool not in options.skip]

    for size in options.sizes:
        data = partial(corpus, size, options.distinct)
        size_name = f"{size:,}{' distinct' if options.distinct else ''}"
        run_task(
            f"corpus 13a, {size_name}",
            keep(
                [
                    ("bleuprint", partial(bleuprint_corpus, "13a")),
                    ("sacrebleu", partial(sacrebleu_corpus, "13a")),
                    ("bleuscore", bleuscore_corpus),
                ]
            ),
            data,
            options.repeat,
            rows,
        )
        run_task(
            f"corpus whitespace, {size_name}",
            keep(
                [
                    ("bleuprint", partial(bleuprint_corpus, "none")),
                    ("sacrebleu", partial(sacrebleu_corpus, "none")),
                    ("str.split", split_only),
                ]
            ),
            data,
            options.repeat,
            rows,
        )
        run_task(
            f"corpus NLTK's definition, {size_name}",
            keep([("bleuprint", bleuprint_nltk_corpus), ("nltk", nltk_corpus)]),
            data,
            options.repeat,
            rows,
        )
        run_task(
            f"sentence, {size_name}",
            keep(
                [
                    ("bleuprint", bleuprint_sentences),
                    ("sacrebleu", sacrebleu_sentences),
                ]
            ),
            data,
            options.repeat,
            rows,
        )
    if options.pairwise != "0":
        sources, candidates = (int(part) for part in options.pairwise.split("x"))
        run_task(
            f"pairwise, {sources} x {candidates}x{candidates}",
            keep(
                [
                    ("bleuprint", bleuprint_pairwise),
                    ("sacrebleu", sacrebleu_pairwise),
                    ("fast-bleu", fast_bleu_pairwise),
                ]
            ),
            partial(candidate_groups, sources, candidates),
            options.repeat,
            rows,
        )
    for size in options.rewards:
        run_task(
            f"reward, {REWARD_CALLS} calls of {size}",
            keep([("bleuprint", bleuprint_rewards), ("sacrebleu", sacrebleu_rewards)]),
            partial(reward_batches, size),
            options.repeat,
            rows,
        )
    for size in options.mbr:
        cases: list[tuple[str, Callable[[Any], Any]]] = [
            ("bleuprint", partial(bleuprint_mbr, "exact")),
            ("bleuprint aggregate", partial(bleuprint_mbr, "aggregate")),
        ]
        if size <= options.mbr_peer_up_to:
            cases.append(("sacrebleu per pair", sacrebleu_mbr))
        run_task(
            f"MBR, 100 x {size} candidates",
            keep(cases),
            partial(distinct_candidate_groups, 100, size),
            options.repeat,
            rows,
        )
    if options.stream_size:
        with tempfile.TemporaryDirectory() as folder:
            paths = write_stream_files(options.stream_size, folder)
            run_task(
                f"stream files, {options.stream_size:,}",
                [
                    ("bleuprint", partial(bleuprint_files, 1)),
                    ("bleuprint jobs=2", partial(bleuprint_files, 2)),
                ],
                partial(tuple, paths),
                1,
                rows,
            )


if __name__ == "__main__":
    sys.exit(main())
