"""``bleuprint sacrebleu ARGS...``: sacreBLEU 2.6.0's command line, for BLEU and chrF.

The options and positional references parse as ``sacrebleu``'s do (abbreviations included,
as sacreBLEU's parser allows them), and standard output is what ``sacrebleu`` prints, byte for
byte, when it is not a terminal: ``-m bleu``, ``-m chrf`` (chrF++ with ``-cw 2``, and chrF's
other options) or both, JSON, text and LaTeX, ``-b``, ``-w``, ``-sh``, ``-sl``, ``-e``,
several systems (files or tab-separated standard input), ``--confidence``, the paired tests with
their defaults and ``$SACREBLEU_SEED``, ``-l``, ``$SACREBLEU_FORMAT`` and ``-d`` (with files,
sacreBLEU's text and its line that no subsets are found). bleuprint counts the n-grams;
:class:`~bleuprint.compat.sacrebleu.Arithmetic` and
:class:`~bleuprint.compat.sacrebleu.ChrFArithmetic` turn the counts into sacreBLEU's numbers
with sacreBLEU's own floating-point operations (their module says why), and the signatures are
the configurations', built from the options.
What bleuprint cannot do (TER, test sets) is refused in one line with exit status 2.
sacreBLEU's own errors (say, files of different lengths) also end with status 2, bleuprint's
status for every error, where sacreBLEU's is 1. Where sacreBLEU 2.6.0 fails on chrF's numpy
``float32`` numbers, bleuprint prints them: the JSON of a paired bootstrap test (Python's
``json`` refuses them), and an interval whose resamples sacreBLEU scores with both ``float32``
numbers and Python floats (``statistics.mean`` refuses to mix them). Colours are never printed
(sacreBLEU prints them only to a terminal).

Unlike sacreBLEU, which reads every file whole, the command reads UTF-8 files a block of lines
at a time and counts each block as it is read (:func:`bleuprint._streaming.line_blocks`), as
``bleuprint score`` does: a corpus score's memory does not grow with the files, a test keeps
only each segment's statistics, and ``-sl`` writes each block's scores as it is counted.
"""

from __future__ import annotations

import argparse
import codecs
import contextlib
import functools
import io
import os
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Literal

import attrs
import numpy as np

from bleuprint._engine import BLEUScore
from bleuprint._io import (
    STDIN,
    display_name,
    standard_input,
)
from bleuprint._resampling import (
    DEFAULT_RESAMPLES,
    DEFAULT_SEED,
    DEFAULT_TRIALS,
    IN_MEMORY,
    Derivation,
    NgramTotals,
    Rows,
    RowStore,
    SegmentRows,
    column_sums,
)
from bleuprint._result import Signature
from bleuprint._streaming import Files, LineBlock, counted_blocks, line_blocks
from bleuprint.cli import sacrebleu_tables
from bleuprint.cli.corpus import (
    TOKENIZED_LINES,
    check_files,
    check_line_counts,
    first_lines,
    tokenized_lines,
    total_bytes,
    warn_of_byte_order_marks,
)
from bleuprint.cli.options import SubCommands
from bleuprint.cli.output import write_stdout
from bleuprint.cli.progress import Progress, Update
from bleuprint.cli.significance import SIGNIFICANT, SignificanceTest
from bleuprint.compat import sacrebleu as sacrebleu_definition
from bleuprint.compat._chrf import ChrF, ChrFStats
from bleuprint.compat.sacrebleu import Arithmetic, ChrFArithmetic, SacreBLEUChrF
from bleuprint.exceptions import ConfigurationError, InputError

_FORMATS = ("json", "text", "latex")
# sacreBLEU's short names of the signature's fields (``s`` is BLEU's smooth and chrF's space)
_SHORT_KEYS = {
    "version": "v", "nrefs": "#", "seed": "rs", "case": "c", "eff": "e", "smooth": "s",
    "space": "s",
}  # fmt: skip
_DEFAULT_SAMPLES = {"bs": DEFAULT_RESAMPLES, "ar": DEFAULT_TRIALS}
_NO_SUBSETS = "No subset information found. Consider using --origlang argument.\n"


