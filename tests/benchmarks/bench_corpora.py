"""The benchmark's inputs, built deterministically from the WMT22 data in ``$BLEUPRINT_SHARED``.

Only the standard library and numpy: the side environments (sacrebleu-mojo on Python 3.12,
mbrs) import this module too, to build the very same inputs.

**Distinct corpora** (the default). Every system output of every language pair, each paired
with the same segment of the pair's primary reference. First the real pairs themselves: walking
the sources in order and, for each, the systems in an order rotated by the source's number, a
pair is taken when neither its output nor its reference line was taken before (so about one
real pair per source, the systems taking turns). Then, to reach a million, *spliced* pairs: the
first half of one real pair's output (by words; by characters for lines without spaces, as in
Chinese and Japanese) joined with the second half of another real pair's output of the same
language pair, and likewise their references, cut at the same proportion. A spliced pair keeps
real words, real sentence lengths and a real output-reference overlap (each half of the output
translates the matching half of the reference); it is taken only when neither its output nor its
reference was taken before. The language pairs take turns, so every prefix mixes them. No
output line repeats and no reference line repeats, so no cache of tokenized lines helps any
tool: every line is tokenized in full.

**Repeated corpora** (``--corpus repeated``): en-de Online-B and reference A, 2,037 real
segments repeated line by line, as the benchmark of earlier releases measured.

And one step every benchmark takes before it measures a process: :func:`compile_bytecode`.
"""

from __future__ import annotations

import compileall
import importlib.util
import itertools
import json
import os
import random
from collections.abc import Iterator
from pathlib import Path

import numpy as np

REPOSITORY = Path(__file__).resolve().parents[2]
PAIR, SYSTEM, REFERENCE = "en-de", "Online-B", "A"


def compile_bytecode() -> None:
    """Write the bytecode of bleuprint's modules, as pip does when it installs a wheel (and
    as it does for the peers): an editable install writes it only as modules are first
    imported, and not at all where the shell sets ``PYTHONDONTWRITEBYTECODE``, so a measured
    process would compile bleuprint from source each time (about 0.09 s of ``score``'s 0.25 s
    start-up), which no user's process does."""
    spec = importlib.util.find_spec("bleuprint")  # (None in a side environment without it)
    for folder in (spec and spec.submodule_search_locations) or []:
        compileall.compile_dir(folder, quiet=1)


def shared_root() -> Path:
    return Path(os.environ.get("BLEUPRINT_SHARED", REPOSITORY.parent / "shared"))


def wmt22() -> Path:
    return shared_root() / "data" / "wmt22"


def read_segments(path: Path) -> list[str]:
    """As the shared data's README says: UTF-8, split on \\n only, no final empty string."""
    lines = path.read_text(encoding="utf-8").split("\n")
    return lines[:-1] if lines and lines[-1] == "" else lines


def test_set(pair: str = PAIR) -> tuple[Path, Path]:
    """One WMT22 test set as files: a system's output and the primary reference."""
    return wmt22() / pair / f"sys.{SYSTEM}.txt", wmt22() / pair / f"ref.{REFERENCE}.txt"


def real_pairs(folder: Path) -> list[list[tuple[str, str]]]:
    """For each source of one language pair, every system's (output, primary reference)."""
    primary = json.loads((folder / "expected.json").read_text(encoding="utf-8"))["refs"]["primary"]
    references = read_segments(folder / primary)
    outputs = [read_segments(path) for path in sorted(folder.glob("sys.*.txt"))]
    return [
        [(output[source], reference) for output in outputs]
        for source, reference in enumerate(references)
    ]


def _halves(text: str) -> tuple[str, str]:
    """A line cut in the middle: by words, or by characters where it has fewer than 4 words."""
    words = text.split(" ")
    if len(words) >= 4:
        middle = len(words) // 2
        return " ".join(words[:middle]) + " ", " ".join(words[middle:])
    middle = len(text) // 2
    return text[:middle], text[middle:]


def _one_language_pair(folder: Path, seed: int) -> Iterator[tuple[str, str] | None]:
    """The distinct pairs of one language pair, real ones first, then spliced ones; ``None``
    where a splice repeated a line (so that the language pairs keep taking turns)."""
    sources = real_pairs(folder)
    seen_outputs: set[str] = set()
    seen_references: set[str] = set()

    def fresh(output: str, reference: str) -> bool:
        if output in seen_outputs or reference in seen_references:
            return False
        seen_outputs.add(output)
        seen_references.add(reference)
        return True

    for number, systems in enumerate(sources):
        turn = number % len(systems)
        for output, reference in systems[turn:] + systems[:turn]:
            if fresh(output, reference):
                yield output, reference
                break
    pool = list(dict.fromkeys(pair for systems in sources for pair in systems))
    halves = [(_halves(output), _halves(reference)) for output, reference in pool]
    chooser = random.Random(seed)
    while True:
        (first_output, _), (first_reference, _) = halves[chooser.randrange(len(halves))]
        (_, second_output), (_, second_reference) = halves[chooser.randrange(len(halves))]
        output, reference = first_output + second_output, first_reference + second_reference
        yield (output, reference) if fresh(output, reference) else None


