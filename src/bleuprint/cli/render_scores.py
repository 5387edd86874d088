"""Scores as text: the JSON document (:mod:`~bleuprint.cli.document`), sacreBLEU's one-line
form, a table, TSV, or a LaTeX table.

Scores (and their means and intervals) print as the preset's definition prints them
(:class:`~bleuprint.cli.document.ScoreFormat`: sacreBLEU's 0-100 with one decimal, NLTK's [0, 1]
at full precision, ...); ``-w`` sets the decimals of the ``score`` everywhere (in JSON too, as
sacreBLEU does). The other numbers of JSON and TSV output keep full precision (precisions are
percentages), and text output rounds them for reading.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import attrs

from bleuprint import presets
from bleuprint._result import BLEUResult, Signature
from bleuprint._segments import SegmentDetails, SentenceScores, segment_details
from bleuprint.cli.document import (
    ScoreFormat,
    StreamedDocument,
    document,
    sacrebleu_signature,
    score_fields,
    segment_fields,
)
from bleuprint.cli.significance import SIGNIFICANT, SignificanceTest
from bleuprint.cli.systems import SystemScore
from bleuprint.cli.table import format_table
from bleuprint.compat import sacrebleu
from bleuprint.exceptions import ConfigurationError, InputError

if TYPE_CHECKING:  # imported by the run of a test
    from bleuprint.significance import SignificanceResult


@attrs.define
class SentenceOutput:
    """One score per segment, written a chunk of segments at a time as they are scored, so
    that files of any length take bounded memory: the JSON document (the system's score over
    the segments follows its ``segments``: :class:`~bleuprint.cli.document.StreamedDocument`),
    text lines, ``-b`` scores or a TSV table. :meth:`chunk` for each chunk in order, then
    :meth:`end`."""

    arguments: argparse.Namespace
    system: str
    file: str | None  # where the system was read from
    printed: ScoreFormat
    written: int = 0  # segments so far
    last: BLEUResult | None = None  # the last segment's

    @classmethod
    def of(cls, arguments: argparse.Namespace, system: str, file: str | None) -> SentenceOutput:
        """The output of a system's segments; fails at once where the format has none."""
        if arguments.format == "latex" and not arguments.score_only:
            raise ConfigurationError(
                "-f latex writes a table of systems: not with --sentence-level"
            )
        return cls(arguments, system, file, ScoreFormat.of(arguments))

    def chunk(self, scores: SentenceScores) -> str:
        """The text of the next chunk's segments (at least one)."""
        first, printed = self.written == 0, self.printed
        numbers = range(self.written + 1, self.written + len(scores) + 1)
        self.written += len(scores)
        if self.arguments.score_only:
            return "".join(printed(score) + "\n" for score in scores.scores.tolist())
        self.last = scores[-1]
        if self.arguments.format == "json":
            fields = [
                {"segment": number, **row}
                for number, row in zip(numbers, segment_fields(scores, printed))
            ]
            document = self._document(scores[0].signature)  # (every segment's is the same)
            return (document.head() if first else "") + document.segments(fields, first=first)
        if self.arguments.format == "tsv":
            header = _tsv_header(len(scores[0].precisions), None, "segment") if first else ""
            return header + _tsv_segment_rows(numbers, scores, printed)
        return _segment_lines(scores, printed)

    def end(self, corpus: BLEUResult) -> str:
        """The text after the last segment: the system's own score in JSON, bleuprint's
        signature under sacreBLEU's lines."""
        if self.arguments.score_only or self.arguments.format == "tsv":
            return ""
        if self.arguments.format == "json":
            return self._document(corpus.signature).tail(score_fields(corpus, self.printed))
        return _signature_line(self.printed, self.last)

    def _document(self, signature: Signature) -> StreamedDocument:
        read_from = {} if self.file is None else {"file": self.file}
        system = {"system": self.system, **read_from}
        return StreamedDocument("score", self.arguments.preset, signature, system)


def corpus_scores(
    command: str,
    scores: Sequence[SystemScore],
    test: SignificanceTest | None,
    arguments: argparse.Namespace,
) -> str:
    """One score per system: ``-b`` scores, a LaTeX table, TSV, the JSON document, a text
    line, or a table."""
    printed = ScoreFormat.of(arguments)
    if arguments.score_only:
        return "".join(printed(score.result.score) + "\n" for score in scores)
    if arguments.format in {"latex", "tsv"}:
        return _table_file(arguments.format, scores, test, printed)
    if arguments.format == "json":
        return document(
            command,
            arguments.preset,
            scores[0].result.signature,
            [_json_system(score, printed, test) for score in scores],
            test.as_json() if test else None,
        )
    if len(scores) == 1:
        tested = test.sacrebleu_fields() if test else {}
        return _text_lines([scores[0].result], printed, scores[0].test, tested)
    return _text_table(scores, test, printed)


