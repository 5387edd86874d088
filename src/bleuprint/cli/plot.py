"""Charts of ``compare --plot`` and ``score --plot`` for a paper; need the ``plot`` extra.

One dot per system, sorted by score (best at the top), the baseline of a paired test marked
with a dashed line and a hollow dot, the intervals drawn only where the test computed them and
named by their method in the axis label. The figure is one column of a two-column paper wide
(3.5 in) with 8 pt text; ``.pdf`` and ``.svg`` are vector files (with text kept as text),
``.png`` is drawn at 300 dpi.
"""

from __future__ import annotations

import argparse
import textwrap
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

import attrs

from bleuprint.cli import output
from bleuprint.cli.significance import SIGNIFICANT, SignificanceTest
from bleuprint.exceptions import ConfigurationError, counted

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from bleuprint.significance import SignificanceResult

_INSTALL = "pip install '.[plot]' (from the repository)"
FORMATS = (".png", ".pdf", ".svg")
"""The file types ``--plot`` writes, chosen by the target's extension."""
PNG_DPI = 300
"""The resolution of PNG charts: print quality (journals ask for 300 dpi)."""
WIDTH = 3.5
"""The chart's width in inches: one column of a two-column paper."""
_FONT_SIZE = 8  # points: a paper's caption size, readable at column width
_LABEL_WIDTH = 60  # characters of 7 pt text in one line of the chart's width


@attrs.frozen
class PlottedSystem:
    """One dot of the chart: a system's name, its score in [0, 1] and its test's outcome."""

    name: str
    score: float
    test: SignificanceResult | None = None
    baseline: bool = False

    @property
    def significant(self) -> bool:
        """Whether a paired test found it different from the baseline."""
        p_value = self.test.p_value if self.test else None
        return p_value is not None and p_value < SIGNIFICANT


def add_plot_options(parser: argparse.ArgumentParser) -> None:
    """``--plot`` and the chart's title and caption, of the commands that can test
    significance."""
    plot = parser.add_argument_group("chart")
    plot.add_argument(
        "--plot",
        metavar="FILE",
        help="also draw the scores, and the intervals where the test computes them, into "
        "FILE.pdf, FILE.svg (vector) or FILE.png (300 dpi), one paper column wide "
        f"(needs the plot extra: {_INSTALL})",
    )
    plot.add_argument(
        "--plot-title",
        metavar="TEXT",
        help="the chart's title (default: 'BLEU, PRESET preset'; '' for none)",
    )
    plot.add_argument(
        "--plot-caption",
        metavar="TEXT",
        help="the text under the chart (default: what its intervals and stars mean; '' for none)",
    )


def check(arguments: argparse.Namespace) -> None:
    """Fail early, before any work, when the chart cannot be drawn as asked."""
    for option, given in (("title", arguments.plot_title), ("caption", arguments.plot_caption)):
        if given is not None and not arguments.plot:
            raise ConfigurationError(f"--plot-{option} is the chart's {option}: give --plot too")
    if not arguments.plot:
        return
    from pathlib import Path  # noqa: PLC0415 - only for a chart: start-up time

    suffix = Path(arguments.plot).suffix.lower()
    if suffix not in FORMATS:
        raise ConfigurationError(
            f"--plot {arguments.plot}: the chart is written as {', '.join(FORMATS)} "
            f"(by the file's extension), not {suffix or 'a file without extension'}"
        )
    # Not a directory, a device or a pipe, in a folder that exists: before any work.
    output.check_target(arguments.plot, [extension[1:] for extension in FORMATS])
    import importlib.util  # noqa: PLC0415 - only for a chart: start-up time

    if importlib.util.find_spec("matplotlib") is None:
        raise ConfigurationError(f"--plot needs matplotlib, which is not installed: {_INSTALL}")


def interval_method(test: SignificanceTest | None) -> str | None:
    """What the drawn intervals are, or ``None`` where the test computes none.

    >>> from bleuprint.cli.significance import SignificanceTest
    >>> interval_method(SignificanceTest("ci", 1, 12345, 0))
    '95% bootstrap intervals (1 resample)'
    """
    if test is None:
        return None
    if test.kind == "bs":
        return f"95% paired bootstrap intervals ({counted(test.samples, 'resample')})"
    if test.kind == "ci":
        return f"95% bootstrap intervals ({counted(test.samples, 'resample')})"
    if test.confidence_resamples:  # approximate randomization with -ci
        return f"95% bootstrap intervals ({counted(test.confidence_resamples, 'resample')})"
    return None


