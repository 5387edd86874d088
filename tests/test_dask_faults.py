"""Dask under faults (issue 16): a scheduler that accepts connections and never answers, one
that speaks garbage, timeouts that must be sane, cells that are not text, and a real cluster
whose worker or scheduler is killed while it counts.

The servers are threads of this process on 127.0.0.1, bounded in time: each stops by itself
after a few seconds even if the test does not stop it. The real cluster is a ``dask
scheduler`` and a ``dask worker`` process on 127.0.0.1, killed when the test ends; each wait
is bounded.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pandas as pd
import pytest

pytest.importorskip("distributed")

import dask.dataframe

from bleuprint import BLEUScore, ConfigurationError, InputError
from bleuprint import dask as bleu_dask

LIFETIME = 60.0  # seconds a server lives at most


def _serve(reply: bytes | None) -> Iterator[str]:
    """A TCP server on 127.0.0.1 that accepts every connection and then sends ``reply`` (or
    nothing at all) and stays silent; its address."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.2)
    stop = threading.Event()
    held: list[socket.socket] = []

    def accept() -> None:
        deadline = time.monotonic() + LIFETIME
        while not stop.is_set() and time.monotonic() < deadline:
            try:
                connection, _ = server.accept()
            except TimeoutError:
                continue
            held.append(connection)
            if reply is not None:
                connection.sendall(reply)
        for connection in held:
            connection.close()
        server.close()

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    finally:
        stop.set()
        thread.join(5)


@pytest.fixture
def silent() -> Iterator[str]:
    yield from _serve(None)


@pytest.fixture
def garbage() -> Iterator[str]:
    yield from _serve(b"HTTP/1.1 200 OK\r\n\r\nnot dask" * 100)


def test_a_silent_scheduler_fails_after_the_timeout(silent: str) -> None:
    started = time.monotonic()
    with pytest.raises(ConfigurationError, match="no Dask handshake within 2 s"):  # noqa: SIM117
        with bleu_dask.connect(silent, timeout=2):
            pass
    assert time.monotonic() - started < 20


@pytest.mark.parametrize("server", ["silent", "garbage"])
def test_the_command_line_says_it_in_one_line(
    request: pytest.FixtureRequest, tmp_path: Path, server: str
) -> None:
    address = request.getfixturevalue(server)
    (tmp_path / "a.txt").write_text("the cat sat\n", encoding="utf-8")
    started = time.monotonic()
    completed = subprocess.run(
        [sys.executable, "-m", "bleuprint.cli", "score", "-q", "-r", "a.txt", "-i", "a.txt",
         "--dask", address, "--dask-timeout", "2"],
        cwd=tmp_path, capture_output=True, text=True, check=False, timeout=120,
    )  # fmt: skip
    assert time.monotonic() - started < 60
    assert completed.returncode == 2 and completed.stdout == ""
    assert completed.stderr.count("\n") == 1, completed.stderr
    assert completed.stderr.startswith("bleuprint: error: cannot connect to the Dask scheduler")
    assert "Traceback" not in completed.stderr


@pytest.mark.parametrize("timeout", [0, -1, float("nan"), float("inf"), "10"])
def test_timeouts_must_be_positive_seconds(timeout: object) -> None:
    with pytest.raises(ConfigurationError, match="timeout must be a positive number"):  # noqa: SIM117
        with bleu_dask.connect("local", timeout=timeout):  # type: ignore[arg-type]
            pass


def test_a_float_cell_is_refused_before_dask_makes_it_text() -> None:
    frame = pd.DataFrame({"hypothesis": ["the cat", 3.5], "reference": ["the cat", "a dog"]})
    with pytest.raises(InputError, match=r"column 'hypothesis', row 1: the text is a float"):
        bleu_dask.from_pandas(frame, ["hypothesis", "reference"], npartitions=1)


def test_from_pandas_keeps_text_as_it_is() -> None:
    frame = pd.DataFrame(
        {"hypothesis": ["the cat sat", "a dog"], "reference": ["the cat", "a dog"]}
    )
    data = bleu_dask.from_pandas(frame, ["hypothesis", "reference"], npartitions=2)
    engine = BLEUScore.canonical(max_n=2)
    lazy = bleu_dask.corpus_score(engine, data, references="reference")
    expected = engine.corpus_score(frame["hypothesis"], [[text] for text in frame["reference"]])
    assert lazy.compute(scheduler="sync") == expected


