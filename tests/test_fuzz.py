"""Fuzzing the promises of issue 16: hostile command lines and files, and public entry points
given wrong types and shapes.

- Command lines (options from a vocabulary of valid and invalid values, files with every kind of
  line ending, byte-order marks, invalid UTF-8, NUL, huge lines), run through a real process: the
  exit status is 0 or 2 (1 would be an unexpected error), an error is one line on standard error
  with nothing on standard output, there is never a traceback, and no file is left behind. The
  same command lines also run in-process through :func:`bleuprint.cli.main`, many more of them.
- Entry points (corpus and sentence scores, counting, pairwise scores, statistics,
  configurations, reference streams) given values of every type and shape: each call raises a
  bleuprint error, or returns the score sacreBLEU gives for the same texts.

Derandomized (the ``ci`` profile of ``tests/conftest.py``) and kept small for CI. A longer run,
for local use (about 20 minutes)::

    HYPOTHESIS_PROFILE=dev BLEUPRINT_FUZZ_SCALE=20 .venv/bin/python -m pytest tests/test_fuzz.py

``BLEUPRINT_FUZZ_SCALE`` multiplies every test's number of examples; ``HYPOTHESIS_PROFILE=dev``
keeps the examples derandomized; add ``--hypothesis-seed=N`` with a random profile to explore
new ones.
"""

from __future__ import annotations

import contextlib
import io
import math
import os
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import sacrebleu
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bleuprint import BLEUError, BLEUScore, BLEUStats, cli
from bleuprint.compat import sacrebleu as sacrebleu_definition

SCALE = int(os.environ.get("BLEUPRINT_FUZZ_SCALE", "1"))
QUICK = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]

# -- files -----------------------------------------------------------------------------------

WORDS = st.sampled_from(["the", "cat", "sat", ".", ",", "1,000.5", "中文", "é", "--", "&amp;", "a"])
ENDINGS = st.sampled_from([b"\n", b"\r\n", b"\r", "\u2028".encode(), "\x85".encode(), b"\x0b"])
ODD = st.sampled_from(
    [b"\xef\xbb\xbf", b"\xff", b"\xc3", b"\x00", b"\t", b" \t ", "\u00a0".encode(), b"." * 5000]
)


@st.composite
def _file(draw: st.DrawFn) -> bytes:
    """Lines of words and odd bytes, each with its ending, maybe a BOM first, maybe a huge line,
    maybe no final line break."""
    lines = []
    for _ in range(draw(st.integers(0, 4))):
        parts = draw(st.lists(st.one_of(WORDS.map(str.encode), ODD), max_size=6))
        lines.append(b" ".join(parts) + draw(ENDINGS))
    data = b"".join(lines)
    if draw(st.booleans()):
        data = data.rstrip(b"\n")
    if draw(st.integers(0, 9)) == 0:
        data += b"the " * 50_000 + b"\n"
    return data


# -- command lines ---------------------------------------------------------------------------

VALUES = st.sampled_from(["1", "0", "-1", "4", "inf", "nan", "1e400", "x", "", "\n", "0.1"])
FLAGS = ["-lc", "-b", "-sl", "--effective-order", "--paired-bs", "-ci", "--paired-ar"]
JUNK = ["--bogus", "-s", "-i", "-r"]  # unknown, abbreviated, and options missing their values
OPTIONS = st.one_of(
    st.tuples(st.just("--preset"), st.sampled_from(["canonical", "nltk", "russian", "nope"])),
    st.tuples(st.just("-tok"), st.sampled_from(["13a", "zh", "intl", "char", "none", "x"])),
    st.tuples(st.just("--smooth"), st.sampled_from(["exp", "floor", "add-k", "none", "x"])),
    st.tuples(st.sampled_from(["--smooth-value", "--max-n", "-w", "-nr", "--seed"]), VALUES),
    st.tuples(st.just("--part"), st.sampled_from(["ref=shortest", "tok=", "x=y", "ngram=(" * 40])),
    st.tuples(st.just("-f"), st.sampled_from(["json", "text", "tsv", "xml"])),
    st.tuples(st.sampled_from(["--paired-bs-n", "--paired-ar-n", "--confidence-n"]), VALUES),
    st.sampled_from(FLAGS + JUNK).map(lambda flag: (flag,)),
)


