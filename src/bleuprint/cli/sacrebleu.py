"""``bleuprint sacrebleu ARGS...``: sacreBLEU 2.6.0's command line, for BLEU.

The options and positional references parse as ``sacrebleu``'s do (abbreviations included,
as sacreBLEU's parser allows them), and standard output is what ``sacrebleu`` prints, byte for
byte, when it is not a terminal: JSON, text and LaTeX, ``-b``, ``-w``, ``-sh``, ``-sl``, ``-e``,
several systems (files or tab-separated standard input), ``--confidence``, the paired tests with
their defaults and ``$SACREBLEU_SEED``, ``-l``, ``$SACREBLEU_FORMAT`` and ``-d`` (with files,
sacreBLEU's text and its line that no subsets are found). bleuprint counts the
n-grams; :class:`bleuprint.compat.sacrebleu.Arithmetic` turns the counts into sacreBLEU's
numbers with sacreBLEU's own floating-point operations (its module says why), and the
signature is the configuration's, built from the options.
What bleuprint cannot do (chrF and TER, test sets, SentencePiece tokenizers) is
refused in one line with exit status 2. sacreBLEU's own errors (say, files of different
lengths) also end with status 2, bleuprint's status for every error, where sacreBLEU's is 1.
Colours are never printed (sacreBLEU prints them only to a terminal).
"""

from __future__ import annotations

import argparse
import codecs
import io
import os
import sys
from collections.abc import Sequence
from typing import Any, Literal

import attrs

from bleuprint._engine import BLEUScore
from bleuprint._io import (
    STDIN,
    byte_order_mark_warning,
    open_binary,
    read_segments,
    split_references,
    standard_input,
)
from bleuprint._resampling import DEFAULT_RESAMPLES, DEFAULT_SEED, DEFAULT_TRIALS
from bleuprint._result import Signature
from bleuprint._segments import SegmentStats
from bleuprint.cli import sacrebleu_tables
from bleuprint.cli.corpus import count_segments, looks_tokenized, total_bytes
from bleuprint.cli.options import SubCommands
from bleuprint.cli.progress import Progress, Update
from bleuprint.cli.significance import SignificanceTest
from bleuprint.compat import sacrebleu as sacrebleu_definition
from bleuprint.compat.sacrebleu import Arithmetic, Rows, Score
from bleuprint.exceptions import ConfigurationError, InputError

_FORMATS = ("json", "text", "latex")
_SHORT_KEYS = {"version": "v", "nrefs": "#", "seed": "rs", "case": "c", "eff": "e", "smooth": "s"}
_DEFAULT_SAMPLES = {"bs": DEFAULT_RESAMPLES, "ar": DEFAULT_TRIALS}
_NO_SUBSETS = "No subset information found. Consider using --origlang argument.\n"