def test_a_numeric_column_is_refused_before_any_task() -> None:
    frame = pd.DataFrame({"hypothesis": [1.5, 2.5], "reference": ["a", "b"]})
    data = dask.dataframe.from_pandas(frame, npartitions=1)
    with pytest.raises(InputError, match="column 'hypothesis' holds float64 values, not text"):
        bleu_dask.corpus_score(BLEUScore(), data, references="reference")


# A worker's preload: on the first task it starts, send $KILL_SIGNAL (SIGKILL, as a crash or
# the kernel's OOM killer would; or SIGSTOP, a process that hangs with its connections open)
# to the process $KILL_ON_TASK names, "worker" for the worker itself.
KILLER = """
import os, signal, time
from distributed import WorkerPlugin

class Killer(WorkerPlugin):
    def transition(self, key, start, finish, **kwargs):
        if finish == "executing":
            once = os.environ.get("KILL_ONCE")  # a file made by the first kill
            if once:
                try:
                    os.close(os.open(once, os.O_CREAT | os.O_EXCL))
                except FileExistsError:
                    return
            target = os.environ["KILL_ON_TASK"]
            number = getattr(signal, os.environ.get("KILL_SIGNAL", "SIGKILL"))
            os.kill(os.getpid() if target == "worker" else int(target), number)
            time.sleep(60)  # (the scheduler's death: the task never ends by itself)

async def dask_setup(worker):
    await worker.plugin_add(Killer(), name="killer")
"""

DASK = [str(Path(sys.executable).with_name("dask"))]


