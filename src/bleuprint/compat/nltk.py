"""NLTK 3.10.4's ``sentence_bleu`` and ``corpus_bleu``, quirks included.

The preset :meth:`BLEUScore.nltk <bleuprint.BLEUScore.nltk>` is built from :func:`parts`. Its
quirks are the parts of this module, each documented where it is defined:

- :class:`NLTKMethod0` .. :class:`NLTKMethod7`, ``SmoothingFunction().method0`` ..
  ``method7`` (Chen & Cherry, 2014, as NLTK computes them);
- :class:`NLTKWeights`: weights taken as given, orders with a non-positive smoothed precision
  left out of the mean, ``auto_reweigh``;
- :class:`NLTKExponential`: the brevity penalty of an empty hypothesis is 0;
- :class:`NLTKStats`: NLTK's corpus sums, which read more than the sums of the counts.

>>> from bleuprint import BLEUScore
>>> hypothesis = "the cat sat in the mat".split()
>>> reference = "the cat sat on the mat".split()
>>> BLEUScore.nltk().compute(hypothesis, [reference])
7.262123179505913e-78
>>> round(BLEUScore.nltk(method=1).compute(hypothesis, [reference]), 6)
0.254066
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, cast

import attrs

from bleuprint import brevity, ngrams
from bleuprint._preset_entry import PresetEntry
from bleuprint._signature import Part
from bleuprint._stats import BLEUStats
from bleuprint._validators import (
    between,
    boolean,
    finite_numbers,
    float_tuple,
    non_negative,
    not_all_zero,
    positive,
    positive_whole,
)
from bleuprint.exceptions import ConfigurationError, InputError, StatisticsMismatchError
from bleuprint.typing import Precision, Smoother

if TYPE_CHECKING:
    from bleuprint._segments import SegmentStats

__all__ = [
    "NLTK_METHODS",
    "PRESET",
    "PRESETS",
    "NLTKExponential",
    "NLTKMethod0",
    "NLTKMethod1",
    "NLTKMethod2",
    "NLTKMethod3",
    "NLTKMethod4",
    "NLTKMethod5",
    "NLTKMethod6",
    "NLTKMethod7",
    "NLTKStats",
    "NLTKWeights",
    "nltk_fractions",
    "nltk_method",
    "parts",
]


def parts(
    weights: Sequence[float] = (0.25, 0.25, 0.25, 0.25),
    method: int | str = 0,
    *,
    auto_reweigh: bool = False,
    epsilon: float = 0.1,
    alpha: float = 5,
    k: float = 5,
) -> dict[str, Any]:
    """The parts that compute NLTK's BLEU with these arguments (NLTK's names and defaults).

    ``weights`` and ``auto_reweigh`` are NLTK's; ``method=n`` with ``epsilon``, ``alpha`` and
    ``k`` stands for ``smoothing_function=SmoothingFunction(epsilon, alpha, k).method<n>``
    (``method=0``, no smoothing, is NLTK's default). Give token lists, as to NLTK; text is split
    on whitespace (NLTK would read a string as characters: ``tokenizer=tokenizers.Codepoints()``
    does that).

    >>> sorted(parts(method=1))
    ['brevity_penalty', 'ngrams', 'smoothing', 'weights']
    """
    orders = len(weights)
    smoother = nltk_method(method, epsilon=epsilon, alpha=alpha, k=k, orders=orders)
    if isinstance(smoother, NLTKMethod6) and orders < 3:
        raise ConfigurationError(
            f"NLTK's method6 needs at least 3 orders, got {orders} weights "
            "(NLTK fails with an IndexError)"
        )
    reads_fifth_order = isinstance(smoother, (NLTKMethod5, NLTKMethod7))
    return {
        "ngrams": ngrams.Contiguous(max(orders, 5) if reads_fifth_order else orders),
        "brevity_penalty": NLTKExponential(),
        "smoothing": smoother,
        "weights": NLTKWeights(tuple(weights), auto_reweigh),
    }


# -- NLTK's corpus sums ------------------------------------------------------------------


@attrs.frozen
class NLTKStats(BLEUStats):
    """Corpus statistics as NLTK's ``corpus_bleu`` reads them: the sums, plus

    - ``empty_orders``: per order, the segments whose hypothesis has no n-gram of it (NLTK
      counts each such segment 1 in that order's denominator);
    - ``last``: the statistics of the final segment (NLTK's methods 5 to 7 read it at corpus
      level, through a variable left over from its loop).

    The NLTK smoothers sum a corpus into these (``BLEUScore.nltk().count(...)`` gives them);
    they add with ``+`` like any statistics. Neither extra field takes part in equality.

    >>> from bleuprint import BLEUScore
    >>> bleu = BLEUScore.nltk()
    >>> stats = bleu.count([["a", "b"], ["a"]], [[["a", "b"]], [["a"]]])
    >>> stats.totals, stats.empty_orders, stats.last.totals
    ((3, 1, 0, 0), (0, 1, 2, 2), (1, 0, 0, 0))
    """

    empty_orders: tuple[int, ...] = attrs.field(default=(), eq=False)
    last: BLEUStats | None = attrs.field(default=None, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        super().__attrs_post_init__()
        if len(self.empty_orders) != self.max_n:
            raise InputError(
                f"empty_orders has {len(self.empty_orders)} orders but totals has {self.max_n}"
            )

    @classmethod
    def from_dict(cls, data: Any) -> NLTKStats:
        """Read back what :meth:`~bleuprint.BLEUStats.to_dict` wrote (``last`` included)."""
        values = dict(data)
        values["empty_orders"] = tuple(values.get("empty_orders", ()))
        if values.get("last") is not None:
            values["last"] = BLEUStats.from_dict(values["last"])
        return cast("NLTKStats", super().from_dict(values))

    def __add__(self, other: BLEUStats) -> NLTKStats:
        if not isinstance(other, BLEUStats):
            return NotImplemented
        return _added(self, other)

    def __radd__(self, other: object) -> NLTKStats:
        if other == 0:  # ``sum()`` starts from the integer 0
            return self
        if not isinstance(other, BLEUStats):
            return NotImplemented
        return _added(other, self)


def _added(first: BLEUStats, second: BLEUStats) -> NLTKStats:
    """``first + second``, keeping what NLTK reads besides the sums."""
    summed = BLEUStats.__add__(first, second)
    return NLTKStats(
        **_shared_fields(summed),
        empty_orders=tuple(a + b for a, b in zip(_empty_orders(first), _empty_orders(second))),
        last=_last_or_none(second) if second.segments else _last_or_none(first),
    )


def _shared_fields(stats: BLEUStats) -> dict[str, Any]:
    return {field.name: getattr(stats, field.name) for field in attrs.fields(BLEUStats)}


def _empty_orders(stats: BLEUStats) -> tuple[int, ...]:
    """Per order, the segments of ``stats`` without an n-gram of it: recorded by NLTK's sums,
    evident for one segment or none, unknowable for other sums."""
    if isinstance(stats, NLTKStats):
        return stats.empty_orders
    if stats.segments <= 1:
        return tuple(int(stats.segments == 1 and total == 0) for total in stats.totals)
    raise StatisticsMismatchError(
        "NLTK counts each segment without n-grams of an order as 1 in its denominator, and "
        f"these statistics of {stats.segments} segments were summed without recording that: "
        "sum them with the nltk preset (BLEUScore.nltk(...).count or .total)"
    )


def _last_or_none(stats: BLEUStats) -> BLEUStats | None:
    if isinstance(stats, NLTKStats):
        return stats.last
    return stats if stats.segments == 1 else None


# -- weights and brevity penalty ---------------------------------------------------------

_NLTK_DEFAULT = (0.25, 0.25, 0.25, 0.25)


@attrs.frozen
class NLTKWeights(Part, family="weights", name="nltk"):
    """NLTK 3.10.4's weights, quirks included (for :meth:`bleuprint.BLEUScore.nltk`).

    - Weights are taken as given, negative ones too (then BLEU can exceed 1).
    - An order whose smoothed precision is not positive (the smoother reports it undefined) is
      left out of the geometric mean, without re-weighting the others.
    - ``auto_reweigh=True`` replaces exactly the default ``(0.25, 0.25, 0.25, 0.25)``, and only
      it, by ``1/L`` for each of the first ``L`` orders when the corpus hypothesis length ``L``
      is below 4. (NLTK compares with a tuple, so weights it was given as a list never
      re-weigh: give ``auto_reweigh=False`` for those.)

    >>> from bleuprint._stats import BLEUStats
    >>> stats = BLEUStats((2, 1, 0, 0), (2, 1, 0, 0), 2, 4)
    >>> NLTKWeights(auto_reweigh=True)(stats, [1.0, 1.0, 0.1, 0.1])
    [0.5, 0.5, 0.0, 0.0]
    >>> NLTKWeights((1.0, -1.0))(stats, [0.5, None])
    [1.0, 0.0]
    """

    values: tuple[float, ...] = attrs.field(
        default=_NLTK_DEFAULT, converter=float_tuple, validator=[finite_numbers, not_all_zero]
    )
    auto_reweigh: bool = attrs.field(default=False, validator=boolean)

    def order_problem(self, max_n: int) -> str | None:
        """More weights than orders (NLTK counts one order per weight), else ``None``."""
        if len(self.values) > max_n:
            return f"{len(self.values)} weights given but only {max_n} orders are scored"
        return None

    def __call__(self, stats: BLEUStats, precisions: Sequence[Precision]) -> list[float]:
        values = self.values
        length = int(stats.hypothesis_length)
        if self.auto_reweigh and values == _NLTK_DEFAULT and 0 < length < 4:
            values = (1 / length,) * length
        fitted = [*values[: len(precisions)], *[0.0] * (len(precisions) - len(values))]
        return [
            0.0 if precision is None else weight for weight, precision in zip(fitted, precisions)
        ]


@attrs.frozen
class NLTKExponential(Part, family="bp", name="nltk-exp"):
    """NLTK's ``brevity_penalty`` (distancia's too): the exponential penalty, except that an
    empty hypothesis gets 0 even against an empty reference.

    >>> NLTKExponential()(0, 0), brevity.Exponential()(0, 0)
    (0.0, 1.0)
    """

    def __call__(self, hypothesis_length: float, reference_length: float) -> float:
        if hypothesis_length <= 0:
            return 0.0
        return brevity.Exponential()(hypothesis_length, reference_length)


# -- NLTK 3.10.4's SmoothingFunction: Chen & Cherry (2014) as NLTK computes them --------
#
# Shared by all eight methods, as in NLTK:
# - a segment with no n-gram of an order counts 1 in that order's denominator;
# - no unigram match at all gives 0 for every order, before any smoothing;
# - an order whose smoothed precision is not positive is reported undefined (None): NLTK
#   leaves it out of the geometric mean (see :class:`NLTKWeights`).


def nltk_fractions(stats: BLEUStats) -> list[tuple[float, float]]:
    """NLTK's modified precisions as ``(numerator, denominator)`` pairs, order by order.

    The numerator is the clipped matches; the denominator the hypothesis n-grams, where each
    segment without any n-gram of the order counts 1 (NLTK floors every sentence's
    denominator at 1).

    >>> from bleuprint import BLEUScore
    >>> stats = BLEUScore.canonical().count([["the", "cat"]], [[["the", "cat", "sat"]]])
    >>> nltk_fractions(stats)
    [(2, 2), (1, 1), (0, 1), (0, 1)]
    """
    return [
        (matched, total + empty)
        for matched, total, empty in zip(stats.matches, stats.totals, _empty_orders(stats))
    ]


class _NLTKMethod:
    """The steps every NLTK method shares, around the method's own ``_smooth``; and how
    NLTK sums a corpus (see :class:`NLTKStats`)."""

    __slots__ = ()

    def total(self, segments: SegmentStats, start: BLEUStats) -> NLTKStats:
        """The corpus statistics of ``segments`` added to ``start``, with what NLTK reads
        besides the sums."""
        summed = segments.total(start)
        empty = (segments.totals == 0).sum(axis=0).tolist()
        return NLTKStats(
            **_shared_fields(summed),
            empty_orders=tuple(a + b for a, b in zip(_empty_orders(start), empty)),
            last=segments[-1] if len(segments) else _last_or_none(start),
        )

    def __call__(self, stats: BLEUStats) -> list[Precision]:
        fractions = nltk_fractions(stats)[: self._orders(stats)]
        if not fractions[0][0]:
            return [0.0] * len(fractions)
        return [value if value > 0 else None for value in self._smooth(fractions, stats)]

    def _orders(self, stats: BLEUStats) -> int:
        return stats.max_n

    def _smooth(self, fractions: list[tuple[float, float]], stats: BLEUStats) -> list[float]:
        raise NotImplementedError


@attrs.frozen
class NLTKMethod0(_NLTKMethod, Part, family="smooth", name="nltk-method0"):
    """NLTK's ``method0``, no smoothing. Quirk: a zero precision becomes the smallest positive
    float (``sys.float_info.min``), so BLEU is a tiny positive number, not 0.

    >>> from bleuprint._stats import BLEUStats
    >>> NLTKMethod0()(BLEUStats((3, 0), (4, 3), 4, 4))
    [0.75, 2.2250738585072014e-308]
    """

    def _smooth(self, fractions: list[tuple[float, float]], stats: BLEUStats) -> list[float]:
        return [matched / total if matched else sys.float_info.min for matched, total in fractions]


@attrs.frozen
class NLTKMethod1(_NLTKMethod, Part, family="smooth", name="nltk-method1"):
    """NLTK's ``method1``: a zero numerator becomes ``epsilon``.

    >>> from bleuprint._stats import BLEUStats
    >>> NLTKMethod1()(BLEUStats((3, 0), (4, 2), 4, 4))
    [0.75, 0.05]
    """

    epsilon: float = attrs.field(
        default=0.1,
        validator=between(
            0, 1, above="above 1 an unmatched order's precision exceeds 1, and so can BLEU"
        ),
    )

    def _smooth(self, fractions: list[tuple[float, float]], stats: BLEUStats) -> list[float]:
        return [(matched or self.epsilon) / total for matched, total in fractions]


@attrs.frozen
class NLTKMethod2(_NLTKMethod, Part, family="smooth", name="nltk-method2"):
    """NLTK's ``method2`` (Lin & Och 2004): one is added to the numerator and denominator of
    every order from 2 up, matched or not.

    >>> from bleuprint._stats import BLEUStats
    >>> NLTKMethod2()(BLEUStats((3, 1), (4, 3), 4, 4))
    [0.75, 0.5]
    """

    def _smooth(self, fractions: list[tuple[float, float]], stats: BLEUStats) -> list[float]:
        first, *others = fractions
        return [first[0] / first[1], *[(matched + 1) / (total + 1) for matched, total in others]]


@attrs.frozen
class NLTKMethod3(_NLTKMethod, Part, family="smooth", name="nltk-method3"):
    """NLTK's ``method3`` (NIST geometric sequence): the k-th unmatched order gets
    ``1 / (2^k * denominator)``.

    >>> from bleuprint._stats import BLEUStats
    >>> NLTKMethod3()(BLEUStats((3, 0, 0), (4, 3, 2), 4, 4))
    [0.75, 0.16666666666666666, 0.125]
    """

    def _smooth(self, fractions: list[tuple[float, float]], stats: BLEUStats) -> list[float]:
        smoothed, unmatched = [], 0
        for matched, total in fractions:
            if matched:
                smoothed.append(matched / total)
            else:
                unmatched += 1
                smoothed.append(1 / (2**unmatched * total))
        return smoothed


def _method4(
    fractions: list[tuple[float, float]], hypothesis_length: float, k: float
) -> list[float]:
    """The i-th unmatched order gets ``ln(L) / (2^i * k) / denominator`` for a (corpus)
    hypothesis length ``L`` above 1; with ``L <= 1`` unmatched orders stay 0."""
    smoothed, unmatched = [], 0
    for matched, total in fractions:
        if matched or hypothesis_length <= 1:
            smoothed.append(matched / total)
        else:
            unmatched += 1
            smoothed.append(1 / (2**unmatched * k / math.log(hypothesis_length)) / total)
    return smoothed


def _method5(values: list[float], following: float) -> list[float]:
    """Each order becomes the mean of the previous order's smoothed value (``p1 + 1`` before
    the first), its own value and the next order's value (``following`` after the last)."""
    smoothed, previous = [], values[0] + 1
    for value, next_value in zip(values, [*values[1:], following]):
        previous = (previous + value + next_value) / 3
        smoothed.append(previous)
    return smoothed


