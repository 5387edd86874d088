# The C extension's interface (``_compiled.c``): that of its plain-Python twin, ``_python``.
import numpy.typing as npt

from bleuprint.typing import FloatArray, IntArray

def shared_ngram_counts(
    token_ids: npt.ArrayLike,
    text_starts: npt.ArrayLike,
    hypothesis_texts: npt.ArrayLike,
    reference_texts: npt.ArrayLike,
    reference_offsets: npt.ArrayLike,
    vocabulary_size: int,
    max_n: int,
) -> tuple[IntArray, IntArray]: ...
def weighted_geometric_means(
    precisions: npt.ArrayLike, defined: npt.ArrayLike, order_weights: npt.ArrayLike
) -> FloatArray: ...
def rounded_sum(terms: list[float], /) -> float: ...
