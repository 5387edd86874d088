"""The oracle: every built-in scoring part written from its formula, one set of statistics at a
time, in plain Python (``math``, lists, ``None`` for an undefined precision).

bleuprint scores rows of statistics on arrays; the tests hold these definitions beside it and
check that every row it scores is the oracle's number, bit for bit. They are the formulas of
each part's docstring (and of sacreBLEU, NLTK, the peers where a part is a quirk), written
without numpy and without the package's code.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Sequence
from itertools import takewhile
from typing import Any

import attrs

from bleuprint import BLEUScore, BLEUStats, aggregation, brevity, smoothing, weights
from bleuprint.compat import (
    coco,
    hf_evaluate,
    ignite,
    moses,
    nltk,
    tensor2tensor,
    torcheval,
    torchmetrics,
)
from bleuprint.exceptions import InputError

Precision = float | None


# -- smoothing ---------------------------------------------------------------------------------


def _defined_orders(stats: BLEUStats) -> list[tuple[float, float]]:
    """``(matches, totals)`` of each order up to the first one without n-grams."""
    return list(takewhile(lambda pair: bool(pair[1]), zip(stats.matches, stats.totals)))


def _undefined_after(precisions: list[Precision], max_n: int) -> list[Precision]:
    return precisions + [None] * (max_n - len(precisions))


def _ratio(matched: float, total: float) -> Precision:
    return matched / total if total else None


def _none(stats: BLEUStats) -> list[Precision]:
    return _undefined_after([m / t for m, t in _defined_orders(stats)], stats.max_n)


def _floor(part: smoothing.Floor, stats: BLEUStats) -> list[Precision]:
    floored: list[Precision] = [(m or part.value) / t for m, t in _defined_orders(stats)]
    return _undefined_after(floored, stats.max_n)


def _add_k(part: smoothing.AddK, stats: BLEUStats) -> list[Precision]:
    precisions: list[Precision] = []
    for order, (matched, total) in enumerate(zip(stats.matches, stats.totals), start=1):
        added = part.k if order > 1 else 0
        if not total + added:
            break
        precisions.append((matched + added) / (total + added))
    return _undefined_after(precisions, stats.max_n)


def _exp(stats: BLEUStats) -> list[Precision]:
    precisions: list[Precision] = []
    zero_orders = 0
    for matched, total in _defined_orders(stats):
        if matched:
            precisions.append(matched / total)
        else:
            zero_orders += 1
            precisions.append(1 / (2**zero_orders * total))
    return _undefined_after(precisions, stats.max_n)


def _sacrebleu_zeros(smoothed: Callable[[BLEUStats], list[Precision]]) -> Callable[..., Any]:
    """sacreBLEU scores statistics without any match 0 before it smooths anything."""

    def smoother(stats: BLEUStats) -> list[Precision]:
        return smoothed(stats) if any(stats.matches) else [0.0] * stats.max_n

    return smoother


def _add_one(part: smoothing.AddOne, stats: BLEUStats) -> list[Precision]:
    return [
        (m + 1) / (t + 1) if order > 1 or part.unigrams else _ratio(m, t)
        for order, (m, t) in enumerate(zip(stats.matches, stats.totals), start=1)
    ]


def _reject_zero(stats: BLEUStats) -> list[Precision]:
    precisions = _none(stats)
    for order, precision in enumerate(precisions, start=1):
        if not precision:
            raise InputError(f"the {order}-gram precision is 0 and this definition takes ...")
    return precisions


def _exp_unzeroed(stats: BLEUStats) -> list[Precision]:
    if not any(stats.totals):
        return [None] * stats.max_n
    precisions: list[Precision] = []
    zero_orders = 0
    for matched, total in zip(stats.matches, stats.totals):
        if not total:
            precisions.append(1.0)
        elif matched:
            precisions.append(matched / total)
        else:
            zero_orders += 1
            precisions.append(1 / (2**zero_orders * total))
    return precisions


def _every_order(stats: BLEUStats) -> list[Precision]:
    if min(stats.totals) == 0:
        raise InputError("too short")
    return [0.0] * stats.max_n if min(stats.matches) == 0 else _none(stats)


def _all_matched(part: torchmetrics.RequireAllMatched, stats: BLEUStats) -> list[Precision]:
    return [0.0] * stats.max_n if min(stats.matches) == 0 else precisions(part.inner, stats)


def _ignite(part: ignite.IgniteSmoothing, stats: BLEUStats) -> list[Precision]:
    """ignite 0.5.5's four smoothings, with its zero rules."""
    matches, totals = stats.matches, stats.totals
    if not matches[0] or (part.method == "no_smooth" and min(matches) == 0):
        return [0.0] * stats.max_n
    floored = totals if part.method == "smooth2" else [max(1, total) for total in totals]
    if part.method in ("nltk_smooth2", "smooth2"):
        rest = [(m + 1) / (d + 1) for m, d in zip(matches[1:], floored[1:])]
        return [matches[0] / floored[0], *rest]
    epsilon = 0.1 if part.method == "smooth1" else 0.0
    return [(m or epsilon) / d for m, d in zip(matches, floored)]


