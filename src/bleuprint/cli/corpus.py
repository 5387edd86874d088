"""Reading the references and the systems' outputs, and counting them, with progress."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

import attrs

from bleuprint._engine import BLEUScore
from bleuprint._io import (
    STDIN,
    byte_order_mark_warning,
    read_line_blocks,
    read_segments,
    same_length,
    split_references,
)
from bleuprint._segments import SegmentStats
from bleuprint._stats import BLEUStats
from bleuprint._streaming import aligned_columns, count_chunks
from bleuprint.cli.progress import Progress, Update
from bleuprint.compat import sacrebleu
from bleuprint.exceptions import InputError
from bleuprint.typing import Segment

# Segments are counted in chunks of this many: enough for the counting's threads to share,
# few enough for the progress to follow.
_CHUNK = 16_384

TOKENIZED_LINES = 100
"""sacreBLEU warns when this many hypotheses or more end in ``" ."``."""


@attrs.frozen
class Corpus:
    """The systems' outputs (by name, the first is the baseline) and the reference streams."""

    names: list[str]
    systems: list[list[str]]
    references: list[list[str]]

    def segment_references(self) -> list[list[str]]:
        """The references of each segment, the layout ``BLEUScore`` takes."""
        return [list(segment) for segment in zip(*self.references)]


@attrs.frozen
class CountedCorpus:
    """Every system's corpus statistics (by name, the first is the baseline), and its
    per-segment statistics where they were kept (for a significance test or sentence scores;
    else none): the text itself is not kept."""

    names: list[str]
    totals: list[BLEUStats]
    segments: list[SegmentStats]

    @classmethod
    def of(cls, engine: BLEUScore, names: list[str], segments: list[SegmentStats]) -> CountedCorpus:
        return cls(names, [engine.total(system) for system in segments], segments)


def read_corpus(arguments: argparse.Namespace, progress: Progress) -> Corpus:
    """Read every reference and system file, checking that they line up."""
    names = _system_files(arguments)
    paths = [*arguments.references, *names]
    with progress.stage("reading", total_bytes(paths), "bytes") as update:
        read = {path: read_segments(path, update) for path in paths}
    _warn_of_byte_order_marks(read, arguments)
    streams = [
        (path, stream)
        for path in arguments.references
        for stream in _references(path, read[path], arguments.num_refs)
    ]
    systems = [read[path] for path in names]
    reference_names = _display([path for path, _ in streams])
    references = [stream for _, stream in streams]
    same_length([*zip(_display(names), systems), *zip(reference_names, references)])
    return Corpus(_display(names), systems, references)


def count_corpus(
    engine: BLEUScore, arguments: argparse.Namespace, progress: Progress, *, keep_segments: bool
) -> CountedCorpus:
    """Count every system file against the reference files as they are read, a chunk of
    lines at a time, so that memory holds one chunk of text whatever the files' length, and
    the statistics of each segment (as arrays) only with ``keep_segments``. Warns as
    :func:`read_corpus` and :func:`warn_if_tokenized` do."""
    names = _system_files(arguments)
    for path in [*arguments.references, *names]:  # in the order read_corpus reads them
        if path != STDIN and not path.endswith(".gz") and _size(path) == 0:
            raise InputError("the file is empty", path=path)
    paths = [*names, *arguments.references]  # a length error names the first system
    chunks: list[list[SegmentStats]] = [[] for _ in names]
    totals = [engine.empty_stats() for _ in names]
    tokenized = [0] * len(names)
    first_lines: dict[str, list[str]] = {}
    with progress.stage("reading and counting", total_bytes(paths), "bytes") as update:
        streams = [read_line_blocks(path, sacrebleu_names=True, progress=update) for path in paths]
        line = 1
        for columns in aligned_columns(_display(paths), streams, _CHUNK):
            texts = [[segment.rstrip() for segment in column] for column in columns]
            if line == 1:
                first_lines = {path: text[:1] for path, text in zip(paths, texts)}
            references = [
                stream
                for path, text in zip(arguments.references, texts[len(names) :])
                for stream in _references(path, text, arguments.num_refs, line)
            ]
            segment_references = [list(segment) for segment in zip(*references)]
            for index, system in enumerate(texts[: len(names)]):
                counted = engine.count_segments(system, segment_references)
                totals[index] = engine.total(counted, totals[index])
                if keep_segments:
                    chunks[index].append(counted)
                tokenized[index] += sum(segment.endswith(" .") for segment in system)
            line += len(columns[0])
    if line == 1:
        raise InputError("the file is empty", path=_display(paths)[0])
    _warn_of_byte_order_marks(first_lines, arguments)
    _warn_if_tokenized(
        engine,
        [name for name, count in zip(_display(names), tokenized) if count >= TOKENIZED_LINES],
        arguments,
    )
    segments = [SegmentStats.concatenate(system) for system in chunks] if keep_segments else []
    return CountedCorpus(_display(names), totals, segments)