def add_command(commands: SubCommands) -> None:
    """Add the command, with sacreBLEU's options, to the command line's sub-parsers."""
    parser = commands.add_parser(
        "sacrebleu",
        help="sacreBLEU 2.6.0's command line for BLEU and chrF, with the same output",
        description="sacreBLEU 2.6.0's command line for BLEU and chrF (-m bleu chrf): the same "
        "options, positional references first (sacrebleu REF... -i SYS...), the same standard "
        "output. TER and test sets (-t) are refused; the SentencePiece tokenizers read their "
        "model from where sacreBLEU keeps it, or from --spm-model.",
        allow_abbrev=True,  # as sacreBLEU's parser: ``--smooth-m`` is ``--smooth-method``
    )
    add = parser.add_argument
    add("--citation", "--cite", action="store_true", help="refused: needs a test set")
    add("--list", action="store_true", help="refused: lists sacreBLEU's test sets")
    add("--test-set", "-t", help="refused: bleuprint does not download test sets")
    add("--language-pair", "-l", dest="langpair", help="source-target language pair")
    add("--origlang", "-ol", help="refused: needs a test set")
    add("--subset", help="refused: needs a test set")
    add("--download", help="refused: bleuprint does not download test sets")
    add("--echo", nargs="+", help="refused: needs a test set")
    add("--input", "-i", nargs="*", help="system output files (default: standard input)")
    add("refs", nargs="*", default=[], help="reference files, given before -i")
    add("--num-refs", "-nr", type=int, default=1, help="tab-separated references per line")
    add("--encoding", "-e", default="utf-8", help="encoding of the files (default: utf-8)")
    add("--metrics", "-m", choices=["bleu", "chrf", "ter"], nargs="+", default=["bleu"])
    add("--sentence-level", "-sl", action="store_true", help="one score per segment")
    bleu = parser.add_argument_group("BLEU related arguments")
    bleu.add_argument(
        "--smooth-method", "-s", choices=list(sacrebleu_definition.SMOOTH_DEFAULTS),
        default="exp", dest="bleu_smooth_method",
    )  # fmt: skip
    bleu.add_argument("--smooth-value", "-sv", type=float, dest="bleu_smooth_value")
    bleu.add_argument(
        "--tokenize", "-tok", dest="bleu_tokenize",
        choices=[*sacrebleu_definition.TOKENIZERS, *sacrebleu_definition.SENTENCEPIECE_TOKENIZERS],
    )  # fmt: skip
    bleu.add_argument(
        "--spm-model", metavar="FILE",
        help="the model of -tok spm/flores101/flores200/spBLEU-1K (bleuprint's option; "
        "default: sacreBLEU's file in $SACREBLEU/models, else ~/.sacrebleu/models)",
    )  # fmt: skip
    bleu.add_argument("--lowercase", "-lc", dest="bleu_lowercase", action="store_true")
    bleu.add_argument("--force", dest="bleu_force", action="store_true")
    chrf = parser.add_argument_group("chrF related arguments")
    chrf.add_argument(
        "--chrf-char-order", "-cc", type=int, default=6,
        help="character n-gram order (default: %(default)s)",
    )  # fmt: skip
    chrf.add_argument(
        "--chrf-word-order", "-cw", type=int, default=0,
        help="word n-gram order (default: %(default)s; 2 is chrF++)",
    )  # fmt: skip
    chrf.add_argument(
        "--chrf-beta", type=int, default=2,
        help="weight of recall over precision (default: %(default)s)",
    )  # fmt: skip
    for flag, what in (
        ("--chrf-whitespace", "count whitespace in character n-grams"),
        ("--chrf-lowercase", "lowercase before counting"),
        ("--chrf-eps-smoothing", "average the F-scores of every order (1e-16 where undefined)"),
    ):
        chrf.add_argument(flag, action="store_true", help=what)
    ter = parser.add_argument_group("TER arguments (accepted, unused: TER is refused)")
    for flag in (
        "--ter-case-sensitive", "--ter-asian-support", "--ter-no-punct", "--ter-normalized"
    ):  # fmt: skip
        ter.add_argument(flag, action="store_true")
    tests = parser.add_argument_group("significance")
    tests.add_argument("--confidence", "-ci", action="store_true")
    tests.add_argument("--confidence-n", "-cin", type=int, default=DEFAULT_RESAMPLES)
    paired = tests.add_mutually_exclusive_group()
    paired.add_argument("--paired-ar", "-par", action="store_true")
    paired.add_argument("--paired-bs", "-pbs", action="store_true")
    tests.add_argument("--paired-ar-n", "-parn", type=int, default=DEFAULT_TRIALS)
    tests.add_argument("--paired-bs-n", "-pbsn", type=int, default=DEFAULT_RESAMPLES)
    tests.add_argument("--paired-jobs", "-j", type=int, default=1, help="accepted, unused")
    report = parser.add_argument_group("reporting")
    report.add_argument("--quiet", "-q", action="store_true")
    report.add_argument("--short", "-sh", action="store_true")
    report.add_argument("--score-only", "-b", action="store_true")
    report.add_argument("--width", "-w", type=int, default=1)
    report.add_argument(
        "--detail", "-d", action="store_true",
        help="subsets of a test set: with files, none (text output, and a line saying so)",
    )  # fmt: skip
    report.add_argument("--no-color", "-nc", action="store_true", help="accepted: no colours")
    report.add_argument("--format", "-f", default="json", choices=_FORMATS)
    add("--version", "-V", action="version", version=f"sacrebleu {sacrebleu_definition.VERSION}")
    parser.set_defaults(command=run)


