"""BLEU inside distributed training: a torchmetrics metric of any configuration, and the sync of
an :class:`~bleuprint.Accumulator` over plain ``torch.distributed``.

Needs the ``torch`` extra (``pip install 'bleuprint[torch]'``: torch and torchmetrics); nothing
else in bleuprint imports them.

Both give, on every process, exactly the corpus BLEU of all processes' segments, rank 0's first:
what one process scoring the whole validation set in that order gives. Each process's
statistics travel as what :meth:`Accumulator.to_dict() <bleuprint.Accumulator.to_dict>`
writes and are added by the definition's own sum, because some definitions keep more than
counts (NLTK's last segment, the exact big-integer sums of the sentence-mean aggregations), which
no tensor of floats holds exactly.

>>> from bleuprint import BLEUScore
>>> from bleuprint.distributed import BLEUMetric
>>> metric = BLEUMetric(BLEUScore.sacrebleu())
>>> metric.update(["The cat sat on the mat."], [["The cat sat on a mat."]])
>>> metric.update(["A dog barked!"], [["The dog barked."]])
>>> round(float(metric.compute()), 4)
0.3898
>>> metric.result().stats.segments
2
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import torch
import torch.distributed as dist
from torchmetrics import Metric

from bleuprint._accumulator import Accumulator
from bleuprint._engine import BLEUScore
from bleuprint._result import BLEUResult
from bleuprint.typing import Segment, StatsScorer

__all__ = ["BLEUMetric", "synced"]


def synced(accumulator: Accumulator, group: Any = None) -> Accumulator:
    """A new accumulator holding the segments of ``accumulator`` on every process of ``group``
    (the default group if ``None``), rank 0's first; every process must call it. The
    statistics are gathered with ``torch.distributed.all_gather_object`` (a few dozen numbers a
    process) and merged in rank order.

    On one process, where ``torch.distributed`` is not initialised, it is a copy.
    """
    state = accumulator.to_dict()
    if not (dist.is_available() and dist.is_initialized()):
        return Accumulator.from_dict(accumulator.engine, state)
    states: list[Any] = [None] * dist.get_world_size(group)
    dist.all_gather_object(states, state, group=group)
    return _merged(accumulator.engine, states)


def _merged(engine: StatsScorer, states: Sequence[Any]) -> Accumulator:
    """An accumulator of ``engine`` holding each state's segments, in order."""
    total = Accumulator(engine)
    for state in states:
        total.merge(Accumulator.from_dict(engine, state))
    return total


class BLEUMetric(Metric):
    """A ``torchmetrics.Metric`` scoring the corpus BLEU of ``engine`` (canonical BLEU-4 by
    default) over every batch given to :meth:`update`; under DDP, torchmetrics' sync makes
    :meth:`compute` score the segments of every process, exactly as one process would.

    Its one state, ``records``, is each process's :meth:`Accumulator.to_dict()
    <bleuprint.Accumulator.to_dict>`, encoded as a byte tensor and gathered by concatenation
    (``dist_reduce_fx="cat"``) in rank order; it holds statistics, not text, so it does not grow
    with the batches. Keyword arguments go to ``torchmetrics.Metric``.
    """

    is_differentiable = False
    higher_is_better = True
    full_state_update = False

    def __init__(self, engine: BLEUScore | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.engine = BLEUScore() if engine is None else engine
        self.add_state("records", default=[], dist_reduce_fx="cat")

    def update(self, preds: Sequence[Segment], target: Sequence[Sequence[Segment]]) -> None:
        """Add a batch: ``target[i]`` lists the references of ``preds[i]``."""
        accumulator = self._accumulator()
        accumulator.update(preds, target)
        self.records = [_encoded(accumulator.to_dict(), self.device)]

    def compute(self) -> torch.Tensor:
        """The corpus score so far, as the engine's result gives it (0 to 1), in float64."""
        # torchmetrics has synced the records of every process before this runs.
        return torch.tensor(self._accumulator().compute().score, dtype=torch.float64)

    def result(self) -> BLEUResult:
        """The whole :class:`~bleuprint.BLEUResult` (precisions, brevity penalty, signature)
        of every process's segments, synced as :meth:`compute` is."""
        with self.sync_context():
            return self._accumulator().compute()

    def _accumulator(self) -> Accumulator:
        """The records (one per process after a sync, or after ``forward`` a local and a
        global one) merged in order."""
        return _merged(self.engine, _decoded(self.records))


def _encoded(state: dict[str, Any], device: torch.device) -> torch.Tensor:
    data = json.dumps(state, separators=(",", ":")).encode("ascii")
    return torch.frombuffer(bytearray(data), dtype=torch.uint8).to(device)


def _decoded(records: torch.Tensor | list[torch.Tensor]) -> list[Any]:
    """The states in the records, which concatenation leaves back to back (each is a JSON
    object, so it ends itself)."""
    if isinstance(records, list):
        records = torch.cat(records) if records else torch.zeros(0, dtype=torch.uint8)
    # A process that saw no batch sends torchmetrics' empty placeholder, whose dtype is float.
    text = records.cpu().to(torch.uint8).numpy().tobytes().decode("ascii")
    decoder = json.JSONDecoder()
    states, position = [], 0
    while position < len(text):
        state, position = decoder.raw_decode(text, position)
        states.append(state)
    return states
