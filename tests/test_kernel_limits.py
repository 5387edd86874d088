"""The kernel's limits (issue 28), checked before anything overflows: token ids of any size
and sign are only compared, n-gram orders far above a segment's length count nothing, and the
two limits of 32 bits (a hypothesis's tokens, a vocabulary's distinct tokens) are each a
bleuprint InputError that names it, on both kernels alike.

Those two cannot be reached in a test without gigabytes of input; the compiled kernel takes
them lowered at build time, so a scratch build with small ones (as ``.ci/sanitized`` builds a
scratch copy) reaches them in a child process, and the twin's are lowered in place."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import sacrebleu

from bleuprint import BLEUScore, InputError, ngrams, tokenizers
from bleuprint._kernels import _python
from tests.fuzz.targets import KERNELS, running_on

REPOSITORY = Path(__file__).resolve().parent.parent
KERNEL_NAMES = [kernel.__name__.rpartition(".")[2] for kernel in KERNELS]
on_both_kernels = pytest.mark.parametrize("kernel", KERNELS, ids=KERNEL_NAMES)


@pytest.fixture
def on(kernel: ModuleType) -> Iterator[None]:
    with running_on(kernel):
        yield


def test_the_twin_keeps_the_compiled_limits() -> None:
    for kernel in KERNELS:
        assert kernel.MAX_HYPOTHESIS_TOKENS == 2**31 - 2  # (n-gram labels of 32 bits)
        assert kernel.MAX_VOCABULARY == 2**32 - 1  # (token ids of 32 bits, 0 kept for none)


# -- token ids of any size and sign ---------------------------------------------------------

LIMITS = [2**32 - 1, 2**32, 2**32 + 1, 2**63 - 1, -(2**63), -1, 0, 2**31, -(2**31) - 1]


@on_both_kernels
@pytest.mark.usefixtures("on")
def test_ids_at_the_limits_score_as_the_same_words(kernel: ModuleType) -> None:
    hypotheses = [LIMITS, LIMITS[::-1], [2**63 - 1] * 5 + [-1, -1]]
    references = [[[*LIMITS[:6], 7]], [LIMITS[3:]], [[2**63 - 1] * 4 + [-1]]]
    words = [" ".join(map(str, ids)) for ids in hypotheses]
    streams = [[" ".join(map(str, refs[0])) for refs in references]]
    expected = sacrebleu.corpus_bleu(words, streams, tokenize="none").score / 100
    assert BLEUScore.sacrebleu(tokenize="none").corpus_score(hypotheses, references).score == (
        pytest.approx(expected, rel=1e-12)
    )


# -- orders far above a segment's length ----------------------------------------------------


@on_both_kernels
@pytest.mark.usefixtures("on")
def test_orders_far_above_a_segments_length_count_nothing(kernel: ModuleType) -> None:
    engine = BLEUScore(ngrams=ngrams.Contiguous(1024))
    stats = engine.count_segments(["a b a", "c"], [["a b a c"], ["c c"]])
    # By hand: 3 + 1 unigrams (all matched), 2 bigrams (matched), 1 trigram, nothing above.
    assert stats.matches[:, :4].tolist() == [[3, 2, 1, 0], [1, 0, 0, 0]]
    assert stats.totals[:, :4].tolist() == [[3, 2, 1, 0], [1, 0, 0, 0]]
    assert not stats.matches[:, 3:].any() and not stats.totals[:, 3:].any()
    assert engine.sentence_score("a b a", ["a b a"]).stats.totals[:4] == (3, 2, 1, 0)


# -- the limits of 32 bits, lowered ---------------------------------------------------------

SMALL = {"MAX_HYPOTHESIS_TOKENS": 4, "MAX_VOCABULARY": 6}
TOO_LONG = "a hypothesis has more than 4 tokens, the most one can have"
TOO_MANY = (
    "more than 6 distinct tokens in one call, the most a vocabulary holds: count fewer "
    "segments at once"
)
_USER = tokenizers.from_callable(str.split, signature="split")
CALLS: dict[str, tuple[Callable[[], Any], str | None]] = {
    "four tokens and six words": (
        lambda: BLEUScore().corpus_score(["a b c d"], [["a b e f"]]).stats.matches,
        None,
    ),
    "a corpus": (lambda: BLEUScore().corpus_score(["a b c d e"], [["a b"]]), TOO_LONG),
    "a corpus, 13a": (
        lambda: BLEUScore.sacrebleu().corpus_score(["a b c d e"], [["a"]]),
        TOO_LONG,
    ),
    "token ids": (lambda: BLEUScore().corpus_score([[1, 2, 3, 4, 5]], [[[1]]]), TOO_LONG),
    "a sentence": (lambda: BLEUScore().sentence_score("a b c d e", ["a b"]), TOO_LONG),
    "a user's tokenizer": (
        lambda: BLEUScore(tokenizer=_USER).corpus_score(["a b c d e"], [["a"]]),
        TOO_LONG,
    ),
    "pairwise": (lambda: BLEUScore().pairwise_scores([["a b c d e", "a b"]]), TOO_LONG),
    "a corpus's words": (
        lambda: BLEUScore().corpus_score(["a b c", "d"], [["e f"], ["g"]]),
        TOO_MANY,
    ),
    "string tokens": (
        lambda: BLEUScore().corpus_score([["a", "b", "c"]], [[["d", "e", "f", "g"]]]),
        TOO_MANY,
    ),
    "a sentence's words": (lambda: BLEUScore().sentence_score("a b c", ["d e f g"]), TOO_MANY),
    "a user's tokenizer's words": (
        lambda: BLEUScore(tokenizer=_USER).corpus_score(["a b c"], [["d e f g"]]),
        TOO_MANY,
    ),
}


def outcomes(kernel: ModuleType) -> dict[str, str]:
    """Each call's InputError on ``kernel``, or ``"ok"`` where it gives a value."""
    found = {}
    for name, (call, _) in CALLS.items():
        with running_on(kernel):
            try:
                call()
            except InputError as error:
                found[name] = str(error)
            else:
                found[name] = "ok"
    return found