def run(arguments: argparse.Namespace) -> str:
    """sacreBLEU's standard output for these options (sentence scores written as they are
    counted; the rest returned)."""
    _refuse_what_bleuprint_cannot_do(arguments)
    output_format = os.environ.get("SACREBLEU_FORMAT", "").lower()
    if output_format not in _FORMATS:
        output_format = arguments.format
    if arguments.detail and output_format == "json":
        output_format = "text"  # as sacreBLEU: its subsets' lines would break the JSON
    if arguments.width < 0:
        raise ConfigurationError(f"-w/--width must be at least 0, got {arguments.width}")
    paired = arguments.paired_bs or arguments.paired_ar
    # Sentence scores written to a terminal as they come would break the progress line.
    on_terminal = sys.stdout is not None and sys.stdout.isatty()
    with Progress(quiet=arguments.quiet or (arguments.sentence_level and on_terminal)) as progress:
        names, blocks = _read(arguments, paired, progress)
        _check(arguments, len(names), paired)
        given = list(dict.fromkeys(arguments.metrics))  # a metric named twice counts once
        metrics = [_metric(name, arguments) for name in given]
        test = _test(arguments)
        write = _sentence_writer(metrics[0], arguments) if arguments.sentence_level else None
        metrics, lines = _counted(metrics, len(names), blocks, arguments, test is not None, write)
        if write is not None:
            return ""
        if test is not None:
            test.check_size(len(names), lines)
        # A test counts the resampled corpora it scores, as ``compare`` does.
        stage = (
            progress.stage("testing", test.corpora(len(names)) * len(metrics), "corpora")
            if test is not None
            else progress.stage("scoring")
        )
        with stage as update:
            return _output(metrics, names, arguments, format=output_format, progress=update)


def _output(
    metrics: Sequence[_Metric],
    names: list[str],
    arguments: argparse.Namespace,
    *,
    format: str,
    progress: Update | None = None,
) -> str:
    """sacreBLEU's standard output of corpus scores, from the counted metrics (``progress``
    told of each resampled corpus scored). sacreBLEU reports one system, or several without a
    test, in the order of its metrics' names (BLEU, then chrF), and a paired test in the order
    of ``-m``."""
    in_order = sorted(metrics, key=lambda metric: metric.option)
    if len(names) == 1:
        single = _single(in_order, arguments, format, progress)
        # Files carry no test set's subsets (sacreBLEU's -d splits a test set by them).
        return single + (_NO_SUBSETS if arguments.detail else "")
    test = _test(arguments)
    if test is None:
        return _several(in_order, names, arguments, format)
    return _paired(metrics, names, test, arguments, format, progress)


def _refuse_what_bleuprint_cannot_do(arguments: argparse.Namespace) -> None:
    instead = "run sacrebleu itself for it"
    if "ter" in arguments.metrics:
        raise ConfigurationError(f"-m ter: bleuprint computes BLEU and chrF, not TER; {instead}")
    for given, option in (
        (arguments.test_set, "-t/--test-set"),
        (arguments.download, "--download"),
        (arguments.echo, "--echo"),
        (arguments.list, "--list"),
        (arguments.citation, "--citation"),
        (arguments.origlang, "-ol/--origlang"),
        (arguments.subset, "--subset"),
    ):
        if given:
            raise ConfigurationError(
                f"{option}: bleuprint has no test sets to download or select from; download "
                "them with sacrebleu (sacrebleu -t SET -l SRC-TRG --echo ref > ref.txt) and "
                "give the files"
            )


# Lines counted at once (at least; as many as a megabyte's read of each file holds): their
# text and statistics stay a few megabytes, and the kernel's threads share each block.
_LINES = 8192
# Lines whose chrF is counted at once (about 6 KB each while counted, for sacreBLEU's orders).
_CHRF_LINES = 2048
# Sentence scores written at once: their text stays a few hundred kilobytes.
_WRITTEN_AT_ONCE = 2048


def _read(
    arguments: argparse.Namespace, paired: bool, progress: Progress
) -> tuple[list[str], Iterator[LineBlock]]:
    """The systems' names as sacreBLEU prints them, and the blocks of lines of the systems'
    and the references' files (systems first), read a block at a time as they are counted
    (:func:`bleuprint._streaming.line_blocks`), so that memory does not grow with their
    length. Systems on standard input are first written to files of their own
    (:func:`_spooled_standard_input`)."""
    if arguments.num_refs != 1 and len(arguments.refs) > 1:
        raise ConfigurationError(
            "--num-refs splits one file of tab-separated references: give one reference file"
        )
    if not arguments.refs:
        raise ConfigurationError("give the reference files before -i (sacrebleu REF... -i SYS...)")
    encoding = _encoding(arguments)
    if [*(arguments.input or [STDIN]), *arguments.refs].count(STDIN) > 1:
        raise InputError("standard input (-) can be read only once")
    check_files(arguments.refs)  # sacreBLEU reads the references first
    spool = None  # (a TemporaryDirectory is removed when let go, after an error too)
    if arguments.input is None:
        spool = tempfile.TemporaryDirectory(prefix="bleuprint-")
        names = _spooled_standard_input(encoding, spool.name, progress)
        shown = _standard_input_names(len(names), paired)
        file_names = [display_name(STDIN)] * len(names)
    else:
        names = _system_files(arguments.input, paired)
        check_files(names)
        shown = _baseline_named(names) if paired else names
        file_names = [display_name(path) for path in names]
    files = Files(
        [*names, *arguments.refs],  # a length error names the first system
        [*file_names, *map(display_name, arguments.refs)],
        systems=len(names),
        references_per_line=arguments.num_refs,
        rstrip=True,
        sacrebleu_names=True,
        encoding=encoding,
    )
    blocks = _streamed(files, progress, check_lengths=arguments.sentence_level)
    return shown, blocks if spool is None else _removed_after(blocks, spool)


