"""``bleuprint score`` and ``bleuprint compare``: corpus, sentence and significance scoring.

The default definition is the ``sacrebleu`` preset, sacreBLEU 2.6.0's BLEU, so that
``bleuprint score`` gives the numbers ``sacrebleu`` gives for the same files and options.
Scores print on sacreBLEU's 0-100 scale. The ``score`` is rounded to ``--width`` decimals
everywhere (in JSON too, as sacreBLEU does); the other numbers of JSON and TSV output keep full
precision, and text output rounds them for reading.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import Any, Literal

import attrs

from bleuprint import significance
from bleuprint._cli_input import (
    Corpus,
    add_configuration_options,
    add_input_options,
    at_least,
    count_with_progress,
    engine_from_options,
    read_corpus,
)
from bleuprint._engine import BLEUScore
from bleuprint._io import STDIN
from bleuprint._progress import ProgressBar
from bleuprint._result import BLEUResult
from bleuprint._table import format_table
from bleuprint.compat import sacrebleu
from bleuprint.exceptions import ConfigurationError, InputError
from bleuprint.significance import SegmentStatistics, SignificanceResult

_FORMATS = ("json", "text", "tsv")
_SIGNIFICANT = 0.05


@attrs.frozen
class _Test:
    """Which significance test to run, and how."""

    kind: Literal["bs", "ar", "ci"]  # paired bootstrap, approximate randomization, intervals
    samples: int
    seed: int
    confidence_resamples: int

    @property
    def paired(self) -> bool:
        """Whether the systems are tested against the first."""
        return self.kind != "ci"

    def describe(self) -> str:
        if self.kind == "ar":
            text = f"paired approximate randomization, {self.samples} trials"
            if self.confidence_resamples:
                text += f", intervals from {self.confidence_resamples} bootstrap resamples"
        elif self.kind == "bs":
            text = f"paired bootstrap resampling, {self.samples} resamples"
        else:
            text = f"bootstrap confidence intervals, {self.samples} resamples"
        return f"{text}, seed {self.seed}"

    def as_json(self) -> dict[str, Any]:
        fields: dict[str, Any] = {"test": self.kind, "samples": self.samples, "seed": self.seed}
        if self.kind == "ar":
            fields["confidence_resamples"] = self.confidence_resamples
        return fields


@attrs.frozen
class _SystemScore:
    name: str
    result: BLEUResult
    test: SignificanceResult | None = None


def add_commands(commands: Any) -> None:
    """Add ``score`` and ``compare`` to the command line's sub-parsers."""
    score = commands.add_parser(
        "score",
        help="score system outputs against references",
        description="Score one or more system output files (or standard input) against one or "
        "more reference files, at corpus or sentence level, with optional significance tests.",
    )
    _add_options(score)
    score.add_argument("-sl", "--sentence-level", action="store_true", help="one score per segment")
    score.add_argument(
        "--dask",
        metavar="SCHEDULER",
        help="count on a Dask cluster: a scheduler's address (tcp://host:8786), or 'local' for "
        "worker processes on this machine; corpus scores of files, the same output "
        "(needs the dask extra: pip install 'bleuprint[dask]')",
    )
    score.set_defaults(command=_score)

    compare = commands.add_parser(
        "compare",
        help="compare systems against the first with a paired test",
        description="Compare system outputs against the first (the baseline) with paired "
        "bootstrap resampling (default) or approximate randomization, with confidence "
        "intervals, as a table or a chart.",
    )
    _add_options(compare)
    compare.add_argument(
        "--plot",
        metavar="FILE.png",
        help="also draw the scores and their 95%% intervals into an image "
        "(needs the plot extra: pip install 'bleuprint[plot]')",
    )
    compare.set_defaults(command=_compare, sentence_level=False)