def _last_segment(stats: BLEUStats, method: str) -> BLEUStats:
    last = _last_or_none(stats)
    if last is None:
        raise InputError(
            f"NLTK's {method} reads the statistics of the last segment, and these statistics "
            "do not record it (count them with BLEUScore.nltk(...).count)"
        )
    return last


def _fifth_order_of_last_segment(stats: BLEUStats, method: str) -> float:
    """NLTK's methods 5 and 7 always read the 5-gram precision of the last segment."""
    if stats.max_n < 5:
        raise InputError(
            f"NLTK's {method} reads 5-gram counts, but these statistics have {stats.max_n} "
            "orders: count at least 5 (BLEUScore.nltk does)"
        )
    matched, total = nltk_fractions(_last_segment(stats, method))[4]
    return matched / total


def _reads_fifth_order(orders: int, max_n: int, method: str) -> str | None:
    if max_n < 5:
        return f"NLTK's {method} reads the 5-gram precision: count 5 orders at least, not {max_n}"
    if orders > max_n:
        return f"NLTK's {method} scores {orders} orders, but only {max_n} are counted"
    return None


@attrs.frozen
class NLTKMethod4(_NLTKMethod, Part, family="smooth", name="nltk-method4"):
    """NLTK's ``method4``: like method 3, scaled by ``ln(L) / k`` for the hypothesis length
    ``L`` (the whole corpus's at corpus level). Quirk: with ``L <= 1`` nothing is smoothed and
    unmatched orders are left out of the mean.

    >>> from bleuprint._stats import BLEUStats
    >>> [round(p, 6) for p in NLTKMethod4()(BLEUStats((3, 0), (4, 3), 4, 4))]
    [0.75, 0.04621]
    """

    k: float = attrs.field(default=5, validator=positive)

    def _smooth(self, fractions: list[tuple[float, float]], stats: BLEUStats) -> list[float]:
        return _method4(fractions, stats.hypothesis_length, self.k)


