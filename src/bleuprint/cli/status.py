"""The command line's exit statuses (what each means: :mod:`bleuprint.cli`)."""

EXIT_FAILURE = 1
EXIT_BROKEN_PIPE = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130
