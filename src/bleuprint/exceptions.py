"""The errors bleuprint raises.

Every error bleuprint raises on purpose derives from :class:`BLEUError`, so a caller can catch
them all at once. Each also derives from the built-in exception a Python user would expect
(``ValueError``), so existing ``except ValueError`` blocks keep working.
"""

from __future__ import annotations


class BLEUError(Exception):
    """Base class of every error raised by bleuprint on purpose."""


class ConfigurationError(BLEUError, ValueError):
    """A part or an engine was configured with a value it cannot work with.

    Raised when the object is built, never later while scoring.
    """


class InputError(BLEUError, ValueError):
    """The text or statistics given to score are malformed.

    The message names the segment (``segment 3``) or the place in a file (``ref.txt:17``).
    """


class StatisticsMismatchError(BLEUError, ValueError):
    """Statistics from different counting configurations were combined."""