def _table_file(
    output_format: str,
    scores: Sequence[SystemScore],
    test: SignificanceTest | None,
    printed: ScoreFormat,
) -> str:
    """The systems as a LaTeX table or as TSV."""
    if output_format == "latex":
        return _latex(scores, test, printed)
    return _tsv(scores, test, printed, first_column="system")


def _json_system(
    score: SystemScore, printed: ScoreFormat, test: SignificanceTest | None = None
) -> dict[str, Any]:
    tested = test.sacrebleu_fields() if test else {}
    read_from = {} if score.file is None else {"file": score.file}
    return {
        "system": score.name,
        **read_from,
        **score_fields(score.result, printed, score.test, tested),
    }


def _interval(test: SignificanceResult | None, printed: ScoreFormat) -> str:
    if test is None or test.mean is None or test.ci is None:
        return ""
    return f"μ = {printed(test.mean)} ± {printed(test.ci)}"


def _text_lines(
    results: Sequence[BLEUResult],
    printed: ScoreFormat,
    test: SignificanceResult | None = None,
    tested: Mapping[str, object] = MappingProxyType({}),
    *,
    signature_line: bool = True,
) -> str:
    """sacreBLEU's one-line form of each result. Under sacreBLEU's presets each line is the
    one sacreBLEU prints, its signature included, and bleuprint's signature follows on a line
    of its own (as under a table: :func:`_signature_line`, unless ``signature_line`` is
    false); under the others the line carries bleuprint's signature."""
    sacrebleus = _sacrebleus(printed)
    lines = []
    for result in results:
        interval = _interval(test, printed)
        score = printed(result.score) + (f" ({interval})" if interval else "")
        named = _line_signature(result, sacrebleus, tested)
        lines.append(_line(named, score, result.format_details()))
    if signature_line and results:
        lines.append(_signature_line(printed, results[-1]))
    return "".join(lines)


def _segment_lines(scores: SentenceScores, printed: ScoreFormat) -> str:
    """:func:`_text_lines` of each segment's result (without bleuprint's signature line),
    without making the results: the signature of the first segment of each number of
    references is that of the others."""
    sacrebleus, signatures = _sacrebleus(printed), dict[int, str]()
    lines = []
    for index, details in enumerate(segment_details(scores)):
        named = signatures.get(details.references)
        if named is None:
            named = _line_signature(scores[index], sacrebleus, MappingProxyType({}))
            signatures[details.references] = named
        lines.append(_line(named, printed(details.score), details.format_details()))
    return "".join(lines)


def _line(signature: str, score: str, details: str) -> str:
    """sacreBLEU's one-line form of a score: its signature, the score as printed, and what
    follows it (:meth:`~bleuprint.BLEUResult.format_details`)."""
    return f"BLEU|{signature} = {score} {details}\n"


def _line_signature(result: BLEUResult, sacrebleus: bool, tested: Mapping[str, object]) -> str:
    """The signature of a result's line: sacreBLEU's under its presets (where it can compute
    the configuration), else bleuprint's."""
    named = sacrebleu_signature(result, tested) if sacrebleus else None
    return named or str(result.signature)


def _sacrebleus(printed: ScoreFormat) -> bool:
    return presets.origin(printed.preset.name) == sacrebleu.__name__


def _signature_line(printed: ScoreFormat, result: BLEUResult | None) -> str:
    """bleuprint's signature on a line of its own, under sacreBLEU's lines (whose signature
    is sacreBLEU's); nothing under the others."""
    if result is None or not _sacrebleus(printed):
        return ""
    return f"BLEU|{result.signature}\n"


def _text_table(
    scores: Sequence[SystemScore], test: SignificanceTest | None, printed: ScoreFormat
) -> str:
    paired = test is not None and test.paired
    header = ["system", "BLEU"]
    if any(score.test and score.test.mean is not None for score in scores):
        header.append("μ ± 95% CI")
    if paired:
        header.append("p-value")
    rows = [header]
    for position, score in enumerate(scores):
        name = f"Baseline: {score.name}" if paired and position == 0 else score.name
        row = [name, printed(score.result.score)]
        if "μ ± 95% CI" in header:
            row.append(_interval(score.test, printed).removeprefix("μ = "))
        if paired:
            row.append(_p_value(score.test))
        rows.append(row)
    lines = [format_table(rows).rstrip("\n"), ""]
    if test is not None:
        lines.append(test.describe().capitalize())
    if paired:
        lines.append(f"*: p < {SIGNIFICANT}, the difference from the baseline is significant")
    lines.append(f"BLEU|{scores[0].result.signature}")
    return "\n".join(lines) + "\n"


