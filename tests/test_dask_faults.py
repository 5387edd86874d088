"""Dask under faults (issue 16): a scheduler that accepts connections and never answers, one
that speaks garbage, timeouts that must be sane, and cells that are not text.

The servers are threads of this process on 127.0.0.1, bounded in time: each stops by itself
after a few seconds even if the test does not stop it.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
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
