"""Every system's corpus score, with the outcome of a significance test where asked for."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import PurePath
from typing import TYPE_CHECKING

import attrs

from bleuprint._engine import BLEUScore
from bleuprint._result import BLEUResult
from bleuprint.cli import plot
from bleuprint.cli.corpus import CountedCorpus
from bleuprint.cli.progress import Progress
from bleuprint.cli.significance import SignificanceTest, run_test
from bleuprint.exceptions import ConfigurationError, counted

if TYPE_CHECKING:  # imported by the run of a test
    from bleuprint.significance import SignificanceResult


@attrs.frozen
class SystemScore:
    """One row of output: a system (or a segment), its result, its test's outcome, and the
    file a system was read from (``None`` for a segment)."""

    name: str
    result: BLEUResult
    test: SignificanceResult | None = None
    file: str | None = None


def add_names_option(parser: argparse.ArgumentParser) -> None:
    """``--names``, of the commands that score several systems."""
    parser.add_argument(
        "--names",
        nargs="+",
        metavar="NAME",
        help="the systems' names in every output (tables, LaTeX, JSON, the chart), one per -i "
        "file in order (default: the file names without directory and extension)",
    )


def check_names(arguments: argparse.Namespace) -> None:
    """Fail early, before any work, when ``--names`` does not name each system once."""
    if arguments.names is None:
        return
    systems = len(arguments.input or ["-"])
    if len(arguments.names) != systems:
        raise ConfigurationError(
            f"--names gives {counted(len(arguments.names), 'name')} for "
            f"{counted(systems, 'system')} (-i)"
        )


def named(scores: Sequence[SystemScore], names: Sequence[str] | None) -> list[SystemScore]:
    """The systems under their names, each with the file it was read from: ``names`` as
    given (``--names``), else each file's name without its directory and extensions
    (``runs/sys.PROMT.txt`` is ``sys.PROMT``, no path in a paper's table), or the files as
    given where two would collide."""
    files = [score.name for score in scores]
    return [
        attrs.evolve(score, name=name, file=file)
        for score, name, file in zip(scores, system_names(files, names), files)
    ]


def system_names(files: Sequence[str], names: Sequence[str] | None) -> Sequence[str]:
    """The names of the systems read from ``files``, as :func:`named` gives them."""
    if names is not None:
        return names
    short = [_short_name(path) for path in files]
    return short if len(set(short)) == len(short) else files


def _short_name(path: str) -> str:
    if path == "<stdin>":
        return "stdin"
    name = PurePath(path)
    if name.suffix == ".gz":
        name = name.with_suffix("")
    return name.stem or name.name


def score_counted(
    engine: BLEUScore, corpus: CountedCorpus, test: SignificanceTest | None, progress: Progress
) -> list[SystemScore]:
    """Score each system's corpus and run the test on the same counts."""
    _check_test(corpus.names, test)
    with progress.stage("scoring", len(corpus.totals), "systems") as update:
        results = []
        for total in corpus.totals:
            results.append(engine.score(total))
            update(1)
    outcomes = (
        run_test(engine, corpus.segments or [], test, progress) if test else [None] * len(results)
    )
    return [
        SystemScore(name, result, outcome)
        for name, result, outcome in zip(corpus.names, results, outcomes)
    ]


def _check_test(names: Sequence[str], test: SignificanceTest | None) -> None:
    if test is not None and test.paired and len(names) < 2:
        raise ConfigurationError(
            "a paired test needs at least two systems: give the baseline first to -i"
        )


def plot_scores(
    scores: Sequence[SystemScore],
    test: SignificanceTest | None,
    arguments: argparse.Namespace,
    progress: Progress,
) -> None:
    """Draw the chart ``--plot`` asks for (nothing without it); the first system is the
    baseline of a paired test."""
    if not arguments.plot:
        return
    paired = test is not None and test.paired
    plotted = [
        plot.PlottedSystem(score.name, score.result.score, score.test, paired and index == 0)
        for index, score in enumerate(scores)
    ]
    with progress.stage(f"plotting {arguments.plot}"):
        title = arguments.plot_title
        if title is None:
            title = f"BLEU, {arguments.preset} preset"
        plot.draw(arguments.plot, plotted, test, title=title, caption=arguments.plot_caption)