@st.composite
def _command_line(draw: st.DrawFn) -> tuple[list[str], dict[str, bytes]]:
    files = {name: draw(_file()) for name in ("ref.txt", "hyp.txt", "other.txt")}
    systems = draw(st.sampled_from([["hyp.txt"], ["hyp.txt", "other.txt"], ["-"], ["missing"]]))
    command = draw(st.sampled_from(["score", "compare"]))
    arguments = [command, "-q", "-r", "ref.txt", "-i", *systems]
    for option in draw(st.lists(OPTIONS, max_size=4)):
        arguments += option
    return arguments, files


def _check_promises(status: int, stdout: str, stderr: str) -> None:
    assert "Traceback" not in stderr, stderr
    assert status in (0, 2), (status, stderr)  # 1 is an unexpected error: a bug
    if status:
        assert stdout == "", stdout
        assert stderr.count("\n") == 1 and stderr.startswith("bleuprint"), stderr
    else:
        assert stdout, stderr
        assert all(line.startswith("bleuprint: warning") for line in stderr.splitlines()), stderr


def _folder(files: dict[str, bytes]) -> tempfile.TemporaryDirectory[str]:
    folder = tempfile.TemporaryDirectory(prefix="bleuprint-fuzz-")
    for name, data in files.items():
        (Path(folder.name) / name).write_bytes(data)
    return folder


@settings(max_examples=12 * SCALE, suppress_health_check=QUICK)
@given(_command_line())
def test_command_lines_in_a_process(case: tuple[list[str], dict[str, bytes]]) -> None:
    arguments, files = case
    with _folder(files) as folder:
        completed = subprocess.run(
            [sys.executable, "-m", "bleuprint.cli", *arguments],
            input=files["hyp.txt"],
            capture_output=True,
            cwd=folder,
            check=False,
            timeout=120,
        )
        _check_promises(
            completed.returncode,
            completed.stdout.decode("utf-8", "replace"),
            completed.stderr.decode("utf-8", "replace"),
        )
        assert sorted(os.listdir(folder)) == sorted(files)


@settings(max_examples=150 * SCALE, suppress_health_check=QUICK)
@given(_command_line())
def test_command_lines_in_process(case: tuple[list[str], dict[str, bytes]]) -> None:
    arguments, files = case
    arguments = [argument for argument in arguments if argument != "-"]  # no stdin here
    with _folder(files) as folder, contextlib.chdir(folder):
        stdout, stderr = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            status = cli.main(arguments)
        _check_promises(status, stdout.getvalue(), stderr.getvalue())
        assert sorted(os.listdir(folder)) == sorted(files)


# -- entry points ----------------------------------------------------------------------------

TEXTS = st.text(
    st.characters(codec="utf-8", exclude_categories=("Cs",)) | st.sampled_from(list(".,-&中 ")),
    max_size=30,
)
WRONG = st.one_of(
    st.none(),
    st.integers(),
    st.floats(allow_nan=True),
    st.booleans(),
    st.binary(max_size=5),
    TEXTS,
    st.dictionaries(TEXTS, TEXTS, max_size=2),
    st.sets(TEXTS, max_size=2),
    st.lists(st.one_of(st.none(), st.integers(), TEXTS, st.binary(max_size=3)), max_size=3),
)


@st.composite
def _corpus(draw: st.DrawFn) -> tuple[Any, Any, list[str] | None, list[list[str]] | None]:
    """Hypotheses and references as some container, with the plain lists they hold when they
    are a valid corpus (for the oracle), else ``None``."""
    if draw(st.integers(0, 3)) == 0:
        return draw(WRONG), draw(WRONG), None, None
    size = draw(st.integers(1, 4))
    references_each = draw(st.integers(1, 3))
    hypotheses = draw(st.lists(TEXTS, min_size=size, max_size=size))
    references = [
        draw(st.lists(TEXTS, min_size=references_each, max_size=references_each))
        for _ in range(size)
    ]
    container = draw(st.sampled_from(["list", "tuple", "numpy", "generator", "broken"]))
    if container == "tuple":
        return tuple(hypotheses), tuple(map(tuple, references)), hypotheses, references
    if container == "numpy":
        return np.array(hypotheses, dtype=object), references, hypotheses, references
    if container == "generator":
        return iter(hypotheses), iter(references), hypotheses, references
    if container == "broken":  # one reference list replaced by something wrong
        broken = list(references)
        # (not a list of texts: that would be a segment's references, of its own length)
        broken[draw(st.integers(0, size - 1))] = draw(WRONG.filter(_not_texts))
        return hypotheses, broken, None, None
    return hypotheses, references, hypotheses, references


