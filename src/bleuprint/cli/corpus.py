"""Reading the references and the systems' outputs, and counting them with progress."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

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
from bleuprint.exceptions import InputError
from bleuprint.typing import Segment

# Segments are counted in chunks of this many, so that a progress bar can follow.
_CHUNK = 500


@attrs.frozen
class Corpus:
    """The systems' outputs (by name, the first is the baseline) and the reference streams."""

    names: list[str]
    systems: list[list[str]]
    references: list[list[str]]

    def segment_references(self) -> list[list[str]]:
        """The references of each segment, the layout ``BLEUScore`` takes."""
        return [list(segment) for segment in zip(*self.references)]


def read_corpus(arguments: argparse.Namespace) -> Corpus:
    """Read every reference and system file, checking that they line up."""
    names = arguments.input or [STDIN]
    if names.count(STDIN) > 1 or (STDIN in arguments.references and STDIN in names):
        raise InputError("standard input (-) can be read only once")
    streams = [
        (path, stream) for path in arguments.references for stream in _references(path, arguments)
    ]
    systems = [_read(path, arguments.quiet) for path in names]
    reference_names = _display([path for path, _ in streams])
    references = [stream for _, stream in streams]
    same_length([*zip(_display(names), systems), *zip(reference_names, references)])
    return Corpus(_display(names), systems, references)


def _references(path: str, arguments: argparse.Namespace) -> list[list[str]]:
    """The reference streams of one file: itself, or its tab-separated columns."""
    segments = _read(path, arguments.quiet)
    if arguments.num_refs == 1:
        return [segments]
    return split_references(segments, arguments.num_refs, _display([path])[0])


def _read(path: str, quiet: bool) -> list[str]:
    segments = read_segments(path)
    warning = byte_order_mark_warning(path, segments)
    if warning and not quiet:
        print(f"bleuprint: warning: {warning}", file=sys.stderr)
    return segments


def _display(paths: Sequence[str]) -> list[str]:
    return ["<stdin>" if path == STDIN else path for path in paths]


def count_segments(
    engine: BLEUScore,
    hypotheses: Sequence[Segment],
    references: Sequence[Sequence[Segment]],
    progress: Callable[[int], object],
) -> SegmentStats:
    """``engine.count_segments`` in chunks, telling ``progress`` how many were counted after
    each."""
    chunks = []
    for start in range(0, len(hypotheses), _CHUNK):
        stop = start + _CHUNK
        chunks.append(engine.count_segments(hypotheses[start:stop], references[start:stop]))
        progress(len(chunks[-1]))
    return SegmentStats.concatenate(chunks)
