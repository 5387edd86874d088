# The C extension's interface (``_compiled.c``): that of its plain-Python twin, ``_python``, whose
# docstrings are the contract (tests/test_kernels.py checks that the two agree).
from collections.abc import Callable, Hashable, Iterable, Sequence

import numpy as np
import numpy.typing as npt

from bleuprint.typing import FloatArray, IntArray

MAX_HYPOTHESIS_TOKENS: int
MAX_VOCABULARY: int

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
def flat_ids(sequences: Sequence[object], /) -> tuple[IntArray, IntArray] | None: ...
def rounded_sum(terms: list[float], /) -> float: ...

class Vocabulary:
    def __len__(self) -> int: ...
    def intern_texts(
        self,
        texts: Sequence[str],
        tokenizer: str | None,
        tokenize: Callable[[Sequence[str]], Iterable[Sequence[Hashable]]],
    ) -> tuple[IntArray, IntArray]: ...
    def intern_tokens(
        self, streams: Iterable[Sequence[Hashable]], /
    ) -> tuple[IntArray, IntArray]: ...

def tokenize_texts(texts: Sequence[str], tokenizer: str) -> list[list[str]]: ...
def ngram_labels(
    token_ids: npt.ArrayLike, lengths: npt.ArrayLike, max_n: int
) -> list[tuple[IntArray, IntArray]]: ...
def count_texts(
    hypotheses: str | bytes | Sequence[object],
    references: Sequence[object],
    tokenizer: str | None,
    tokenize: Callable[[Sequence[str]], Iterable[Sequence[Hashable]]] | None,
    lowercase: bool,
    max_n: int,
) -> tuple[IntArray, IntArray, IntArray, IntArray] | None: ...
def line_ends(
    data: bytes | bytearray | memoryview, every: int, first: int
) -> tuple[int, list[int]]: ...
def tally(counts: npt.NDArray[np.uint8], draws: npt.ArrayLike) -> IntArray: ...
def weighted_rows(
    weights: npt.NDArray[np.uint8], rows: npt.NDArray[np.uint8]
) -> tuple[IntArray, IntArray]: ...
