"""Reading the references and the systems' outputs, and counting them, with progress."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Literal

import attrs

from bleuprint._engine import BLEUScore
from bleuprint._io import (
    STDIN,
    Part,
    byte_order_mark_warning,
    differing_lengths,
    display_name,
    line_count,
    open_binary,
    read_segments,
    same_length,
    split_references,
)
from bleuprint._segments import SegmentStats
from bleuprint._stats import BLEUStats
from bleuprint._streaming import (
    Files,
    LineBlock,
    count_chunks,
    counted_blocks,
    line_blocks,
    over_file_parts,
)
from bleuprint.cli.progress import Progress, Update
from bleuprint.compat import sacrebleu
from bleuprint.exceptions import InputError
from bleuprint.typing import Segment

if TYPE_CHECKING:
    from bleuprint.significance import CompactStore, Segments

# Segments are counted in chunks of at least this many (as many as a megabyte's read of each
# file holds): enough for the counting's threads to share, few enough for the progress to
# follow.
_CHUNK = 8192

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
    per-segment statistics where they were kept (for a significance test, compactly where the
    test scores sums; else none): the text itself is not kept."""

    names: list[str]
    totals: list[BLEUStats]
    segments: list[Segments]


def read_corpus(arguments: argparse.Namespace, progress: Progress) -> Corpus:
    """Read every reference and system file, checking that they line up."""
    names = _system_files(arguments)
    paths = [*arguments.references, *names]
    with progress.stage("reading", total_bytes(paths), "bytes") as update:
        read = {path: read_segments(path, update) for path in paths}
    warn_of_byte_order_marks(
        [(path, read[path][0]) for path in paths if read[path]], quiet=arguments.quiet
    )
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
    engine: BLEUScore,
    arguments: argparse.Namespace,
    progress: Progress,
    *,
    keep_segments: bool,
    on_counted: Callable[[SegmentStats], object] | None = None,
) -> CountedCorpus:
    """Count every system file against the reference files as they are read, a chunk of
    lines at a time, so that memory holds one chunk of text whatever the files' length, and
    the statistics of each segment (as arrays, compact ones where the engine scores sums:
    :class:`~bleuprint.significance.CompactSegments`) only with ``keep_segments``; ``on_counted`` is
    given the first system's statistics of each chunk, in order, as they are counted. With
    ``--jobs N``, plain files are cut into parts of whole lines that N processes read and
    count on their own (only statistics come back). Warns as :func:`read_corpus` and
    :func:`warn_if_tokenized` do."""
    names = _system_files(arguments)
    check_files([*arguments.references, *names])  # in the order read_corpus reads them
    paths = [*names, *arguments.references]  # a length error names the first system
    files = Files(
        paths,
        _display(paths),
        systems=len(names),
        references_per_line=arguments.num_refs,
        rstrip=True,
        sacrebleu_names=True,
    )
    # A test of an engine that scores sums keeps each segment's sums compactly (a fifteenth of
    # the memory); sentence scores need the segments' statistics.
    compact = keep_segments and on_counted is None and engine.scoring.reads_only_sums
    # Lines that end in " ." are looked for only until the warning's number is found, and
    # not at all where no warning would be given.
    looked_for = 0 if _may_warn_of_tokenized(engine, arguments) else TOKENIZED_LINES
    with progress.stage("reading and counting", total_bytes(paths), "bytes") as update:
        if arguments.jobs == 1 or not all(map(_splittable, paths)):
            keep = _keeping(keep_segments, compact)
            found = [looked_for] * len(names)
            counted = _count_part(
                engine, files, None, keep, found, on_counted=on_counted, update=update
            )
        else:
            counted = _Counted.empty(engine, len(names), _keeping(keep_segments, compact))
            keep = _keeping(keep_segments or on_counted is not None, compact)
            # Each part is told the lines found by the parts counted before it is handed out.
            parts = _counted_parts(
                engine,
                files,
                arguments.jobs,
                keep,
                update=update,
                found=lambda: [looked_for + count for count in counted.tokenized],
            )
            for part in parts:
                if on_counted is not None:
                    for chunk in part.chunks[0]:
                        on_counted(chunk)  # (kept whole for it)
                counted.add(part, keep_segments)
    if not counted.lines:
        raise InputError("the file is empty", path=files.names[0])
    warn_of_byte_order_marks(counted.first_lines, quiet=arguments.quiet)
    _warn_if_tokenized(
        engine,
        [name for name, count in zip(files.names, counted.tokenized) if count >= TOKENIZED_LINES],
        arguments,
    )
    segments = counted.segments() if keep_segments else []
    return CountedCorpus(files.names[: files.systems], counted.totals, segments)