def add_command(commands: SubCommands) -> None:
    """Add the command, with sacreBLEU's options, to the command line's sub-parsers."""
    parser = commands.add_parser(
        "sacrebleu",
        help="sacreBLEU 2.6.0's command line for BLEU, with the same output",
        description="sacreBLEU 2.6.0's command line for BLEU: the same options, positional "
        "references first (sacrebleu REF... -i SYS...), the same standard output. chrF, TER "
        "and test sets (-t) are refused; the SentencePiece tokenizers read their model from "
        "where sacreBLEU keeps it, or from --spm-model.",
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
    other = parser.add_argument_group("chrF and TER arguments (accepted, unused: BLEU only)")
    for name, short in (("--chrf-char-order", "-cc"), ("--chrf-word-order", "-cw")):
        other.add_argument(name, short, type=int)
    other.add_argument("--chrf-beta", type=int)
    for flag in (
        "--chrf-whitespace", "--chrf-lowercase", "--chrf-eps-smoothing", "--ter-case-sensitive",
        "--ter-asian-support", "--ter-no-punct", "--ter-normalized",
    ):  # fmt: skip
        other.add_argument(flag, action="store_true")
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
    """sacreBLEU's standard output for these options."""
    _refuse_what_bleuprint_cannot_do(arguments)
    output_format = os.environ.get("SACREBLEU_FORMAT", "").lower()
    if output_format not in _FORMATS:
        output_format = arguments.format
    if arguments.detail and output_format == "json":
        output_format = "text"  # as sacreBLEU: its subsets' lines would break the JSON
    if arguments.width < 0:
        raise ConfigurationError(f"-w/--width must be at least 0, got {arguments.width}")
    paired = arguments.paired_bs or arguments.paired_ar
    with Progress(quiet=arguments.quiet) as progress:
        with progress.stage("reading", _total_bytes(arguments), "bytes") as update:
            references = _read_references(arguments, update)
            names, systems = _read_systems(arguments, paired, update)
        _check(arguments, references, systems, paired)
        configuration = _configuration(arguments)
        arithmetic = Arithmetic(
            configuration.max_n,
            arguments.bleu_smooth_method,
            arguments.bleu_smooth_value,
            arguments.sentence_level,
        )
        with progress.stage("counting", sum(map(len, systems)), "segments") as update:
            segment_references = [list(segment) for segment in zip(*references)]
            counted = []
            for system in systems:
                counted.append(count_segments(configuration, system, segment_references, update))
                _warn_if_tokenized(system, arguments)
        signature = _signature_of(configuration, len(references))
        test = _test(arguments)
        # A test counts the resampled corpora it scores, as ``compare`` does.
        stage = (
            progress.stage("testing", test.corpora(len(counted)), "corpora")
            if test is not None
            else progress.stage("scoring")
        )
        with stage as update:
            return _output(
                arithmetic, signature, names, counted, arguments, format=output_format,
                progress=update,
            )  # fmt: skip


def _total_bytes(arguments: argparse.Namespace) -> int | None:
    """The bytes of the files, where known ahead (not standard input, .gz)."""
    return total_bytes([*arguments.refs, *(arguments.input or [STDIN])])


def _output(
    arithmetic: Arithmetic,
    signature: _SacreBLEUSignature,
    names: list[str],
    counted: list[SegmentStats],
    arguments: argparse.Namespace,
    *,
    format: str,
    progress: Update | None = None,
) -> str:
    """sacreBLEU's standard output, from the counted systems (``progress`` told of each
    resampled corpus scored)."""
    output_format = format
    rows = [arithmetic.rows(segments) for segments in counted]
    width = arguments.width
    if arguments.sentence_level:
        shown = signature.format(arguments.short)
        return "".join(
            _line(
                arithmetic.score([int(value) for value in row]), width, arguments.score_only, shown
            )
            + "\n"
            for row in rows[0]
        )
    if len(counted) == 1:
        single = _single(arithmetic, rows[0], signature, arguments, output_format, progress)
        # Files carry no test set's subsets (sacreBLEU's -d splits a test set by them).
        return single + (_NO_SUBSETS if arguments.detail else "")
    return _several(arithmetic, names, rows, signature, arguments, output_format, progress)


def _refuse_what_bleuprint_cannot_do(arguments: argparse.Namespace) -> None:
    instead = "run sacrebleu itself for it"
    if set(arguments.metrics) != {"bleu"}:
        other = ", ".join(metric for metric in arguments.metrics if metric != "bleu")
        raise ConfigurationError(f"-m {other}: bleuprint computes BLEU only; {instead}")
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


def _read_references(arguments: argparse.Namespace, progress: Update) -> list[list[str]]:
    if arguments.num_refs != 1 and len(arguments.refs) > 1:
        raise ConfigurationError(
            "--num-refs splits one file of tab-separated references: give one reference file"
        )
    if not arguments.refs:
        raise ConfigurationError("give the reference files before -i (sacrebleu REF... -i SYS...)")
    streams = []
    for path in arguments.refs:
        lines = _read(path, arguments, progress)
        if arguments.num_refs == 1:
            streams.append(lines)
        else:
            streams.extend(split_references(lines, arguments.num_refs, path))
    return streams


def _read_systems(
    arguments: argparse.Namespace, paired: bool, progress: Update
) -> tuple[list[str], list[list[str]]]:
    if arguments.input is None:
        return _read_standard_input(arguments, paired)
    names: list[str] = []
    systems = []
    for path in arguments.input:
        if path in names:
            if paired and path == names[0]:
                continue  # sacreBLEU skips the baseline given again
            raise InputError(f"{path!r} already used to name a system")
        names.append(path)
        systems.append(_read(path, arguments, progress))
    if not systems:
        raise ConfigurationError("-i names no system output file")
    if paired:
        names[0] = f"Baseline: {names[0]}"
    return names, systems


def _read_standard_input(
    arguments: argparse.Namespace, paired: bool
) -> tuple[list[str], list[list[str]]]:
    """Tab-separated systems, one per column; the first line says how many. Lines end as
    sacreBLEU's text stream ends them (at ``\\n``, ``\\r\\n`` or ``\\r``)."""
    if sys.stdin is None:  # closed (<&-)
        standard_input()  # raises the input error
    buffer = getattr(sys.stdin, "buffer", None)
    stream = io.TextIOWrapper(buffer, encoding=arguments.encoding) if buffer else sys.stdin
    # sacreBLEU strips the first line as a whole and every later field on its own.
    first = stream.readline().rstrip().split("\t")
    systems = [[field] for field in first]
    for number, line in enumerate(stream, start=2):
        fields = line.rstrip().split("\t")
        if len(fields) != len(systems):
            raise InputError(
                f"line {number} has {len(fields)} tab-separated systems, line 1 has {len(systems)}",
                path="<stdin>",
            )
        for system, field in zip(systems, fields):
            system.append(field.rstrip())
    count = len(systems)
    if paired:
        return ["Baseline", *(f"System {n + 1}" for n in range(count - 1))], systems
    return [f"System {n + 1}" for n in range(count)], systems


def _read(path: str, arguments: argparse.Namespace, progress: Update) -> list[str]:
    """The lines of a file as sacreBLEU reads them (split at ``\\n``, trailing whitespace
    removed), in the encoding of ``-e``."""
    try:
        encoding = codecs.lookup(arguments.encoding).name
    except LookupError:
        raise ConfigurationError(f"-e {arguments.encoding}: no such encoding") from None
    if encoding == "utf-8":
        lines = read_segments(path, progress)
    else:
        with open_binary(path) as handle:
            try:
                text = io.TextIOWrapper(handle, encoding=encoding, newline="\n")
                lines = [line.rstrip() for line in text]
            except UnicodeDecodeError as error:
                raise InputError(f"not valid {encoding}: {error.reason}", path=path) from None
    warning = byte_order_mark_warning(path, lines)
    if warning and not arguments.quiet:
        print(f"bleuprint: warning: {warning}", file=sys.stderr)
    return lines


def _check(
    arguments: argparse.Namespace,
    references: Sequence[Sequence[str]],
    systems: Sequence[Sequence[str]],
    paired: bool,
) -> None:
    """sacreBLEU's checks, in its order."""
    if arguments.sentence_level:
        if len(systems) > 1:
            raise ConfigurationError("-sl/--sentence-level scores one system")
        if arguments.confidence or paired:
            raise ConfigurationError("-sl/--sentence-level runs no statistical tests")
    if paired and len(systems) == 1:
        raise ConfigurationError("paired tests need several systems given to -i")
    if len(systems) > 1 and arguments.confidence:
        raise ConfigurationError(
            "--confidence is for one system: test several with --paired-bs or --paired-ar"
        )
    for system in systems:
        if any(len(stream) != len(system) for stream in references):
            lengths = ", ".join(str(len(stream)) for stream in references)
            raise InputError(
                f"the systems have {len(system)} lines and the references {lengths}: "
                "system and reference files must have the same number of lines"
            )
    test = _test(arguments)
    if test is not None:
        test.check_size(len(systems), len(systems[0]))


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


def _warn_if_tokenized(system: Sequence[str], arguments: argparse.Namespace) -> None:
    """sacreBLEU's warning: 100 or more lines of a system end in a tokenized full stop."""
    if arguments.bleu_force or arguments.sentence_level or arguments.quiet:
        return
    if looks_tokenized(system):
        print(
            "bleuprint: warning: 100 or more lines end in a tokenized period (' .'): it looks "
            "like you forgot to detokenize your test data, which may hurt your score "
            "(--force to silence this)",
            file=sys.stderr,
        )


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


def _line(score: Score, width: int, score_only: bool, signature: str) -> str:
    """``Score.format`` without JSON."""
    text = f"{score.score:.{width}f}"
    if score.mean > 0:
        text += f" (μ = {score.mean:.{width}f} ± {score.ci:.{width}f})"
    if score_only:
        return text
    return f"BLEU|{signature} = {text} {score.verbose}"


def _single(  # noqa: PLR0917 - one caller, the arguments of one output
    arithmetic: Arithmetic,
    rows: Rows,
    signature: _SacreBLEUSignature,
    arguments: argparse.Namespace,
    output_format: str,
    progress: Update | None,
) -> str:
    width = arguments.width
    interval = _test(arguments)
    if interval is not None:
        score = arithmetic.with_interval(rows, interval.samples, interval.seed, progress)
        signature = signature.with_test(bs=interval.samples, seed=str(interval.seed).lower())
    else:
        score = arithmetic.corpus(rows)
    if arguments.score_only or output_format != "json":
        shown = signature.format(arguments.short)
        return _line(score, width, arguments.score_only, shown) + "\n"
    shown = signature.format(False)
    fields: dict[str, Any] = {
        "name": "BLEU",
        "score": float(f"{score.score:.{width}f}"),
        "signature": shown,
    }
    if score.mean > 0:
        mean, ci = f"{score.mean:.{width}f}", f"{score.ci:.{width}f}"
        fields.update(
            confidence_mean=float(mean), confidence_var=float(ci), confidence=f"μ = {mean} ± {ci}"
        )
    fields["verbose_score"] = score.verbose
    fields.update(signature.fields)
    import json  # noqa: PLC0415 - only this output needs it

    return json.dumps(fields, indent=1, ensure_ascii=False) + "\n"


def _several(  # noqa: PLR0917 - one caller, the arguments of one output
    arithmetic: Arithmetic,
    names: Sequence[str],
    rows: Sequence[Rows],
    signature: _SacreBLEUSignature,
    arguments: argparse.Namespace,
    output_format: str,
    progress: Update | None,
) -> str:
    import json  # noqa: PLC0415

    width = arguments.width
    test = _test(arguments)
    if test is None:
        scores = [f"{arithmetic.corpus(system).score:.{width}f}" for system in rows]
        if output_format == "json":
            objects = [{"system": name, "BLEU": score} for name, score in zip(names, scores)]
            return json.dumps(objects, indent=4) + "\n"
        table = _table(["System", "BLEU"], names, scores, output_format)
        return table + _signatures(signature, arguments.short)
    kind, seed = test.kind, test.seed
    # sacreBLEU's paired tests take a seed of 0 as no seed; the baseline's interval does not.
    results = arithmetic.paired(
        rows,
        test=kind,
        samples=test.samples,
        seed=seed or None,
        baseline_seed=seed,
        progress=progress,
    )
    signature = signature.with_test(**{kind: test.samples, "seed": str(seed).lower()})
    if output_format == "json":
        tested = [
            {"system": name, "BLEU": result.as_json()} for name, result in zip(names, results)
        ]
        return json.dumps(tested, indent=4) + "\n"
    separator = "\n" if output_format == "text" else " "
    cells = []
    for result in results:
        cell = f"{result.score:.{width}f}"
        if result.mean is not None:
            cell += f" ({result.mean:.{width}f} ± {result.ci:.{width}f})"
        if result.p_value is not None:
            marker = "" if result.p_value > 0.05 else "*"
            cell += f"{separator}(p = {result.p_value:.4f}){marker}"
        cells.append(cell)
    header = "BLEU (μ ± 95% CI)" if any(r.mean is not None for r in results) else "BLEU"
    baseline = names[0] if names[0].startswith("Baseline:") else ""
    table = _table(["System", header], names, cells, output_format)
    return (
        table
        + _paired_explanation(kind, _given_samples(arguments, kind), baseline)
        + _signatures(signature, arguments.short)
    )


def _table(
    headers: list[str], names: Sequence[str], cells: Sequence[str], output_format: str
) -> str:
    rows = [[name, cell] for name, cell in zip(names, cells)]
    draw = sacrebleu_tables.grid if output_format == "text" else sacrebleu_tables.latex
    return f"{draw(headers, rows)}\n\n"


def _signatures(signature: _SacreBLEUSignature, short: bool) -> str:
    rule = "-----------------"
    return f"{rule}\nMetric signatures\n{rule}\n - {'BLEU':<10} {signature.format(short)}\n"


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