def _spooled_standard_input(encoding: str, folder: str, progress: Progress) -> list[str]:
    """sacreBLEU's systems on standard input, one per tab-separated column (the first line
    says how many; lines end at ``\\n``, ``\\r\\n`` or ``\\r``, as its text stream ends
    them), each written to a file of its own in ``folder``, in ``encoding``: the paths of
    those files, which are then read as any system's file."""
    if sys.stdin is None:  # closed (<&-)
        standard_input()  # raises the input error
    buffer = getattr(sys.stdin, "buffer", None)
    stream = io.TextIOWrapper(buffer, encoding=encoding) if buffer else sys.stdin
    with progress.stage("reading standard input", None, "lines") as update:
        try:
            return _written_columns(stream, encoding, folder, update)
        except UnicodeDecodeError as error:
            raise InputError(f"not valid {encoding}: {error.reason}", path="<stdin>") from None


def _written_columns(lines: Iterator[str], encoding: str, folder: str, update: Update) -> list[str]:
    # sacreBLEU strips the first line as a whole and every later field on its own.
    first = next(lines, "").rstrip().split("\t")
    paths = [os.path.join(folder, f"system{number}.txt") for number in range(len(first))]
    with contextlib.ExitStack() as opened:
        columns = [
            opened.enter_context(open(path, "w", encoding=encoding, newline="\n")) for path in paths
        ]
        for column, field in zip(columns, first):
            column.write(f"{field}\n")
        for number, line in enumerate(lines, start=2):
            fields = line.rstrip().split("\t")
            if len(fields) != len(columns):
                raise InputError(
                    f"line {number} has {len(fields)} tab-separated systems, line 1 has "
                    f"{len(columns)}",
                    path="<stdin>",
                )
            for column, field in zip(columns, fields):
                column.write(f"{field.rstrip()}\n")
            if not number % _LINES:
                update(_LINES)
    return paths


def _standard_input_names(systems: int, paired: bool) -> list[str]:
    """The names sacreBLEU gives the systems of standard input's columns."""
    if paired:
        return ["Baseline", *(f"System {n + 1}" for n in range(systems - 1))]
    return [f"System {n + 1}" for n in range(systems)]


def _removed_after(
    blocks: Iterator[LineBlock], spool: tempfile.TemporaryDirectory[str]
) -> Iterator[LineBlock]:
    """The blocks, the spooled files removed once they are read (or the reading stops)."""
    with spool:
        yield from blocks


def _encoding(arguments: argparse.Namespace) -> str:
    try:
        return codecs.lookup(arguments.encoding).name
    except LookupError:
        raise ConfigurationError(f"-e {arguments.encoding}: no such encoding") from None


def _system_files(paths: list[str], paired: bool) -> list[str]:
    """The system files of ``-i``, each once (a paired test's baseline given again is
    skipped, as sacreBLEU skips it)."""
    names: list[str] = []
    for path in paths:
        if path in names:
            if paired and path == names[0]:
                continue
            raise InputError(f"{path!r} already used to name a system")
        names.append(path)
    if not names:
        raise ConfigurationError("-i names no system output file")
    return names


def _baseline_named(names: list[str]) -> list[str]:
    """The names of a paired test's systems: the first is the baseline."""
    return [f"Baseline: {names[0]}", *names[1:]]


def _streamed(files: Files, progress: Progress, *, check_lengths: bool) -> Iterator[LineBlock]:
    """The files' blocks of lines, read as they are counted (the files' lengths compared
    first with ``check_lengths``, where they can be, so that nothing is written before an
    error; else at their end)."""
    if check_lengths:
        check_line_counts(files.paths, names=files.names, encoding=files.encoding)
    with progress.stage("reading and counting", total_bytes(files.paths), "bytes") as update:
        read = 0
        for block in line_blocks(files, _LINES, progress=update):
            read += block.lines
            yield block
    if not read:  # standard input or .gz files, all empty
        raise InputError("the file is empty", path=files.names[0])


