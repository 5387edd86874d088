"""``bleuprint explain``: the n-grams and brevity penalty behind segment scores."""

from __future__ import annotations

import argparse

from bleuprint import explain
from bleuprint.cli import render_explain
from bleuprint.cli.configuration import add_configuration_options, engine_from_options
from bleuprint.cli.corpus import read_corpus
from bleuprint.cli.options import SubCommands, add_input_options, at_least
from bleuprint.exceptions import ConfigurationError, InputError


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
    parser.add_argument(
        "--color",
        choices=("auto", "always", "never"),
        default="auto",
        help="colour the text: auto colours a terminal unless NO_COLOR is set",
    )
    parser.set_defaults(command=run)


def run(arguments: argparse.Namespace) -> str:
    engine = engine_from_options(arguments)
    corpus = read_corpus(arguments)
    if len(corpus.systems) != 1:
        raise ConfigurationError("explain takes one system (one -i file or standard input)")
    hypotheses, references = corpus.systems[0], corpus.segment_references()
    if arguments.segment is not None:
        line = arguments.segment
        if not 1 <= line <= len(hypotheses):
            raise InputError(
                f"--segment {line}: {corpus.names[0]} has lines 1 to {len(hypotheses)}"
            )
        explanations = [
            explain.explain_segment(
                engine, hypotheses[line - 1], references[line - 1], index=line - 1
            )
        ]
    else:
        explanations = explain.costliest_segments(engine, hypotheses, references, arguments.worst)
    if arguments.format == "json":
        return render_explain.as_json(explanations)
    return render_explain.as_text(explanations, arguments.color)