# -- NLTK 3.10.4's SmoothingFunction, as NLTK computes it -----------------------------------


def _nltk_fractions(stats: BLEUStats) -> list[tuple[float, float]]:
    """NLTK's numerators and denominators: a segment without an n-gram of an order counts 1."""
    if isinstance(stats, nltk.NLTKStats):
        empty = stats.empty_orders
    elif stats.segments <= 1:
        empty = tuple(int(stats.segments == 1 and total == 0) for total in stats.totals)
    else:
        raise nltk.StatisticsMismatchError("plain sums of several segments")
    return [(m, t + e) for m, t, e in zip(stats.matches, stats.totals, empty)]


def _nltk_last(stats: BLEUStats) -> BLEUStats:
    last = stats.last if isinstance(stats, nltk.NLTKStats) else stats
    if last is None or (not isinstance(stats, nltk.NLTKStats) and stats.segments != 1):
        raise InputError("the last segment is not recorded")
    return last


def _nltk_fifth(stats: BLEUStats) -> float:
    if stats.max_n < 5:
        raise InputError("reads 5-gram counts")
    matched, total = _nltk_fractions(_nltk_last(stats))[4]
    return matched / total


def _method4(fractions: list[tuple[float, float]], length: float, k: float) -> list[float]:
    smoothed, unmatched = [], 0
    for matched, total in fractions:
        if matched or length <= 1:
            smoothed.append(matched / total)
        else:
            unmatched += 1
            smoothed.append(1 / (2**unmatched * k / math.log(length)) / total)
    return smoothed


def _method5(values: list[float], following: float) -> list[float]:
    smoothed, previous = [], values[0] + 1
    for value, next_value in zip(values, [*values[1:], following]):
        previous = (previous + value + next_value) / 3
        smoothed.append(previous)
    return smoothed


def _method6(
    part: nltk.NLTKMethod6, fractions: list[tuple[float, float]], stats: BLEUStats
) -> list[float]:
    if len(fractions) < 3 or not fractions[2][0]:
        raise InputError("NLTK's method6 needs at least 3 orders and a nonzero trigram precision")
    last_totals = _nltk_last(stats).totals
    smoothed = [m / t for m, t in fractions]
    for order in range(2, len(smoothed)):
        before, previous = smoothed[order - 2], smoothed[order - 1]
        prior = previous**2 / before if before else 0.0
        if last_totals[order] + part.alpha == 0:
            raise InputError("divides by the n-gram count of the last hypothesis")
        smoothed[order] = (fractions[order][0] + part.alpha * prior) / (
            last_totals[order] + part.alpha
        )
    return smoothed


def _method3(fractions: list[tuple[float, float]]) -> list[float]:
    smoothed, unmatched = [], 0
    for matched, total in fractions:
        if matched:
            smoothed.append(matched / total)
        else:
            unmatched += 1
            smoothed.append(1 / (2**unmatched * total))
    return smoothed


Fractions = list[tuple[float, float]]
_NLTK_SMOOTHED: dict[type, Callable[[Any, Fractions, BLEUStats], list[float]]] = {
    nltk.NLTKMethod0: lambda part, fractions, stats: [
        m / t if m else sys.float_info.min for m, t in fractions
    ],
    nltk.NLTKMethod1: lambda part, fractions, stats: [
        (m or part.epsilon) / t for m, t in fractions
    ],
    nltk.NLTKMethod2: lambda part, fractions, stats: [
        fractions[0][0] / fractions[0][1],
        *[(m + 1) / (t + 1) for m, t in fractions[1:]],
    ],
    nltk.NLTKMethod3: lambda part, fractions, stats: _method3(fractions),
    nltk.NLTKMethod4: lambda part, fractions, stats: _method4(
        fractions, stats.hypothesis_length, part.k
    ),
    nltk.NLTKMethod5: lambda part, fractions, stats: _method5(
        [m / t for m, t in fractions], _nltk_fifth(stats)
    ),
    nltk.NLTKMethod6: _method6,
    nltk.NLTKMethod7: lambda part, fractions, stats: _method5(
        _method4(fractions, stats.hypothesis_length, part.k), _nltk_fifth(stats)
    ),
}


