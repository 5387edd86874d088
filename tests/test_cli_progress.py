"""Progress bars: drawn on a terminal only, after the delay, never with ``--quiet``."""

from __future__ import annotations

import fcntl
import io
import os
import pty
import struct
import subprocess
import sys
import termios
import threading
from pathlib import Path

import pyte
import pytest

from bleuprint._io import read_segments
from bleuprint.cli.progress import Progress, progress_bar
from bleuprint.exceptions import ConfigurationError
from tests.cli_helpers import sacrebleu_run


class _Terminal(io.StringIO):
    """A text stream standing in for a terminal."""

    def isatty(self) -> bool:
        return True


def _everything_drawn(leader: int) -> bytes:
    """All a pseudo-terminal's program wrote, read from its leader side, which is then closed."""
    drawn = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the terminal is closed once everything was read
            break
        if not chunk:
            break
        drawn += chunk
    os.close(leader)
    return drawn


def _terminal(rows: int, columns: int) -> tuple[int, int]:
    """A pseudo-terminal of ``rows`` x ``columns`` (a new one has none, and tqdm draws nothing
    on a screen of no rows): its leader and follower sides."""
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    return leader, follower


def _run_on_a_terminal(
    command: list[str], cwd: Path, rows: int, columns: int, environment: dict[str, str]
) -> bytes:
    """All that ``command`` drew, its standard output and error both on a terminal of that
    size; it must succeed."""
    leader, follower = _terminal(rows, columns)
    process = subprocess.Popen(command, cwd=cwd, stdout=follower, stderr=follower, env=environment)
    os.close(follower)
    drawn = _everything_drawn(leader)
    assert process.wait() == 0
    return drawn


