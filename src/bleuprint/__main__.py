"""``python -m bleuprint`` and the ``bleuprint`` script: the command line, its start-up included.

:func:`run` imports the command inside the boundary that makes an interrupt one line and status
130: Ctrl-C while the command's modules load ends it as at any later moment. (Before this module
runs, while Python itself starts and imports the ``bleuprint`` package, Python handles it.)
"""

import sys

# The words and status of bleuprint.cli's boundary (bleuprint.cli.status.EXIT_INTERRUPTED), which
# cannot be imported here: an interrupt may have left that package half-imported.
_INTERRUPTED = "bleuprint: interrupted\n"
_EXIT_INTERRUPTED = 130


def run() -> int:
    """The ``bleuprint`` command (:func:`bleuprint.cli.command`), which ends the process with
    its exit status (:func:`bleuprint.cli.end_process`); an interrupt before the command is
    loaded returns its status."""
    try:
        from bleuprint.cli import command, end_process  # noqa: PLC0415 - inside the boundary
    except KeyboardInterrupt:
        sys.stderr.write(_INTERRUPTED)
        return _EXIT_INTERRUPTED
    end_process(command())


if __name__ == "__main__":
    sys.exit(run())
