"""Additive BLEU statistics: what counting produces and scoring consumes."""

from __future__ import annotations

import math
import numbers
import operator
from collections.abc import Iterable, Mapping
from typing import Any

import attrs

from bleuprint.exceptions import InputError, StatisticsMismatchError, counted

__all__ = ["BLEUStats"]


def _numbers(values: Iterable[float]) -> tuple[float, ...]:
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise InputError(f"expected a sequence of counts, one per order, got {values!r}")
    return tuple(values)


_INT = {int}
COUNT_LIMIT = 2**63
"""Counts and lengths stay below it: the kernel counts in 64 bits, and a float holds any count
below it closely enough to score. Larger values are refused, never scored as infinity."""


def _shown(value: numbers.Real) -> str:
    """``repr(value)``, or its size where it would be thousands of digits."""
    if isinstance(value, int) and value.bit_length() > 64:
        return f"a number of {value.bit_length()} bits"
    return repr(value)


def _check_count(name: str, value: object, *, whole: bool = True) -> None:
    """Refuse what no counting produces: a non-number, a negative, NaN or infinite value, or
    (where ``whole``) a fraction. Checked when built, so no statistics score outside the
    definition's range."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise InputError(f"{name} must be a number, got {value!r}")
    # (compared, never converted: 10**400 has no float; only NaN differs from itself)
    if value != value or value < 0:  # noqa: PLR0124
        raise InputError(f"{name} must be finite and non-negative, got {value!r}")
    if not value < COUNT_LIMIT:
        raise InputError(f"{name} must be finite and below 2**63, as counted, got {_shown(value)}")
    if whole and value != math.floor(value):
        raise InputError(f"{name} must be a whole count, got {value!r}")


def _plain(value: Any) -> Any:
    """A field's value as JSON types: lists for tuples and sets, Python numbers for numpy's."""
    if isinstance(value, BLEUStats):
        return value.to_dict()
    if isinstance(value, frozenset):
        return sorted(value)
    if isinstance(value, tuple):
        return [_plain(item) for item in value]
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        return float(value)
    return value


@attrs.frozen
class BLEUStats:
    """The sufficient statistics of BLEU for one segment or many.

    ``matches[n-1]`` and ``totals[n-1]`` are the matched and the counted hypothesis n-grams of
    order ``n``; ``hypothesis_length`` and ``reference_length`` feed the brevity penalty;
    ``reference_counts`` is the set of reference counts seen per segment. ``counting`` is the
    signature of the counting configuration that made them: statistics add with ``+`` and
    ``sum()`` only when it agrees. These are what every definition shares; a definition that
    reads more (NLTK's) sums into a subclass of its own (:class:`bleuprint.compat.nltk.NLTKStats`).

    >>> a = BLEUStats((3, 1), (4, 3), 4, 4, segments=1, reference_counts=frozenset({1}))
    >>> b = BLEUStats((2, 0), (2, 1), 2, 3, segments=1, reference_counts=frozenset({1}))
    >>> total = sum([a, b])
    >>> total.matches, total.totals, total.hypothesis_length, total.segments
    ((5, 1), (6, 4), 6, 2)
    """

    matches: tuple[float, ...] = attrs.field(converter=_numbers)
    totals: tuple[float, ...] = attrs.field(converter=_numbers)
    hypothesis_length: float
    reference_length: float
    segments: int = 1
    reference_counts: frozenset[int] = frozenset()
    counting: str = ""

    def __attrs_post_init__(self) -> None:
        if len(self.matches) != len(self.totals):
            raise InputError(
                f"matches has {counted(len(self.matches), 'order')} but totals has "
                f"{len(self.totals)}"
            )
        if not self._plainly_valid():
            self._check_each_field()

    def _plainly_valid(self) -> bool:
        """The common case, checked at once: whole Python ints as counting makes them (a
        reference length may be a float), matches within totals."""
        counts = (*self.matches, *self.totals, self.hypothesis_length, self.segments)
        length = self.reference_length
        references = self.reference_counts
        return (
            set(map(type, counts)) == _INT
            and min(counts) >= 0
            and max(counts) < COUNT_LIMIT
            and all(map(operator.le, self.matches, self.totals))
            and type(length) in (int, float)
            and 0 <= length < COUNT_LIMIT
            and type(references) is frozenset
            and (not references or (set(map(type, references)) == _INT and min(references) >= 0))
        )

    def _check_each_field(self) -> None:
        """Every field on its own, to name the first that no counting produces."""
        for order, (matched, total) in enumerate(zip(self.matches, self.totals), start=1):
            _check_count(f"matches of order {order}", matched)
            _check_count(f"totals of order {order}", total)
            if matched > total:
                raise InputError(
                    f"order {order} has more matches ({matched}) than n-grams ({total})"
                )
        _check_count("hypothesis_length", self.hypothesis_length)
        # The average of the references' lengths (``ref=average``) need not be whole.
        _check_count("reference_length", self.reference_length, whole=False)
        _check_count("segments", self.segments)
        if not isinstance(self.reference_counts, (set, frozenset)):
            raise InputError(f"reference_counts must be a set, got {self.reference_counts!r}")
        for count in self.reference_counts:
            _check_count("reference_counts", count)

    @property
    def max_n(self) -> int:
        """The number of n-gram orders counted."""
        return len(self.totals)

    @classmethod
    def empty(cls, max_n: int, counting: str = "") -> BLEUStats:
        """Statistics of no segments at all: the neutral value of ``+``."""
        return cls((0,) * max_n, (0,) * max_n, 0, 0, segments=0, counting=counting)

    def to_dict(self) -> dict[str, Any]:
        """The statistics as a dictionary of JSON types, to store or send between processes.

        Every field is kept (a subclass's too), so that statistics read back score the same.

        >>> stats = BLEUStats((3, 1), (4, 3), 4, 5, segments=1, reference_counts=frozenset({1}))
        >>> stats.to_dict()  # doctest: +NORMALIZE_WHITESPACE
        {'matches': [3, 1], 'totals': [4, 3], 'hypothesis_length': 4, 'reference_length': 5,
         'segments': 1, 'reference_counts': [1], 'counting': ''}
        >>> BLEUStats.from_dict(stats.to_dict()) == stats
        True
        """
        return {field.name: _plain(getattr(self, field.name)) for field in attrs.fields(type(self))}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> BLEUStats:
        """Read back what :meth:`to_dict` wrote. A field with a default may be left out; a
        missing required field, an unknown key or a value no counting produces is an
        :class:`~bleuprint.InputError`.

        >>> BLEUStats.from_dict({"matches": [5], "totals": [4], "hypothesis_length": 4,
        ...                      "reference_length": 4})
        Traceback (most recent call last):
        ...
        bleuprint.exceptions.InputError: order 1 has more matches (5) than n-grams (4)
        """
        if not isinstance(data, Mapping):
            raise InputError(f"statistics must be a dictionary, got {type(data).__name__}")
        fields = attrs.fields_dict(cls)
        required = [name for name, field in fields.items() if field.default is attrs.NOTHING]
        missing = [name for name in required if name not in data]
        unknown = sorted(set(data) - set(fields))
        if missing or unknown:
            raise InputError(
                f"statistics dictionary lacks {missing or 'nothing'} "
                f"and has unknown keys {unknown or 'none'}"
            )
        values = dict(data)
        if "reference_counts" in values:
            counts = values["reference_counts"]
            if isinstance(counts, (str, bytes)) or not isinstance(counts, Iterable):
                raise InputError(f"reference_counts must be a list, got {counts!r}")
            values["reference_counts"] = frozenset(counts)
        if not isinstance(values.get("counting", ""), str):
            raise InputError(f"counting must be a signature string, got {values['counting']!r}")
        return cls(**values)

    def __reduce__(self) -> tuple[Any, ...]:
        # Unpickled statistics are checked as statistics read by from_dict are (a pickle
        # written by hand, or by another version, must not score outside the definition).
        return type(self).from_dict, (self.to_dict(),)

    def __add__(self, other: BLEUStats) -> BLEUStats:
        if not isinstance(other, BLEUStats):
            return NotImplemented
        if other.counting != self.counting or other.max_n != self.max_n:
            raise StatisticsMismatchError(
                "cannot add statistics from different counting configurations: "
                f"{self.counting or '?'} with {counted(self.max_n, 'order')} and "
                f"{other.counting or '?'} with {counted(other.max_n, 'order')}"
            )
        return BLEUStats(
            tuple(a + b for a, b in zip(self.matches, other.matches)),
            tuple(a + b for a, b in zip(self.totals, other.totals)),
            self.hypothesis_length + other.hypothesis_length,
            self.reference_length + other.reference_length,
            segments=self.segments + other.segments,
            reference_counts=self.reference_counts | other.reference_counts,
            counting=self.counting,
        )

    def __radd__(self, other: object) -> BLEUStats:
        # ``sum()`` starts from the integer 0.
        if other == 0:
            return self
        return NotImplemented
