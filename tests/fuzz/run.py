"""Fuzz one target of :mod:`tests.fuzz.targets` with atheris (libFuzzer for Python)::

    python -m tests.fuzz.run TARGET [LIBFUZZER OPTIONS...]

for example ``python -m tests.fuzz.run count_texts -max_total_time=30``. It starts from the
committed seeds (``tests/fuzz/corpus/TARGET/``, only read) and writes the inputs it finds
new coverage with into a scratch folder (or into the first folder given after the options); an
input that fails is written as ``crash-...`` into the current folder (``-artifact_prefix=``
moves it): copy it into ``tests/fuzz/corpus/TARGET/`` and it is replayed by
``tests/test_fuzz_corpus.py`` from then on.

Coverage is that of bleuprint's Python code, which atheris instruments as it is imported: the
compiled kernel is built by gcc, without libFuzzer's instrumentation (which needs clang), so
its own branches do not guide the search; its results are compared with the twin's on every
input all the same.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

CORPUS = Path(__file__).parent / "corpus"


def main(argv: list[str]) -> None:
    import atheris  # noqa: PLC0415 - only to fuzz: the replay test needs no atheris

    if len(argv) < 2:
        sys.exit(f"usage: {argv[0]} TARGET [LIBFUZZER OPTIONS...]")
    name, arguments = argv[1], argv[2:]
    with atheris.instrument_imports(include=["bleuprint"]):
        from tests.fuzz.targets import TARGETS  # noqa: PLC0415 - instrumented

    if name not in TARGETS:
        sys.exit(f"unknown target {name!r}; the targets: {', '.join(TARGETS)}")
    folders = [argument for argument in arguments if not argument.startswith("-")]
    scratch = [] if folders else [tempfile.mkdtemp(prefix=f"bleuprint-fuzz-{name}-")]
    atheris.Setup([argv[0], *arguments, *scratch, str(CORPUS / name)], TARGETS[name])
    atheris.Fuzz()


if __name__ == "__main__":
    main(sys.argv)