def _nltk(part: Any, stats: BLEUStats) -> list[Precision]:
    orders = getattr(part, "orders", stats.max_n)
    fractions = _nltk_fractions(stats)[:orders]
    if not fractions[0][0]:
        return [0.0] * len(fractions)
    return [
        value if value > 0 else None for value in _NLTK_SMOOTHED[type(part)](part, fractions, stats)
    ]


_SMOOTHERS: dict[type, Callable[[Any, BLEUStats], list[Precision]]] = {
    smoothing.NoSmoothing: lambda part, stats: _none(stats),
    smoothing.Floor: lambda part, stats: _sacrebleu_zeros(lambda s: _floor(part, s))(stats),
    smoothing.AddK: lambda part, stats: _sacrebleu_zeros(lambda s: _add_k(part, s))(stats),
    smoothing.Exp: lambda part, stats: _sacrebleu_zeros(_exp)(stats),
    smoothing.AddOne: _add_one,
    smoothing.ReplaceZero: lambda part, stats: [
        _ratio(m, t) or part.value for m, t in zip(stats.matches, stats.totals)
    ],
    smoothing.RejectZero: lambda part, stats: _reject_zero(stats),
    smoothing.ExpUnzeroed: lambda part, stats: _exp_unzeroed(stats),
    coco.CocoConstants: lambda part, stats: [
        (m + coco.TINY) / (t + coco.SMALL) for m, t in zip(stats.matches, stats.totals)
    ],
    torcheval.RequireEveryOrder: lambda part, stats: _every_order(stats),
    torchmetrics.RequireAllMatched: _all_matched,
    ignite.IgniteSmoothing: _ignite,
    aggregation.SentenceMean: lambda part, stats: precisions(part.inner, stats),
    aggregation.MinPrecisionRecall: lambda part, stats: [
        _ratio(m, t) for m, t in zip(stats.matches, stats.totals)
    ],
    **dict.fromkeys(nltk.NLTK_METHODS, _nltk),  # type: ignore[arg-type]
}


def precisions(part: Any, stats: BLEUStats) -> list[Precision]:
    """The precisions of one set of statistics under a built-in smoother."""
    return _SMOOTHERS[type(part)](part, stats)


# -- weights -----------------------------------------------------------------------------------


def _effective(values: Sequence[Precision]) -> list[float]:
    effective = sum(1 for _ in takewhile(lambda precision: precision is not None, values))
    if not effective:
        return [0.0] * len(values)
    return [1 / effective] * effective + [0.0] * (len(values) - effective)


def _nltk_weights(
    part: nltk.NLTKWeights, stats: BLEUStats, values: Sequence[Precision]
) -> list[float]:
    given = part.values
    length = int(stats.hypothesis_length)
    if part.auto_reweigh and given == (0.25, 0.25, 0.25, 0.25) and 0 < length < 4:
        given = (1 / length,) * length
    fitted = [*given[: len(values)], *[0.0] * (len(values) - len(given))]
    return [0.0 if value is None else weight for weight, value in zip(fitted, values)]


def _explicit(part: weights.Explicit, values: Sequence[Precision]) -> list[float]:
    if len(part.values) > len(values):
        raise InputError("more weights than orders")
    return [*part.values, *[0.0] * (len(values) - len(part.values))]


_WEIGHTS: dict[type, Callable[[Any, BLEUStats, Sequence[Precision]], list[float]]] = {
    weights.Uniform: lambda part, stats, values: [1 / stats.max_n] * stats.max_n,
    weights.EffectiveOrder: lambda part, stats, values: _effective(values),
    weights.Explicit: lambda part, stats, values: _explicit(part, values),
    nltk.NLTKWeights: _nltk_weights,
}


def order_weights(part: Any, stats: BLEUStats, values: Sequence[Precision]) -> list[float]:
    """The weights of one set of statistics under built-in weights."""
    return _WEIGHTS[type(part)](part, stats, values)


# -- reference length and brevity penalty ------------------------------------------------------


