"""Explanations of segment scores as text (coloured where asked) or the JSON document."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import Any

from bleuprint.cli.document import ScoreFormat, document, score_fields
from bleuprint.cli.systems import SystemScore
from bleuprint.explain import NgramCount, OrderExplanation, SegmentExplanation

# ANSI colours of the four groups of n-grams, and of headings.
_COLORS = {"matched": "32", "clipped": "33", "unmatched": "31", "missed": "36", "heading": "1"}
_GROUPS = ("matched", "clipped", "unmatched", "missed")


def as_json(
    explanations: Sequence[SegmentExplanation], system: SystemScore, arguments: argparse.Namespace
) -> str:
    """The JSON document: the system's corpus score, its explained ``segments`` in it."""
    printed = ScoreFormat.of(arguments)
    fields = {"system": system.name, "file": system.file, **score_fields(system.result, printed)}
    fields["segments"] = [_as_json(item, printed) for item in explanations]
    return document("explain", arguments.preset, system.result.signature, [fields])


def as_text(explanations: Sequence[SegmentExplanation], arguments: argparse.Namespace) -> str:
    """The explanations for reading, coloured by ``--color`` (``always``, ``never`` or
    ``auto``), each segment's score as the preset's definition prints it."""
    paint = _Painter(_wants_color(arguments.color))
    printed = ScoreFormat.of(arguments)
    return "\n".join(_as_text(item, paint, printed) for item in explanations)


def _wants_color(choice: str) -> bool:
    if choice != "auto":
        return choice == "always"
    # https://no-color.org: a NO_COLOR that is set and not empty turns colour off.
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR")


class _Painter:
    """Wraps text in ANSI colours, or leaves it alone."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled

    def __call__(self, text: str, role: str) -> str:
        return f"\x1b[{_COLORS[role]}m{text}\x1b[0m" if self.enabled else text


def _as_text(item: SegmentExplanation, paint: _Painter, printed: ScoreFormat) -> str:
    heading = f"segment {item.index + 1}"
    if item.loss is not None:
        effect = "costs" if item.loss >= 0 else "adds"
        heading += f": {effect} {abs(100 * item.loss):.2f} BLEU points of the corpus score"
    lines = [paint(heading, "heading"), f"  hypothesis   {' '.join(item.hypothesis_tokens)}"]
    lines += [
        f"  reference {number:<2} {' '.join(tokens)}"
        for number, tokens in enumerate(item.reference_tokens, start=1)
    ]
    lines.append(f"  BLEU = {printed(item.result.score)} {item.result.format_details()}")
    for order, precision in zip(item.orders, item.result.precisions):
        lines.append(
            f"  {order.n}-grams: {order.matches}/{order.total} matched{_smoothed(order, precision)}"
        )
        lines += [
            f"    {paint(f'{group:<9}', group)}  {_ngrams(getattr(order, group))}"
            for group in _GROUPS
            if getattr(order, group)
        ]
    lines.append("  " + _brevity(item))
    return "\n".join(lines) + "\n"


def _smoothed(order: OrderExplanation, precision: float) -> str:
    """A note where smoothing made the precision something other than matches / total."""
    if order.total and precision == order.matches / order.total:
        return ""
    if not order.total and not precision:
        return ""
    return f", precision {100 * precision:.1f} after smoothing"


def _ngrams(items: Sequence[NgramCount]) -> str:
    return " · ".join(" ".join(ngram) + _times(count) for ngram, count in items)


def _times(count: int) -> str:
    return f" ×{count}" if count > 1 else ""  # noqa: RUF001 - the multiplication sign is meant


def _brevity(item: SegmentExplanation) -> str:
    signature = item.result.signature.parts
    hypothesis, reference = _number(item.hypothesis_length), _number(item.reference_length)
    lengths = ", ".join(_number(length) for length in item.reference_lengths)
    comparison = (
        "shorter than" if item.hypothesis_length < item.reference_length else "at least as long as"
    )
    return (
        f"brevity: hypothesis length {hypothesis} ({signature['len']}); reference lengths "
        f"{lengths} give {reference} ({signature['ref']}); the hypothesis is {comparison} that, "
        f"so {signature['bp']} gives BP = {item.result.brevity_penalty:.4f}"
    )


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.2f}"


def _as_json(item: SegmentExplanation, printed: ScoreFormat) -> dict[str, Any]:
    signature = item.result.signature.parts
    return {
        "segment": item.index + 1,
        **score_fields(item.result, printed),
        "loss": None if item.loss is None else 100 * item.loss,
        "hypothesis_tokens": item.hypothesis_tokens,
        "reference_tokens": item.reference_tokens,
        "orders": [
            _order_json(order, precision)
            for order, precision in zip(item.orders, item.result.precisions)
        ],
        "brevity": {
            "hypothesis_length": item.hypothesis_length,
            "reference_lengths": item.reference_lengths,
            "reference_length": item.reference_length,
            "reference_rule": signature["ref"],
            "penalty_rule": signature["bp"],
            "bp": item.result.brevity_penalty,
        },
    }


def _order_json(order: OrderExplanation, precision: float) -> dict[str, Any]:
    fields: dict[str, Any] = {
        "n": order.n,
        "matches": order.matches,
        "total": order.total,
        "precision": 100 * precision,
    }
    for group in _GROUPS:
        fields[group] = [
            {"ngram": list(ngram), "count": count} for ngram, count in getattr(order, group)
        ]
    return fields
