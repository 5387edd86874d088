"""Statistics summed in a tree of tasks, and the sum scored: how every corpus score on Dask
ends, whether its partitions come from a collection (:mod:`bleuprint.dask.core`) or from
files (:mod:`bleuprint.dask.files`).

The workers import this module to run these tasks, so it imports neither pandas nor
``dask.dataframe``: a worker scoring files never loads them (about 0.6 s of CPU and tens of
megabytes each).
"""

from __future__ import annotations

import functools
import operator

from dask.delayed import Delayed, delayed

from bleuprint._engine import BLEUScore
from bleuprint._result import BLEUResult
from bleuprint._stats import BLEUStats
from bleuprint.exceptions import InputError

__all__ = ["SPLIT_EVERY", "scored", "summed_in_a_tree"]

SPLIT_EVERY = 8
"""How many statistics one task of the tree reduction adds up."""


def summed_in_a_tree(stats: list[Delayed], split_every: int = SPLIT_EVERY) -> Delayed:
    """The sum of delayed statistics (at least one), added in a tree whose tasks add
    ``split_every`` values each."""
    add = delayed(_add, pure=True)
    while len(stats) > 1:
        stats = [
            add(*stats[start : start + split_every]) for start in range(0, len(stats), split_every)
        ]
    return stats[0]


def scored(engine: BLEUScore, stats: Delayed) -> Delayed:
    """The delayed corpus score of delayed statistics; an empty corpus is an
    :class:`~bleuprint.InputError` when computed, as it is locally."""
    return delayed(_score_corpus, pure=True)(engine, stats)


def _add(*stats: BLEUStats) -> BLEUStats:
    return functools.reduce(operator.add, stats)


def _score_corpus(engine: BLEUScore, stats: BLEUStats) -> BLEUResult:
    if not stats.segments:
        raise InputError("the corpus is empty: there is nothing to score")
    return engine.score(stats)
