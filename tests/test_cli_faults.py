"""The command line's error boundary under faults (issue 16): full disks, closed streams,
interrupts, output targets that cannot be written, and the unexpected.

Every case is run through a real process where the fault is one of the process's environment
(closed descriptors, ``/dev/full``, a tiny tmpfs, a signal), and asserts the promises of
:mod:`bleuprint.cli`: the exit status, one line on standard error, no traceback, nothing
(complete or absent) in the output.
"""

from __future__ import annotations

import argparse
import errno
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bleuprint import cli
from bleuprint.cli import output
from bleuprint.cli import presets as presets_command
from bleuprint.exceptions import ConfigurationError
from tests.cli_helpers import CANONICAL, fails, run, write_examples

PYTHON = [sys.executable, "-m", "bleuprint.cli"]
SCORE = ["score", "-q", *CANONICAL, "-r", "ref.txt", "-i", "hyp.txt"]


@pytest.fixture
def files(tmp_path: Path) -> Path:
    return write_examples(tmp_path)


def _shell(command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``command`` run by sh, where ``{bleuprint}`` stands for the command line."""
    line = command.format(bleuprint=" ".join(PYTHON))
    return subprocess.run(["sh", "-c", line], cwd=cwd, capture_output=True, text=True, check=False)


def _one_line(stderr: str, *, contains: str) -> None:
    assert stderr.count("\n") == 1 and stderr.startswith("bleuprint: "), stderr
    assert contains in stderr and "Traceback" not in stderr


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full")
@pytest.mark.parametrize(
    "command", [" ".join(SCORE), "pair < pair.txt", "sacrebleu ref.txt -i hyp.txt"]
)
def test_a_full_device_is_one_line_and_status_1(files: Path, command: str) -> None:
    (files / "pair.txt").write_text("a b\na b\n", encoding="utf-8")
    completed = _shell(f"{{bleuprint}} {command} > /dev/full", files)
    assert completed.returncode == 1
    _one_line(completed.stderr, contains="cannot write standard output: No space left")


@pytest.mark.parametrize("command", [" ".join(SCORE), "pair < pair.txt"])
def test_a_closed_standard_output_is_refused(files: Path, command: str) -> None:
    (files / "pair.txt").write_text("a b\na b\n", encoding="utf-8")
    completed = _shell(f"{{bleuprint}} {command} >&-", files)
    assert completed.returncode == 1
    _one_line(completed.stderr, contains="standard output is closed")


@pytest.mark.parametrize("command", ["score -r ref.txt", "pair", "sacrebleu ref.txt"])
def test_a_closed_standard_input_is_an_input_error(files: Path, command: str) -> None:
    completed = _shell(f"{{bleuprint}} {command} <&-", files)
    assert completed.returncode == 2 and completed.stdout == ""
    _one_line(completed.stderr, contains="standard input is closed")


def test_a_closed_standard_error_leaves_standard_output_clean(files: Path) -> None:
    # print(file=None) writes to standard output: the error must not land there.
    completed = _shell("{bleuprint} score -r ref.txt -i missing.txt 2>&-", files)
    assert completed.returncode == 2 and completed.stdout == ""


@pytest.fixture
def tiny_disk(tmp_path: Path) -> Iterator[Path]:
    """A 64 KiB tmpfs (needs the right to mount; skipped elsewhere)."""
    mount = shutil.which("mount")
    folder = tmp_path / "tiny"
    folder.mkdir()
    if os.geteuid() != 0 or mount is None:
        pytest.skip("mounting a tmpfs needs root")
    mounted = subprocess.run(
        [mount, "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(folder)],
        capture_output=True,
        check=False,
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs: {mounted.stderr.decode(errors='replace')}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=False)


def test_a_full_disk_is_not_silent_data_loss(files: Path, tiny_disk: Path) -> None:
    # 3,000 segments of sentence scores as JSON are far more than 64 KiB.
    line = "the cat sat on the mat and looked at the dog\n"
    (files / "big.txt").write_text(line * 3000, encoding="utf-8")
    target = tiny_disk / "scores.jsonl"
    completed = _shell(f"{{bleuprint}} score -q -sl -r big.txt -i big.txt > {target}", files)
    assert completed.returncode == 1
    _one_line(completed.stderr, contains="No space left on device")


def test_a_plot_on_a_full_disk_leaves_no_file(files: Path, tiny_disk: Path) -> None:
    pytest.importorskip("matplotlib")
    (tiny_disk / "filler").write_bytes(b"x" * 60_000)  # leave too little for a PDF
    completed = run(
        "compare", "-q", *CANONICAL, "-r", "ref.txt", "-i", "hyp.txt", "better.txt",
        "--paired-bs-n", "10", "--plot", str(tiny_disk / "p.pdf"), cwd=files,
    )  # fmt: skip
    assert completed.returncode == 1, completed.stderr
    _one_line(completed.stderr, contains="cannot write the plot: No space left on device")
    assert sorted(path.name for path in tiny_disk.iterdir()) == ["filler"]


@pytest.mark.parametrize(
    ("target", "message"),
    [
        ("adir", "not a file without extension"),
        ("adir.png", "is a directory"),
        ("/dev/full", "not a file without extension"),
        ("fifo.png", "not a regular file"),
        ("p.gif", "not .gif"),
        ("missing/p.png", "the folder missing does not exist"),
    ],
)
def test_plot_targets_are_refused_before_any_work(files: Path, target: str, message: str) -> None:
    pytest.importorskip("matplotlib")
    (files / "adir").mkdir()
    (files / "adir.png").mkdir()
    os.mkfifo(files / "fifo.png")
    before = sorted(files.iterdir())
    started = time.monotonic()
    # 10 million resamples would take minutes: the refusal comes first.
    completed = run(
        "compare", "-q", *CANONICAL, "-r", "ref.txt", "-i", "hyp.txt", "better.txt",
        "--paired-bs-n", "10000000", "--plot", target, cwd=files,
    )  # fmt: skip
    assert completed.returncode == 2 and completed.stdout == ""
    _one_line(completed.stderr, contains=message)
    assert time.monotonic() - started < 60
    assert sorted(files.iterdir()) == before


def test_a_plot_is_complete_and_keeps_its_name(files: Path) -> None:
    pytest.importorskip("matplotlib")
    completed = run(
        "compare", "-q", *CANONICAL, "-r", "ref.txt", "-i", "hyp.txt", "better.txt",
        "--paired-bs-n", "10", "--plot", "p.png", cwd=files,
    )  # fmt: skip
    assert completed.returncode == 0, completed.stderr
    assert (files / "p.png").read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    assert not [path for path in files.iterdir() if path.name.startswith(".p.png")]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        # 2 corpora per resample of a paired bootstrap of two systems (both on the same resamples)
        (
            ["compare", "-i", "hyp.txt", "better.txt", "--paired-bs-n", "100000000"],
            "paired bootstrap resampling, 100000000 resamples, seed 12345, 2 systems: "
            "200,000,000 resampled corpora, more than the 100,000,000 a test may score (their "
            "scores take 8 bytes each); lower --paired-bs-n",
        ),
        # 2,000 segments x 60 million corpora = 120 billion draws
        (
            ["score", "-i", "long.txt", "-ci", "--confidence-n", "60000000"],
            "bootstrap confidence intervals, 60000000 resamples, seed 12345, 1 system: "
            "120,000,000,000 segment draws (60,000,000 resampled corpora of 2,000 segments), "
            "more than the 100,000,000,000 (about an hour) a test may make; lower --confidence-n",
        ),
        # 2 x 30 million trials + 2 x 10 intervals = 60,000,020 corpora of 2,000 segments
        (
            ["compare", "-i", "long.txt", "long.txt", "-par", "-parn", "30000000", "-ci", "-cin",
             "10"],
            "paired approximate randomization, 30000000 trials, intervals from 10 bootstrap "
            "resamples, seed 12345, 2 systems: 120,000,040,000 segment draws (60,000,020 "
            "resampled corpora of 2,000 segments), more than the 100,000,000,000 (about an "
            "hour) a test may make; lower --paired-ar-n or --confidence-n",
        ),
    ],
)  # fmt: skip
def test_a_test_that_would_run_for_hours_or_fill_memory_is_refused_naming_its_option(
    files: Path, options: list[str], message: str
) -> None:
    (files / "long.txt").write_text("the cat sat on the mat\n" * 2000, encoding="utf-8")
    (files / "long-ref.txt").write_text("the cat sat on a mat\n" * 2000, encoding="utf-8")
    references = "long-ref.txt" if "long.txt" in options else "ref.txt"
    command, *rest = options
    completed = run(command, "-q", *CANONICAL, "-r", references, *rest, cwd=files)
    fails(completed, message)


def _wait_for_cpu_time(process: subprocess.Popen[str], seconds: float) -> None:
    """Wait until ``process`` has run ``seconds`` of CPU time (or ended): a point in its work
    that a loaded machine delays but does not move, as a pause of wall-clock time would."""
    stat = Path(f"/proc/{process.pid}/stat")
    if not stat.exists():
        pytest.skip("reading a process's CPU time needs /proc")
    deadline = time.monotonic() + 300
    while process.poll() is None and time.monotonic() < deadline:
        # The fields after the command name; user and system time are the 12th and 13th.
        fields = stat.read_text().rsplit(")", 1)[1].split()
        if (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK") >= seconds:
            return
        time.sleep(0.05)


@pytest.mark.usefixtures("interruptible")
def test_sigint_during_compare_is_one_line_and_130(files: Path) -> None:
    line = "the cat sat on the mat and looked at the dog\n"
    for name in ("r.txt", "a.txt", "b.txt"):
        (files / name).write_text(line * 2000, encoding="utf-8")
    process = subprocess.Popen(
        [*PYTHON, "compare", "-q", "-r", "r.txt", "-i", "a.txt", "b.txt",
         "--paired-bs-n", "10000000"],  # 30 million corpora: about half an hour
        cwd=files, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        _wait_for_cpu_time(process, seconds=2.0)  # imports done, the test running
        process.send_signal(signal.SIGINT)
        stdout, stderr = process.communicate(timeout=60)
    finally:
        process.kill()  # a run that ignored the interrupt must not outlive the test
    assert process.returncode == 130
    assert stdout == "" and stderr == "bleuprint: interrupted\n"


# A child process: the command, with the plot's temporary file half written when a real
# signal arrives (the drawing is what the signal interrupts).
_SIGNALLED_WHILE_PLOTTING = """
import contextlib, os, signal, sys, time
from pathlib import Path
from bleuprint.cli import command, output

real = output.replaced_atomically

@contextlib.contextmanager
def signalled(path):
    with real(path) as temporary:
        Path(temporary).write_bytes(b"half a plot")
        os.kill(os.getpid(), signal.{name})
        time.sleep(60)
        yield temporary

output.replaced_atomically = signalled
sys.argv = ["bleuprint", *sys.argv[1:]]
sys.exit(command())
"""


@pytest.mark.usefixtures("interruptible")
@pytest.mark.parametrize(
    ("name", "status", "said"),
    [("SIGTERM", 143, "ended by SIGTERM"), ("SIGHUP", 129, "ended by SIGHUP"),
     ("SIGINT", 130, "interrupted")],
)  # fmt: skip
def test_a_signal_while_a_plot_is_written_leaves_no_file(
    files: Path, name: str, status: int, said: str
) -> None:
    pytest.importorskip("matplotlib")
    (files / "p.png").write_bytes(b"the old plot")
    code = _SIGNALLED_WHILE_PLOTTING.replace("{name}", name)
    completed = subprocess.run(
        [sys.executable, "-c", code, "compare", "-q", *CANONICAL, "-r", "ref.txt",
         "-i", "hyp.txt", "hyp.txt", "--paired-bs-n", "10", "--plot", "p.png"],
        cwd=files, capture_output=True, text=True, check=False, timeout=120,
    )  # fmt: skip
    assert completed.returncode == status
    assert completed.stdout == ""
    assert completed.stderr == f"bleuprint: {said}\n"
    assert (files / "p.png").read_bytes() == b"the old plot"
    assert not list(files.glob("*.part")) and not list(files.glob(".*.part"))


@pytest.mark.usefixtures("interruptible")
def test_sigterm_during_compare_is_one_line_and_143(files: Path) -> None:
    line = "the cat sat on the mat and looked at the dog\n"
    for name in ("r.txt", "a.txt", "b.txt"):
        (files / name).write_text(line * 2000, encoding="utf-8")
    process = subprocess.Popen(
        [*PYTHON, "compare", "-q", "-r", "r.txt", "-i", "a.txt", "b.txt",
         "--paired-bs-n", "10000000"],  # 30 million corpora: about half an hour
        cwd=files, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        _wait_for_cpu_time(process, seconds=2.0)  # imports done, the test running
        process.send_signal(signal.SIGTERM)
        stdout, stderr = process.communicate(timeout=60)
    finally:
        process.kill()
    assert process.returncode == 143
    assert stdout == "" and stderr == "bleuprint: ended by SIGTERM\n"


@pytest.mark.usefixtures("interruptible")
@pytest.mark.parametrize(("name", "status"), [("SIGINT", 130), ("SIGTERM", 143)])
def test_a_signal_while_standard_output_is_written_says_it_is_incomplete(
    files: Path, name: str, status: int
) -> None:
    # Sentence scores of 20,000 lines as JSON: megabytes, far more than a pipe holds, so the
    # command is still writing when the test has read the first bytes and sends the signal.
    # Standard output then holds what the reader took; the line says it is incomplete, and
    # how many bytes at least were written (all but those of the write the signal cut).
    line = "the cat sat on the mat and looked at the dog\n"
    for file in ("r.txt", "h.txt"):
        (files / file).write_text(line * 20_000, encoding="utf-8")
    process = subprocess.Popen(
        [*PYTHON, "score", "-q", "-r", "r.txt", "-i", "h.txt", "-sl", "-f", "json"],
        cwd=files, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    assert process.stdout is not None and process.stderr is not None
    try:
        # More than one chunk (64 KiB) read: the first write has returned, the next begun.
        first = process.stdout.read(100_000)
        process.send_signal(getattr(signal, name))
        rest = process.stdout.read()
        stderr = process.stderr.read().decode()
        process.wait(timeout=60)
    finally:
        process.kill()
    taken = len(first) + len(rest)
    words = "interrupted" if name == "SIGINT" else "ended by SIGTERM"
    _one_line(
        stderr, contains=f"bleuprint: {words} while writing standard output: it is incomplete"
    )
    written, total = (
        int(n.replace(",", "")) for n in stderr.split("(at least ")[1].split(" ")[:4:3]
    )
    assert process.returncode == status
    assert 1 << 16 <= written <= taken < total


class _Failing:
    """A stand-in for standard output whose descriptor is a pipe that fails as told."""

    def __init__(self, descriptor: int) -> None:
        self.descriptor = descriptor

    def fileno(self) -> int:
        return self.descriptor

    def flush(self) -> None:
        pass


def test_short_writes_are_completed(monkeypatch: pytest.MonkeyPatch) -> None:
    # A writer that takes 3 bytes at a time: every byte still arrives, in order.
    taken: list[bytes] = []

    def short(descriptor: int, data: memoryview) -> int:
        taken.append(bytes(data[:3]))
        return len(taken[-1])

    monkeypatch.setattr(sys, "stdout", _Failing(99))
    monkeypatch.setattr(os, "write", short)
    output.write_stdout("μ ± 95%\n")
    assert b"".join(taken) == "μ ± 95%\n".encode()


def test_a_write_that_fails_midway_is_an_output_error(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = iter([4])

    def failing(descriptor: int, data: memoryview) -> int:
        written = next(calls, None)
        if written is None:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return written

    monkeypatch.setattr(sys, "stdout", _Failing(99))
    monkeypatch.setattr(os, "write", failing)
    with pytest.raises(output.OutputError, match="No space left on device"):
        output.write_stdout("0.5 0.25\n")


def test_replaced_atomically_leaves_nothing_on_failure(tmp_path: Path) -> None:
    target = tmp_path / "p.png"
    target.write_bytes(b"old")
    with pytest.raises(RuntimeError), output.replaced_atomically(str(target)) as temporary:
        Path(temporary).write_bytes(b"half")
        raise RuntimeError("drawing failed")
    assert target.read_bytes() == b"old"
    assert [path.name for path in tmp_path.iterdir()] == ["p.png"]


def test_check_target_names_the_format() -> None:
    assert output.check_target("x.PDF", ("png", "pdf")) == "pdf"
    with pytest.raises(ConfigurationError, match=r"'a\\nb.png/c.png': the folder"):
        output.check_target("a\nb.png/c.png", ("png",))


def _main_with(monkeypatch: pytest.MonkeyPatch, error: BaseException) -> int:
    def failing(arguments: argparse.Namespace) -> str:
        raise error

    # The parser takes each command's run function when it is built.
    monkeypatch.setattr(presets_command, "run", failing)
    return cli.main(["presets"])


@pytest.mark.parametrize(
    ("error", "status", "message"),
    [
        (RuntimeError("boom\nsecond line"), 1, "internal error: RuntimeError: boom\\nsecond line"),
        (MemoryError("Unable to allocate 37.3 GiB"), 1, "out of memory (Unable to allocate"),
        (KeyboardInterrupt(), 130, "bleuprint: interrupted"),
        (TimeoutError("no answer in 10 s"), 1, "timed out: no answer in 10 s"),
        (RecursionError(), 2, "nested too deeply"),
        (ConnectionRefusedError(111, "Connection refused"), 1, "error: Connection refused"),
    ],
)
def test_every_failure_is_one_line_with_its_status(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    error: BaseException,
    status: int,
    message: str,
) -> None:
    assert _main_with(monkeypatch, error) == status
    captured = capsys.readouterr()
    assert captured.out == ""
    _one_line(captured.err, contains=message)
    if status == 1 and isinstance(error, RuntimeError):
        assert "please report it" in captured.err