def test_a_bar_shows_count_rate_and_time_left_then_erases_itself(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("BLEUPRINT_PROGRESS_DELAY", "0")
    terminal = _Terminal()
    with progress_bar("work", 4, "things", quiet=False, stream=terminal) as bar:
        bar.update(2)
        bar.refresh()  # tqdm redraws at most ten times a second
        drawn = terminal.getvalue()
        assert "work:" in drawn and "2/4" in drawn and "things/s" in drawn and "<" in drawn
    assert terminal.getvalue().endswith("\r")  # the bar's line is cleared (leave=False)


@pytest.mark.parametrize(
    ("stream", "quiet", "delay"),
    [(_Terminal(), False, "1000"), (_Terminal(), True, "0"), (io.StringIO(), False, "0")],
    ids=["before the delay", "quiet", "not a terminal"],
)
def test_no_bar(
    monkeypatch: pytest.MonkeyPatch, stream: io.StringIO, quiet: bool, delay: str
) -> None:
    monkeypatch.setenv("BLEUPRINT_PROGRESS_DELAY", delay)
    with progress_bar("work", 4, "things", quiet=quiet, stream=stream) as bar:
        bar.update(4)
    assert stream.getvalue() == ""


def _job(tmp_path: Path) -> list[str]:
    (tmp_path / "ref.txt").write_text("a b c d e\n" * 50, encoding="utf-8")
    (tmp_path / "one.txt").write_text("a b c d x\n" * 50, encoding="utf-8")
    (tmp_path / "two.txt").write_text("a b x d e\n" * 50, encoding="utf-8")
    command = [sys.executable, "-m", "bleuprint.cli", "score", "-r", "ref.txt", "-i", "one.txt"]
    return [*command, "two.txt", "--paired-bs", "--paired-bs-n", "300", "-b"]


# The bar waits half a second before it appears; these runs let it appear at once, so the
# tests do not depend on the speed of the machine.
_AT_ONCE = {**os.environ, "BLEUPRINT_PROGRESS_DELAY": "0"}


@pytest.mark.skipif(os.name != "posix", reason="needs a pseudo-terminal")
@pytest.mark.parametrize("quiet", [False, True])
def test_progress_bar_only_on_a_terminal(tmp_path: Path, quiet: bool) -> None:
    command = _job(tmp_path) + (["--quiet"] if quiet else [])
    leader, follower = _terminal(24, 80)
    completed = subprocess.run(
        command, cwd=tmp_path, stdout=subprocess.PIPE, stderr=follower, env=_AT_ONCE, check=False
    )
    os.close(follower)
    drawn = _everything_drawn(leader)
    assert completed.returncode == 0
    assert completed.stdout.decode().count("\n") == 2  # the scores are not disturbed
    assert (b"testing:" in drawn) is not quiet
    assert (b"reading and counting:" in drawn) is not quiet
    # Read and counted out of the files' 3 x 500 bytes (1.46 KiB); tested out of 300
    # resamples x 2 systems (every system scored on the same resamples).
    assert (b"/1.46k [" in drawn and b"/600 [" in drawn) is not quiet


def test_no_progress_bar_when_piped(tmp_path: Path) -> None:
    completed = subprocess.run(
        _job(tmp_path), cwd=tmp_path, capture_output=True, env=_AT_ONCE, check=False
    )
    assert completed.returncode == 0 and completed.stderr == b""


def test_a_bad_delay_is_an_error(tmp_path: Path) -> None:
    environment = {**os.environ, "BLEUPRINT_PROGRESS_DELAY": "soon"}
    completed = subprocess.run(
        _job(tmp_path), cwd=tmp_path, capture_output=True, env=environment, check=False
    )
    assert completed.returncode == 2 and completed.stdout == b""
    assert completed.stderr == (
        b"bleuprint: error: BLEUPRINT_PROGRESS_DELAY must be a number of seconds, got 'soon'\n"
    )


@pytest.mark.skipif(os.name != "posix", reason="needs a pseudo-terminal")
def test_a_terminal_sees_every_step_from_the_start_and_a_clean_screen_at_the_end(
    tmp_path: Path,
) -> None:
    # A corpus of several counting chunks, both systems' scores on a terminal of 24 x 100.
    (tmp_path / "ref.txt").write_text("the cat sat on the mat .\n" * 40_000, encoding="utf-8")
    (tmp_path / "one.txt").write_text("the cat sat on a mat .\n" * 40_000, encoding="utf-8")
    command = [sys.executable, "-m", "bleuprint.cli", "score", "-r", "ref.txt", "-i", "one.txt"]
    command += ["one.txt", "-pbs", "-pbsn", "20", "-b", "--preset", "canonical"]
    # The display shows at once and is redrawn often, whatever the speed of the machine.
    environment = {**_AT_ONCE, "BLEUPRINT_PROGRESS_INTERVAL": "0.01"}
    drawn = _run_on_a_terminal(command, tmp_path, 24, 100, environment)
    text = drawn.decode()
    # Every step shows, in order, from reading the files (the first thing on the screen) on,
    # with its count, and its rate and time left where the total is known.
    steps = ["reading and counting:", "scoring:", "testing:"]
    assert text.lstrip("\r").startswith("reading and counting:")
    assert [text.index(step) for step in steps] == sorted(text.index(step) for step in steps)
    # The bytes of the three files: 2 x 920,000 + 1,000,000 (2.71 MiB).
    assert "/2.71M [" in text and "B/s]" in text
    assert "/40 [" in text and " corpora/s]" in text  # 20 resamples x 2 systems
    # The final screen holds the two scores and nothing else: every line was erased.
    screen = pyte.Screen(100, 24)
    pyte.ByteStream(screen).feed(drawn)
    shown = [line.rstrip() for line in screen.display if line.strip()]
    # By hand: 6/7 unigrams, 4/6 bigrams, 2/5 trigrams, 1/4 4-grams, equal lengths.
    score = f"{100 * (6 / 7 * 4 / 6 * 2 / 5 * 1 / 4) ** 0.25:.1f}"
    assert shown == [score, score]


def test_a_step_that_reports_nothing_is_redrawn(monkeypatch: pytest.MonkeyPatch) -> None:
    # A heartbeat redraws the line while the step runs; waited for, not timed.
    monkeypatch.setenv("BLEUPRINT_PROGRESS_DELAY", "0")
    monkeypatch.setenv("BLEUPRINT_PROGRESS_INTERVAL", "0.001")
    terminal = _Terminal()
    with Progress(quiet=False, stream=terminal) as progress, progress.stage("plotting"):
        first = terminal.getvalue().count("plotting [")
        while terminal.getvalue().count("plotting [") < first + 3:
            threading.Event().wait(0.001)
    assert first >= 1  # drawn when the step begins
    assert terminal.getvalue().endswith("\r")  # and erased when it ends


@pytest.mark.parametrize(
    ("variable", "value"),
    [("BLEUPRINT_PROGRESS_INTERVAL", "-1"), ("BLEUPRINT_PROGRESS_DELAY", "nan")],
)
def test_bad_progress_settings_are_errors(
    monkeypatch: pytest.MonkeyPatch, variable: str, value: str
) -> None:
    monkeypatch.setenv(variable, value)
    with pytest.raises(ConfigurationError, match=f"{variable} must be a number of seconds"):
        Progress(quiet=False, stream=_Terminal())


def test_reading_reports_every_byte(tmp_path: Path) -> None:
    path = tmp_path / "big.txt"
    # 9 bytes a line, 1.8 MB: more than one read of a megabyte
    path.write_text("é a b c\n" * 200_000, encoding="utf-8")
    reported: list[int] = []
    segments = read_segments(str(path), reported.append)
    assert len(segments) == 200_000
    assert sum(reported) == 9 * 200_000 == path.stat().st_size
    assert len(reported) > 1  # told as the reading goes, not only at the end


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux's /proc")
def test_the_delay_counts_from_the_start_of_the_process() -> None:
    # A process that has slept 0.3 s is at least that old (to the system's 0.01 s ticks).
    code = "import time; time.sleep(0.3)\nfrom bleuprint.cli import progress\n"
    code += "print(progress._process_age())"
    completed = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert float(completed.stdout) >= 0.3 - 0.02


@pytest.mark.skipif(os.name != "posix", reason="needs a pseudo-terminal")
@pytest.mark.parametrize(
    ("test", "corpora"),
    # sacreBLEU's tests score 20 resamples x 3 systems, and 30 trials x 2 pseudo-systems x 2
    # systems against the baseline.
    [(["-pbs", "-pbsn", "20"], 60), (["-par", "-parn", "30"], 120)],
    ids=["paired bootstrap", "approximate randomization"],
)
def test_the_sacrebleu_commands_paired_tests_show_their_progress_as_compare_does(
    tmp_path: Path, test: list[str], corpora: int
) -> None:
    for name, word in (("ref.txt", "mat"), ("one.txt", "rug"), ("two.txt", "mat"), ("three", "x")):
        lines = (f"the cat number {n} sat on the {word} ." for n in range(60))
        (tmp_path / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    command = [sys.executable, "-m", "bleuprint.cli", "sacrebleu", "ref.txt", "-i", "one.txt"]
    command += ["two.txt", "three", *test, "-f", "text"]
    environment = {**_AT_ONCE, "BLEUPRINT_PROGRESS_INTERVAL": "0.01"}
    leader, follower = _terminal(24, 100)
    on_a_terminal = subprocess.run(
        command, cwd=tmp_path, stdout=subprocess.PIPE, stderr=follower, env=environment, check=False
    )
    os.close(follower)
    drawn = _everything_drawn(leader).decode()
    piped = subprocess.run(command, cwd=tmp_path, capture_output=True, env=_AT_ONCE, check=False)
    assert on_a_terminal.returncode == piped.returncode == 0
    assert on_a_terminal.stdout == piped.stdout and piped.stderr == b""  # the output undisturbed
    # The count out of the total, the rate and the time left, as compare shows them.
    assert "testing:" in drawn and f"/{corpora} [" in drawn and " corpora/s]" in drawn
    assert "<" in drawn  # time left


@pytest.mark.skipif(os.name != "posix", reason="needs a pseudo-terminal")
def test_a_paired_bootstrap_in_a_terminal_leaves_sacrebleus_output_on_the_screen(
    tmp_path: Path,
) -> None:
    # The whole session a person sees: standard output and error on one terminal of 60 x 120.
    # The bar shows while the test runs, then is erased, and the screen holds what sacreBLEU's
    # command prints (piped: sacreBLEU colours a terminal; bleuprint never does) and no more.
    for name, word in (("ref.txt", "mat"), ("one.txt", "rug"), ("two.txt", "mat")):
        lines = (f"the cat number {n} sat on the {word} ." for n in range(60))
        (tmp_path / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    arguments = ["ref.txt", "-i", "one.txt", "two.txt", "-pbs", "-pbsn", "50", "-f", "text"]
    expected = sacrebleu_run(*arguments, cwd=tmp_path)
    assert expected.returncode == 0, expected.stderr
    command = [sys.executable, "-m", "bleuprint", "sacrebleu", *arguments]
    environment = {**_AT_ONCE, "BLEUPRINT_PROGRESS_INTERVAL": "0.01"}
    drawn = _run_on_a_terminal(command, tmp_path, 60, 120, environment)
    assert "testing:" in drawn.decode() and "/100 [" in drawn.decode()  # 50 resamples x 2
    screen = pyte.Screen(120, 60)
    pyte.ByteStream(screen).feed(drawn)
    shown = [line.rstrip() for line in screen.display]
    while shown and not shown[-1]:
        shown.pop()
    assert shown == expected.stdout.decode("utf-8").rstrip("\n").split("\n")