@attrs.frozen
class NLTKMethod5(_NLTKMethod, Part, family="smooth", name="nltk-method5"):
    """NLTK's ``method5``: each order becomes the mean of the previous (smoothed) order, itself
    and the next order; the first order's "previous" is ``p1 + 1``.

    Quirks: after the last of the ``orders`` scored, the "next" order is always the 5-gram
    precision (so counting must reach order 5), and at corpus level that of the last segment
    only, so the order of the segments changes the score. Precisions can exceed 1, and so
    can BLEU.
    """

    orders: int = attrs.field(default=4, validator=positive_whole)

    def order_problem(self, max_n: int) -> str | None:
        """Method 5 reads the 5-gram precision and scores ``orders`` orders."""
        return _reads_fifth_order(self.orders, max_n, "method5")

    def _orders(self, stats: BLEUStats) -> int:
        return self.orders

    def _smooth(self, fractions: list[tuple[float, float]], stats: BLEUStats) -> list[float]:
        following = _fifth_order_of_last_segment(stats, "method5")
        return _method5([matched / total for matched, total in fractions], following)


@attrs.frozen
class NLTKMethod6(_NLTKMethod, Part, family="smooth", name="nltk-method6"):
    """NLTK's ``method6`` (Gao & He 2013): from order 3 up, the precision is interpolated with
    the prior ``p[n-1]^2 / p[n-2]``: ``(matches + alpha * prior) / (ngrams + alpha)``.

    Quirks: ``ngrams`` is the n-gram count of the last segment only (at corpus level, while
    ``matches`` is the corpus's), so BLEU can exceed 1. It needs at least 3 orders and a
    nonzero trigram precision: NLTK fails with an assertion or an index error there;
    bleuprint raises :class:`~bleuprint.InputError`.
    """

    alpha: float = attrs.field(default=5, validator=non_negative)

    def order_problem(self, max_n: int) -> str | None:
        """Method 6 interpolates from order 3 up: it needs 3 orders at least."""
        if max_n < 3:
            return f"NLTK's method6 needs at least 3 orders, got {max_n} (NLTK fails there)"
        return None

    def _smooth(self, fractions: list[tuple[float, float]], stats: BLEUStats) -> list[float]:
        if len(fractions) < 3 or not fractions[2][0]:
            raise InputError(
                "NLTK's method6 needs at least 3 orders and a nonzero trigram precision "
                f"(this hypothesis has {len(fractions)} orders, trigram matches "
                f"{fractions[2][0] if len(fractions) >= 3 else 'none'})"
            )
        last_totals = _last_segment(stats, "method6").totals
        smoothed = [matched / total for matched, total in fractions]
        for order in range(2, len(smoothed)):
            before, previous = smoothed[order - 2], smoothed[order - 1]
            prior = previous**2 / before if before else 0.0
            ngrams_in_last = last_totals[order]
            if ngrams_in_last + self.alpha == 0:
                raise InputError(
                    f"NLTK's method6 with alpha=0 divides by the {order + 1}-gram count of the "
                    "last hypothesis, which is 0"
                )
            smoothed[order] = (fractions[order][0] + self.alpha * prior) / (
                ngrams_in_last + self.alpha
            )
        return smoothed


