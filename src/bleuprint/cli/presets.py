"""``bleuprint presets``: every preset, where it comes from and its signature; and the
``--preset`` option of the commands that score."""

from __future__ import annotations

import argparse
import sys
import warnings

from bleuprint import presets
from bleuprint.cli.options import SubCommands
from bleuprint.cli.table import format_table
from bleuprint.exceptions import BLEUError


def add_command(commands: SubCommands) -> None:
    """Add the command to the command line's sub-parsers."""
    parser = commands.add_parser(
        "presets", help="list the presets: where each comes from, and its signature"
    )
    parser.set_defaults(command=run)


def add_preset_option(parser: argparse._ActionsContainer, default: str) -> None:
    """``--preset NAME``. The name is checked by looking it up, which imports only the module
    that defines it; a list of choices would import them all."""
    parser.add_argument(
        "--preset",
        default=default,
        type=_known_preset,
        metavar="NAME",
        help="the BLEU definition; bleuprint presets lists them (default: %(default)s)",
    )


def _known_preset(name: str) -> str:
    """The preset's name, matched without regard to case (presets are named in lowercase, so
    ``SacreBLEU`` is ``sacrebleu``)."""
    try:
        return presets.get(name.lower()).name
    except BLEUError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def run(arguments: argparse.Namespace) -> str:
    rows = [("preset", "from", "signature")]
    # An installed distribution's broken preset is left out with a warning: one line each.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for name, preset in presets.PRESETS.items():
            try:
                signature = str(preset.build().signature())
            except Exception as error:  # an installed preset that cannot be built
                warnings.warn(f"preset {name} cannot be built: {error}", stacklevel=1)
                signature = "-"
            rows.append((name, presets.origin(name), signature))
    for warning in caught:
        print(f"bleuprint: warning: {warning.message}", file=sys.stderr)
    return format_table(rows)
