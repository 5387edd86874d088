"""BLEU on Dask: corpus and sentence scores of data that lives on a cluster.

Statistics add, so a corpus score on Dask needs no algorithm of its own: every partition is
counted with the engine's :meth:`~bleuprint.BLEUScore.count`, the partitions' statistics are
summed with ``+`` in a tree, and the sum is scored once. The result is the one the same engine
gives on the same data in one process. Everything here is lazy, like the rest of Dask:
functions return Dask collections or :class:`~dask.delayed.Delayed` values, which run on
whatever scheduler is active when they are computed (a ``dask.distributed`` client, or Dask's
local schedulers).

>>> import dask.bag
>>> from bleuprint import BLEUScore
>>> from bleuprint import dask as bleu_dask
>>> pairs = dask.bag.from_sequence(
...     [("the cat is on the mat", ["the cat is on the mat"]), ("a dog", ["a dog"])],
...     npartitions=2,
... )
>>> score = bleu_dask.corpus_score(BLEUScore.canonical(max_n=2), pairs)
>>> score.compute(scheduler="sync").score
1.0

Install the optional dependencies with ``pip install '.[dask]'`` from the repository's root.

The package has four modules: ``bleuprint.dask.core`` (collections: counting their
partitions, sentence scores), ``bleuprint.dask.files`` (text files split into partitions
that the workers read), ``bleuprint.dask.sums`` (the tree of sums and the score, which both
end with) and ``bleuprint.dask.cluster`` (connecting to a scheduler, starting a local
cluster). Only ``core`` needs pandas and ``dask.dataframe``: it is imported when one of its
names is first used, so that scoring files, on the client and on the workers, never loads
them.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import TYPE_CHECKING, Any


def _imported(module: str) -> ModuleType:
    """The module, or an ImportError that says what to install."""
    try:
        return importlib.import_module(module)
    except ImportError as error:
        raise ImportError(
            f"bleuprint.dask needs Dask's distributed scheduler and pandas (cannot import "
            f"{error.name}); install them with: pip install '.[dask]' (from the repository's root)"
        ) from error


# Checked here, once, for every module of the package; pandas when core is first used.
for _module in ("dask.bag", "distributed"):
    _imported(_module)

from bleuprint.dask.cluster import DEFAULT_TIMEOUT, adaptive_malloc, connect, waited  # noqa: E402
from bleuprint.dask.files import LINES_PER_PARTITION, corpus_score_files, read_corpus  # noqa: E402
from bleuprint.dask.sums import SPLIT_EVERY  # noqa: E402

if TYPE_CHECKING:
    from bleuprint.dask.core import (
        Collection,
        corpus_score,
        corpus_stats,
        from_pandas,
        sentence_scores,
    )

_CORE = frozenset({"Collection", "corpus_score", "corpus_stats", "from_pandas", "sentence_scores"})


def __getattr__(name: str) -> Any:
    """The names of :mod:`bleuprint.dask.core`, imported when first used (PEP 562)."""
    if name in _CORE:
        return getattr(_imported("bleuprint.dask.core"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_CORE})


__all__ = [
    "DEFAULT_TIMEOUT",
    "LINES_PER_PARTITION",
    "SPLIT_EVERY",
    "Collection",
    "adaptive_malloc",
    "connect",
    "corpus_score",
    "corpus_score_files",
    "corpus_stats",
    "from_pandas",
    "read_corpus",
    "sentence_scores",
    "waited",
]