def _wait(until: Callable[[], bool], what: str, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 90
    while not until():
        assert process.poll() is None, f"{what}: the process ended ({process.returncode})"
        assert time.monotonic() < deadline, f"{what}: not within 90 s"
        time.sleep(0.1)


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[Callable[..., str]]:
    """Starts a scheduler (which gives up on a task the first time a worker dies running it:
    ``allowed-failures`` 0) and one worker with the killer preloaded, told what to kill
    (``"worker"`` or ``"scheduler"``) and how (``"SIGKILL"`` or ``"SIGSTOP"``); the
    scheduler's address. (SIGKILL ends the processes afterwards, stopped ones too.)"""
    if not Path(DASK[0]).exists():
        pytest.skip("the dask command is not installed beside this Python")
    processes: list[subprocess.Popen[bytes]] = []
    (tmp_path / "killer.py").write_text(KILLER, encoding="utf-8")

    def start(victim: str, how: str = "SIGKILL") -> str:
        environment = {**os.environ, "DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES": "0"}
        information = tmp_path / "scheduler.json"
        scheduler = subprocess.Popen(
            [*DASK, "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
             "--scheduler-file", str(information)],
            env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        processes.append(scheduler)
        _wait(information.exists, "the scheduler's address", scheduler)
        _wait(lambda: information.read_text().endswith("}"), "the address file", scheduler)
        address = str(json.loads(information.read_text())["address"])
        log = tmp_path / "worker.log"
        target = "worker" if victim == "worker" else str(scheduler.pid)
        with log.open("wb") as output:
            worker = subprocess.Popen(
                [*DASK, "worker", address, "--no-nanny", "--nthreads", "1", "--no-dashboard",
                 "--preload", str(tmp_path / "killer.py")],
                env={**environment, "KILL_ON_TASK": target, "KILL_SIGNAL": how},
                stdout=output, stderr=output,
            )  # fmt: skip
        processes.append(worker)
        _wait(lambda: b"Registered to" in log.read_bytes(), "the worker's registration", worker)
        return address

    try:
        yield start
    finally:
        for process in processes:
            process.kill()
            process.wait(30)


@pytest.mark.parametrize(
    ("victim", "error"),
    [("worker", "KilledWorker"), ("scheduler", "FutureCancelledError")],
)
def test_a_killed_worker_or_scheduler_is_one_line_and_status_1(
    cluster: Callable[..., str], tmp_path: Path, victim: str, error: str
) -> None:
    address = cluster(victim)
    (tmp_path / "ref.txt").write_text("a b c d\na b c\n", encoding="utf-8")
    (tmp_path / "hyp.txt").write_text("a b c d\na b d\n", encoding="utf-8")
    completed = subprocess.run(
        [sys.executable, "-m", "bleuprint.cli", "score", "-q", "-r", "ref.txt", "-i", "hyp.txt",
         "--dask", address, "--dask-timeout", "5"],
        cwd=tmp_path, capture_output=True, text=True, check=False, timeout=180,
    )  # fmt: skip
    assert completed.returncode == 1 and completed.stdout == ""
    assert completed.stderr.count("\n") == 1, completed.stderr  # no log, no traceback
    assert completed.stderr.startswith(f"bleuprint: error: the Dask cluster failed: {error}: ")


@pytest.mark.parametrize(
    ("victim", "said"),
    [
        ("scheduler", "has not answered for 5 s"),
        ("worker", "has sent no heartbeat for 1"),  # 15 s or a little more
    ],
)
def test_a_stopped_scheduler_or_worker_ends_the_run_after_the_timeout(
    cluster: Callable[..., str], tmp_path: Path, victim: str, said: str
) -> None:
    # SIGSTOP: the process neither dies nor answers, and its connections stay open. The
    # remote scheduler keeps a silent worker for 5 minutes (its worker-ttl); the command
    # gives up on a silent scheduler after the timeout and on a silent busy worker after
    # three times it, and says which in one line.
    address = cluster(victim, "SIGSTOP")
    (tmp_path / "ref.txt").write_text("a b c d\na b c\n", encoding="utf-8")
    (tmp_path / "hyp.txt").write_text("a b c d\na b d\n", encoding="utf-8")
    started = time.monotonic()
    completed = subprocess.run(
        [sys.executable, "-m", "bleuprint.cli", "score", "-q", "-r", "ref.txt", "-i", "hyp.txt",
         "--dask", address, "--dask-timeout", "5"],
        cwd=tmp_path, capture_output=True, text=True, check=False, timeout=180,
    )  # fmt: skip
    took = time.monotonic() - started
    assert completed.returncode == 1 and completed.stdout == ""
    assert completed.stderr.count("\n") == 1, completed.stderr  # no log, no traceback
    assert completed.stderr.startswith("bleuprint: error: timed out: the Dask "), completed.stderr
    assert said in completed.stderr
    assert took < 90, f"the run took {took:.0f} s"


def test_a_stopped_local_worker_is_restarted_and_the_score_is_right(tmp_path: Path) -> None:
    # --dask local: its scheduler restarts a worker silent for the timeout (worker-ttl), so
    # a worker that stops itself on its first task delays the run, which then gives the
    # score the same files give without Dask. Every worker preloads the killer; it stops
    # only the first worker to start a task.
    (tmp_path / "killer.py").write_text(KILLER, encoding="utf-8")
    (tmp_path / "ref.txt").write_text("a b c d\na b c\n", encoding="utf-8")
    (tmp_path / "hyp.txt").write_text("a b c d\na b d\n", encoding="utf-8")
    environment = {
        **os.environ,
        "DASK_DISTRIBUTED__WORKER__PRELOAD": json.dumps([str(tmp_path / "killer.py")]),
        "KILL_ON_TASK": "worker",
        "KILL_SIGNAL": "SIGSTOP",
        "KILL_ONCE": str(tmp_path / "stopped-once"),
    }
    command = [sys.executable, "-m", "bleuprint.cli", "score", "-q", "-r", "ref.txt",
               "-i", "hyp.txt", "-f", "json"]  # fmt: skip
    completed = subprocess.run(
        [*command, "--dask", "local", "--dask-timeout", "5"],
        cwd=tmp_path, env=environment, capture_output=True, text=True, check=False, timeout=180,
    )  # fmt: skip
    assert (tmp_path / "stopped-once").exists()  # a worker was stopped
    assert completed.returncode == 0, completed.stderr
    without_dask = subprocess.run(
        command, cwd=tmp_path, capture_output=True, text=True, check=True, timeout=60
    )
    assert json.loads(completed.stdout) == json.loads(without_dask.stdout)


def test_a_local_cluster_says_nothing_when_port_8787_is_taken(tmp_path: Path) -> None:
    # (Not even a warning: the scheduler's HTTP server takes another port without a word.)
    try:
        taken = socket.create_server(("", 8787))
    except OSError:
        taken = None  # taken already, by another cluster
    (tmp_path / "a.txt").write_text("the cat sat on the mat\n", encoding="utf-8")
    try:
        completed = subprocess.run(
            [sys.executable, "-m", "bleuprint.cli", "score", "-b", "-r", "a.txt",
             "-i", "a.txt", "--dask", "local"],
            cwd=tmp_path, capture_output=True, text=True, check=False, timeout=180,
        )  # fmt: skip
    finally:
        if taken is not None:
            taken.close()
    assert (completed.returncode, completed.stdout, completed.stderr) == (0, "100.0\n", "")