def _system_files(arguments: argparse.Namespace) -> list[str]:
    names: list[str] = arguments.input or [STDIN]
    if names.count(STDIN) > 1 or (STDIN in arguments.references and STDIN in names):
        raise InputError("standard input (-) can be read only once")
    return names


def _size(path: str) -> int | None:
    try:
        return os.stat(path).st_size
    except OSError:  # reading it names the problem
        return None


def _warn_of_byte_order_marks(read: dict[str, list[str]], arguments: argparse.Namespace) -> None:
    for path, segments in read.items():  # once the progress line is gone
        warning = byte_order_mark_warning(path, segments)
        if warning and not arguments.quiet:
            print(f"bleuprint: warning: {warning}", file=sys.stderr)


def total_bytes(paths: Sequence[str]) -> int | None:
    """The bytes the files hold, if known before reading (not standard input, not .gz)."""
    total = 0
    for path in paths:
        if path == STDIN or path.endswith(".gz"):
            return None
        try:
            total += os.stat(path).st_size
        except OSError:  # reading it names the problem
            return None
    return total


def _references(path: str, segments: list[str], count: int, first_line: int = 1) -> list[list[str]]:
    """The reference streams of one file (``segments`` from line ``first_line`` on): itself,
    or its tab-separated columns."""
    if count == 1:
        return [segments]
    return split_references(segments, count, _display([path])[0], first_line)


def _display(paths: Sequence[str]) -> list[str]:
    return ["<stdin>" if path == STDIN else path for path in paths]


def warn_if_tokenized(engine: BLEUScore, corpus: Corpus, arguments: argparse.Namespace) -> None:
    """sacreBLEU's warning that the hypotheses look tokenized (100 or more lines end in
    ``" ."``), once for every system that does, where the configuration tokenizes as
    sacreBLEU does (not ``none``, whose input is tokenized on purpose)."""
    names = [name for name, system in zip(corpus.names, corpus.systems) if looks_tokenized(system)]
    _warn_if_tokenized(engine, names, arguments)


def _warn_if_tokenized(
    engine: BLEUScore, names: Sequence[str], arguments: argparse.Namespace
) -> None:
    if arguments.quiet or arguments.force or not names:
        return
    if sacrebleu.tokenizer_name(engine.tokenizer) in {None, "none"}:
        return
    print(tokenized_warning(", ".join(names)), file=sys.stderr)


def looks_tokenized(system: Sequence[str]) -> bool:
    """sacreBLEU's test: 100 or more hypotheses end in a tokenized full stop."""
    return sum(line.endswith(" .") for line in system) >= TOKENIZED_LINES


def tokenized_warning(names: str) -> str:
    """The warning for systems (``names``) whose hypotheses look tokenized."""
    return (
        f"bleuprint: warning: {names}: {TOKENIZED_LINES} or more lines end in a tokenized "
        "period (' .'): it looks like you forgot to detokenize your test data, which may hurt "
        "your score (--force to silence this)"
    )


def count_systems(
    engine: BLEUScore, corpus: Corpus, progress: Progress, jobs: int = 1
) -> CountedCorpus:
    """Every system of a corpus read whole, counted on ``jobs`` processes."""
    size = sum(len(system) for system in corpus.systems)
    with progress.stage("counting", size, "segments") as update:
        references = corpus.segment_references()
        counted = [
            count_segments(engine, system, references, update, jobs) for system in corpus.systems
        ]
    return CountedCorpus.of(engine, corpus.names, counted)


def count_segments(
    engine: BLEUScore,
    hypotheses: Sequence[Segment],
    references: Sequence[Sequence[Segment]],
    progress: Update,
    jobs: int = 1,
) -> SegmentStats:
    """``engine.count_segments`` in chunks, on ``jobs`` processes, telling ``progress`` how
    many were counted after each."""
    chunks = []
    for chunk in count_chunks(engine, hypotheses, references, chunk_size=_CHUNK, jobs=jobs):
        chunks.append(chunk)
        progress(len(chunk))
    return chunks[0] if len(chunks) == 1 else SegmentStats.concatenate(chunks)
