"""The errors bleuprint raises.

Every error bleuprint raises on purpose derives from :class:`BLEUError`, so a caller can catch
them all at once. Each also derives from the built-in exception a Python user would expect
(``ValueError``), so existing ``except ValueError`` blocks keep working.

An :class:`InputError` says where the problem is in fields, not only in its text: ``path`` (the
file), ``line`` (1-based, in that file), ``segment`` (0-based index in the corpus) and
``partition`` (0-based, of a Dask collection), each ``None`` where it does not apply. Its message
is made from them, so every error names its place the same way; code that needs the place reads
the fields rather than parsing the text:

>>> error = InputError("not valid UTF-8 (byte 3 of the line is 0xff)", path="ref.txt", line=17)
>>> str(error)
'ref.txt:17: not valid UTF-8 (byte 3 of the line is 0xff)'
>>> error.path, error.line, error.segment, error.reason
('ref.txt', 17, None, 'not valid UTF-8 (byte 3 of the line is 0xff)')
>>> str(InputError("no references", segment=3))
'segment 3: no references'
"""

from __future__ import annotations

import functools
import os
import sys
from typing import Any

__all__ = [
    "BLEUError",
    "ConfigurationError",
    "InputError",
    "PaddingWarning",
    "PresetWarning",
    "ReferenceLayoutWarning",
    "StatisticsMismatchError",
]


class BLEUError(Exception):
    """Base class of every error raised by bleuprint on purpose."""


class ConfigurationError(BLEUError, ValueError):
    """A part or an engine was configured with a value it cannot work with.

    Raised when the object is built, never later while scoring.
    """


class InputError(BLEUError, ValueError):
    """The text or statistics given to score are malformed.

    ``reason`` says what is wrong; the optional, keyword-only ``path``, ``line`` (1-based),
    ``segment`` (0-based) and ``partition`` (0-based) say where. The message puts them in front
    of the reason: ``partition 1: ref.txt:17: segment 16: reason``, leaving out what is not set
    (``ref.txt: reason`` for a file as a whole).
    """

    def __init__(
        self,
        reason: str,
        *,
        path: str | None = None,
        line: int | None = None,
        segment: int | None = None,
        partition: int | None = None,
    ) -> None:
        self.reason = reason
        self.path = path
        self.line = line
        self.segment = segment
        self.partition = partition
        super().__init__(self._message())

    def _message(self) -> str:
        places = []
        if self.partition is not None:
            places.append(f"partition {self.partition}")
        if self.path is not None:
            places.append(self.path if self.line is None else f"{self.path}:{self.line}")
        elif self.line is not None:
            places.append(f"line {self.line}")
        if self.segment is not None:
            places.append(f"segment {self.segment}")
        return ": ".join([*places, self.reason])

    def located(self, *, segment: int | None = None, partition: int | None = None) -> InputError:
        """The same error with the places given set too, for a caller that knows more of
        where it happened than the code that raised it.

        >>> str(InputError("no references", segment=1).located(segment=41, partition=2))
        'partition 2: segment 41: no references'
        """
        places = self._places()
        if segment is not None:
            places["segment"] = segment
        if partition is not None:
            places["partition"] = partition
        return InputError(self.reason, **places)

    def _places(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "line": self.line,
            "segment": self.segment,
            "partition": self.partition,
        }

    def __reduce__(self) -> tuple[Any, ...]:
        # Dask sends errors between processes: keep the places, which are keyword-only.
        return functools.partial(type(self), **self._places()), (self.reason,)


class StatisticsMismatchError(BLEUError, ValueError):
    """Statistics from different counting configurations were combined."""


class ReferenceLayoutWarning(UserWarning):
    """References that fit both bleuprint's layout (one list per hypothesis) and sacreBLEU's
    (one stream per reference set): as many lists as hypotheses, each as long as the corpus.
    bleuprint reads them its own way; once that is meant, silence this with the ``warnings``
    module."""


class PaddingWarning(UserWarning):
    """Token ids that are almost surely padding are counted as tokens: ``-100`` (the ignore
    index of PyTorch's losses, which labels carry), or one id filling the end of every row of
    a padded batch. Name the padding (``pad_id=`` or ``ignore_index=`` of
    :meth:`Accumulator.update <bleuprint.Accumulator.update>`, :meth:`BLEUScore.compute
    <bleuprint.BLEUScore.compute>` and the reward; :class:`~bleuprint.TokenIds`' ``pad``);
    where the id is a real token, silence this with the ``warnings`` module."""


class PresetWarning(UserWarning):
    """An installed distribution's preset is left out: its ``bleuprint.presets`` entry point,
    its definition module or an entry of its ``PRESETS`` is broken, as the message says.
    bleuprint's own presets, and the distribution's others, are unaffected."""


_PACKAGE = os.path.dirname(os.path.realpath(__file__))


def user_stacklevel() -> int:
    """The ``stacklevel`` of the first frame outside bleuprint, for a warning raised by the
    caller of this function: it then names the user's line whichever public method they
    called, however deep in bleuprint the warning is raised."""
    level, frame = 1, sys._getframe(1)
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        level, frame = level + 1, frame.f_back  # type: ignore[assignment]
    return level


def counted(count: int, noun: str, plural: str = "") -> str:
    """``count`` and ``noun`` for a message, the noun plural unless the count is one (its
    ``plural``, by default ``noun + "s"``): every message counts things this way.

    >>> counted(1, "name"), counted(2, "system"), counted(0, "hypothesis", "hypotheses")
    ('1 name', '2 systems', '0 hypotheses')
    """
    return f"{count} {noun if count == 1 else plural or noun + 's'}"
