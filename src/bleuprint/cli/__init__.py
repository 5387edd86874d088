"""The ``bleuprint`` command line.

:func:`main` is the one error boundary: every failure ends as one line on standard error, with
nothing (or, for a failure while writing, at most what was taken before it) on standard output,
and an exit status that says which kind it was:

- 0: done;
- 1: the run failed for a reason outside its input (the output could not be written whole, a
  closed standard output, memory ran out, a Dask cluster failed or timed out), or for an
  unexpected reason, which the line asks to report as a bug; a reader that went away (``| head``)
  ends quietly with 1 too;
- 2: a usage, input or configuration error (a bad option, a malformed file, an output target that
  cannot be written, a job too large for the options given), found before output is written;
- 130: interrupted (Ctrl-C); 143 and 129: ended by SIGTERM or SIGHUP, which the ``bleuprint``
  command handles as it handles Ctrl-C. Either leaves no temporary file; standard output is
  empty unless the signal came while the result was being written: it then holds the result's
  first bytes, and the line says it is incomplete.

Each command is a module of this package with ``add_command`` (its options) and ``run`` (its
output, as text); :mod:`~bleuprint.cli.parser` puts them together, :mod:`~bleuprint.cli.output`
writes. Everything but the standard library is imported inside :func:`main`'s boundary, so that
an interrupt while the command starts is reported as one line too.

The ``bleuprint`` script, ``python -m bleuprint`` and ``python -m bleuprint.cli`` run
:func:`command` (the first two through :func:`bleuprint.__main__.run`, which imports this
package inside the same boundary), which owns its process: where the user has set none of the
thread variables of numpy's BLAS libraries (:data:`BLAS_THREAD_VARIABLES`), it sets them to 1
before numpy is first imported, then runs :func:`main`. (OpenBLAS starts a thread per core when
numpy is imported, about 100 ms of CPU on a small machine, and the command's few products of
matrices are no faster for them.) It also keeps Python's cyclic garbage collector off while the
command's modules load (:func:`_collecting`). :func:`main` itself, called in a user's process,
changes nothing in it.
"""

from __future__ import annotations

import atexit
import contextlib
import gc
import os
import signal
import sys
import warnings
from collections.abc import Callable, Sequence
from types import FrameType
from typing import NoReturn, TextIO

from bleuprint.cli.status import (
    ENDING_SIGNALS,
    EXIT_BROKEN_PIPE,
    EXIT_FAILURE,
    EXIT_INTERRUPTED,
    EXIT_USAGE,
    StoppedWriting,
    Terminated,
)
from bleuprint.exceptions import BLEUError

__all__ = ["BLAS_THREAD_VARIABLES", "command", "end_process", "main"]

BLAS_THREAD_VARIABLES = (
    "OPENBLAS_NUM_THREADS",
    "OMP_NUM_THREADS",
    "MKL_NUM_THREADS",
    "BLIS_NUM_THREADS",
    "VECLIB_MAXIMUM_THREADS",
)
"""The variables that say how many threads numpy's BLAS library (OpenBLAS, MKL, BLIS, Apple's
Accelerate, or any through OpenMP) starts when it is loaded."""

_REPORT = "this is a bug in bleuprint; please report it with the command line that caused it"


def command() -> int:
    """The ``bleuprint`` command, in a process of its own: one BLAS thread unless the user chose
    (see the module's text), SIGTERM and SIGHUP ending it as Ctrl-C does, then :func:`main` on
    ``sys.argv``; return the exit status. The process is set up inside :func:`main`'s boundary,
    so that an interrupt meanwhile is one line too."""
    return _bounded(_own_process_and_run)


def _own_process_and_run() -> int:
    if not any(name in os.environ for name in BLAS_THREAD_VARIABLES):
        os.environ.update(dict.fromkeys(BLAS_THREAD_VARIABLES, "1"))
    for number in ENDING_SIGNALS:
        signal.signal(number, _terminate)
    gc.disable()  # (until the command's modules are imported: see _collecting)
    return _run(None, started=_collecting)


def _collecting() -> None:
    """Python's cyclic garbage collector, off while the command's modules were imported, on
    again, and what they made left out of its passes (:func:`gc.freeze`): none of it is garbage,
    and the passes over it took 6% of the command's start."""
    gc.freeze()
    gc.enable()


def end_process(status: int) -> NoReturn:
    """End this process, whose command is done, with exit status ``status``, without tearing
    Python down: what an exit does that anyone sees is done first (the functions registered
    with :mod:`atexit` run: coverage saves its data there, finalizers remove temporary folders;
    the standard streams are flushed), but not the freeing of every module's objects, which
    the system does at once (about 30 ms after a score, of a start of 200). A signal that
    arrives meanwhile changes nothing, one that came as the command ended included: the
    outcome is decided."""
    for number in (signal.SIGINT, *ENDING_SIGNALS):
        signal.signal(number, signal.SIG_IGN)  # (Python then skips a handler pending too)
    atexit._run_exitfuncs()  # (what Python runs as it exits; there is no public name)
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(AttributeError, OSError, ValueError):  # (closed: said before)
            stream.flush()
    os._exit(status)