@attrs.define
class _Counted:
    """What was counted of the files (or of a part of them), by system."""

    totals: list[BLEUStats]
    chunks: list[list[SegmentStats]]  # each chunk's statistics, where kept whole
    compact: list[CompactStore]  # each system's statistics, where kept compactly
    tokenized: list[int]  # lines that end in " ." (up to the warning's number)
    first_lines: list[tuple[str, str]]  # each file's first line, from the first part
    lines: int = 0

    @classmethod
    def empty(cls, engine: BLEUScore, systems: int, keep: _Keeping) -> _Counted:
        compact = []
        if keep == "compact":
            from bleuprint.significance import CompactStore  # noqa: PLC0415 - only for a test

            compact = [CompactStore(engine) for _ in range(systems)]
        return cls(
            [engine.empty_stats()] * systems,
            [[] for _ in range(systems)],
            compact,
            [0] * systems,
            [],
        )

    def keep(self, system: int, stats: SegmentStats) -> None:
        """Keep a chunk of a system's statistics, as this count keeps them."""
        if self.compact:
            self.compact[system].append(stats)
        else:
            self.chunks[system].append(stats)

    def add(self, part: _Counted, keep_segments: bool) -> None:
        """Add the next part's counts (its statistics too, with ``keep_segments``)."""
        self.totals = [total + more for total, more in zip(self.totals, part.totals)]
        if keep_segments:
            for chunks, more in zip(self.chunks, part.chunks):
                chunks.extend(more)
            for store, kept in zip(self.compact, part.compact):
                store.extend(kept)
        self.tokenized = [count + more for count, more in zip(self.tokenized, part.tokenized)]
        self.first_lines = self.first_lines or part.first_lines
        self.lines += part.lines

    def segments(self) -> list[Segments]:
        """Each system's kept statistics, as one."""
        if self.compact:
            return [store.segments for store in self.compact]
        return [SegmentStats.concatenate(chunks) for chunks in self.chunks]


_Keeping = Literal["whole", "compact"] | None
"""How chunks' statistics are kept: not at all, whole, or compactly (a test scored on sums)."""


def _keeping(keep: bool, compact: bool) -> _Keeping:
    """How chunks are kept: not at all, whole, or compactly (a test scored on sums)."""
    if not keep:
        return None
    return "compact" if compact else "whole"


def _splittable(path: str) -> bool:
    """Whether processes can each read a part of the file (not standard input, not .gz)."""
    return path != STDIN and not path.endswith(".gz")


def _counted_parts(
    engine: BLEUScore,
    files: Files,
    jobs: int,
    keep: _Keeping | None,
    *,
    update: Update,
    found: Callable[[], list[int]],
) -> Iterator[_Counted]:
    """Each part's counts, in order, counted by ``jobs`` processes; ``update`` is told each
    part's bytes as it comes; ``found()`` says, as a part is handed out, how many tokenized
    lines each system is known to have (see :func:`_count_part`)."""
    counting = over_file_parts(
        _count_part, files, jobs, lambda part: (engine, files, part, keep, found())
    )
    for part, counted in counting:
        update(sum(end - start for start, end in part.byte_ranges))
        yield counted


def _count_part(
    engine: BLEUScore,
    files: Files,
    part: Part | None,
    keep: _Keeping | None,
    found: Sequence[int],
    *,
    on_counted: Callable[[SegmentStats], object] | None = None,
    update: Update | None = None,
) -> _Counted:
    """The counts of the files (or of a ``part`` of them), read a chunk of lines at a time
    (counted on the counting threads while the next are read: :func:`counted_blocks`); each
    chunk's statistics kept as ``keep`` keeps them (if given), and the first system's
    given to ``on_counted``; ``update`` is told the bytes read. Each system's tokenized lines
    are counted until they and the ``found`` ones elsewhere make the warning's number: the
    sum over parts then makes it exactly where the files' lines do, and a part need not
    search all its bytes (a slow search where few lines end so)."""
    counted = _Counted.empty(engine, files.systems, keep)
    systems = range(files.systems)

    def count(block: LineBlock) -> list[SegmentStats]:
        return [block.counted(engine, index) for index in systems]

    for block, each in counted_blocks(line_blocks(files, _CHUNK, part, update), count):
        if block.first_line == 1:
            counted.first_lines = first_lines(block)
        for index, stats in zip(systems, each):
            counted.totals[index] = engine.total(stats, counted.totals[index])
            if keep is not None:
                counted.keep(index, stats)
            if on_counted is not None and index == 0:
                on_counted(stats)
            before = found[index] + counted.tokenized[index]
            counted.tokenized[index] += tokenized_lines(block.data[index], before)
        counted.lines += block.lines
    return counted