def _add_options(parser: argparse.ArgumentParser) -> None:
    add_input_options(parser)
    add_configuration_options(parser)
    output = parser.add_argument_group("output")
    output.add_argument(
        "-f",
        "--format",
        choices=_FORMATS,
        default="json",
        help="output format (default: %(default)s)",
    )
    output.add_argument(
        "-b",
        "--score-only",
        action="store_true",
        help="print only the score (one per system or segment)",
    )
    output.add_argument(
        "-w",
        "--width",
        type=at_least(0),
        default=1,
        help="decimals of the printed scores (default: %(default)s)",
    )
    tests = parser.add_argument_group("significance")
    tests.add_argument(
        "--paired-bs",
        action="store_true",
        help="paired bootstrap resampling against the first system",
    )
    tests.add_argument(
        "--paired-ar",
        action="store_true",
        help="paired approximate randomization against the first system",
    )
    tests.add_argument(
        "--paired-bs-n",
        type=at_least(1),
        default=significance.DEFAULT_RESAMPLES,
        metavar="N",
        help="bootstrap resamples (default: %(default)s)",
    )
    tests.add_argument(
        "--paired-ar-n",
        type=at_least(1),
        default=significance.DEFAULT_TRIALS,
        metavar="N",
        help="randomization trials (default: %(default)s)",
    )
    tests.add_argument(
        "-ci", "--confidence", action="store_true", help="bootstrap 95%% confidence intervals"
    )
    tests.add_argument(
        "--confidence-n",
        type=at_least(1),
        default=significance.DEFAULT_RESAMPLES,
        metavar="N",
        help="resamples for the intervals (default: %(default)s)",
    )
    tests.add_argument(
        "--seed",
        type=at_least(0),
        default=significance.DEFAULT_SEED,
        help="seed of the random draws (default: sacreBLEU's, %(default)s)",
    )


def _score(arguments: argparse.Namespace) -> str:
    engine = engine_from_options(arguments, sentence_level=arguments.sentence_level)
    test = _test_from_options(arguments, compare=False)
    if arguments.dask is not None:
        return _format_corpus(_score_on_dask(engine, test, arguments), test, arguments)
    corpus = read_corpus(arguments)
    if arguments.sentence_level:
        if len(corpus.systems) > 1 or test is not None:
            raise ConfigurationError(
                "--sentence-level scores one system, without significance tests"
            )
        return _sentence_level(engine, corpus, arguments)
    return _format_corpus(_score_systems(engine, corpus, test, arguments.quiet), test, arguments)


def _compare(arguments: argparse.Namespace) -> str:
    engine = engine_from_options(arguments)
    test = _test_from_options(arguments, compare=True)
    if arguments.plot:
        from bleuprint import _plot  # noqa: PLC0415 - matplotlib only when asked for

        _plot.check_available()
    scores = _score_systems(engine, read_corpus(arguments), test, arguments.quiet)
    if arguments.plot:
        _plot.draw(
            arguments.plot,
            [(score.name, score.result.score, score.test) for score in scores],
            title=f"BLEU ({arguments.preset})" + (f", {test.describe()}" if test else ""),
        )
    return _format_corpus(scores, test, arguments)


def _test_from_options(arguments: argparse.Namespace, *, compare: bool) -> _Test | None:
    if arguments.paired_bs and arguments.paired_ar:
        raise ConfigurationError("choose one paired test: --paired-bs or --paired-ar")
    confidence = arguments.confidence_n if arguments.confidence else 0
    if arguments.paired_ar:
        return _Test("ar", arguments.paired_ar_n, arguments.seed, confidence)
    if arguments.paired_bs or compare:
        return _Test("bs", arguments.paired_bs_n, arguments.seed, 0)
    if arguments.confidence:
        return _Test("ci", arguments.confidence_n, arguments.seed, 0)
    return None


def _sentence_level(engine: BLEUScore, corpus: Corpus, arguments: argparse.Namespace) -> str:
    with ProgressBar.on_stderr("scoring", len(corpus.systems[0]), quiet=arguments.quiet) as bar:
        segments = count_with_progress(engine, corpus.systems[0], corpus.segment_references(), bar)
    results = [engine.score(stats) for stats in segments]
    width = arguments.width
    if arguments.score_only:
        lines = [_rounded(result.score, width) for result in results]
    elif arguments.format == "json":
        lines = [
            json.dumps({"segment": number, **_json_fields(result, width)}, ensure_ascii=False)
            for number, result in enumerate(results, start=1)
        ]
    elif arguments.format == "tsv":
        return _tsv(
            [_SystemScore(str(number), result) for number, result in enumerate(results, 1)],
            None,
            width,
            first_column="segment",
        )
    else:
        lines = [_text_line(result, width) for result in results]
    return "\n".join(lines) + "\n"