def reference_length(part: Any, hypothesis: int, lengths: Sequence[int]) -> float:
    """The reference length a built-in rule picks for one hypothesis."""
    if isinstance(part, brevity.Closest):
        shorter = part.ties == "shorter"
        return min(lengths, key=lambda length: (abs(length - hypothesis), length if shorter else 0))
    if isinstance(part, brevity.Shortest):
        return min(lengths)
    assert isinstance(part, brevity.Average)
    return sum(lengths) / len(lengths)


def _exponential(c: float, r: float) -> float:
    if c >= r:
        return 1.0
    return 0.0 if c <= 0 else math.exp(1 - r / c)


def _ratio_penalty(part: brevity.Ratio, c: float, r: float) -> float:
    if r <= 0:
        return 0.0
    return min(c / r, 1.0) if part.capped else c / r


def _coco(c: float, r: float) -> float:
    ratio = (c + coco.TINY) / (r + coco.SMALL)
    return 1.0 if ratio >= 1 else math.exp(1 - 1 / ratio)


def _nmt(c: float, r: float) -> float:
    if c <= 0 or r <= 0:
        raise InputError("divides by both")
    return 1.0 if c / r > 1.0 else math.exp(1 - 1 / (c / r))


def _moses(c: float, r: float) -> float:
    if c >= r:
        return 1.0
    if c <= 0:
        raise InputError("Illegal division by zero")
    return math.exp(1 - r / c)


def _t2t(c: float, r: float) -> float:
    if not r:
        return 1.0
    ratio = c / r
    if ratio <= 0:
        return 0.0
    return math.exp(1 - 1 / ratio) if ratio < 1 else 1.0


_PENALTIES: dict[type, Callable[[Any, float, float], float]] = {
    brevity.Exponential: lambda part, c, r: _exponential(c, r),
    brevity.Ratio: _ratio_penalty,
    brevity.NoPenalty: lambda part, c, r: 1.0,
    nltk.NLTKExponential: lambda part, c, r: 0.0 if c <= 0 else _exponential(c, r),
    coco.CocoPenalty: lambda part, c, r: _coco(c, r),
    hf_evaluate.NMT: lambda part, c, r: _nmt(c, r),
    moses.MosesPenalty: lambda part, c, r: _moses(c, r),
    tensor2tensor.T2TPenalty: lambda part, c, r: _t2t(c, r),
}


def penalty(part: Any, c: float, r: float) -> float:
    """The brevity penalty of one pair of lengths under a built-in penalty."""
    return _PENALTIES[type(part)](part, c, r)


# -- the score ---------------------------------------------------------------------------------


def geometric_mean(values: Sequence[Precision], order_weights: Sequence[float]) -> float:
    """``exp(fsum(w log p))`` over the orders of nonzero weight; 0 if any of them is 0 or
    undefined, or if no order has weight."""
    terms = []
    for precision, weight in zip(values, order_weights):
        if weight == 0:
            continue
        if not precision:
            return 0.0
        terms.append(weight * math.log(precision))
    return math.exp(math.fsum(terms)) if terms else 0.0


def score(engine: BLEUScore, stats: BLEUStats) -> tuple[float, tuple[float, ...], float]:
    """The oracle's score of ``stats`` under ``engine``'s (built-in) scoring parts: the score,
    the precisions as a result reports them (0 where undefined) and the brevity penalty."""
    values = precisions(engine.smoothing, stats)
    factor = penalty(engine.brevity_penalty, stats.hypothesis_length, stats.reference_length)
    mean = geometric_mean(values, order_weights(engine.weights, stats, values))
    return factor * mean, tuple(value or 0.0 for value in values), factor


@attrs.frozen
class Scalar:
    """A built-in part seen as a user's part written for one set of statistics at a time
    (for its family's ``FromScalar`` adapter): its family's call is the oracle's."""

    part: Any
    family: str

    @property
    def signature(self) -> str:
        return str(self.part.signature)

    def __call__(self, *arguments: Any) -> Any:
        calls: dict[str, Callable[..., Any]] = {
            "smooth": precisions,
            "weights": order_weights,
            "bp": penalty,
            "ref": reference_length,
        }
        return calls[self.family](self.part, *arguments)


@attrs.frozen
class ScalarCorpusSmoother(Scalar):
    """A scalar smoother that sums corpora its own way (NLTK's)."""

    def total(self, segments: Any, start: Any) -> Any:
        return self.part.total(segments, start)
