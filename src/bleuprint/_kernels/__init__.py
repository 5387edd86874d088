"""The kernel: the two loops of the fast path, counting each segment's shared n-grams and
the exact weighted geometric mean of its precisions.

Two implementations share one interface and give the same numbers: ``_compiled``, a C
extension built with the package (it releases the GIL while it loops), and ``_python``, its
plain-Python twin. bleuprint runs on the compiled one where it was built, on the plain one
where it was not (with a warning) or where the environment variable
``BLEUPRINT_PURE_PYTHON=1`` asks for it.
"""

from __future__ import annotations

import os
import warnings

PURE_PYTHON_VARIABLE = "BLEUPRINT_PURE_PYTHON"
THREADS_VARIABLE = "BLEUPRINT_THREADS"


def _pure_python() -> bool:
    setting = os.environ.get(PURE_PYTHON_VARIABLE, "")
    if setting not in {"", "0", "1"}:
        raise ValueError(f"{PURE_PYTHON_VARIABLE} must be 1 (or 0, or unset), got {setting!r}")
    return setting == "1"


def _threads() -> int:
    setting = os.environ.get(THREADS_VARIABLE, "")
    if not setting:
        # The CPUs this process may run on (cgroups aside), as "one per CPU" means here.
        return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (
            os.cpu_count() or 1
        )
    if not setting.isdigit() or int(setting) < 1:
        raise ValueError(f"{THREADS_VARIABLE} must be a positive whole number, got {setting!r}")
    return int(setting)


THREADS: int = _threads()
"""How many threads may count at once: the environment variable ``BLEUPRINT_THREADS``, by
default one per CPU this process may use."""

KERNEL: str
"""Which kernel runs: ``"compiled"`` or ``"python"``."""

if _pure_python():
    from bleuprint._kernels._python import shared_ngram_counts, weighted_geometric_means

    KERNEL = "python"
else:
    try:
        from bleuprint._kernels._compiled import shared_ngram_counts, weighted_geometric_means
    except ImportError as error:
        from bleuprint._kernels._python import shared_ngram_counts, weighted_geometric_means

        warnings.warn(
            f"bleuprint's compiled kernel is not available ({error}): running on the "
            f"plain-Python kernel, slower, same numbers; {PURE_PYTHON_VARIABLE}=1 chooses it "
            "without this warning",
            RuntimeWarning,
            stacklevel=2,
        )
        KERNEL = "python"
    else:
        KERNEL = "compiled"

__all__ = ["KERNEL", "THREADS", "shared_ngram_counts", "weighted_geometric_means"]
