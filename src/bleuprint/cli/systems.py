"""Every system's corpus score, with the outcome of a significance test where asked for."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TYPE_CHECKING

import attrs

from bleuprint._engine import BLEUScore
from bleuprint._result import BLEUResult
from bleuprint.cli import plot
from bleuprint.cli.corpus import Corpus, count_segments
from bleuprint.cli.progress import Progress
from bleuprint.cli.significance import SignificanceTest, run_test
from bleuprint.exceptions import ConfigurationError

if TYPE_CHECKING:  # imported by the run of a test
    from bleuprint.significance import SignificanceResult


@attrs.frozen
class SystemScore:
    """One row of output: a system (or a segment), its result, its test's outcome."""

    name: str
    result: BLEUResult
    test: SignificanceResult | None = None


def score_systems(
    engine: BLEUScore,
    corpus: Corpus,
    test: SignificanceTest | None,
    progress: Progress,
    *,
    jobs: int = 1,
) -> list[SystemScore]:
    """Count every system once (on ``jobs`` processes); score each corpus and run the test on
    the same counts."""
    if test is not None and test.paired and len(corpus.systems) < 2:
        raise ConfigurationError(
            "a paired test needs at least two systems: give the baseline first to -i"
        )
    size = sum(len(system) for system in corpus.systems)
    with progress.stage("counting", size, "segments") as update:
        references = corpus.segment_references()
        counted = [
            count_segments(engine, system, references, update, jobs) for system in corpus.systems
        ]
    with progress.stage("scoring", len(counted), "systems") as update:
        results = []
        for segments in counted:
            results.append(engine.score(engine.total(segments)))
            update(1)
    outcomes = run_test(engine, counted, test, progress)
    return [
        SystemScore(name, result, outcome)
        for name, result, outcome in zip(corpus.names, results, outcomes)
    ]


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
    names = plot.system_names([score.name for score in scores], arguments.names)
    paired = test is not None and test.paired
    plotted = [
        plot.PlottedSystem(name, score.result.score, score.test, baseline=paired and index == 0)
        for index, (name, score) in enumerate(zip(names, scores))
    ]
    with progress.stage(f"plotting {arguments.plot}"):
        plot.draw(arguments.plot, plotted, test, title=f"BLEU, {arguments.preset} preset")