EXPECTED = {name: message or "ok" for name, (_, message) in CALLS.items()}


def test_the_twin_refuses_past_its_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in SMALL.items():
        monkeypatch.setattr(_python, name, value)
    assert outcomes(_python) == EXPECTED


CHILD = """
import json, sys
from bleuprint._kernels import _compiled
from tests import test_kernel_limits as limits
assert _compiled.__file__.startswith(sys.argv[1]), _compiled.__file__
assert {name: getattr(_compiled, name) for name in limits.SMALL} == limits.SMALL
print(json.dumps(limits.outcomes(_compiled)))
"""


def test_a_compiled_kernel_built_with_small_limits_refuses_past_them(tmp_path: Path) -> None:
    if shutil.which("gcc") is None:
        if os.environ.get("BLEUPRINT_REQUIRE_COMPILED") == "1":
            pytest.fail("no gcc to build the kernel with small limits")
        pytest.skip("no gcc to build the kernel with small limits")
    shutil.copytree(REPOSITORY / "src", tmp_path / "src")
    kernels = tmp_path / "src" / "bleuprint" / "_kernels"
    for built in kernels.glob("_compiled*.so"):
        built.unlink()
    definitions = [f"-DBLEUPRINT_{name}={value}" for name, value in SMALL.items()]
    subprocess.run(
        ["gcc", "-shared", "-fPIC", "-O0", "-ffp-contract=off", *definitions,
         f"-I{sysconfig.get_paths()['include']}", str(kernels / "_compiled.c"), "-lm",
         "-o", str(kernels / f"_compiled{sysconfig.get_config_var('EXT_SUFFIX')}")],
        check=True, timeout=300,
    )  # fmt: skip
    path = os.pathsep.join([str(tmp_path / "src"), str(REPOSITORY)])
    completed = subprocess.run(
        [sys.executable, "-c", CHILD, str(tmp_path)],
        capture_output=True, text=True, check=False, timeout=120, cwd=REPOSITORY,
        # Unmeasured: coverage would count the scratch copy of the source as more source.
        env={**{k: v for k, v in os.environ.items() if "COVERAGE" not in k}, "PYTHONPATH": path},
    )  # fmt: skip
    assert completed.returncode == 0, completed.stderr
    assert json.loads(completed.stdout) == EXPECTED


def test_the_limits_can_only_be_lowered(tmp_path: Path) -> None:
    if shutil.which("gcc") is None:
        pytest.skip("no gcc")
    kernel = REPOSITORY / "src" / "bleuprint" / "_kernels" / "_compiled.c"
    completed = subprocess.run(
        ["gcc", "-fsyntax-only", "-DBLEUPRINT_MAX_VOCABULARY=4294967296",
         f"-I{sysconfig.get_paths()['include']}", str(kernel)],
        capture_output=True, text=True, check=False, timeout=120,
    )  # fmt: skip
    assert completed.returncode != 0
    assert "the kernel's limits can be lowered, never raised" in completed.stderr
