"""What the command-line tests share: ``bleuprint`` run in a subprocess, and small example files.

Expected values in those tests come from sacreBLEU or NLTK run beside the command, from the
shared vectors, or from hand computation; the canonical preset is sacreBLEU's BLEU without
tokenization and without smoothing (:func:`canonical_sacrebleu`).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from sacrebleu.metrics import BLEU

from tests.conftest import load_shared_json

HYPOTHESES = "the cat sat on a mat\nthe dog barked at night\nit rained\n"
REFERENCES = "the cat sat on the mat\nthe dog barked all night long\nit rained\n"
BETTER = "the cat sat on the mat\nthe dog barked all night\nit rained\n"
# Most tests pin the canonical preset, which they compute by hand or with sacreBLEU's
# tokenize="none", smooth_method="none"; the default preset has tests of its own.
CANONICAL = ("--preset", "canonical")


def run(
    *arguments: str, stdin: bytes = b"", cwd: Path | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``bleuprint ARGUMENTS`` (as ``python -m bleuprint.cli``), its output as text."""
    return subprocess.run(
        [sys.executable, "-m", "bleuprint.cli", *arguments],
        input=stdin.decode("utf-8", "surrogateescape") if stdin else "",
        capture_output=True,
        check=False,
        text=True,
        cwd=cwd,
        env=env,
        encoding="utf-8",
        errors="surrogateescape",
    )


def succeed(*arguments: str, cwd: Path, stdin: bytes = b"") -> str:
    """The standard output of a run that must succeed silently on standard error."""
    completed = run(*arguments, cwd=cwd, stdin=stdin)
    assert completed.returncode == 0, completed.stderr
    assert completed.stderr == ""
    return completed.stdout


def fails(completed: subprocess.CompletedProcess[str], message: str) -> None:
    """The run failed as expected failures do: one line on stderr, status 2, no output."""
    assert completed.returncode == 2, completed.stderr
    assert completed.stdout == ""
    assert completed.stderr == f"bleuprint: error: {message}\n"


def write_examples(folder: Path) -> Path:
    """``hyp.txt``, ``ref.txt`` and ``better.txt`` in ``folder``."""
    (folder / "hyp.txt").write_text(HYPOTHESES, encoding="utf-8")
    (folder / "ref.txt").write_text(REFERENCES, encoding="utf-8")
    (folder / "better.txt").write_text(BETTER, encoding="utf-8")
    return folder


def lines(text: str) -> list[str]:
    return text.splitlines()


def canonical_sacrebleu(**options: Any) -> BLEU:
    """sacreBLEU's BLEU as the canonical preset defines it (no tokenization, no smoothing)."""
    return BLEU(**{"tokenize": "none", "smooth_method": "none", **options})


SACREBLEU = Path(sys.executable).with_name("sacrebleu")
"""sacreBLEU 2.6.0's own command (a test dependency, installed beside the interpreter)."""

_SACREBLEU_RUNS: dict[tuple[object, ...], subprocess.CompletedProcess[bytes]] = {}


def sacrebleu_run(
    *arguments: str,
    cwd: Path | None = None,
    stdin: bytes = b"",
    env: Mapping[str, str] | None = None,
) -> subprocess.CompletedProcess[bytes]:
    """sacreBLEU's own command on ``arguments``, in ``cwd``, with ``stdin`` and the variables
    of ``env`` over this process's environment (without ``$SACREBLEU_FORMAT`` unless ``env``
    sets it): the oracle of every command-line test that compares with sacreBLEU.

    Each run is made once per test run: its outcome is kept, keyed by the arguments, the bytes
    of every argument that names a file, the folder, standard input and the environment, so
    that a file written anew runs the command anew."""
    folder = Path.cwd() if cwd is None else cwd
    environment = {**os.environ}
    environment.pop("SACREBLEU_FORMAT", None)
    # Under CI's coverage run, the variable by which coverage measures the subprocesses: it
    # would start coverage in sacreBLEU's process too, which runs no bleuprint code (0.13 s of
    # CPU a run).
    environment.pop("COVERAGE_PROCESS_CONFIG", None)
    environment.update(env or {})
    files = tuple(
        (folder / argument).read_bytes() if (folder / argument).is_file() else None
        for argument in arguments
    )
    key = (arguments, files, folder, stdin, tuple(sorted(environment.items())))
    if key not in _SACREBLEU_RUNS:
        _SACREBLEU_RUNS[key] = subprocess.run(
            [str(SACREBLEU), *arguments],
            input=stdin,
            capture_output=True,
            check=False,
            cwd=folder,
            env=environment,
        )
    return _SACREBLEU_RUNS[key]


def both_commands(
    arguments: list[str], *, stdin: bytes = b"", env: dict[str, str] | None = None
) -> tuple[subprocess.CompletedProcess[bytes], subprocess.CompletedProcess[bytes]]:
    """sacreBLEU's run (made once per test run: :func:`sacrebleu_run`) and bleuprint's, which
    runs meanwhile."""
    environment = {**os.environ}
    environment.pop("SACREBLEU_FORMAT", None)
    environment.update(env or {})
    command = [sys.executable, "-m", "bleuprint.cli", "sacrebleu", *arguments]
    with subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        env=environment,
    ) as bleuprint:  # fmt: skip
        expected = sacrebleu_run(*arguments, stdin=stdin, env=env)
        stdout, stderr = bleuprint.communicate(stdin)
    got = subprocess.CompletedProcess(command, bleuprint.returncode, stdout, stderr)
    return expected, got


def sacrebleu_cli(*arguments: str, cwd: Path) -> str:
    """The standard output of a run of sacreBLEU's own command that must succeed
    (:func:`sacrebleu_run`)."""
    completed = sacrebleu_run(*arguments, cwd=cwd)
    assert completed.returncode == 0, completed.stderr
    return completed.stdout.decode("utf-8")


def write_vector_systems(folder: Path) -> dict[str, Any]:
    """The shared significance vectors' systems (``baseline``, ``sysA``, ``sysB``: 120
    segments each, with punctuation for the 13a tokenizer) and reference as files in
    ``folder``; returns the vectors."""
    vectors: dict[str, Any] = load_shared_json("vectors", "sacrebleu_stats_vectors.json")
    significance = vectors["significance"]
    for name, hypotheses in significance["hypotheses"].items():
        (folder / f"{name}.txt").write_text("\n".join(hypotheses) + "\n", encoding="utf-8")
    references = significance["references"][0]
    (folder / "ref.txt").write_text("\n".join(references) + "\n", encoding="utf-8")
    return significance


def system_json(stdout: str, index: int = 0) -> dict[str, Any]:
    """System ``index``'s score object in a command's JSON document, with the document's
    ``bleuprint_signature`` beside its keys."""
    document = json.loads(stdout)
    system: dict[str, Any] = document["systems"][index]
    return {**system, "bleuprint_signature": document["bleuprint_signature"]}
