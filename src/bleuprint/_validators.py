"""attrs validators shared by several families of parts."""

from __future__ import annotations

import attrs

from bleuprint.exceptions import ConfigurationError


def positive_whole(instance: object, attribute: attrs.Attribute[int], value: int) -> None:
    """A whole number of at least 1 (``True`` is not one), else a ConfigurationError."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ConfigurationError(
            f"{attribute.name} must be a whole number of at least 1, got {value!r}"
        )
