"""Shared test set-up: the Hypothesis profiles, the markers that split CI's runs, and the path to
``../shared``."""

from __future__ import annotations

import json
import os
import signal
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from hypothesis import HealthCheck, settings

REPOSITORY = Path(__file__).resolve().parent.parent

# Derandomized everywhere, so a run never fails by chance; CI runs the same examples.
settings.register_profile(
    "ci",
    derandomize=True,
    deadline=None,
    max_examples=100,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", derandomize=True, deadline=None, max_examples=200)
# CI's second run, on the plain-Python twin of the kernel: the compiled run already compares the
# two kernels head-on, so this one repeats fewer examples (tests that set their own number keep it).
settings.register_profile(
    "twin",
    derandomize=True,
    deadline=None,
    max_examples=20,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


# -- markers ------------------------------------------------------------------------------------

# Modules whose tests run the command or a cluster in other processes (the CLI's behaviour does
# not depend on the kernel, which the in-process tests compare head-on): CI's run on the
# plain-Python twin leaves them out with ``-m "not processes"``.
_PROCESS_MODULES = (
    "test_cli_",
    "test_dask",
    "test_docs_cli",
    "test_benchmark_smoke",
    "test_set_up",
    "test_distributed",
)


def _under_coverage() -> bool:
    """Whether this process is measured by coverage, whose tracing slows Python code unevenly."""
    coverage = sys.modules.get("coverage")
    return coverage is not None and coverage.Coverage.current() is not None


_Result = TypeVar("_Result")


def untraced(function: Callable[..., _Result], *arguments: Any) -> _Result:
    """``function(*arguments)`` with this thread's trace function (coverage's) suspended, for
    an oracle's code, which coverage does not measure anyway. sacreBLEU's zh tokenizer builds
    its output with ``+=`` on a str, which CPython extends in place only while nothing else
    holds the string; a tracer holds the frame's locals, and each ``+=`` copies the whole
    string: 15 minutes instead of 5 seconds for a line of every code point."""
    tracer = sys.gettrace()
    sys.settrace(None)
    try:
        return function(*arguments)
    finally:
        sys.settrace(tracer)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "processes: the test runs bleuprint in other processes")
    config.addinivalue_line(
        "markers", "timing: the test compares measured times (never run under coverage)"
    )
    config.addinivalue_line(
        "markers",
        "chooses_kernel: the test runs each kernel itself (a 'kernel' parameter, or the fuzz "
        "corpus on both), whichever the environment chose: CI's twin run leaves it out",
    )
    config.addinivalue_line(
        "markers",
        "twin: the test's 'kernel' parameter is the plain-Python twin: it runs nothing of the "
        "compiled kernel, and CI's runs under sanitizers leave it out",
    )
    config.addinivalue_line(
        "markers",
        "scale: the test proves a size or a memory bound of the compiled path, which CI's run on "
        "the plain-Python twin leaves out (minutes there, and nothing more proved)",
    )


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """``-n auto`` (pyproject.toml's addopts): a worker for each CPU and one more, which runs
    while another waits on a timeout (the Dask fault tests wait about a minute in all) or on a
    command it started. ``PYTEST_XDIST_AUTO_NUM_WORKERS`` still decides where it is set."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # (pytest-xdist's own hook reads it)
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return (cpus or 1) + 1


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    skip_timing = pytest.mark.skip(
        reason="a timing test: coverage's tracing distorts times; the plain runs time it"
    )
    measured = _under_coverage()
    for item in items:
        if item.path.name.startswith(_PROCESS_MODULES):
            item.add_marker(pytest.mark.processes)
        if _chooses_kernel(item):
            item.add_marker(pytest.mark.chooses_kernel)
        if _runs_the_twin(item):
            item.add_marker(pytest.mark.twin)
        if measured and item.get_closest_marker("timing"):
            item.add_marker(skip_timing)


def _chooses_kernel(item: pytest.Item) -> bool:
    """Whether the test runs the kernels it names, not the one ``BLEUPRINT_PURE_PYTHON``
    chose: its outcome is the same in both of CI's runs."""
    callspec = getattr(item, "callspec", None)
    return item.path.name == "test_fuzz_corpus.py" or (
        callspec is not None and "kernel" in callspec.params
    )


def _runs_the_twin(item: pytest.Item) -> bool:
    """Whether the test's kernel parameter is the plain-Python twin (the module, or its name)."""
    callspec = getattr(item, "callspec", None)
    kernel = callspec.params.get("kernel") if callspec is not None else None
    return getattr(kernel, "__name__", kernel) in {"bleuprint._kernels._python", "python"}


def shared_path() -> Path | None:
    """``$BLEUPRINT_SHARED`` or ``../shared`` beside the repository, if it exists."""
    path = Path(os.environ.get("BLEUPRINT_SHARED", REPOSITORY.parent / "shared"))
    return path if path.is_dir() else None


def require_shared(*parts: str) -> Path:
    """The path below ``../shared``; skip the test where it is absent, or fail when
    ``BLEUPRINT_REQUIRE_SHARED=1`` says it must be there (as in CI)."""
    root = shared_path()
    path = root.joinpath(*parts) if root else None
    if path is None or not path.exists():
        reason = f"../shared/{'/'.join(parts)} is not available (set BLEUPRINT_SHARED)"
        if os.environ.get("BLEUPRINT_REQUIRE_SHARED") == "1":
            pytest.fail(reason + " but BLEUPRINT_REQUIRE_SHARED=1", pytrace=False)
        pytest.skip(reason)
    return path


def load_shared_json(*parts: str) -> Any:
    with require_shared(*parts).open(encoding="utf-8") as handle:
        return json.load(handle)


@pytest.fixture(scope="session")
def shared() -> Any:
    """:func:`require_shared`, for test modules (which cannot import this conftest)."""
    return require_shared


def _shared_cases(*parts: str) -> list[Any]:
    """The cases of a shared JSON list, or one placeholder whose test skips (or fails)."""
    root = shared_path()
    path = root.joinpath(*parts) if root else None
    if path is None or not path.exists():
        return [pytest.param(None, id="shared-data-absent")]
    with path.open(encoding="utf-8") as handle:
        cases = json.load(handle)
    if isinstance(cases, dict):  # the stats vectors group their cases by kind
        cases = cases["compute_bleu"]
    return [pytest.param(case, id=f"{index}-{case['source']}") for index, case in enumerate(cases)]


def _wmt22_pairs() -> list[str]:
    """The language pairs of ``data/wmt22``; only those named in ``BLEUPRINT_WMT22_PAIRS``
    (comma-separated) where it is set, as for CI's run on the plain-Python twin."""
    root = shared_path()
    folder = root / "data" / "wmt22" if root else None
    pairs = sorted(path.parent.name for path in folder.glob("*/expected.json")) if folder else []
    chosen = os.environ.get("BLEUPRINT_WMT22_PAIRS")
    if chosen is not None and pairs:
        named = chosen.split(",")
        if not set(named) <= set(pairs):
            raise pytest.UsageError(f"BLEUPRINT_WMT22_PAIRS={chosen}: not among {pairs}")
        pairs = [pair for pair in pairs if pair in named]
    return pairs or ["shared-data-absent"]


def _wmt22_configurations() -> list[Any]:
    """``(pair, configuration name)`` for every configuration of every pair's expected.json."""
    root = shared_path()
    cases = []
    for pair in _wmt22_pairs():
        path = root / "data" / "wmt22" / pair / "expected.json" if root else None
        if path is None or not path.exists():
            return [pytest.param("shared-data-absent", None, id="shared-data-absent")]
        with path.open(encoding="utf-8") as handle:
            configurations = json.load(handle)["configs"]
        cases += [pytest.param(pair, name, id=f"{pair}-{name}") for name in configurations]
    return cases


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Parametrize over the shared data: ``wmt22_pair`` (a folder of ``data/wmt22``), with
    ``wmt22_configuration`` (each configuration name of its expected.json),
    ``sacrebleu_vector`` and ``sacrebleu_stats_vector`` (the cases of the vector files)."""
    if {"wmt22_pair", "wmt22_configuration"} <= set(metafunc.fixturenames):
        metafunc.parametrize(("wmt22_pair", "wmt22_configuration"), _wmt22_configurations())
    elif "wmt22_pair" in metafunc.fixturenames:
        metafunc.parametrize("wmt22_pair", _wmt22_pairs())
    if "sacrebleu_vector" in metafunc.fixturenames:
        metafunc.parametrize("sacrebleu_vector", _shared_cases("vectors", "sacrebleu_vectors.json"))
    if "sacrebleu_stats_vector" in metafunc.fixturenames:
        metafunc.parametrize(
            "sacrebleu_stats_vector", _shared_cases("vectors", "sacrebleu_stats_vectors.json")
        )


CIRCULATION = ("vectors", "circulation_vectors.json")


def circulation_cases(implementation: str) -> list[Any]:
    """The cases of ``circulation_vectors.json`` for one implementation (its
    ``meta.implementations`` key), as parameters; one placeholder where the file is absent,
    whose test must call ``require_shared(*CIRCULATION)`` to skip (or fail)."""
    root = shared_path()
    path = root.joinpath(*CIRCULATION) if root else None
    if path is None or not path.exists():
        return [pytest.param(None, id="shared-data-absent")]
    with path.open(encoding="utf-8") as handle:
        cases = json.load(handle)["cases"]
    return [
        pytest.param(case, id=f"{index}-{case['source'][:60]}")
        for index, case in enumerate(cases)
        if case["implementation"] == implementation
    ]


def as_the_preset_reads(
    preset: Any, hypotheses: list[str], references: list[list[str]]
) -> tuple[list[str], list[list[str]]]:
    """English test text as ``preset`` reads it: unchanged, or for a preset that takes token
    ids only (``preset.takes``; fairseq's: one reference each) every word written as a decimal
    id from 4 on (fairseq's pad, eos and unk are 1 to 3), and each segment's first reference."""
    if preset.takes == "text":
        return hypotheses, references
    vocabulary: dict[str, int] = {}

    def ids(text: str) -> str:
        words = text.split()
        return " ".join(str(vocabulary.setdefault(word, 4 + len(vocabulary))) for word in words)

    return [ids(text) for text in hypotheses], [[ids(refs[0])] for refs in references]


@pytest.fixture
def interruptible() -> Iterator[None]:
    """Children started in the test take Ctrl-C's default action. A shell that starts the tests
    in the background leaves SIGINT ignored, and a child inherits an ignored signal (a handled
    one is reset to the default when it starts its program)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


NLTK_WARNS = pytest.mark.filterwarnings("ignore::bleuprint.compat.nltk.ZeroOverlapWarning")
"""For tests that score under NLTK's definition, which warns (as NLTK does) of an order without a
match; tests of that warning use ``pytest.warns``, which sees it all the same."""