def _not_texts(value: object) -> bool:
    return not (isinstance(value, list) and all(isinstance(item, str) for item in value))


def _sacrebleu(hypotheses: list[str], references: list[list[str]]) -> float:
    streams = [list(stream) for stream in zip(*references)]
    return float(sacrebleu.corpus_bleu(hypotheses, streams).score) / 100


@settings(max_examples=200 * SCALE, suppress_health_check=QUICK)
@given(_corpus())
def test_corpus_scores_are_sacrebleus_or_a_bleuprint_error(case: Any) -> None:
    hypotheses, references, plain_hypotheses, plain_references = case
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the layout warning is tested on its own
            score = BLEUScore.sacrebleu().corpus_score(hypotheses, references).score
    except BLEUError:
        return
    assert plain_hypotheses is not None and plain_references is not None, (hypotheses, references)
    assert math.isfinite(score) and 0 <= score <= 1
    # sacreBLEU reports 100 x the score: equal up to that division's rounding.
    assert abs(score - _sacrebleu(plain_hypotheses, plain_references)) < 1e-12


ENTRY_POINTS = {
    "compute": lambda a, b: BLEUScore.sacrebleu_sentence().compute(a, b),
    "sentence_score": lambda a, b: BLEUScore().sentence_score(a, b).score,
    "sentence_scores": lambda a, b: BLEUScore.canonical().sentence_scores(a, b).scores,
    "count_segments": lambda a, b: BLEUScore.nltk().count_segments(a, b),
    "pairwise_scores": lambda a, b: BLEUScore.canonical().pairwise_scores(a),
    "score": lambda a, b: BLEUScore().score(a),
    "from_signature": lambda a, b: BLEUScore.from_signature(a),
    "from_dict": lambda a, b: BLEUScore.from_dict(a),
    "stats_from_dict": lambda a, b: BLEUStats.from_dict(a),
    "from_streams": sacrebleu_definition.from_streams,
}


@settings(max_examples=300 * SCALE, suppress_health_check=QUICK)
@given(st.sampled_from(sorted(ENTRY_POINTS)), WRONG, WRONG)
def test_wrong_types_are_bleuprint_errors(name: str, first: Any, second: Any) -> None:
    # Every value here is of a wrong type or shape for the entry point, or holds one, except
    # where it happens to be valid (a list of strings): then the call must simply work.
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ENTRY_POINTS[name](first, second)
    except BLEUError:
        pass


@settings(max_examples=100 * SCALE, suppress_health_check=QUICK)
@given(
    st.fixed_dictionaries(
        {
            "matches": st.lists(st.one_of(st.integers(-2, 9), st.floats()), max_size=4),
            "totals": st.lists(st.one_of(st.integers(-2, 9), st.floats()), max_size=4),
            "hypothesis_length": st.one_of(st.integers(-2, 20), st.floats(), TEXTS),
            "reference_length": st.one_of(st.integers(-2, 20), st.floats(), st.none()),
        }
    )
)
def test_statistics_score_in_range_or_are_refused(data: dict[str, Any]) -> None:
    try:
        stats = BLEUStats.from_dict(data)
        results = [
            engine.score(stats)
            for engine in (
                BLEUScore.canonical(max_n=stats.max_n),
                BLEUScore.sacrebleu(max_n=stats.max_n),
            )
            if stats.max_n
        ]
    except BLEUError:
        return
    for result in results:
        assert math.isfinite(result.score) and 0 <= result.score <= 1, (data, result)