def _check(arguments: argparse.Namespace, systems: int, paired: bool) -> None:
    """sacreBLEU's checks of the options, in its order (those of the files' lengths and the
    test's size come as they are counted)."""
    if arguments.sentence_level:
        if len(arguments.metrics) > 1:
            raise ConfigurationError("-sl/--sentence-level scores one metric: give one to -m")
        if systems > 1:
            raise ConfigurationError("-sl/--sentence-level scores one system")
        if arguments.confidence or paired:
            raise ConfigurationError("-sl/--sentence-level runs no statistical tests")
    if paired and systems == 1:
        raise ConfigurationError("paired tests need several systems given to -i")
    if systems > 1 and arguments.confidence:
        raise ConfigurationError(
            "--confidence is for one system: test several with --paired-bs or --paired-ar"
        )


def _test(arguments: argparse.Namespace) -> SignificanceTest | None:
    """The test the options ask for, sized as sacreBLEU sizes it (a paired test's 0 or less:
    its default; an interval from fewer than two resamples: none), or ``None``."""
    if arguments.paired_bs or arguments.paired_ar:
        kind: Literal["bs", "ar"] = "bs" if arguments.paired_bs else "ar"
        given = _given_samples(arguments, kind)
        samples = given if given > 0 else _DEFAULT_SAMPLES[kind]
        return SignificanceTest(kind, samples, _seed()[0], 0)
    if arguments.confidence and arguments.confidence_n > 1:
        return SignificanceTest("ci", arguments.confidence_n, _seed()[0], 0)
    return None  # $SACREBLEU_SEED is read only for a test, as sacreBLEU reads it


def _given_samples(arguments: argparse.Namespace, kind: str) -> int:
    """The paired test's size as given (sacreBLEU's explanation prints it, 0 included)."""
    given: int = arguments.paired_bs_n if kind == "bs" else arguments.paired_ar_n
    return given


def _metric(name: str, arguments: argparse.Namespace) -> _Metric:
    """The metric of ``-m NAME`` with its options, not counted yet."""
    references = len(arguments.refs) * arguments.num_refs
    if name == "bleu":
        configuration = _configuration(arguments)
        bleu = Arithmetic(
            configuration.max_n,
            arguments.bleu_smooth_method,
            arguments.bleu_smooth_value,
            arguments.sentence_level,
        )
        signature = _signature_of(configuration, references)
        count = functools.partial(_bleu_rows, configuration, bleu)
        return _Metric("BLEU", name, signature, bleu, count, NgramTotals.of(configuration.ngrams))
    definition = _chrf(arguments)
    chrf = ChrFArithmetic(definition)
    # The signature names the number of references, the same for every segment.
    no_segment = ChrFStats((), (), (), 0, frozenset({references}))
    _, _, fields = definition.signature(no_segment).partition("|")
    count = functools.partial(_chrf_rows, ChrF(definition), chrf)
    return _Metric(definition.name, name, _SacreBLEUSignature.parse(fields), chrf, count)


def _bleu_rows(configuration: BLEUScore, bleu: Arithmetic, block: LineBlock, system: int) -> Rows:
    """BLEU's rows of a block's lines of system number ``system`` (the kernel reads the
    bytes where it can)."""
    return bleu.rows(block.counted(configuration, system))


def _chrf_rows(engine: ChrF, chrf: ChrFArithmetic, block: LineBlock, system: int) -> Rows:
    """chrF's rows of a block's lines of system number ``system``, decoded, and counted a few
    lines at a time: a line's character n-grams of every order take kilobytes while counted."""
    hypotheses, references = block.segments(system), block.segment_references()
    return np.vstack(
        [
            chrf.rows(engine.count_segments(hypotheses[start:end], references[start:end]))
            for start, end in _pieces(len(hypotheses), _CHRF_LINES)
        ]
    )


def _pieces(count: int, size: int) -> list[tuple[int, int]]:
    return [(start, min(start + size, count)) for start in range(0, count, size)]


def _counted(  # noqa: PLR0917 - one caller
    metrics: list[_Metric],
    systems: int,
    blocks: Iterator[LineBlock],
    arguments: argparse.Namespace,
    keep: bool,
    write: Callable[[Rows], object] | None,
) -> tuple[list[_Metric], int]:
    """The metrics counted on every system, a block of lines at a time, and the number of
    lines: each segment's rows kept with ``keep`` (for a test, compactly: a :class:`RowStore`),
    else each block's sum; the first system's rows of each block given to ``write`` as they
    come (``-sl``). Warns, once the blocks are read, as sacreBLEU does as it reads the files."""
    rows = [
        [RowStore(metric.derivation if keep else None, in_memory=IN_MEMORY) for _ in range(systems)]
        for metric in metrics
    ]
    tokenized = [0] * systems
    warn = "bleu" in arguments.metrics and not (
        arguments.bleu_force or arguments.sentence_level or arguments.quiet
    )
    first: LineBlock | None = None
    lines = 0

    def each_metric(block: LineBlock) -> list[list[Rows]]:
        return [[metric.count(block, system) for system in range(systems)] for metric in metrics]

    for block, metric_rows in counted_blocks(blocks, each_metric):  # (on the counting threads)
        for each, kept in zip(metric_rows, rows):
            for system, block_rows in enumerate(each):
                if write is not None:
                    write(block_rows)
                kept[system].append(block_rows if keep else block_rows.sum(0, keepdims=True))
        if warn:
            for system in range(systems):
                tokenized[system] += tokenized_lines(block.data[system], tokenized[system])
        first = first or block
        lines += block.lines
    if first is not None:
        warn_of_byte_order_marks(first_lines(first), quiet=arguments.quiet)
    for count in tokenized:
        if count >= TOKENIZED_LINES:
            print(_TOKENIZED, file=sys.stderr)
    counted = [
        attrs.evolve(metric, rows=[system.rows for system in kept])
        for metric, kept in zip(metrics, rows)
    ]
    return counted, lines


