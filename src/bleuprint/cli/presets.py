"""``bleuprint presets``: the presets with their signatures."""

from __future__ import annotations

import argparse

from bleuprint import presets
from bleuprint.cli.options import SubCommands
from bleuprint.cli.table import format_table


def add_command(commands: SubCommands) -> None:
    """Add the command to the command line's sub-parsers."""
    parser = commands.add_parser("presets", help="list the presets with their signatures")
    parser.set_defaults(command=run)


def run(arguments: argparse.Namespace) -> str:
    rows = [("preset", "signature")]
    rows += [(preset.name, str(preset.build().signature())) for preset in presets.PRESETS.values()]
    return format_table(rows)
