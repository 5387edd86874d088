"""``bleuprint score``: corpus or sentence scores of system outputs, with optional tests.

The default definition is the ``sacrebleu`` preset, sacreBLEU 2.6.0's BLEU, so that
``bleuprint score`` gives the numbers ``sacrebleu`` gives for the same files and options.
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from bleuprint._engine import BLEUScore
from bleuprint._io import STDIN, display_name
from bleuprint._segments import SegmentStats
from bleuprint.cli import plot, render_scores
from bleuprint.cli.configuration import add_configuration_options, engine_from_options
from bleuprint.cli.corpus import (
    check_line_counts,
    count_corpus,
)
from bleuprint.cli.options import (
    SubCommands,
    add_input_options,
    add_jobs_option,
    add_output_options,
)
from bleuprint.cli.output import write_stdout
from bleuprint.cli.progress import Progress
from bleuprint.cli.render_scores import SentenceOutput
from bleuprint.cli.significance import SignificanceTest, add_significance_options, chosen_test
from bleuprint.cli.systems import (
    SystemScore,
    add_names_option,
    check_names,
    named,
    plot_scores,
    score_counted,
    system_names,
)
from bleuprint.exceptions import ConfigurationError


def add_command(commands: SubCommands) -> None:
    """Add the command to the command line's sub-parsers."""
    parser = commands.add_parser(
        "score",
        help="score system outputs against references",
        description="Score one or more system output files (or standard input) against one or "
        "more reference files, at corpus or sentence level, with optional significance tests.",
    )
    add_input_options(parser)
    add_jobs_option(parser)
    add_configuration_options(parser)
    add_output_options(parser)
    add_significance_options(parser)
    plot.add_plot_options(parser)
    add_names_option(parser)
    parser.add_argument(
        "-sl", "--sentence-level", action="store_true", help="one score per segment"
    )
    parser.add_argument(
        "--dask",
        metavar="SCHEDULER",
        help="count on a Dask cluster: a scheduler's address (tcp://host:8786), or 'local' for "
        "worker processes on this machine; corpus scores of files, the same output "
        "(needs the dask extra: pip install '.[dask]' (from the repository))",
    )
    parser.add_argument(
        "--dask-timeout",
        type=float,
        default=None,
        metavar="SECONDS",
        help="with --dask: how long connecting to the cluster, and any silence of the cluster "
        "afterwards, may last before the run fails (default: 30)",
    )
    parser.add_argument(
        "--dask-logs",
        action="store_true",
        help="with --dask: show Dask's logs on standard error (a local cluster's and its "
        "workers', the client's own, such as its attempts to reach a lost scheduler); without "
        "it they are hidden and a failure is one line",
    )
    parser.set_defaults(command=run)


def run(arguments: argparse.Namespace) -> str:
    engine = engine_from_options(arguments, sentence_level=arguments.sentence_level)
    test = chosen_test(arguments, compare=False)
    if arguments.plot and (arguments.sentence_level or arguments.dask is not None):
        raise ConfigurationError("--plot charts corpus scores: not with --sentence-level or --dask")
    plot.check(arguments)
    check_names(arguments)
    # Segments' scores written to a terminal as they come would break the progress line.
    hidden = arguments.quiet or (arguments.sentence_level and _is_terminal(sys.stdout))
    with Progress(quiet=hidden) as progress:
        if arguments.dask is not None:
            scores = named(_score_on_dask(engine, test, arguments, progress), arguments.names)
            return render_scores.corpus_scores("score", scores, test, arguments)
        if arguments.sentence_level and (len(arguments.input or [None]) > 1 or test is not None):
            raise ConfigurationError(
                "--sentence-level scores one system, without significance tests"
            )
        if arguments.sentence_level:
            return _sentence_level(engine, arguments, progress)
        counted = count_corpus(engine, arguments, progress, keep_segments=test is not None)
        scores = named(score_counted(engine, counted, test, progress), arguments.names)
        plot_scores(scores, test, arguments, progress)
    return render_scores.corpus_scores("score", scores, test, arguments)


# Segments whose scores are written at once: their text (about 1 KB a segment in JSON) and
# their Python objects stay a few megabytes.
_WRITTEN_AT_ONCE = 2048


def _sentence_level(engine: BLEUScore, arguments: argparse.Namespace, progress: Progress) -> str:
    """Each segment's score, written as its chunk is counted; the text after the last
    segment is returned."""
    file = display_name((arguments.input or [STDIN])[0])
    (name,) = system_names([file], arguments.names)
    output = SentenceOutput.of(arguments, name, file)

    def write(counted: SegmentStats) -> None:
        for start in range(0, len(counted), _WRITTEN_AT_ONCE):
            part = counted[start : start + _WRITTEN_AT_ONCE]
            write_stdout(output.chunk(engine.score_segments(part)))

    check_line_counts([*(arguments.input or [STDIN]), *arguments.references])
    counted = count_corpus(engine, arguments, progress, keep_segments=False, on_counted=write)
    return output.end(engine.score(counted.totals[0]))


def _score_on_dask(
    engine: BLEUScore,
    test: SignificanceTest | None,
    arguments: argparse.Namespace,
    progress: Progress,
) -> list[SystemScore]:
    """Every system's corpus score, counted on the Dask cluster that ``--dask`` names; the
    workers read the files themselves."""
    if arguments.sentence_level or test is not None or arguments.num_refs != 1:
        raise ConfigurationError(
            "--dask scores corpora of files: without --sentence-level, significance tests "
            "or --num-refs"
        )
    if arguments.jobs != 1:
        raise ConfigurationError("--dask counts on the cluster's workers: not with --jobs")
    files = [*(arguments.input or [STDIN]), *arguments.references]
    if STDIN in files or any(str(path).endswith(".gz") for path in files):
        raise ConfigurationError(
            "--dask reads plain text files: name them with -i and -r (not standard input, not .gz)"
        )
    try:
        from bleuprint import dask as bleu_dask  # noqa: PLC0415 - Dask only when asked for
    except ImportError as error:
        raise ConfigurationError(str(error)) from None
    timeout = (
        bleu_dask.DEFAULT_TIMEOUT if arguments.dask_timeout is None else arguments.dask_timeout
    )
    with (
        progress.stage(f"scoring on the Dask cluster ({arguments.dask})"),
        bleu_dask.connect(arguments.dask, timeout=timeout, logs=arguments.dask_logs) as client,
    ):
        # Lines lose their trailing whitespace, as the other commands read files (_io).
        results = [
            bleu_dask.corpus_score_files(
                engine, path, arguments.references, scheduler=client, rstrip=True, timeout=timeout
            )
            for path in arguments.input
        ]
    return [SystemScore(path, result) for path, result in zip(arguments.input, results)]


def _is_terminal(stream: TextIO | None) -> bool:
    return stream is not None and stream.isatty()
