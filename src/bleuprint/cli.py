"""The ``bleuprint`` command line.

Every expected failure (bad input, bad configuration) ends as one line on standard error and
exit status 2, with nothing on standard output.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from importlib import resources
from typing import NoReturn

from bleuprint import _cli_explain, _cli_score, presets
from bleuprint._io import split_segments
from bleuprint._table import format_table
from bleuprint._version import __version__
from bleuprint.exceptions import BLEUError, InputError

EXIT_USAGE = 2
EXIT_BROKEN_PIPE = 1


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``); return the exit status."""
    parser = _parser()
    arguments = parser.parse_args(argv)
    command: Callable[[argparse.Namespace], str] = arguments.command
    try:
        output = command(arguments)
    except BLEUError as error:
        print(f"bleuprint: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    try:
        _write(output)
    except BrokenPipeError:
        # The reader went away (``bleuprint ... | head``): stop quietly, and keep Python from
        # complaining again when it flushes standard output at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
    return 0


def _write(output: str) -> None:
    """Write to standard output in UTF-8 whatever the locale, as sacreBLEU does."""
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is None:  # a text-only stand-in, such as a test's capture
        sys.stdout.write(output)
        return
    sys.stdout.flush()
    buffer.write(output.encode("utf-8"))
    buffer.flush()


class _OneLineErrors(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line, like every other error."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def _parser() -> argparse.ArgumentParser:
    parser = _OneLineErrors(
        prog="bleuprint", description="BLEU in every definition in circulation."
    )
    parser.add_argument("--version", action="version", version=f"bleuprint {__version__}")
    commands = parser.add_subparsers(required=True, metavar="COMMAND", parser_class=_OneLineErrors)

    pair = commands.add_parser(
        "pair",
        help="score one candidate against one reference, read as two lines of standard input",
        description="Read the reference, then the candidate, one line each, from standard "
        "input, and print the score as the preset's definition prints it.",
    )
    pair.add_argument("--preset", default="canonical", choices=sorted(presets.PRESETS))
    pair.set_defaults(command=_pair)

    demo = commands.add_parser("demo", help="score the bundled example corpus under every preset")
    demo.set_defaults(command=_demo)

    listing = commands.add_parser("presets", help="list the presets with their signatures")
    listing.set_defaults(command=_presets)

    _cli_score.add_commands(commands)
    _cli_explain.add_command(commands)
    return parser


def _pair(arguments: argparse.Namespace) -> str:
    preset = presets.get(arguments.preset)
    data = sys.stdin.buffer.read()
    # The lines as given: the russian definition measures them in characters.
    lines = split_segments(data, "<stdin>", as_given=True) if data else []
    if len(lines) < 2:
        raise InputError(
            f"<stdin>: expected two lines (the reference, then the candidate), got {len(lines)}"
        )
    reference, candidate = lines[0], lines[1]
    return preset.format_score(preset.build().compute(candidate, [reference])) + "\n"


def _demo(arguments: argparse.Namespace) -> str:
    text = resources.files("bleuprint").joinpath("data/demo.tsv").read_bytes()
    lines = split_segments(text, "demo.tsv")
    rows = [line.split("\t") for line in lines if not line.startswith("#")]
    hypotheses = [row[0] for row in rows]
    references = [row[1:] for row in rows]
    table = [("preset", "corpus", "mean sentence", "definition")]
    for preset in presets.PRESETS.values():
        engine = preset.build()
        sentence_scores = [
            result.score for result in engine.sentence_scores(hypotheses, references)
        ]
        table.append(
            (
                preset.name,
                preset.format_score(engine.corpus_score(hypotheses, references).score),
                preset.format_score(sum(sentence_scores) / len(sentence_scores)),
                preset.summary,
            )
        )
    header = (
        f"{len(rows)} segments of the bundled example corpus, "
        "each score as its definition prints it\n\n"
    )
    return header + format_table(table)


def _presets(arguments: argparse.Namespace) -> str:
    rows = [("preset", "signature")]
    rows += [(preset.name, str(preset.build().signature())) for preset in presets.PRESETS.values()]
    return format_table(rows)


if __name__ == "__main__":
    sys.exit(main())