def _score_systems(
    engine: BLEUScore, corpus: Corpus, test: _Test | None, quiet: bool
) -> list[_SystemScore]:
    """Every system's corpus score, with the outcome of the test where one is asked for."""
    if test is not None and test.paired and len(corpus.systems) < 2:
        raise ConfigurationError(
            "a paired test needs at least two systems: give the baseline first to -i"
        )
    references = corpus.segment_references()
    size = sum(len(system) for system in corpus.systems)
    with ProgressBar.on_stderr("counting", size, quiet=quiet) as bar:
        counted = [
            count_with_progress(engine, system, references, bar) for system in corpus.systems
        ]
    # Summed as BLEUStats rather than from the matrices, so lengths and counts stay integers.
    results = [engine.score(sum(segments, engine.empty_stats())) for segments in counted]
    tables = [SegmentStatistics.from_segments(segments) for segments in counted]
    tests = _run_test(engine, tables, test, quiet)
    return [
        _SystemScore(name, result, outcome)
        for name, result, outcome in zip(corpus.names, results, tests)
    ]


def _score_on_dask(
    engine: BLEUScore, test: _Test | None, arguments: argparse.Namespace
) -> list[_SystemScore]:
    """Every system's corpus score, counted on the Dask cluster that ``--dask`` names; the
    workers read the files themselves."""
    if arguments.sentence_level or test is not None or arguments.num_refs != 1:
        raise ConfigurationError(
            "--dask scores corpora of files: without --sentence-level, significance tests "
            "or --num-refs"
        )
    files = [*(arguments.input or [STDIN]), *arguments.references]
    if STDIN in files or any(str(path).endswith(".gz") for path in files):
        raise ConfigurationError(
            "--dask reads plain text files: name them with -i and -r (not standard input, not .gz)"
        )
    try:
        from bleuprint import dask as bleu_dask  # noqa: PLC0415 - Dask only when asked for
    except ImportError as error:
        raise ConfigurationError(str(error)) from None
    with bleu_dask.connect(arguments.dask) as client:
        # Lines lose their trailing whitespace, as the other commands read files (_io).
        results = [
            bleu_dask.corpus_score_files(
                engine, path, arguments.references, scheduler=client, rstrip=True
            )
            for path in arguments.input
        ]
    return [_SystemScore(path, result) for path, result in zip(arguments.input, results)]


def _run_test(
    engine: BLEUScore, tables: Sequence[SegmentStatistics], test: _Test | None, quiet: bool
) -> Sequence[SignificanceResult | None]:
    if test is None:
        return [None] * len(tables)
    corpora = _resampled_corpora(test, len(tables))
    with ProgressBar.on_stderr("testing", corpora, quiet=quiet) as bar:
        if test.kind == "ci":
            return [
                significance.bootstrap_confidence(
                    table, engine, resamples=test.samples, seed=test.seed, progress=bar.advance
                )
                for table in tables
            ]
        return significance.compare_systems(
            tables,
            engine,
            test=test.kind,
            samples=test.samples,
            seed=test.seed,
            confidence_resamples=test.confidence_resamples,
            progress=bar.advance,
        )


def _resampled_corpora(test: _Test, systems: int) -> int:
    """How many corpora the test scores, for the progress bar."""
    if test.kind == "ci":
        return systems * test.samples
    if test.kind == "bs":
        return test.samples * (2 * systems - 1)
    intervals = systems * test.confidence_resamples
    return 2 * test.samples * (systems - 1) + intervals


def _format_corpus(
    scores: Sequence[_SystemScore], test: _Test | None, arguments: argparse.Namespace
) -> str:
    width = arguments.width
    if arguments.score_only:
        return "".join(_rounded(score.result.score, width) + "\n" for score in scores)
    if arguments.format == "tsv":
        return _tsv(scores, test, width, first_column="system")
    if arguments.format == "json":
        objects = [_json_system(score, width) for score in scores]
        if len(scores) == 1 and test is None:
            return json.dumps(objects[0], indent=1, ensure_ascii=False) + "\n"
        document = {
            "name": "BLEU",
            "signature": str(scores[0].result.signature),
            "significance": test.as_json() if test else None,
            "systems": objects,
        }
        return json.dumps(document, indent=1, ensure_ascii=False) + "\n"
    if len(scores) == 1:
        return _text_line(scores[0].result, width, scores[0].test) + "\n"
    return _text_table(scores, test, width)


