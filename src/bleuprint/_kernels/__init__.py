"""The kernel: tokens to ids, and the loops of the fast path.

Two implementations share one interface and give the same numbers: ``_compiled``, a C
extension built with the package (``_compiled.c``; it releases the GIL while it tokenizes the
built-in tokenizers' texts and while it loops), and ``_python``, its plain-Python twin and the
reference. ``kernel`` is the one chosen, imported once; callers call ``kernel.count_texts(...)``
and so on. The contract of each function is its docstring in :mod:`bleuprint._kernels._python`;
``_compiled.pyi`` states the same signatures (``tests/test_kernels.py`` checks they agree).

bleuprint runs on the compiled kernel where it was built, on the plain one where it was not
(with a warning) or where the environment variable ``BLEUPRINT_PURE_PYTHON=1`` asks for it.
``geometric_mean`` and ``plain_segments`` are plain-Python helpers either kernel's callers use.
"""

from __future__ import annotations

import os
import warnings
from types import ModuleType
from typing import TYPE_CHECKING

from bleuprint._kernels import _python
from bleuprint._kernels._python import geometric_mean, plain_segments
from bleuprint.exceptions import ConfigurationError

PURE_PYTHON_VARIABLE = "BLEUPRINT_PURE_PYTHON"
THREADS_VARIABLE = "BLEUPRINT_THREADS"


def _pure_python() -> bool:
    setting = os.environ.get(PURE_PYTHON_VARIABLE, "")
    if setting not in {"", "0", "1"}:
        raise ConfigurationError(
            f"the environment variable {PURE_PYTHON_VARIABLE} must be 1 (or 0, or unset), "
            f"got {setting!r}"
        )
    return setting == "1"


def _threads() -> int:
    setting = os.environ.get(THREADS_VARIABLE, "")
    if not setting:
        if hasattr(os, "sched_getaffinity"):  # the CPUs this process may run on
            return len(os.sched_getaffinity(0))
        return os.cpu_count() or 1
    if not setting.isdigit() or int(setting) < 1:
        raise ConfigurationError(
            f"the environment variable {THREADS_VARIABLE} must be a positive whole number, "
            f"got {setting!r}"
        )
    return int(setting)


THREADS: int = _threads()
"""How many threads may count at once: the environment variable ``BLEUPRINT_THREADS``, by
default one per CPU this process may use."""


def _chosen() -> tuple[ModuleType, str]:
    """The kernel to run on, and its name (see ``KERNEL``)."""
    if _pure_python():
        return _python, "python"
    try:
        from bleuprint._kernels import _compiled  # noqa: PLC0415 - only where it is chosen
    except ImportError as error:
        warnings.warn(
            f"bleuprint's compiled kernel is not available ({error}): running on the "
            f"plain-Python kernel, slower, same numbers; {PURE_PYTHON_VARIABLE}=1 chooses it "
            "without this warning",
            RuntimeWarning,
            stacklevel=3,
        )
        return _python, "python"
    return _compiled, "compiled"


if TYPE_CHECKING:  # (a type checker follows the twin: the compiled one has its interface)
    from bleuprint._kernels import _python as kernel

    KERNEL = "python"
else:
    kernel, KERNEL = _chosen()
"""``kernel`` is the chosen kernel; ``KERNEL`` says which: ``"compiled"`` or ``"python"``."""

__all__ = ["KERNEL", "THREADS", "geometric_mean", "kernel", "plain_segments"]