def tokenized_lines(data: bytes, found: int = 0) -> int:
    """The lines of ``data`` (UTF-8, separated by ``\\n``) that end in a tokenized full stop
    once stripped of trailing whitespace, as sacreBLEU reads them (what :func:`looks_tokenized`
    counts, on bytes), where ``found`` lines so far do not yet make the warning's number:
    counting stops at the warning's number, and most text holds no " ." to look for."""
    count = 0
    start = data.find(b" .") if found < TOKENIZED_LINES else -1
    while start >= 0 and found + count < TOKENIZED_LINES:
        end = data.find(b"\n", start)
        end = len(data) if end < 0 else end
        # The line's last " .": what follows it must be whitespace as str.isspace knows it.
        last = data.rfind(b" .", start, end)
        count += not data[last + 2 : end].decode(errors="replace").strip()
        start = data.find(b" .", end)
    return count


def check_line_counts(
    paths: Sequence[str], *, names: Sequence[str] | None = None, encoding: str = "utf-8"
) -> None:
    """Fail, before any output is written, where two of the files (in ``encoding``; named
    ``names``, else by their paths) have different numbers of lines; standard input and
    ``.gz`` files are read once, as they come, and checked then."""
    named = [
        (path, name)
        for path, name in zip(paths, names or paths)
        if path != STDIN and not path.endswith(".gz")
    ]
    with contextlib.suppress(OSError):  # reading it names the problem
        counts = [line_count(path, encoding) for path, _ in named]
        if len(set(counts)) > 1:
            raise differing_lengths([name for _, name in named], counts)


def _system_files(arguments: argparse.Namespace) -> list[str]:
    names: list[str] = arguments.input or [STDIN]
    if names.count(STDIN) > 1 or (STDIN in arguments.references and STDIN in names):
        raise InputError("standard input (-) can be read only once")
    return names


def check_files(paths: Sequence[str]) -> None:
    """Each file opens and is not empty (a plain file; standard input and ``.gz`` files show
    it when read), before anything is counted."""
    for path in paths:
        with open_binary(path, sacrebleu_names=True) as handle:
            if _splittable(path) and not os.fstat(handle.fileno()).st_size:
                raise InputError("the file is empty", path=path)


def first_lines(block: LineBlock) -> list[tuple[str, str]]:
    """Each file's name and first line, from the block of its first lines, in the order
    sacreBLEU reads the files: the references, then the systems."""
    files = block.files
    lines = list(zip(files.names, block.first_lines()))
    return lines[files.systems :] + lines[: files.systems]


def warn_of_byte_order_marks(first_lines: Sequence[tuple[str, str]], *, quiet: bool) -> None:
    """A warning for each file (its name and first line) that starts with a byte-order mark
    (written once the progress line is gone)."""
    for path, line in first_lines:
        warning = byte_order_mark_warning(path, [line])
        if warning and not quiet:
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


def _references(path: str, segments: list[str], count: int) -> list[list[str]]:
    """The reference streams of one file: itself, or its tab-separated columns."""
    if count == 1:
        return [segments]
    return split_references(segments, count, _display([path])[0])


def _display(paths: Sequence[str]) -> list[str]:
    return [display_name(path) for path in paths]


def warn_if_tokenized(engine: BLEUScore, corpus: Corpus, arguments: argparse.Namespace) -> None:
    """sacreBLEU's warning that the hypotheses look tokenized (100 or more lines end in
    ``" ."``), once for every system that does, where the configuration tokenizes as
    sacreBLEU does (not ``none``, whose input is tokenized on purpose)."""
    names = [name for name, system in zip(corpus.names, corpus.systems) if looks_tokenized(system)]
    _warn_if_tokenized(engine, names, arguments)


def _warn_if_tokenized(
    engine: BLEUScore, names: Sequence[str], arguments: argparse.Namespace
) -> None:
    if names and _may_warn_of_tokenized(engine, arguments):
        print(tokenized_warning(", ".join(names)), file=sys.stderr)


def _may_warn_of_tokenized(engine: BLEUScore, arguments: argparse.Namespace) -> bool:
    """Whether the warning is given at all: not with ``--quiet`` or ``--force``, nor where
    the configuration does not tokenize as sacreBLEU does."""
    if arguments.quiet or arguments.force:
        return False
    return sacrebleu.tokenizer_name(engine.tokenizer) not in {None, "none"}


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
