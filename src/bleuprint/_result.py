"""The outcome of scoring: :class:`BLEUResult` and its :class:`Signature`."""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from typing import Any

import attrs
import numpy as np
import numpy.typing as npt

from bleuprint._stats import BLEUStats
from bleuprint._version import __version__
from bleuprint.exceptions import ConfigurationError

__all__ = ["FAMILIES", "BLEUResult", "Signature"]

FAMILIES = ("tok", "ngram", "match", "len", "ref", "bp", "smooth", "weights")
"""The keys of a signature, one per family of parts, in the order they are written."""


def _parts_mapping(parts: Mapping[str, str]) -> Mapping[str, str]:
    missing = [family for family in FAMILIES if family not in parts]
    if missing:
        raise ConfigurationError(f"signature lacks the parts {', '.join(missing)}")
    return {family: parts[family] for family in FAMILIES}


@attrs.frozen
class Signature:
    """Names every part of the configuration that produced a result, and bleuprint's version.

    Its text form parses back into an equal configuration with
    :meth:`bleuprint.BLEUScore.from_signature`.

    >>> from bleuprint import BLEUScore
    >>> signature = BLEUScore.canonical(max_n=2).corpus_score(["a b"], [["a b"]]).signature
    >>> print(signature)  # doctest: +ELLIPSIS
    bleuprint:...|tok:whitespace|ngram:contiguous[2]|match:clipped|len:tokens|ref:closest[shorter]|bp:exp|smooth:none|weights:uniform|nrefs:1
    """

    parts: Mapping[str, str] = attrs.field(converter=_parts_mapping)
    reference_counts: frozenset[int] = frozenset()
    version: str = __version__

    @property
    def nrefs(self) -> str:
        """The number of references per segment, ``var`` if it varies, ``0`` if no segment."""
        if len(self.reference_counts) > 1:
            return "var"
        return str(next(iter(self.reference_counts), 0))

    def __str__(self) -> str:
        fields = [f"bleuprint:{self.version}"]
        fields += [f"{family}:{part}" for family, part in self.parts.items()]
        fields.append(f"nrefs:{self.nrefs}")
        return "|".join(fields)

    @classmethod
    def parse(cls, text: str) -> Signature:
        """Read the text form back. Unknown keys and a missing part are errors."""
        if not isinstance(text, str):
            raise ConfigurationError(f"a signature is a string, got {type(text).__name__}")
        fields: dict[str, str] = {}
        for item in text.strip().split("|"):
            key, colon, value = item.partition(":")
            if not colon:
                raise ConfigurationError(f"signature field {item!r} is not of the form key:value")
            fields[key] = value
        version = fields.pop("bleuprint", None)
        if version is None:
            raise ConfigurationError("not a bleuprint signature: it does not start with bleuprint:")
        nrefs = fields.pop("nrefs", "0")
        unknown = sorted(set(fields) - set(FAMILIES))
        if unknown:
            raise ConfigurationError(f"signature has unknown fields: {', '.join(unknown)}")
        return cls(fields, _reference_counts(nrefs), version)


def _reference_counts(nrefs: str) -> frozenset[int]:
    """The reference counts that a signature's ``nrefs`` field stands for."""
    if nrefs in ("0", "var"):
        return frozenset()
    # (at most 18 digits: any count a corpus can have, and never Python's digit limit)
    if not (nrefs.isascii() and nrefs.isdigit() and len(nrefs) <= 18):
        raise ConfigurationError(
            f"signature field nrefs must be a number of references or var, got {nrefs!r:.40}"
        )
    return frozenset({int(nrefs)})


@attrs.frozen
class BLEUResult:
    """A BLEU score with everything that went into it.

    ``score`` lies in [0, 1] for every bounded definition; scaling to 0-100 happens only when
    printing (``str(result)``), as users of sacreBLEU expect.
    """

    score: float
    precisions: tuple[float, ...]
    brevity_penalty: float
    stats: BLEUStats
    signature: Signature

    @property
    def matches(self) -> tuple[float, ...]:
        """Matched n-grams per order."""
        return self.stats.matches

    @property
    def totals(self) -> tuple[float, ...]:
        """Hypothesis n-grams per order."""
        return self.stats.totals

    @property
    def hypothesis_length(self) -> float:
        return self.stats.hypothesis_length

    @property
    def reference_length(self) -> float:
        return self.stats.reference_length

    @property
    def ratio(self) -> float:
        """Hypothesis length over reference length (0 when the reference length is 0)."""
        if not self.reference_length:
            return 0.0
        return self.hypothesis_length / self.reference_length

    def __float__(self) -> float:
        return self.score

    def format(self, width: int = 2) -> str:
        """The score on the 0-100 scale with its details, one line, sacreBLEU's layout.

        >>> from bleuprint import BLEUScore
        >>> bleu = BLEUScore.canonical(max_n=2)
        >>> print(bleu.sentence_score("the cat is here", ["the cat was here"]))
        BLEU = 50.00 75.0/33.3 (BP = 1.000 ratio = 1.000 hyp_len = 4 ref_len = 4)
        """
        percents = self._percent_precisions()
        return f"BLEU = {self._percent_score(percents):.{width}f} {self._details(percents)}"

    def format_details(self) -> str:
        """What follows the score in :meth:`format`: the precisions, brevity penalty, ratio
        and lengths (sacreBLEU's ``verbose_score``).

        >>> from bleuprint import BLEUScore
        >>> BLEUScore.canonical(max_n=2).sentence_score("a b c", ["a b d"]).format_details()
        '66.7/50.0 (BP = 1.000 ratio = 1.000 hyp_len = 3 ref_len = 3)'
        """
        return self._details(self._percent_precisions())

    def _details(self, percent_precisions: list[float]) -> str:
        return details_text(
            percent_precisions,
            self.brevity_penalty,
            self.ratio,
            self.hypothesis_length,
            self.reference_length,
        )

    def __str__(self) -> str:
        return self.format()

    def _percent_precisions(self) -> list[float]:
        # A definition may report fewer totals than precisions; those take the general search.
        totals = itertools.chain(self.totals, itertools.repeat(0.0))
        return [_as_percentage(*order) for order in zip(self.precisions, totals)]

    def _percent_score(self, percent_precisions: list[float]) -> float:
        """``100 * score``, computed in sacreBLEU's order where the score is its formula
        (from the precisions as percentages, :meth:`_percent_precisions`).

        sacreBLEU multiplies the brevity penalty by the exponential of the mean log of the
        percentages of the leading orders. Where a score is an exact tie such as 31.25, that
        order of operations lands a hair above or below it, and the printed score rounds
        accordingly; so where the score is that formula (up to rounding), it is printed from
        the same operations. Other definitions print ``100 * score``.
        """
        percent = 100 * self.score
        leading = list(itertools.takewhile(lambda precision: precision > 0, percent_precisions))
        if not percent or not leading:
            return percent
        logs = sum(math.log(precision) for precision in leading)
        as_sacrebleu = self.brevity_penalty * math.exp(logs / len(leading))
        return as_sacrebleu if math.isclose(as_sacrebleu, percent, rel_tol=1e-12) else percent