_TOKENIZED = (
    "bleuprint: warning: 100 or more lines end in a tokenized period (' .'): it looks like "
    "you forgot to detokenize your test data, which may hurt your score (--force to silence "
    "this)"
)


def _sentence_writer(metric: _Metric, arguments: argparse.Namespace) -> Callable[[Rows], None]:
    """What writes the score of each segment of rows of statistics, as sacreBLEU's ``-sl``
    prints it."""
    shown = metric.signature.format(arguments.short)

    def write(rows: Rows) -> None:
        for start in range(0, len(rows), _WRITTEN_AT_ONCE):
            write_stdout(
                "".join(
                    _line(metric.name, score, arguments.width, arguments.score_only, shown) + "\n"
                    for score in metric.sentences(rows[start : start + _WRITTEN_AT_ONCE])
                )
            )

    return write


def _chrf(arguments: argparse.Namespace) -> SacreBLEUChrF:
    """sacreBLEU's chrF with the options of the command line."""
    try:
        return SacreBLEUChrF(
            char_order=arguments.chrf_char_order,
            word_order=arguments.chrf_word_order,
            beta=arguments.chrf_beta,
            lowercase=arguments.chrf_lowercase,
            whitespace=arguments.chrf_whitespace,
            eps_smoothing=arguments.chrf_eps_smoothing,
        )
    except ConfigurationError as error:
        given = (
            f"-cc {arguments.chrf_char_order} -cw {arguments.chrf_word_order} "
            f"--chrf-beta {arguments.chrf_beta}"
        )
        raise ConfigurationError(f"{given}: {error}") from None


@attrs.frozen
class _Score:
    """A score as sacreBLEU's command prints it (0-100 scale): the details printed after it
    (BLEU's precisions and brevity penalty; chrF has none), and the bootstrap's mean and half
    interval where there is one."""

    score: float
    verbose: str = ""
    mean: float = -1.0  # sacreBLEU's "no interval": printed only when > 0
    ci: float = -1.0


@attrs.frozen
class _Metric:
    """A metric of ``-m``: its name as sacreBLEU prints it, its option's name (which orders
    sacreBLEU's reports of one system), its signature, sacreBLEU's arithmetic of it, how it
    counts a block of lines of a system into rows of statistics, which of their columns follow
    from the others (not kept where a test keeps each segment's), and, once counted, each
    system's rows: one per segment where a test resamples them, else a sum per block."""

    name: str
    option: str
    signature: _SacreBLEUSignature
    arithmetic: Arithmetic | ChrFArithmetic
    count: Callable[[LineBlock, int], Rows] = attrs.field(eq=False)
    derivation: Derivation | None = None
    rows: list[SegmentRows] = attrs.Factory(list)

    def score(self, stats: Sequence[int]) -> _Score:
        """The score of statistics summed as sacreBLEU sums them (Python integers)."""
        if isinstance(self.arithmetic, Arithmetic):
            bleu = self.arithmetic.score(stats)
            return _Score(bleu.score, bleu.verbose)
        return _Score(self.arithmetic.value(np.array([stats], dtype=np.int64)))

    def corpus(self, system: int, test: SignificanceTest | None, progress: Update | None) -> _Score:
        """A system's corpus score, with its bootstrap interval where ``test`` asks for one."""
        rows = self.rows[system]
        score = self.score([int(value) for value in column_sums(rows)])
        if test is None:
            return score
        mean, ci = self.arithmetic.interval(rows, test.samples, test.seed, progress)
        return attrs.evolve(score, mean=mean, ci=ci)

    def sentences(self, rows: Rows) -> list[_Score]:
        """The score of each segment's row of ``rows``."""
        return [self.score([int(value) for value in row]) for row in rows]


def _configuration(arguments: argparse.Namespace) -> BLEUScore:
    """The configuration sacreBLEU's options make: it counts, and it names the signature."""
    options: dict[str, Any] = {
        "tokenize": arguments.bleu_tokenize,
        "lowercase": arguments.bleu_lowercase,
        "smooth_method": arguments.bleu_smooth_method,
        "smooth_value": arguments.bleu_smooth_value,
        "effective_order": arguments.sentence_level,
        "spm_model": arguments.spm_model,
    }
    if arguments.langpair:
        languages = arguments.langpair.split("-")
        if len(languages) < 2:
            raise ConfigurationError(f"-l {arguments.langpair}: expected SRC-TRG, such as en-de")
        options["trg_lang"] = languages[1]
    return BLEUScore.sacrebleu(**options)