def _p_value(test: SignificanceResult | None) -> str:
    if test is None or test.p_value is None:
        return ""
    marker = "*" if test.p_value < SIGNIFICANT else ""
    return f"{test.p_value:.4f}{marker}"


def _tsv(
    scores: Sequence[SystemScore],
    test: SignificanceTest | None,
    printed: ScoreFormat,
    *,
    first_column: str,
) -> str:
    header = _tsv_header(len(scores[0].result.precisions), test, first_column)
    return header + "".join(_tsv_row(score, test, printed) for score in scores)


def _tsv_header(max_n: int, test: SignificanceTest | None, first_column: str) -> str:
    header = [first_column, "score", *(f"p{n}" for n in range(1, max_n + 1))]
    header += ["bp", "ratio", "hyp_len", "ref_len"]
    if test is not None:
        header += ["mean", "ci", "p_value"]
    return "\t".join(header) + "\n"


def _tsv_row(score: SystemScore, test: SignificanceTest | None, printed: ScoreFormat) -> str:
    result = score.result
    cells: list[object] = [score.name, printed(result.score), *_tsv_numbers(result)]
    if test is not None:
        outcome = score.test
        if outcome is None:  # a row the test gives nothing for
            cells += [None, None, None]
        else:
            cells += [printed.scaled(outcome.mean), printed.scaled(outcome.ci), outcome.p_value]
    return "\t".join(_tsv_cell(cell) for cell in cells) + "\n"


def _tsv_segment_rows(numbers: range, scores: SentenceScores, printed: ScoreFormat) -> str:
    """:func:`_tsv_row` of each segment's result, numbered, without making the results."""
    rows = zip(numbers, segment_details(scores))
    return "".join(
        "\t".join([str(number), printed(details.score), *_tsv_numbers(details)]) + "\n"
        for number, details in rows
    )


def _tsv_numbers(numbers: BLEUResult | SegmentDetails) -> list[str]:
    """The cells after a row's score: its numbers at full precision, the precisions as
    percentages."""
    cells = [100 * precision for precision in numbers.precisions]
    cells += [numbers.brevity_penalty, numbers.ratio]
    cells += [numbers.hypothesis_length, numbers.reference_length]
    return list(map(repr, cells))


def _tsv_cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        if "\t" in value or "\n" in value:
            raise InputError(f"cannot write {value!r} into a TSV cell")
        return value
    return repr(value)


_LATEX_SPECIAL = {
    **{char: "\\" + char for char in "&%$#_{}"},
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "\\": r"\textbackslash{}",
}


def _latex_text(text: str) -> str:
    return "".join(_LATEX_SPECIAL.get(char, char) for char in text)


def _latex(
    scores: Sequence[SystemScore], test: SignificanceTest | None, printed: ScoreFormat
) -> str:
    """A booktabs table for a paper (needs ``\\usepackage{booktabs}``), the signature and the
    test in comments above it; the baseline of a paired test is marked, significant
    differences from it starred."""
    paired = test is not None and test.paired
    intervals = any(score.test and score.test.mean is not None for score in scores)
    header = ["System", "BLEU"]
    if intervals:
        header.append(r"$\mu \pm$ 95\% CI")
    if paired:
        header.append("$p$-value")
    rows = [header]
    for position, score in enumerate(scores):
        name = _latex_text(score.name) + (" (baseline)" if paired and position == 0 else "")
        row = [name, printed(score.result.score)]
        if intervals:
            interval = _interval(score.test, printed).removeprefix("μ = ")
            row.append(interval.replace(" ± ", r" $\pm$ "))
        if paired:
            row.append(_p_value(score.test).replace("*", "$^*$"))
        rows.append(row)
    lines = [f"% BLEU|{scores[0].result.signature}"]
    if test is not None:
        lines.append(f"% {test.describe().capitalize()}")
    if paired:
        lines.append(f"% *: p < {SIGNIFICANT}, the difference from the baseline is significant")
    lines.append(r"\begin{tabular}{l" + "r" * (len(header) - 1) + "}")
    lines.append(r"\toprule")
    lines.append(" & ".join(header) + r" \\")
    lines.append(r"\midrule")
    lines.extend(" & ".join(row) + r" \\" for row in rows[1:])
    lines.extend([r"\bottomrule", r"\end{tabular}"])
    return "\n".join(lines) + "\n"
