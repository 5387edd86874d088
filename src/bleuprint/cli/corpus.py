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
    read_segments,
    same_length,
    split_references,
)
from bleuprint._segments import SegmentStats
from bleuprint._streaming import count_chunks
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


def read_corpus(arguments: argparse.Namespace, progress: Progress) -> Corpus:
    """Read every reference and system file, checking that they line up."""
    names = arguments.input or [STDIN]
    if names.count(STDIN) > 1 or (STDIN in arguments.references and STDIN in names):
        raise InputError("standard input (-) can be read only once")
    paths = [*arguments.references, *names]
    with progress.stage("reading", total_bytes(paths), "bytes") as update:
        read = {path: read_segments(path, update) for path in paths}
    for path, segments in read.items():  # once the progress line is gone
        warning = byte_order_mark_warning(path, segments)
        if warning and not arguments.quiet:
            print(f"bleuprint: warning: {warning}", file=sys.stderr)
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


def _references(path: str, segments: list[str], count: int) -> list[list[str]]:
    """The reference streams of one file: itself, or its tab-separated columns."""
    if count == 1:
        return [segments]
    return split_references(segments, count, _display([path])[0])


def _display(paths: Sequence[str]) -> list[str]:
    return ["<stdin>" if path == STDIN else path for path in paths]


def warn_if_tokenized(engine: BLEUScore, corpus: Corpus, arguments: argparse.Namespace) -> None:
    """sacreBLEU's warning that the hypotheses look tokenized (100 or more lines end in
    ``" ."``), once for every system that does, where the configuration tokenizes as
    sacreBLEU does (not ``none``, whose input is tokenized on purpose)."""
    if arguments.quiet or arguments.force:
        return
    if sacrebleu.tokenizer_name(engine.tokenizer) in {None, "none"}:
        return
    names = [name for name, system in zip(corpus.names, corpus.systems) if looks_tokenized(system)]
    if names:
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
