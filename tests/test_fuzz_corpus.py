"""The fuzz corpus replayed (issue 28): every seed and every input a fuzz run ever found failing
(``tests/fuzz/corpus/``) goes through every target of :mod:`tests.fuzz.targets`, each of which
drives a kernel entry point through the public API on both kernels and requires the same
outcome of both. ``python -m tests.fuzz.run TARGET`` searches for new inputs."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bleuprint import tokenizers
from tests.fuzz import targets
from tests.fuzz.run import CORPUS

FOLDERS = sorted(folder.name for folder in CORPUS.iterdir())


def test_every_target_has_its_seeds() -> None:
    assert sorted(targets.TARGETS) == FOLDERS
    assert all(len(list((CORPUS / name).iterdir())) >= 20 for name in FOLDERS)


def test_the_compiled_kernel_is_compared_where_it_must_be_built() -> None:
    if os.environ.get("BLEUPRINT_REQUIRE_COMPILED") == "1":
        assert (targets._compiled, targets._python) == targets.KERNELS


@pytest.mark.parametrize("folder", FOLDERS)
@pytest.mark.parametrize("name", sorted(targets.TARGETS))
def test_the_corpus_gives_the_same_outcome_on_both_kernels(name: str, folder: str) -> None:
    target = targets.TARGETS[name]
    for path in sorted(Path(CORPUS / folder).iterdir()):
        try:
            target(path.read_bytes())
        except Exception as error:
            raise AssertionError(f"{name} on {path.relative_to(CORPUS)}") from error


def test_a_difference_between_the_kernels_fails() -> None:
    # The comparison itself can fail: a call whose value depends on the kernel.
    if len(targets.KERNELS) < 2:
        pytest.skip("the compiled kernel is not built")
    with pytest.raises(AssertionError):
        targets.same_on_both_kernels(lambda: tokenizers.kernel.__name__)