def _terminate(number: int, frame: FrameType | None) -> None:
    raise Terminated(number)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``); return the exit status."""
    return _bounded(lambda: _run(argv))


def _bounded(work: Callable[[], int]) -> int:
    """The exit status of ``work``, or of what it raised, said in one line (see the module's
    text)."""
    if sys.stderr is None:  # closed (2>&-): keep print() from falling back to standard output
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - open for the rest of the process
    try:
        status = work()
    except (KeyboardInterrupt, Terminated) as stop:
        status, why = _stopped(stop)
        _say(why)
    except StoppedWriting as stopped:
        status, why = _stopped(stopped.stop)
        _say(
            f"{why} while writing standard output: it is incomplete (at least "
            f"{stopped.written:,} of its {stopped.total:,} bytes written)"
        )
    except BrokenPipeError:
        # The reader went away (``bleuprint ... | head``): stop quietly.
        status = EXIT_BROKEN_PIPE
    except BLEUError as error:
        _say(f"error: {error}")
        status = EXIT_USAGE
    except RecursionError:
        _say("error: the input is nested too deeply to read")
        status = EXIT_USAGE
    except MemoryError as error:
        _say(f"error: out of memory ({error or 'no detail'}); score fewer segments at once")
        status = EXIT_FAILURE
    except OSError as error:
        _say(f"error: {_os_error(error)}")
        status = EXIT_FAILURE
    except Exception as error:  # the boundary: one line, never a traceback
        status = _unexpected(error)
    return _settled(status)


def _run(argv: Sequence[str] | None, started: Callable[[], object] = lambda: None) -> int:
    """Parse ``argv`` (importing the command's module), call ``started``, run the command."""
    from bleuprint.cli.output import OutputError, write_stdout  # noqa: PLC0415 - see above
    from bleuprint.cli.parser import Command, build_parser  # noqa: PLC0415

    argv = sys.argv[1:] if argv is None else argv
    try:
        arguments = build_parser(argv).parse_args(argv)
    except SystemExit as done:  # --help, --version, a usage error: argparse has printed
        return done.code if isinstance(done.code, int) else EXIT_USAGE
    started()
    if sys.stdout is None:  # closed (>&-): refuse before any work
        raise OutputError("standard output is closed; nothing could be written")
    command: Command = arguments.command
    with warnings.catch_warnings():  # as they were, once the command is done
        if getattr(arguments, "quiet", False):
            warnings.simplefilter("ignore")
        else:
            warnings.showwarning = _show_warning
        write_stdout(command(arguments))
    return 0


def _show_warning(  # noqa: PLR0917 - warnings.showwarning's own parameters
    message: Warning | str,
    category: type[Warning],
    filename: str,
    lineno: int,
    file: TextIO | None = None,
    line: str | None = None,
) -> None:
    """A warning of the library (NLTK's zero overlaps, ...) as the command's own warnings read:
    one line, without the place in Python's code that raised it."""
    _say(f"warning: {' '.join(str(message).split())}")


def _stopped(stop: KeyboardInterrupt | Terminated) -> tuple[int, str]:
    """The exit status and the words for what stopped the command."""
    if isinstance(stop, Terminated):
        return stop.status, f"ended by {stop.name}"
    return EXIT_INTERRUPTED, "interrupted"


def _settled(status: int) -> int:
    """``status``, once standard output is flushed; if it cannot be, standard output is pointed
    at the null device so that Python's own flush at exit has nothing left to complain about."""
    try:
        if sys.stdout is not None:
            sys.stdout.flush()
    except BrokenPipeError:
        status = status or EXIT_BROKEN_PIPE
    except OSError as error:
        if not status:
            _say(f"error: cannot write standard output: {error.strerror or error}")
            status = EXIT_FAILURE
    else:
        return status
    try:
        descriptor = sys.stdout.fileno()
        os.dup2(os.open(os.devnull, os.O_WRONLY), descriptor)
    except (AttributeError, OSError, ValueError):
        pass
    return status


def _os_error(error: OSError) -> str:
    """One line for an error of the system: what failed, and where."""
    from bleuprint.cli.output import OutputError  # noqa: PLC0415 - see the module's text

    if isinstance(error, OutputError):
        return str(error)
    reason = error.strerror or str(error) or type(error).__name__
    if isinstance(error, TimeoutError):
        return f"timed out: {reason}"
    return f"{error.filename}: {reason}" if error.filename else reason


def _unexpected(error: Exception) -> int:
    module = type(error).__module__.split(".")[0]
    if module in {"distributed", "dask", "tornado"}:
        _say(f"error: the Dask cluster failed: {type(error).__name__}: {error}")
    else:
        _say(f"internal error: {type(error).__name__}: {error} ({_REPORT})")
    return EXIT_FAILURE


def _say(line: str) -> None:
    """One line on standard error: line breaks in names or messages are shown escaped."""
    text = line.replace("\r", "\\r").replace("\n", "\\n")
    # If standard error is gone too, the exit status is all that is left.
    with contextlib.suppress(OSError, ValueError):
        print(f"bleuprint: {text}", file=sys.stderr, flush=True)
