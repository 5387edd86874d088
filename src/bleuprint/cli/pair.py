"""``bleuprint pair``: one candidate against one reference, read from standard input."""

from __future__ import annotations

import argparse
import sys

from bleuprint import presets
from bleuprint._io import byte_order_mark_warning, split_segments, standard_input
from bleuprint.cli.options import SubCommands, add_width_option
from bleuprint.cli.presets import add_preset_option
from bleuprint.exceptions import InputError


def add_command(commands: SubCommands) -> None:
    """Add the command to the command line's sub-parsers."""
    parser = commands.add_parser(
        "pair",
        help="score one candidate against one reference, read as two lines of standard input",
        description="Read the reference, then the candidate, one line each (exactly two lines), "
        "from standard input, and print the score as the preset's definition prints it "
        "(sacreBLEU's 0-100 with one decimal, NLTK's 0-1 at full precision). The default "
        "preset is canonical, Papineni et al.'s BLEU-4, printed 0-100 with one decimal.",
    )
    add_preset_option(parser, default="canonical")
    parser.add_argument(
        "-f",
        "--format",
        choices=("text", "json"),
        default="text",
        help="output format: the preset's own line, or the JSON document (default: %(default)s)",
    )
    add_width_option(parser, "decimals of the score (default: the definition's own)")
    parser.set_defaults(command=run)


def run(arguments: argparse.Namespace) -> str:
    preset = presets.get(arguments.preset)
    data = standard_input().read()
    # The lines as given: the russian definition measures them in characters.
    lines = split_segments(data, "<stdin>", as_given=True) if data else []
    if len(lines) != 2:
        more = "; score more lines with bleuprint score" if len(lines) > 2 else ""
        raise InputError(
            f"<stdin>: expected two lines (the reference, then the candidate), got "
            f"{len(lines)}{more}"
        )
    warning = byte_order_mark_warning("<stdin>", lines)
    if warning:
        print(f"bleuprint: warning: {warning}", file=sys.stderr)
    reference, candidate = lines
    result = preset.build().sentence_score(candidate, [reference])
    if arguments.format == "text":
        return preset.format_score(result.score, arguments.width) + "\n"
    # The JSON document (and json) is imported only for it: pair's start-up is its run time.
    from bleuprint.cli.document import ScoreFormat, document, score_fields  # noqa: PLC0415

    printed = ScoreFormat(preset, arguments.width)
    system = {"system": "stdin", "file": "<stdin>", **score_fields(result, printed)}
    return document("pair", arguments.preset, result.signature, [system])