def figure(
    systems: Sequence[PlottedSystem],
    test: SignificanceTest | None,
    title: str,
    caption: str | None = None,
) -> Figure:
    """The chart, not yet saved (tests read its texts and sizes): ``title`` above it (none if
    empty), ``caption`` under it (by default, what its intervals and stars mean)."""
    from matplotlib.figure import Figure  # noqa: PLC0415 - optional dependency

    ordered = sorted(systems, key=lambda system: system.score)  # the best ends up on top
    # (a Figure without pyplot: no global state, no window, nothing to close)
    chart = Figure(figsize=(WIDTH, 0.9 + 0.24 * len(ordered)), layout="constrained")
    axes = chart.add_subplot()
    method = interval_method(test)
    for position, system in enumerate(ordered):
        test_of = system.test
        if method and test_of and test_of.mean is not None and test_of.ci is not None:
            # sacreBLEU's interval: the bootstrap mean plus or minus ci, not centred on the score
            axes.errorbar(
                100 * test_of.mean,
                position,
                xerr=100 * test_of.ci,
                fmt="none",
                capsize=2,
                elinewidth=0.8,
                color="black",
            )
        axes.plot(
            100 * system.score,
            position,
            "o",
            markersize=4,
            color="black",
            markerfacecolor="white" if system.baseline else "black",
            zorder=3,
        )
        if system.baseline:
            axes.axvline(100 * system.score, color="grey", linewidth=0.6, linestyle="--")
    axes.set_yticks(range(len(ordered)), [_label(system) for system in ordered])
    axes.set_ylim(-0.6, len(ordered) - 0.4)
    axes.margins(x=0.15)  # keeps the dots and their intervals off the frame
    axes.set_xlabel("BLEU")
    # centred on the figure, not the axes, which the system names push to the right
    legend = _legend(test, method) if caption is None else _wrapped(caption)
    if legend:
        chart.supxlabel(legend, fontsize=_FONT_SIZE - 1)
    if title:
        axes.set_title(title)
    axes.tick_params(length=2)
    return chart


def _label(system: PlottedSystem) -> str:
    if system.baseline:
        return f"{system.name} (baseline)"
    return f"{system.name} *" if system.significant else system.name


def _legend(test: SignificanceTest | None, method: str | None) -> str:
    """What the intervals and the stars mean, wrapped to the chart's width."""
    parts = [method.capitalize()] if method else []
    if test is not None and test.paired:
        kind = "paired bootstrap" if test.kind == "bs" else "approximate randomization"
        no_intervals = "" if method else ", which gives no intervals"
        parts.append(f"* p < {SIGNIFICANT} against the baseline ({kind}{no_intervals})")
    if not parts:
        parts.append("No significance test, no intervals")
    return _wrapped("; ".join(parts) + ".")


def _wrapped(text: str) -> str:
    """``text`` in lines of the chart's width."""
    return "\n".join(textwrap.wrap(text, _LABEL_WIDTH))


def draw(
    path: str,
    systems: Sequence[PlottedSystem],
    test: SignificanceTest | None,
    *,
    title: str,
    caption: str | None = None,
) -> None:
    """Draw the chart into ``path``, as the file type its extension names, with ``title`` and
    ``caption`` as :func:`figure` takes them."""
    from pathlib import Path  # noqa: PLC0415 - only for a chart: start-up time

    from matplotlib import rc_context  # noqa: PLC0415 - optional dependency

    # text as text in SVG and PDF (searchable, editable, the paper's font when included)
    with rc_context({"font.size": _FONT_SIZE, "svg.fonttype": "none", "pdf.fonttype": 42}):
        chart = figure(systems, test, title, caption)
        try:
            # Complete or absent: drawn beside the target, renamed into place when whole.
            with output.replaced_atomically(path) as temporary:
                chart.savefig(temporary, dpi=PNG_DPI, format=Path(path).suffix[1:].lower())
        except Exception as error:
            # A backend that meets a full disk may fail again while cleaning up; the cause is
            # the OSError underneath.
            cause = next((e for e in _chain(error) if isinstance(e, OSError)), None)
            if cause is None:
                raise
            reason = cause.strerror or cause
            raise output.OutputError(f"{path}: cannot write the plot: {reason}") from None


def _chain(error: BaseException) -> Iterator[BaseException]:
    seen: BaseException | None = error
    while seen is not None:
        yield seen
        seen = seen.__cause__ or seen.__context__
