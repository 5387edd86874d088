"""Options that several commands share: whole-number arguments, input, output."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TypeAlias

SubCommands: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"
"""The sub-parsers that each command module adds its command to."""

FORMATS = ("json", "text", "tsv", "latex")


def at_least(minimum: int) -> Callable[[str], int]:
    """An argument type: a whole number of at least ``minimum``, else a usage error."""

    def whole_number(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, got {value}")
        return value

    return whole_number


def add_input_options(parser: argparse.ArgumentParser) -> None:
    """``-r``, ``-i``, ``-nr``, ``--quiet`` and ``--force``."""
    group = parser.add_argument_group("input")
    group.add_argument(
        "-r",
        "--references",
        nargs="+",
        required=True,
        metavar="REF",
        help="reference files, one segment per line; several files give several references",
    )
    group.add_argument(
        "-i",
        "--input",
        nargs="+",
        metavar="HYP",
        help="system output files, one segment per line (default: one system on standard "
        "input); with several, the first is the baseline of the paired tests of score and "
        "compare",
    )
    group.add_argument(
        "-nr",
        "--num-refs",
        type=at_least(1),
        default=1,
        metavar="N",
        help="each reference file holds N tab-separated references per line (default: 1)",
    )
    group.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help="no progress display and no warnings on standard error",
    )
    group.add_argument(
        "--force",
        action="store_true",
        help="no warning that the hypotheses look tokenized (as sacreBLEU's --force)",
    )


def add_jobs_option(parser: argparse.ArgumentParser) -> None:
    """``--jobs``, of the commands that count whole corpora."""
    parser.add_argument(
        "-j",
        "--jobs",
        type=at_least(1),
        default=1,
        metavar="N",
        help="count on N processes (default: 1; each also uses the counting threads that "
        "$BLEUPRINT_THREADS sets); the same output whatever N",
    )


def add_output_options(parser: argparse.ArgumentParser) -> None:
    """``-f``, ``-b`` and ``-w``, of the commands that print scores."""
    output = parser.add_argument_group("output")
    output.add_argument(
        "-f",
        "--format",
        choices=FORMATS,
        default="json",
        help="output format (default: %(default)s)",
    )
    output.add_argument(
        "-b",
        "--score-only",
        action="store_true",
        help="print only the score (one per system or segment)",
    )
    add_width_option(output, PRINTED_SCORES)


PRINTED_SCORES = (
    "decimals of the printed scores; scores print as the preset's definition prints them "
    "(sacreBLEU's 0-100 with one decimal, NLTK's 0-1 at full precision) (default: the "
    "definition's own decimals)"
)
"""``-w``'s help wherever scores print as their definition prints them."""


def add_width_option(
    parser: argparse.ArgumentParser | argparse._ArgumentGroup, description: str
) -> None:
    """``-w``: the decimals of scores, as sacreBLEU's (default ``None``: the definition's)."""
    parser.add_argument("-w", "--width", type=at_least(0), default=None, help=description)
