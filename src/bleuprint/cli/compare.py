"""``bleuprint compare``: systems against the first with a paired test, as a table or chart."""

from __future__ import annotations

import argparse

from bleuprint.cli import plot, render_scores
from bleuprint.cli.configuration import add_configuration_options, engine_from_options
from bleuprint.cli.corpus import count_corpus
from bleuprint.cli.options import (
    SubCommands,
    add_input_options,
    add_jobs_option,
    add_output_options,
)
from bleuprint.cli.progress import Progress
from bleuprint.cli.significance import add_significance_options, chosen_test
from bleuprint.cli.systems import add_names_option, check_names, named, plot_scores, score_counted


def add_command(commands: SubCommands) -> None:
    """Add the command to the command line's sub-parsers."""
    parser = commands.add_parser(
        "compare",
        help="compare systems against the first with a paired test",
        description="Compare system outputs against the first (the baseline) with paired "
        "bootstrap resampling (default) or approximate randomization, with confidence "
        "intervals, as a table or a chart.",
    )
    add_input_options(parser)
    add_jobs_option(parser)
    add_configuration_options(parser)
    add_output_options(parser)
    add_significance_options(parser)
    plot.add_plot_options(parser)
    add_names_option(parser)
    parser.set_defaults(command=run, sentence_level=False)


def run(arguments: argparse.Namespace) -> str:
    engine = engine_from_options(arguments)
    test = chosen_test(arguments, compare=True)
    plot.check(arguments)
    check_names(arguments)
    with Progress(quiet=arguments.quiet) as progress:
        counted = count_corpus(engine, arguments, progress, keep_segments=test is not None)
        scores = named(score_counted(engine, counted, test, progress), arguments.names)
        plot_scores(scores, test, arguments, progress)
    return render_scores.corpus_scores("compare", scores, test, arguments)
