"""``python -m bleuprint.cli``: the same as the ``bleuprint`` command."""

from bleuprint.cli import command, end_process

end_process(command())
