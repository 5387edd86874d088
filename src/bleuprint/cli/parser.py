"""The argument parser: one sub-command per command module.

A command's module (and what it imports: the engine, numpy, significance tests) is imported
only when that command runs, or when the whole command list is shown (``bleuprint --help``, a
mistyped command); ``bleuprint --version`` imports none.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

from bleuprint._version import __version__
from bleuprint.cli import hints
from bleuprint.cli.output import write_stdout
from bleuprint.cli.status import EXIT_USAGE

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

COMMANDS = ("pair", "demo", "presets", "score", "compare", "explain", "sacrebleu")
"""The commands, in the order the help lists them; each is the module of that name here."""

Command = Callable[[argparse.Namespace], str]
"""What a command runs: the parsed options in, the text for standard output out."""


class Formatter(argparse.HelpFormatter):
    """argparse's help layout, sized to the terminal as argparse sizes it. argparse makes one
    of these for every option added (to check its metavar), and its own way of reading the
    terminal's width imports shutil, and bz2 and lzma with it: a few milliseconds of every
    start-up. The width is read here as ``shutil.get_terminal_size`` reads it."""

    def __init__(self, prog: str, **options: Any) -> None:
        if options.get("width") is None:
            options["width"] = _terminal_columns() - 2
        super().__init__(prog, **options)


def _terminal_columns() -> int:
    """``shutil.get_terminal_size().columns``: ``$COLUMNS``, else the terminal's, else 80."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


class OneLineErrors(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line, like every other error, and which
    takes no abbreviated options (so sacreBLEU's ``-s`` never silently means another option).
    A command's parser refuses unknown options itself, with their closest spellings, and a
    command taking ``-r`` given files first (sacreBLEU's order) says what was meant
    (:mod:`~bleuprint.cli.hints`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("allow_abbrev", False)
        kwargs.setdefault("formatter_class", Formatter)
        super().__init__(*args, **kwargs)
        self._given: list[str] = []

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        self._given = list(sys.argv[1:] if args is None else args)
        parsed, extras = super().parse_known_args(args, namespace)
        if extras and self.get_default("command") is not None:  # a command's own options
            self.error(hints.unknown_options(extras, self._option_string_actions))
        return parsed, extras

    def error(self, message: str) -> NoReturn:
        if "-r" in self._option_string_actions:
            command = self.prog.rpartition(" ")[2]
            message += hints.positional_references(command, self._given)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        # argparse ignores errors writing the help and the version; write them whole like any
        # output, so that a full disk or a closed stream is reported (OutputError).
        if message and file is sys.stdout:
            write_stdout(message)
        else:
            super()._print_message(message, file)


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser of the command line ``argv`` (of every command where ``argv`` is None); each
    command sets ``command`` to the function that runs it."""
    parser = OneLineErrors(prog="bleuprint", description="BLEU in every definition in circulation.")
    parser.add_argument("--version", action="version", version=f"bleuprint {__version__}")
    commands = parser.add_subparsers(required=True, metavar="COMMAND", parser_class=OneLineErrors)
    for name in COMMANDS if argv is None else _needed(argv):
        importlib.import_module(f"bleuprint.cli.{name}").add_command(commands)
    return parser


def _needed(argv: Sequence[str]) -> Sequence[str]:
    """The commands whose options parsing ``argv`` needs. The top level has only ``--help``
    and ``--version``, which take no value, so the first other argument names the command."""
    named = next((argument for argument in argv if not argument.startswith("-")), None)
    if named in COMMANDS:
        return (named,)
    if named is None and "--version" in argv and not {"-h", "--help"} & set(argv):
        return ()
    return COMMANDS  # the help, or an error listing the commands
