"""The README's set-up: its test command installs the ``test`` extra alone, without the
documentation's, and must still collect every test, the docs' doctests included."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import REPOSITORY


def test_collecting_the_docs_needs_no_sphinx(tmp_path: Path) -> None:
    # A stand-in package that refuses to import hides the installed Sphinx from the run.
    (tmp_path / "sphinx").mkdir()
    (tmp_path / "sphinx" / "__init__.py").write_text("raise ImportError('no Sphinx here')\n")
    completed = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", "docs"],
        cwd=REPOSITORY,
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 0, completed.stdout[-3000:]
    assert "tests collected" in completed.stdout  # the docs' pages were collected