def details_text(
    percent_precisions: Sequence[float],
    brevity_penalty: float,
    ratio: float,
    hypothesis_length: float,
    reference_length: float,
) -> str:
    """What follows the score in sacreBLEU's line (its ``verbose_score``): the precisions as
    percentages (:func:`percentages`), the brevity penalty, the ratio and the lengths.

    >>> details_text([66.66666666666667, 50.0], 1.0, 1.0, 3, 3)
    '66.7/50.0 (BP = 1.000 ratio = 1.000 hyp_len = 3 ref_len = 3)'
    """
    precisions = "/".join(f"{percent:.1f}" for percent in percent_precisions)
    return (
        f"{precisions} (BP = {brevity_penalty:.3f} ratio = {ratio:.3f} "
        f"hyp_len = {_length(hypothesis_length)} ref_len = {_length(reference_length)})"
    )


def percentages(precisions: npt.NDArray[Any], totals: npt.NDArray[Any]) -> list[list[float]]:
    """:func:`_as_percentage` of each row of ``precisions`` with the row's ``totals`` (a row
    of fewer totals takes 0 for the others), the usual cases (matches over the order's total,
    one over a whole number) worked out on the arrays at once, with the same operations on the
    same floats; the others one by one.

    >>> percentages(np.array([[23 / 80, 0.0, 0.5]]), np.array([[80, 79]]))
    [[28.75, 0.0, 50.0]]
    """
    given = totals[:, : precisions.shape[1]]
    totals = np.zeros(precisions.shape)  # (as floats, padded with 0)
    totals[:, : given.shape[1]] = given
    whole = (totals > 0) & (totals <= _LARGEST_DENOMINATOR) & (totals == np.floor(totals))
    divisors = np.where(whole, totals, 1.0)
    matches = np.rint(precisions * divisors)
    exact = whole & (matches / divisors == precisions)
    percent = np.where(exact, 100 * matches / divisors, 0.0)
    # The next case, one over a whole number (a smoothed order without a match), as well.
    rest = ~exact & (precisions != 0)
    unit = rest & (precisions >= 1 / _LARGEST_DENOMINATOR) & (precisions <= 1)
    denominators = np.rint(1 / np.where(unit, precisions, 1.0))
    unit &= (denominators <= _LARGEST_DENOMINATOR) & (1 / denominators == precisions)
    rows: list[list[float]] = np.where(unit, 100 / denominators, percent).tolist()
    for row, order in zip(*np.nonzero(rest & ~unit)):
        rows[row][order] = _as_percentage(float(precisions[row, order]), float(totals[row, order]))
    return rows


def _as_percentage(ratio: float, total: float) -> float:
    """``100 * ratio`` as sacreBLEU computes a precision: ``100 * matches / totals``.

    A precision is a ratio of counts. ``100 * (23 / 80)`` lands a hair off 28.75, which
    ``100 * 23 / 80`` hits exactly and then rounds half to even when printed. So the ratio is
    recovered as a fraction (when it is the one the float stands for) and scaled exactly.
    Most precisions are matches over the order's n-gram total, which is tried first, then
    one over a whole number (a smoothed order without a match, such as sacreBLEU's
    ``1 / (2**k * total)``): with a denominator up to 10**7 each is the fraction the general
    search finds, at a fraction of its cost.
    """
    if not ratio:  # (an order with no n-gram at all: a short segment's)
        return 0.0
    if 0 < total <= _LARGEST_DENOMINATOR and float(total).is_integer():
        whole_total = int(total)
        matches = round(ratio * whole_total)
        if matches / whole_total == ratio:
            return 100 * matches / whole_total
    if 1 / _LARGEST_DENOMINATOR <= ratio <= 1:  # (1 / ratio of a subnormal is infinite)
        denominator = round(1 / ratio)
        if denominator <= _LARGEST_DENOMINATOR and 1 / denominator == ratio:
            return 100 / denominator
    from fractions import Fraction  # noqa: PLC0415 - rarely reached; it imports decimal

    fraction = Fraction(ratio).limit_denominator(_LARGEST_DENOMINATOR)
    if float(fraction) != ratio:
        fraction = Fraction(ratio)
    return float(100 * fraction)


_LARGEST_DENOMINATOR = 10**7


def _length(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.2f}"