def _signature_of(configuration: BLEUScore, references: int) -> _SacreBLEUSignature:
    """sacreBLEU's signature of the configuration: every segment has a line of each of the
    ``references`` streams (an empty line is a reference too, as in sacreBLEU)."""
    named = Signature(configuration.signature().parts, reference_counts=frozenset({references}))
    return _SacreBLEUSignature.parse(sacrebleu_definition.signature(named))


@attrs.frozen
class _SacreBLEUSignature:
    """sacreBLEU's signature of the configuration, with the fields a test adds."""

    fields: dict[str, str]

    @classmethod
    def parse(cls, text: str) -> _SacreBLEUSignature:
        return cls(dict(field.split(":", 1) for field in text.split("|")))

    def with_test(self, **fields: object) -> _SacreBLEUSignature:
        # sacreBLEU's order: nrefs, bs, ar, seed, then the configuration, version last.
        extended = {"nrefs": self.fields["nrefs"], **{k: str(v) for k, v in fields.items()}}
        return _SacreBLEUSignature({**extended, **self.fields})

    def format(self, short: bool) -> str:
        return "|".join(
            f"{_SHORT_KEYS.get(key, key) if short else key}:{value}"
            for key, value in self.fields.items()
        )


def _seed() -> tuple[int | None, str]:
    """``$SACREBLEU_SEED`` (default 12345, ``none``: unseeded) and its text."""
    text = os.environ.get("SACREBLEU_SEED", str(DEFAULT_SEED))
    try:
        return (None if text.lower() == "none" else int(text)), text.lower()
    except ValueError:
        raise ConfigurationError(
            f"SACREBLEU_SEED must be a whole number or 'none', got {text!r}"
        ) from None


def _line(name: str, score: _Score, width: int, score_only: bool, signature: str) -> str:
    """``Score.format`` without JSON."""
    text = f"{score.score:.{width}f}"
    if score.mean > 0:
        text += f" (μ = {score.mean:.{width}f} ± {score.ci:.{width}f})"
    if score_only:
        return text
    line = f"{name}|{signature} = {text}"
    return f"{line} {score.verbose}" if score.verbose else line


def _json(name: str, score: _Score, width: int, signature: _SacreBLEUSignature) -> str:
    """``Score.format`` in JSON."""
    import json  # noqa: PLC0415 - only this output needs it

    fields: dict[str, Any] = {
        "name": name,
        "score": float(f"{score.score:.{width}f}"),
        "signature": signature.format(False),
    }
    if score.mean > 0:
        mean, ci = f"{score.mean:.{width}f}", f"{score.ci:.{width}f}"
        fields.update(
            confidence_mean=float(mean), confidence_var=float(ci), confidence=f"μ = {mean} ± {ci}"
        )
    if score.verbose:
        fields["verbose_score"] = score.verbose
    fields.update(signature.fields)
    return json.dumps(fields, indent=1, ensure_ascii=False)


def _single(
    metrics: Sequence[_Metric],
    arguments: argparse.Namespace,
    output_format: str,
    progress: Update | None,
) -> str:
    """One system's scores, a metric at a time: JSON objects (in a list when there are
    several), or lines, aligned at their ``=`` when there are several."""
    width = arguments.width
    interval = _test(arguments)
    results = []
    for metric in metrics:
        score = metric.corpus(0, interval, progress)
        signature = metric.signature
        if interval is not None:
            signature = signature.with_test(bs=interval.samples, seed=str(interval.seed).lower())
        if arguments.score_only or output_format != "json":
            shown = signature.format(arguments.short)
            results.append(_line(metric.name, score, width, arguments.score_only, shown))
        else:
            results.append(_json(metric.name, score, width, signature))
    if output_format == "json":
        return ("[\n" + ",\n".join(results) + "\n]" if len(results) > 1 else results[0]) + "\n"
    # Lines with an "=" are aligned at it (right-aligning what comes before).
    cuts = [line.index("=") - 1 for line in results if "=" in line]
    if len(results) == 1 or not cuts:
        return "".join(f"{line}\n" for line in results)
    widest = max(cuts)
    return "".join(f"{line[:cut]:>{widest}}{line[cut:]}\n" for cut, line in zip(cuts, results))


def _several(
    metrics: Sequence[_Metric],
    names: Sequence[str],
    arguments: argparse.Namespace,
    output_format: str,
) -> str:
    """Several systems' scores, without a test: a column of each metric."""
    import json  # noqa: PLC0415

    width = arguments.width
    columns = [
        [f"{metric.corpus(system, None, None).score:.{width}f}" for system in range(len(names))]
        for metric in metrics
    ]
    if output_format == "json":
        objects = [
            {
                "system": name,
                **{metric.name: column[number] for metric, column in zip(metrics, columns)},
            }
            for number, name in enumerate(names)
        ]
        return json.dumps(objects, indent=4) + "\n"
    headers = ["System", *(metric.name for metric in metrics)]
    table = _table(headers, names, columns, output_format)
    signatures = [(metric.name, metric.signature) for metric in metrics]
    return table + _signatures(signatures, arguments.short)


