"""``python -m bleuprint``: the same as the ``bleuprint`` command."""

import sys

from bleuprint.cli import command

sys.exit(command())
