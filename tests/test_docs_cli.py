"""The examples of ``docs/cli.md``, run: each ``$ bleuprint ...`` line's output must be the
text shown under it (``...`` stands for any text, such as the version in a signature)."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

PAGE = Path(__file__).resolve().parent.parent / "docs" / "cli.md"
_FILE = re.compile(r"```\{code-block\} text\n:caption: (\S+)\n\n(.*?)```", re.DOTALL)
_CONSOLE = re.compile(r"```console\n(.*?)```", re.DOTALL)


def examples() -> list[tuple[str, str]]:
    """Each command of the page with the output shown for it."""
    found = []
    for block in _CONSOLE.findall(PAGE.read_text(encoding="utf-8")):
        # a command starts a line ("$ " inside an output, as in LaTeX, is not one)
        for example in re.split(r"^\$ ", block, flags=re.MULTILINE)[1:]:
            command, _, output = example.partition("\n")
            found.append((command, output))
    return found


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The page's example files, written out."""
    path = tmp_path_factory.mktemp("docs")
    for name, text in _FILE.findall(PAGE.read_text(encoding="utf-8")):
        (path / name).write_text(text, encoding="utf-8")
    return path


def test_the_page_has_examples() -> None:
    assert len(examples()) >= 8


@pytest.mark.parametrize(("command", "output"), examples())
def test_example_output(folder: Path, command: str, output: str) -> None:
    program, *arguments = shlex.split(command)
    assert program == "bleuprint"
    completed = subprocess.run(
        [sys.executable, "-m", "bleuprint.cli", *arguments],
        capture_output=True,
        text=True,
        cwd=folder,
        check=False,
    )
    shown = completed.stdout + completed.stderr
    pattern = ".*".join(re.escape(part) for part in output.split("..."))
    assert re.fullmatch(pattern, shown), f"{command}\n--- docs:\n{output}\n--- got:\n{shown}"
