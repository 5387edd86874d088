"""``bleuprint explain``: the n-grams and brevity penalty behind segment scores."""

from __future__ import annotations

import argparse

from bleuprint import explain
from bleuprint._engine import BLEUScore
from bleuprint.cli import render_explain
from bleuprint.cli.configuration import add_configuration_options, engine_from_options
from bleuprint.cli.corpus import Corpus, read_corpus, warn_if_tokenized
from bleuprint.cli.options import (
    PRINTED_SCORES,
    SubCommands,
    add_input_options,
    add_width_option,
    at_least,
)
from bleuprint.cli.progress import Progress
from bleuprint.cli.systems import SystemScore, named
from bleuprint.exceptions import ConfigurationError, InputError, counted


def add_command(commands: SubCommands) -> None:
    """Add the command to the command line's sub-parsers."""
    parser = commands.add_parser(
        "explain",
        help="show which n-grams matched, were clipped or missed, and the brevity penalty",
        description="Explain the score of one segment (--segment) or of the segments that cost "
        "the corpus score the most (--worst): per order, the n-grams matched, clipped, in no "
        "reference, and missed, and how the brevity penalty was reached.",
    )
    add_input_options(parser)
    add_configuration_options(parser)
    which = parser.add_mutually_exclusive_group()
    which.add_argument(
        "--segment",
        type=at_least(1),
        metavar="LINE",
        help="explain the segment on this line (counting from 1)",
    )
    which.add_argument(
        "--worst",
        type=at_least(1),
        default=3,
        metavar="N",
        help="explain the N segments that cost the corpus score the most (default: %(default)s)",
    )
    parser.add_argument(
        "-f",
        "--format",
        choices=("text", "json"),
        default="text",
        help="output format (default: %(default)s)",
    )
    add_width_option(parser, PRINTED_SCORES)
    parser.add_argument(
        "--color",
        choices=("auto", "always", "never"),
        default="auto",
        help="colour the text: auto colours a terminal unless NO_COLOR is set",
    )
    parser.set_defaults(command=run)


def run(arguments: argparse.Namespace) -> str:
    engine = engine_from_options(arguments)
    with Progress(quiet=arguments.quiet) as progress:
        corpus = read_corpus(arguments, progress)
        if len(corpus.systems) != 1:
            raise ConfigurationError("explain takes one system (one -i file or standard input)")
        warn_if_tokenized(engine, corpus, arguments)
        hypotheses, references = corpus.systems[0], corpus.segment_references()
        with progress.stage("explaining"):
            explanations = _explanations(engine, corpus, arguments)
        if arguments.format != "json":
            return render_explain.as_text(explanations, arguments)
        with progress.stage("scoring"):
            result = engine.corpus_score(hypotheses, references)
            (system,) = named([SystemScore(corpus.names[0], result)], None)
    return render_explain.as_json(explanations, system, arguments)


def _explanations(
    engine: BLEUScore, corpus: Corpus, arguments: argparse.Namespace
) -> list[explain.SegmentExplanation]:
    hypotheses, references = corpus.systems[0], corpus.segment_references()
    if arguments.segment is None:
        return explain.costliest_segments(engine, hypotheses, references, arguments.worst)
    line = arguments.segment
    if not 1 <= line <= len(hypotheses):
        lines = counted(len(hypotheses), "line")
        raise InputError(f"--segment {line}: {corpus.names[0]} has {lines}, numbered from 1")
    return [
        explain.explain_segment(engine, hypotheses[line - 1], references[line - 1], index=line - 1)
    ]