def _json_fields(result: BLEUResult, width: int) -> dict[str, Any]:
    """sacreBLEU's fields, with the details as numbers too."""
    return {
        "name": "BLEU",
        "score": float(_rounded(result.score, width)),
        "signature": str(result.signature),
        "sacrebleu_signature": _sacrebleu_signature(result),
        "verbose_score": _verbose(result),
        "precisions": [100 * precision for precision in result.precisions],
        "bp": result.brevity_penalty,
        "ratio": result.ratio,
        "hyp_len": result.hypothesis_length,
        "ref_len": result.reference_length,
        "counts": list(result.matches),
        "totals": list(result.totals),
    }


def _sacrebleu_signature(result: BLEUResult) -> str | None:
    """sacreBLEU's signature, for configurations sacreBLEU can compute; else ``None``."""
    try:
        return sacrebleu.signature(result)
    except ConfigurationError:
        return None


def _json_system(score: _SystemScore, width: int) -> dict[str, Any]:
    fields = {"system": score.name, **_json_fields(score.result, width)}
    if score.test is not None:
        fields.update(
            p_value=score.test.p_value,
            mean=_percent(score.test.mean),
            ci=_percent(score.test.ci),
        )
    return fields


def _percent(value: float | None) -> float | None:
    return None if value is None else 100 * value


def _verbose(result: BLEUResult) -> str:
    # The details that follow the score in the result's own one-line form.
    return result.format().split(" ", 3)[3]


def _rounded(score: float, width: int) -> str:
    return f"{100 * score:.{width}f}"


def _interval(test: SignificanceResult | None, width: int) -> str:
    if test is None or test.mean is None or test.ci is None:
        return ""
    return f"μ = {_rounded(test.mean, width)} ± {_rounded(test.ci, width)}"


def _text_line(result: BLEUResult, width: int, test: SignificanceResult | None = None) -> str:
    interval = _interval(test, width)
    score = _rounded(result.score, width) + (f" ({interval})" if interval else "")
    return f"BLEU|{result.signature} = {score} {_verbose(result)}"


def _text_table(scores: Sequence[_SystemScore], test: _Test | None, width: int) -> str:
    paired = test is not None and test.paired
    header = ["system", "BLEU"]
    if any(score.test and score.test.mean is not None for score in scores):
        header.append("μ ± 95% CI")
    if paired:
        header.append("p-value")
    rows = [header]
    for position, score in enumerate(scores):
        name = f"Baseline: {score.name}" if paired and position == 0 else score.name
        row = [name, _rounded(score.result.score, width)]
        if "μ ± 95% CI" in header:
            row.append(_interval(score.test, width).removeprefix("μ = "))
        if paired:
            row.append(_p_value(score.test))
        rows.append(row)
    lines = [format_table(rows).rstrip("\n"), ""]
    if test is not None:
        lines.append(test.describe().capitalize())
    if paired:
        lines.append(f"*: p < {_SIGNIFICANT}, the difference from the baseline is significant")
    lines.append(f"BLEU|{scores[0].result.signature}")
    return "\n".join(lines) + "\n"


def _p_value(test: SignificanceResult | None) -> str:
    if test is None or test.p_value is None:
        return ""
    marker = "*" if test.p_value < _SIGNIFICANT else ""
    return f"{test.p_value:.4f}{marker}"


def _tsv(
    scores: Sequence[_SystemScore], test: _Test | None, width: int, *, first_column: str
) -> str:
    max_n = len(scores[0].result.precisions)
    header = [first_column, "score", *(f"p{n}" for n in range(1, max_n + 1))]
    header += ["bp", "ratio", "hyp_len", "ref_len"]
    if test is not None:
        header += ["mean", "ci", "p_value"]
    rows = ["\t".join(header)]
    for score in scores:
        result = score.result
        cells: list[object] = [score.name, _rounded(result.score, width)]
        cells += [100 * precision for precision in result.precisions]
        cells += [result.brevity_penalty, result.ratio]
        cells += [result.hypothesis_length, result.reference_length]
        if test is not None:
            outcome = score.test or SignificanceResult(result.score)
            cells += [_percent(outcome.mean), _percent(outcome.ci), outcome.p_value]
        rows.append("\t".join(_tsv_cell(cell) for cell in cells))
    return "\n".join(rows) + "\n"


def _tsv_cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        if "\t" in value or "\n" in value:
            raise InputError(f"cannot write {value!r} into a TSV cell")
        return value
    return repr(value)
