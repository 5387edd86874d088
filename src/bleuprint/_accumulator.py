"""A training-loop metric: corpus BLEU accumulated batch by batch, mergeable across processes.

:class:`Accumulator` keeps the running corpus statistics of every batch it was given. They are
summed as the engine's definition sums a corpus (NLTK's into
:class:`~bleuprint.compat.nltk.NLTKStats`), so :meth:`Accumulator.compute` is exactly
``engine.corpus_score`` of all the batches one after the other.

This module knows the engine only as a :class:`~bleuprint.typing.StatsScorer`: what it calls,
and nothing more.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs
import numpy as np

from bleuprint import _token_ids
from bleuprint._result import BLEUResult
from bleuprint._segments import SegmentStats
from bleuprint._stats import BLEUStats
from bleuprint.exceptions import InputError, StatisticsMismatchError, counted
from bleuprint.typing import Segment, StatsScorer

__all__ = ["Accumulator", "accumulator"]


def _no_segments(engine: StatsScorer) -> BLEUStats:
    """The statistics of no segment, summed as the engine's definition sums a corpus: of the
    class that its sums have (NLTK's records more than the counts)."""
    empty = engine.empty_stats()
    rows = np.zeros((0, empty.max_n), np.int64)
    lengths = np.zeros(0, np.int64)
    nothing = SegmentStats(rows, rows, lengths, lengths, lengths, empty.counting)
    return engine.total(nothing, empty)


@attrs.define
class Accumulator:
    """Corpus BLEU of every batch given to :meth:`update`, for validation inside a training
    loop; accumulators of several processes :meth:`merge`.

    Made by :meth:`BLEUScore.accumulator() <bleuprint.BLEUScore.accumulator>`:

    >>> from bleuprint import BLEUScore
    >>> bleu = BLEUScore.canonical(max_n=2)
    >>> metric = bleu.accumulator()
    >>> metric.update(["the cat is here"], [["the cat was here"]])
    >>> metric.update(["a dog"], [["a dog"]])
    >>> metric.compute() == bleu.corpus_score(["the cat is here", "a dog"],
    ...                                       [["the cat was here"], ["a dog"]])
    True
    >>> metric.stats.matches, metric.stats.totals
    ((5, 2), (6, 4))

    The result is ``engine.corpus_score`` of all batches one after the other, exactly: with
    :meth:`merge`, the other accumulator's batches come after this one's. Where statistics are
    whole numbers (every definition bleuprint ships, except reference lengths averaged with
    ``ref=average``) the order of batches and merges does not change the result at all; NLTK's
    methods 5 to 7 read the last segment of the corpus, so for them the last batch of the last
    accumulator merged decides; floating-point reference lengths (``ref=average``) are summed
    in a different order by a merge, and may differ in the last bits.
    """

    engine: StatsScorer
    _stats: BLEUStats = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        self.reset()

    @property
    def stats(self) -> BLEUStats:
        """The statistics of every segment so far (what :meth:`compute` scores)."""
        return self._stats

    def update(
        self,
        hypotheses: Sequence[Segment],
        references: Sequence[Sequence[Segment]],
        *,
        pad_id: int | None = None,
        ignore_index: int | None = None,
        eos_id: int | None = None,
    ) -> None:
        """Add a batch: ``references[i]`` lists the references of ``hypotheses[i]``.

        A batch of token ids (a padded 2-D array or tensor of hypotheses, a 3-D one of
        references: segment, reference, position) is read without the ids ``pad_id`` and
        ``ignore_index`` (``-100``, with which labels are padded) and each row up to its first
        ``eos_id``; a reference of padding only is no reference.

        >>> import numpy as np
        >>> from bleuprint import BLEUScore
        >>> metric = BLEUScore.canonical(max_n=2).accumulator()
        >>> generated = np.array([[5, 6, 7, 2, 0], [5, 9, 2, 0, 0]])  # 2: eos, 0: pad
        >>> labels = np.array([[5, 6, 7, -100, -100], [5, 9, 8, -100, -100]])
        >>> metric.update(generated, labels[:, None, :], pad_id=0, ignore_index=-100, eos_id=2)
        >>> metric.stats.matches, metric.stats.totals, metric.stats.reference_length
        ((5, 3), (5, 3), 6)
        """
        padding = _token_ids.Padding(pad_id, ignore_index, eos_id)
        hypotheses, references = padding.batch(hypotheses, references)
        self._stats = self.engine.total(
            self.engine.count_segments(hypotheses, references), self._stats
        )

    def compute(self) -> BLEUResult:
        """Corpus BLEU of every segment given so far (merged ones included)."""
        if not self._stats.segments:
            raise InputError("the accumulator holds no segment: there is nothing to score")
        return self.engine.score(self._stats)

    def reset(self) -> None:
        """Forget every segment (as at the start of an epoch)."""
        self._stats = _no_segments(self.engine)

    def merge(self, other: Accumulator) -> None:
        """Add the segments of another accumulator of the same configuration (after ours)."""
        if not isinstance(other, Accumulator):
            raise TypeError(f"merge takes an Accumulator, got {type(other).__name__}")
        self._check_configuration(other.engine.to_dict())
        self._stats = self._stats + other.stats

    def to_dict(self) -> dict[str, Any]:
        """The configuration and the statistics, as JSON types: to store, or to send to other
        processes, which read it back with :meth:`from_dict`."""
        return {"configuration": self.engine.to_dict(), "stats": self._stats.to_dict()}

    @classmethod
    def from_dict(cls, engine: StatsScorer, data: Mapping[str, Any]) -> Accumulator:
        """An accumulator of ``engine`` holding the statistics that :meth:`to_dict` wrote; the
        configuration written must be the engine's, and the statistics counted by it."""
        if not isinstance(data, Mapping):
            raise InputError(f"an accumulator's state is a dictionary, got {type(data).__name__}")
        if sorted(data, key=str) != ["configuration", "stats"]:
            raise InputError(
                "an accumulator's dictionary has the keys configuration and stats, got "
                f"{sorted(map(str, data))}"
            )
        configuration = data["configuration"]
        if not isinstance(configuration, Mapping) or not all(
            isinstance(value, str) for value in configuration.values()
        ):
            raise InputError(
                "an accumulator's configuration is a dictionary of part signatures (as "
                f"to_dict writes it), got {configuration!r:.200}"
            )
        accumulator = cls(engine)
        accumulator._check_configuration(configuration)
        empty = accumulator._stats
        stats = type(empty).from_dict(data["stats"])
        if (stats.counting, stats.max_n) != (empty.counting, empty.max_n):
            raise StatisticsMismatchError(
                f"the accumulator's statistics were counted by {stats.counting or '?'} with "
                f"{counted(stats.max_n, 'order')}, not by this configuration's "
                f"{empty.counting} with {empty.max_n}"
            )
        accumulator._stats = stats
        return accumulator

    def __reduce__(self) -> tuple[Any, ...]:
        # Unpickled, an accumulator is checked as one read by from_dict is.
        return type(self).from_dict, (self.engine, self.to_dict())

    def _check_configuration(self, configuration: Mapping[str, str]) -> None:
        ours = self.engine.to_dict()
        if dict(configuration) != ours:
            differ = sorted(key for key in ours if configuration.get(key) != ours[key])
            raise StatisticsMismatchError(
                "cannot merge accumulators of different configurations: they differ in "
                f"{', '.join(differ) or 'their families'} ({dict(configuration)} and {ours})"
            )


def accumulator(engine: StatsScorer) -> Accumulator:
    """A new :class:`Accumulator` of this configuration, holding no segment yet."""
    return Accumulator(engine)