@attrs.frozen
class NLTKMethod7(_NLTKMethod, Part, family="smooth", name="nltk-method7"):
    """NLTK's ``method7``: method 4, then method 5 on its output (with method 5's quirks)."""

    k: float = attrs.field(default=5, validator=positive)
    orders: int = attrs.field(default=4, validator=positive_whole)

    def order_problem(self, max_n: int) -> str | None:
        """Method 7 reads the 5-gram precision and scores ``orders`` orders."""
        return _reads_fifth_order(self.orders, max_n, "method7")

    def _orders(self, stats: BLEUStats) -> int:
        return self.orders

    def _smooth(self, fractions: list[tuple[float, float]], stats: BLEUStats) -> list[float]:
        following = _fifth_order_of_last_segment(stats, "method7")
        return _method5(_method4(fractions, stats.hypothesis_length, self.k), following)


NLTK_METHODS: tuple[Callable[..., Smoother], ...] = (
    NLTKMethod0,
    NLTKMethod1,
    NLTKMethod2,
    NLTKMethod3,
    NLTKMethod4,
    NLTKMethod5,
    NLTKMethod6,
    NLTKMethod7,
)
"""NLTK's ``SmoothingFunction().method0`` .. ``method7``, by number."""


def nltk_method(
    method: int | str = 0,
    *,
    epsilon: float = 0.1,
    alpha: float = 5,
    k: float = 5,
    orders: int = 4,
) -> Smoother:
    """The part for NLTK's ``SmoothingFunction(epsilon, alpha, k).method<n>``, scoring
    ``orders`` orders; ``method`` is ``n`` or ``"method<n>"``.

    >>> nltk_method("method4", k=3)
    NLTKMethod4(k=3)
    """
    number = method.removeprefix("method") if isinstance(method, str) else method
    if str(number) not in {str(n) for n in range(8)}:
        raise ConfigurationError(
            f"NLTK smoothing method must be 0..7 or 'method0'..'method7', got {method!r}"
        )
    parameters: dict[int, dict[str, Any]] = {
        1: {"epsilon": epsilon},
        4: {"k": k},
        5: {"orders": orders},
        6: {"alpha": alpha},
        7: {"k": k, "orders": orders},
    }
    return NLTK_METHODS[int(number)](**parameters.get(int(number), {}))


PRESET = PresetEntry("nltk", "NLTK 3.10.4 sentence_bleu / corpus_bleu", parts)
PRESETS = (PRESET,)
"""The presets this module adds to :data:`bleuprint.presets.PRESETS`."""