def _paired(  # noqa: PLR0917 - one caller, the arguments of one output
    metrics: Sequence[_Metric],
    names: Sequence[str],
    test: SignificanceTest,
    arguments: argparse.Namespace,
    output_format: str,
    progress: Update | None,
) -> str:
    """The paired test's outcome: a column of each metric, each system against the first."""
    import json  # noqa: PLC0415

    width = arguments.width
    kind, seed = test.kind, test.seed
    results = [
        # sacreBLEU's paired tests take a seed of 0 as no seed; the baseline's interval does not.
        metric.arithmetic.paired(
            metric.rows,
            test=kind,
            samples=test.samples,
            seed=seed or None,
            baseline_seed=seed,
            progress=progress,
        )
        for metric in metrics
    ]
    if output_format == "json":
        # (sacreBLEU 2.6.0 fails to write this JSON for chrF's bootstrap, whose means and
        # intervals are numpy float32 numbers: bleuprint writes them as the numbers they are.)
        tested = [
            {
                "system": name,
                **{
                    metric.name: scores[number].as_json()
                    for metric, scores in zip(metrics, results)
                },
            }
            for number, name in enumerate(names)
        ]
        return json.dumps(tested, indent=4) + "\n"
    separator = "\n" if output_format == "text" else " "
    headers, columns = ["System"], []
    bootstrap = False  # once a column has intervals, sacreBLEU titles every later one so
    for metric, scores in zip(metrics, results):
        cells = []
        for result in scores:
            cell = f"{result.score:.{width}f}"
            if result.mean is not None:
                bootstrap = True
                cell += f" ({result.mean:.{width}f} ± {result.ci:.{width}f})"
            if result.p_value is not None:
                marker = "" if result.p_value > SIGNIFICANT else "*"
                cell += f"{separator}(p = {result.p_value:.4f}){marker}"
            cells.append(cell)
        headers.append(f"{metric.name} (μ ± 95% CI)" if bootstrap else metric.name)
        columns.append(cells)
    baseline = names[0] if names[0].startswith("Baseline:") else ""
    signatures = [
        (metric.name, metric.signature.with_test(**{kind: test.samples, "seed": str(seed).lower()}))
        for metric in metrics
    ]
    return (
        _table(headers, names, columns, output_format)
        + _paired_explanation(kind, _given_samples(arguments, kind), baseline)
        + _signatures(signatures, arguments.short)
    )


def _table(
    headers: list[str],
    names: Sequence[str],
    columns: Sequence[Sequence[str]],
    output_format: str,
) -> str:
    rows = [[name, *cells] for name, *cells in zip(names, *columns)]
    draw = sacrebleu_tables.grid if output_format == "text" else sacrebleu_tables.latex
    return f"{draw(headers, rows)}\n\n"


def _signatures(signatures: Sequence[tuple[str, _SacreBLEUSignature]], short: bool) -> str:
    rule = "-----------------"
    lines = "".join(f" - {name:<10} {signature.format(short)}\n" for name, signature in signatures)
    return f"{rule}\nMetric signatures\n{rule}\n{lines}"


def _paired_explanation(test: str, samples: int, baseline: str) -> str:
    kind = "bootstrap resampling" if test == "bs" else "approximate randomization"
    unit = "resampling trials" if test == "bs" else "trials"
    title = f"Paired {kind} test with {samples} {unit}"
    provided = (
        "   Actual system score / bootstrap estimated true mean / 95% CI are provided for each "
        "metric."
        if test == "bs"
        else "   Actual system score is provided for each metric."
    )
    lines = [
        "-" * len(title),
        title,
        "-" * len(title),
        f" - Each system is pairwise compared to {baseline}.",
        provided,
        "",
        " - Null hypothesis: the system and the baseline translations are essentially",
        "   generated by the same underlying process. For a given system and the baseline,",
        "   the p-value is roughly the probability of the absolute score difference (delta)",
        "   or higher occurring due to chance, under the assumption that the null hypothesis "
        "is correct.",
        "",
        " - Assuming a significance threshold of 0.05, the null hypothesis can be rejected",
        '   for p-values < 0.05 (marked with "*"). This means that the delta is unlikely to be '
        "attributed",
        '   to chance, hence the system is significantly "different" than the baseline.',
        "   Otherwise, the p-values are highlighted in red.",
        "",
        ' - NOTE: Significance does not tell whether a system is "better" than the baseline '
        "but rather",
        '   emphasizes the "difference" of the systems in terms of the replicability of the delta.',
        "",
        "",
    ]
    return "\n".join(lines)
