"""Charts for ``bleuprint compare --plot``; needs the optional ``plot`` extra (matplotlib)."""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence

from bleuprint.cli.significance import SIGNIFICANT
from bleuprint.exceptions import ConfigurationError
from bleuprint.significance import SignificanceResult

_INSTALL = "pip install '.[plot]' (from the repository)"


def check_available() -> None:
    """Fail early, before any work, when matplotlib is not installed."""
    if importlib.util.find_spec("matplotlib") is None:
        raise ConfigurationError(f"--plot needs matplotlib, which is not installed: {_INSTALL}")


def draw(
    path: str,
    systems: Sequence[tuple[str, float, SignificanceResult | None]],
    *,
    title: str,
) -> None:
    """Draw each system's score (0-100) with its 95% bootstrap interval into ``path``.

    The baseline comes first, at the top; systems significantly different from it are marked.
    """
    import matplotlib  # noqa: PLC0415 - optional dependency

    matplotlib.use("Agg")  # files only: never open a window
    from matplotlib import pyplot  # noqa: PLC0415

    scores = [100 * score for _, score, _ in systems]
    errors = [100 * (test.ci or 0.0) if test else 0.0 for _, _, test in systems]
    figure, axes = pyplot.subplots(figsize=(7, 1 + 0.5 * len(systems)))
    positions = list(range(len(systems)))[::-1]
    axes.errorbar(scores, positions, xerr=errors, fmt="o", capsize=4)
    labels = [
        name + (" *" if test and test.p_value is not None and test.p_value < SIGNIFICANT else "")
        for name, _, test in systems
    ]
    axes.set_yticks(positions, labels)
    axes.set_xlabel(f"BLEU (95% interval; * p < {SIGNIFICANT} against the first)")
    axes.set_title(title, fontsize="small")
    figure.tight_layout()
    try:
        figure.savefig(path)
    except OSError as error:
        reason = error.strerror or error
        raise ConfigurationError(f"{path}: cannot write the plot: {reason}") from None
    finally:
        pyplot.close(figure)