def distinct_pairs(seed: int = 2022) -> Iterator[tuple[str, str]]:
    """Distinct (output, reference) pairs without end, every language pair taking turns."""
    streams = [
        _one_language_pair(folder, seed + number)
        for number, folder in enumerate(sorted(path for path in wmt22().iterdir() if path.is_dir()))
    ]
    while True:
        for stream in streams:
            pair = next(stream)
            if pair is not None:
                yield pair


def distinct_corpus(size: int, seed: int = 2022) -> tuple[list[str], list[str]]:
    """``size`` distinct (output, reference) pairs, every language pair taking turns."""
    pairs = list(itertools.islice(distinct_pairs(seed), size))
    return [output for output, _ in pairs], [reference for _, reference in pairs]


def distinct_file_names(size: int, folder: Path) -> tuple[Path, Path]:
    return folder / f"distinct{size}.hyp.txt", folder / f"distinct{size}.ref.txt"


def write_distinct_files(size: int, folder: Path) -> tuple[Path, Path]:
    """:func:`distinct_corpus` written as two files as it is made (it never holds the corpus:
    10,000,000 lines are about 1.2 GB a file)."""
    paths = distinct_file_names(size, folder)
    with (
        paths[0].open("w", encoding="utf-8") as outputs,
        paths[1].open("w", encoding="utf-8") as references,
    ):
        for output, reference in itertools.islice(distinct_pairs(), size):
            outputs.write(output + "\n")
            references.write(reference + "\n")
    return paths


def repeated(lines: list[str], size: int) -> list[str]:
    return [lines[index % len(lines)] for index in range(size)]


def repeated_corpus(size: int) -> tuple[list[str], list[str]]:
    """``size`` segments of en-de Online-B and reference A, the 2,037 real ones repeated."""
    hypotheses, references = test_set()
    return repeated(read_segments(hypotheses), size), repeated(read_segments(references), size)


def corpus(kind: str, size: int) -> tuple[list[str], list[str]]:
    if kind == "distinct":
        return distinct_corpus(size)
    if kind == "repeated":
        return repeated_corpus(size)
    raise ValueError(f"corpus must be 'distinct' or 'repeated', got {kind!r}")


def write_corpus(kind: str, size: int, folder: Path) -> tuple[Path, Path]:
    """The corpus as two files, one segment per line (no segment holds a ``\\n``)."""
    paths = folder / f"{kind}.hyp.txt", folder / f"{kind}.ref.txt"
    for path, lines in zip(paths, corpus(kind, size), strict=True):
        path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return paths


def read_corpus(paths: tuple[str, str], size: int) -> tuple[list[str], list[str]]:
    """The first ``size`` segments of a corpus written by :func:`write_corpus` (read in
    binary: lines end at ``\n`` only)."""

    def first_lines(path: str) -> list[str]:
        with open(path, "rb") as handle:
            return [line[:-1].decode("utf-8") for line in itertools.islice(handle, size)]

    return first_lines(paths[0]), first_lines(paths[1])


def candidate_groups(groups: int, size: int) -> list[list[str]]:
    """Groups of ``size`` distinct real lines: the en-de systems' outputs for neighbouring
    sources, each line once, as the samples of one source differ from each other. Groups
    larger than the pool's share per group overlap with their neighbours."""
    folder = wmt22() / PAIR
    outputs = [read_segments(path) for path in sorted(folder.glob("sys.*.txt"))]
    lines = (output[source] for source in range(len(outputs[0])) for output in outputs)
    pool = list(dict.fromkeys(line for line in lines if line))
    starts = np.linspace(0, len(pool) - size, groups).astype(int)
    return [pool[start : start + size] for start in starts]


def token_id_pairs(
    count: int = 1024, shortest: int = 64, longest: int = 256, seed: int = 14
) -> tuple[list[list[int]], list[list[int]]]:
    """``count`` (hypothesis, reference) pairs of token ids, as a subword model's: references
    of ``shortest`` to ``longest`` ids drawn from a Zipf-like vocabulary of 32,000 ids; each
    hypothesis copies its reference with about 1 id in 5 substituted, 1 in 20 dropped and 1
    in 20 inserted (sentence BLEU about 0.4, as for a fair system's output)."""
    rng = np.random.default_rng(seed)
    vocabulary = 32_000
    weights = 1.0 / np.arange(1, vocabulary + 1) ** 1.1
    weights /= weights.sum()
    hypotheses, references = [], []
    for _ in range(count):
        length = int(rng.integers(shortest, longest + 1))
        reference = rng.choice(vocabulary, size=length, p=weights).tolist()
        substitutes = rng.choice(vocabulary, size=length, p=weights).tolist()
        insertions = rng.choice(vocabulary, size=length, p=weights).tolist()
        draws = rng.random(length).tolist()
        hypothesis: list[int] = []
        for token, draw, substitute, insertion in zip(
            reference, draws, substitutes, insertions, strict=True
        ):
            if draw < 0.05:
                continue  # dropped
            hypothesis.append(substitute if draw < 0.25 else token)
            if draw > 0.95:
                hypothesis.append(insertion)
        hypotheses.append(hypothesis)
        references.append(reference)
    return hypotheses, references


def token_id_arrays() -> tuple[list[np.ndarray], list[np.ndarray]]:
    """:func:`token_id_pairs` as 1-D numpy arrays of int64, as a model gives them."""
    hypotheses, references = token_id_pairs()
    return [np.array(ids, np.int64) for ids in hypotheses], [
        np.array(ids, np.int64) for ids in references
    ]
