"""What the adapters of users' scalar scoring parts share.

The scoring families work on rows of statistics. A user's part written for one set of
statistics (or one pair of lengths) at a time, or a plain function, plugs in through its
family's adapter: :class:`bleuprint.smoothing.FromScalar`, :class:`bleuprint.weights.FromScalar`,
:class:`bleuprint.brevity.PenaltyFromScalar` or
:class:`bleuprint.brevity.ReferenceLengthFromScalar`. Each is a :class:`ScalarPartAdapter` that
adds its family's method on rows, calling the part once per row.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

import attrs

from bleuprint._validators import is_callable, non_empty_text
from bleuprint.typing import order_problem_of

_Call = TypeVar("_Call", bound=Callable[..., Any])


def _own_signature(adapter: ScalarPartAdapter[Any]) -> Any:
    """The part's own ``signature``, if it has one (a plain function has none: then
    ``signature=`` must be given)."""
    return getattr(adapter.part, "signature", None)


@attrs.frozen
class ScalarPartAdapter(Generic[_Call]):
    """A part that is called once per row, under its own signature (or the one given) and
    with its own constraints on the orders, if it says any.

    Args:
        part: the scalar part, or a plain function of the family's arguments.
        signature: the signature results name it by; by default the part's own.

    Raises:
        ConfigurationError: ``part`` is not callable, or has no signature and none is given.
    """

    part: _Call = attrs.field(validator=is_callable)
    signature: str = attrs.field(
        default=attrs.Factory(_own_signature, takes_self=True),
        validator=non_empty_text,
        kw_only=True,
    )

    def order_problem(self, max_n: int) -> str | None:
        """Whatever the part says of the orders 1..max_n (see
        :class:`~bleuprint.typing.OrderConstrained`)."""
        return order_problem_of(self.part, max_n)
