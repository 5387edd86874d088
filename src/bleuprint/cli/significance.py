"""The significance options of ``score`` and ``compare``, and running the test they ask for."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal

import attrs

from bleuprint._resampling import DEFAULT_RESAMPLES, DEFAULT_SEED, DEFAULT_TRIALS
from bleuprint.cli.options import at_least
from bleuprint.exceptions import ConfigurationError

if TYPE_CHECKING:  # the tests are imported to run one, not to read the options
    from bleuprint._engine import BLEUScore
    from bleuprint.cli.progress import Progress
    from bleuprint.significance import Segments, SignificanceResult

SIGNIFICANT = 0.05
"""The p-value below which a difference from the baseline is marked significant."""
MAX_DRAWS = 10**11
"""The most segment draws a test may make (resampled corpora x segments): about an hour of one
core of a laptop-class machine (a two-core VM draws and scores some 35 million a second)."""
MAX_CORPORA = 10**8
"""The most resampled corpora a test may score: their scores take 8 bytes each (800 MB)."""


@attrs.frozen
class SignificanceTest:
    """Which significance test to run, and how."""

    kind: Literal["bs", "ar", "ci"]  # paired bootstrap, approximate randomization, intervals
    samples: int
    seed: int | None  # None: unseeded (``bleuprint sacrebleu`` under SACREBLEU_SEED=none)
    confidence_resamples: int

    @property
    def paired(self) -> bool:
        """Whether the systems are tested against the first."""
        return self.kind != "ci"

    def describe(self) -> str:
        if self.kind == "ar":
            text = f"paired approximate randomization, {self.samples} trials"
            if self.confidence_resamples:
                text += f", intervals from {self.confidence_resamples} bootstrap resamples"
        elif self.kind == "bs":
            text = f"paired bootstrap resampling, {self.samples} resamples"
        else:
            text = f"bootstrap confidence intervals, {self.samples} resamples"
        return f"{text}, " + ("unseeded" if self.seed is None else f"seed {self.seed}")

    def as_json(self) -> dict[str, Any]:
        fields: dict[str, Any] = {"test": self.kind, "samples": self.samples, "seed": self.seed}
        if self.kind == "ar":
            fields["confidence_resamples"] = self.confidence_resamples
        return fields

    def sacrebleu_fields(self) -> dict[str, object]:
        """The fields of sacreBLEU's signature that name the test: ``bs`` or ``ar``, then
        ``seed``."""
        return {"ar" if self.kind == "ar" else "bs": self.samples, "seed": self.seed}

    def check_size(self, systems: int, segments: int) -> None:
        """Refuse, before it runs, a test that would run for hours or whose scores would fill
        the memory (:data:`MAX_DRAWS`, :data:`MAX_CORPORA`), naming the options that size it."""
        corpora = self.corpora(systems)
        draws = corpora * segments
        if corpora <= MAX_CORPORA and draws <= MAX_DRAWS:
            return
        options = {"bs": "--paired-bs-n", "ar": "--paired-ar-n", "ci": "--confidence-n"}[self.kind]
        if self.kind == "ar" and self.confidence_resamples:
            options += " or --confidence-n"
        if corpora > MAX_CORPORA:
            why = (
                f"{corpora:,} resampled corpora, more than the {MAX_CORPORA:,} a test may score "
                "(their scores take 8 bytes each)"
            )
        else:
            why = (
                f"{draws:,} segment draws ({corpora:,} resampled corpora of {segments:,} "
                f"segments), more than the {MAX_DRAWS:,} (about an hour) a test may make"
            )
        shown = f"{self.describe()}, {systems:,} system{'s' * (systems != 1)}"
        raise ConfigurationError(f"{shown}: {why}; lower {options}")

    def corpora(self, systems: int) -> int:
        """How many resampled corpora the test scores, for the progress bar."""
        if self.kind == "ci":
            return systems * self.samples
        if self.kind == "bs":
            return self.samples * systems  # every system scored on the same resamples
        intervals = systems * self.confidence_resamples
        return 2 * self.samples * (systems - 1) + intervals


def add_significance_options(parser: argparse.ArgumentParser) -> None:
    """The tests (--paired-bs, --paired-ar, -ci), their sizes and their seed."""
    tests = parser.add_argument_group("significance")
    tests.add_argument(
        "-pbs",
        "--paired-bs",
        action="store_true",
        help="paired bootstrap resampling against the first system",
    )
    tests.add_argument(
        "-par",
        "--paired-ar",
        action="store_true",
        help="paired approximate randomization against the first system",
    )
    tests.add_argument(
        "-pbsn",
        "--paired-bs-n",
        type=at_least(1),
        default=DEFAULT_RESAMPLES,
        metavar="N",
        help="bootstrap resamples (default: %(default)s)",
    )
    tests.add_argument(
        "-parn",
        "--paired-ar-n",
        type=at_least(1),
        default=DEFAULT_TRIALS,
        metavar="N",
        help="randomization trials (default: %(default)s)",
    )
    tests.add_argument(
        "-ci", "--confidence", action="store_true", help="bootstrap 95%% confidence intervals"
    )
    tests.add_argument(
        "-cin",
        "--confidence-n",
        type=at_least(1),
        default=DEFAULT_RESAMPLES,
        metavar="N",
        help="resamples for the intervals (default: %(default)s)",
    )
    tests.add_argument(
        "--seed",
        type=at_least(0),
        default=DEFAULT_SEED,
        help="seed of the random draws (default: sacreBLEU's, %(default)s)",
    )


def chosen_test(arguments: argparse.Namespace, *, compare: bool) -> SignificanceTest | None:
    """The test the options ask for (``compare`` runs paired bootstrap unless told otherwise)."""
    if arguments.paired_bs and arguments.paired_ar:
        raise ConfigurationError("choose one paired test: --paired-bs or --paired-ar")
    confidence = arguments.confidence_n if arguments.confidence else 0
    if arguments.paired_ar:
        return SignificanceTest("ar", arguments.paired_ar_n, arguments.seed, confidence)
    if arguments.paired_bs or compare:
        return SignificanceTest("bs", arguments.paired_bs_n, arguments.seed, 0)
    if arguments.confidence:
        return SignificanceTest("ci", arguments.confidence_n, arguments.seed, 0)
    return None


def run_test(
    engine: BLEUScore,
    systems: Sequence[Segments],
    test: SignificanceTest | None,
    progress: Progress,
) -> Sequence[SignificanceResult | None]:
    """The outcome of ``test`` for each system (``None`` each without a test)."""
    if test is None:
        return [None] * len(systems)
    from bleuprint import significance  # noqa: PLC0415 - a run without a test never loads it

    test.check_size(len(systems), max(len(segments) for segments in systems))
    corpora = test.corpora(len(systems))
    with progress.stage("testing", corpora, "corpora") as update:
        if test.kind == "ci":
            return [
                significance.bootstrap_confidence(
                    segments, engine, resamples=test.samples, seed=test.seed, progress=update
                )
                for segments in systems
            ]
        return significance.compare_systems(
            systems,
            engine,
            test=test.kind,
            samples=test.samples,
            seed=test.seed,
            confidence_resamples=test.confidence_resamples,
            progress=update,
        )
