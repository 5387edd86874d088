"""The argument parser: one sub-command per command module."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any, NoReturn

from bleuprint._version import __version__
from bleuprint.cli import compare, demo, explain, pair, presets, sacrebleu, score

EXIT_USAGE = 2

Command = Callable[[argparse.Namespace], str]
"""What a command runs: the parsed options in, the text for standard output out."""


class OneLineErrors(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line, like every other error, and which
    takes no abbreviated options (so sacreBLEU's ``-s`` never silently means another option)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    """The parser of every command; each sets ``command`` to the function that runs it."""
    parser = OneLineErrors(prog="bleuprint", description="BLEU in every definition in circulation.")
    parser.add_argument("--version", action="version", version=f"bleuprint {__version__}")
    commands = parser.add_subparsers(required=True, metavar="COMMAND", parser_class=OneLineErrors)
    for module in (pair, demo, presets, score, compare, explain, sacrebleu):
        module.add_command(commands)
    return parser
